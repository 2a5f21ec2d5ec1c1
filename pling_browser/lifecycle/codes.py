"""What an invocation says, as codes: each log event and each warning is an enum member with its
parameters as data (httpx raises classes, not messages). Stages, the runtime and the tests speak
these; ``words.py`` alone turns them into the sentences a receipt's ``log`` and ``warning`` carry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from pydantic import JsonValue

__all__ = ["LogEvent", "ReceiptWarning", "Entry"]


class LogEvent(str, Enum):
    """What the runtime did, in order (the receipt's ``log``)."""

    # resolve, decode, validate
    RESOLVED = "resolved"
    FRAME_DECLARES = "frame_declares"
    DECODED = "decoded"
    TRACE_DISCARDED = "trace_discarded"
    RESTORED = "restored"
    NO_PARAMS = "no_params"
    ARGS_VALID = "args_valid"
    # confirm (and the confirmation channel, runtime/confirmations.py)
    FLOW_RISK = "flow_risk"
    HANDOFF_NOT_CONFIRMED = "handoff_not_confirmed"
    CONFIRMATION_NOT_NEEDED = "confirmation_not_needed"
    APPROVED_BY_POLICY = "approved_by_policy"
    APPROVED_BY_GRANT = "approved_by_grant"
    WAITING_FOR_CONFIRMATION = "waiting_for_confirmation"
    CONFIRMED_BY_PERSON = "confirmed_by_person"
    GRANTED = "granted"
    CHANGED_WHILE_ASKED = "changed_while_asked"
    COVERED_BY_FLOW = "covered_by_flow"
    # reveal
    BRIDGE = "bridge"  # the bridge's own narration of what it tried (js_bridge/reveal.js), as it said it
    AVAILABLE = "available"
    # execute (and a handoff, a WebMCP tool asking for the person, an export called meanwhile)
    RAN = "ran"
    RAN_THEN_REPLACED = "ran_then_replaced"
    SYNTHETIC_DISPATCHED = "synthetic_dispatched"
    ACTIONABILITY_GAVE_UP = "actionability_gave_up"
    OPERATED = "operated"
    OPERATED_THEN_REPLACED = "operated_then_replaced"
    HANDOFF_WAITING = "handoff_waiting"
    HANDOFF_PAGE_DONE = "handoff_page_done"
    HANDOFF_PERSON_DONE = "handoff_person_done"
    INTERACTION_ANSWERED = "interaction_answered"
    DIALOG_ANSWERED = "dialog_answered"
    EXPORT_CALLED = "export_called"
    # a flow
    STEP_DONE = "step_done"
    FLOW_RAN = "flow_ran"
    RESUMING = "resuming"
    RESUMING_AS_DECLARED = "resuming_as_declared"
    # expect, settle
    EXPECTATION_HELD = "expectation_held"
    NO_EXPECTATION = "no_expectation"
    PAGE_SETTLED = "page_settled"
    PAGE_NOT_SETTLED = "page_not_settled"
    AFTER_SNAPSHOT_HUNG = "after_snapshot_hung"
    CHECKED_ON_NEW_DOCUMENT = "checked_on_new_document"
    EXPECTATION_NOT_VERIFIED = "expectation_not_verified"
    # a document left (navigation.py)
    NAVIGATION_SAME_DOCUMENT = "navigation_same_document"
    NAVIGATION_REFUSED_ADDRESS = "navigation_refused_address"
    NAVIGATION_STILL_LEAVING = "navigation_still_leaving"
    NAVIGATION_DECLARED_NOTHING = "navigation_declared_nothing"
    NAVIGATED = "navigated"
    NEW_DOCUMENT_NOT_SETTLED = "new_document_not_settled"
    # diff, and the runner
    DIFF_HUNG = "diff_hung"
    NO_DIFF_SNAPSHOT_GONE = "no_diff_snapshot_gone"
    EGRESS_REFUSED = "egress_refused"
    TABS = "tabs"
    DIFF = "diff"
    DIFF_ACROSS = "diff_across"
    DIFF_NOT_TAKEN = "diff_not_taken"
    FAILED = "failed"


class ReceiptWarning(str, Enum):
    """What a receipt warns about (joined into its ``warning``)."""

    SYNTHETIC_EVENTS = "synthetic_events"
    LOW_FIDELITY = "low_fidelity"
    NOT_SETTLED = "not_settled"
    EXPECTATION_UNVERIFIED = "expectation_unverified"
    NO_NEW_DOCUMENT = "no_new_document"
    DECLARED_NOTHING = "declared_nothing"
    CHANGES_UNREADABLE = "changes_unreadable"
    SNAPSHOT_GONE = "snapshot_gone"
    NO_CHANGE = "no_change"
    UNTRUSTED_DATA = "untrusted_data"
    VALUES_WITHHELD = "values_withheld"


@dataclass(frozen=True)
class Entry:
    """One log event or warning: its code and its parameters (JSON values, kept read-only)."""

    code: LogEvent | ReceiptWarning
    params: Mapping[str, JsonValue] = field(default_factory=lambda: MappingProxyType({}))

    def as_json(self) -> dict[str, JsonValue]:
        """``{"code": …, **params}``: how the receipt store keeps it beside the receipt."""
        return {"code": self.code.value, **self.params}
