"""The receipt: what ran, what was verified, what changed, how sure, and where it failed. Nothing a
person typed as a secret is ever written into it. The journal's codes become words here, through
``words.say``, once; the codes themselves travel beside the receipt (``Receipt.coded``), for the
receipt store, never in the receipt an agent reads."""

from __future__ import annotations

from pydantic import ValidationError

from ..core.outbound import Outbound
from ..models import ActionSummary, InvocationProblem, Receipt
from .codes import Entry, ReceiptWarning
from .context import Invocation
from .words import say

__all__ = ["build"]


def build(inv: Invocation) -> Receipt:
    decl = inv.decl
    ok = inv.error is None
    warnings = list(inv.journal.warnings)
    if ok and decl is not None and decl.risk != "read" and decl.observes and inv.changed is not None and not inv.changed.observed:
        warnings.append(Entry(ReceiptWarning.NO_CHANGE))
    executed = inv.executed
    data = executed.data if executed is not None else None
    if decl is not None and decl.untrusted and data is not None:
        # A WebMCP tool annotated untrustedContentHint: its result is content the page passes on, not its word.
        warnings.append(Entry(ReceiptWarning.UNTRUSTED_DATA))
    if inv.fidelity == "low" and all(w.code is not ReceiptWarning.SYNTHETIC_EVENTS for w in warnings):
        warnings.append(Entry(ReceiptWarning.LOW_FIDELITY))
    restored = Outbound(lambda: inv.secret_values)  # the session's own values: masked on the way out (runtime)
    try:
        receipt = restored.model(_receipt(inv, ok, warnings, data, withheld=False))
    except ValidationError:
        # A number in it (a record count, a stage's time) holds a value this invocation restored: masked
        # whole, it no longer fits its field. What changed and the timings are left out, and the receipt
        # says so, rather than the receipt lost after the action ran or the number written.
        warnings.append(Entry(ReceiptWarning.VALUES_WITHHELD))
        receipt = restored.model(_receipt(inv, ok, warnings, data, withheld=True))
    coded = restored.data({"log": [entry.as_json() for entry in inv.journal.log],
                           "warnings": [entry.as_json() for entry in warnings]})
    return receipt.with_codes(coded)


def _receipt(inv: Invocation, ok: bool, warnings: list[Entry], data: object, withheld: bool) -> Receipt:
    decl, executed = inv.decl, inv.executed
    return Receipt(
        ok=ok,
        action=ActionSummary(id=inv.ref, description=decl.description if decl else None, frame=inv.frame),
        expect=decl.expect.description if decl and decl.expect else None,
        verified=inv.checked.verified if inv.checked is not None and decl and decl.expect else None,
        changed=None if withheld else inv.changed,
        fidelity=inv.fidelity if inv.started and inv.fidelity != "high" else None,
        warning=" ".join(say(w) for w in warnings) if warnings else None,
        data=data,
        steps=list(executed.steps) if executed is not None and executed.steps is not None else None,
        data_omitted=None if withheld or executed is None else executed.data_omitted,
        error=InvocationProblem.model_validate(inv.error.to_dict()) if inv.error else None,
        approved_by=inv.approved_by,
        log=[say(entry) for entry in inv.journal.log],
        timings_ms={} if withheld else inv.journal.timings_ms,
    )
