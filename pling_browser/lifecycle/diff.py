"""Stage 8, diff: the after snapshot against the before snapshot, in the page, keyed on business
ids. Failures after the write path started carry this evidence too. When the expectation held (or
none was declared) in the action's own document, the expect call already took the after snapshot,
in the same task as it found the page settled; otherwise it is taken here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import JsonValue

from ..core.answers import BridgeCode, Diffed, Refusal
from ..core.bridge import BridgeError
from ..models import Changed, RecordsChange, RecordsDeclared
from .codes import LogEvent, ReceiptWarning
from .context import Invocation

if TYPE_CHECKING:
    from ..core.sessions import Session
from .navigation import refused, tabs_changed
from .results import Compared


def _summary(changed: Changed) -> dict[str, JsonValue]:
    """What changed, counted, as data for the log (``words.py`` says it)."""
    records: dict[str, JsonValue] = {}
    for type_, r in changed.records.items():
        if isinstance(r, RecordsDeclared):
            records[type_] = {"declared": r.declared}
            continue
        names = ("added", "removed", "updated") if isinstance(r, RecordsChange) else ("entered", "left", "updated")
        counts: dict[str, JsonValue] = {name: len(getattr(r, name)) + r.omitted.get(name, 0) for name in names}
        if isinstance(r, RecordsChange) and r.reordered:
            counts["reordered"] = True
        records[type_] = counts
    page = changed.page
    state: list[JsonValue] = [name for name in list(changed.state.changed)[:5]]
    return {"records": records, "state": state,
            "page": [page.from_.id, page.to.id] if page is not None else None, "feedback": len(changed.feedback.added)}


async def diff(inv: Invocation) -> Compared | None:
    document = inv.document
    if not inv.evidence_begun:
        return None
    if document.after_unreadable and not document.navigated:
        inv.note(LogEvent.DIFF_HUNG)
        inv.warn(ReceiptWarning.CHANGES_UNREADABLE)
        return None
    if document.leaving:
        await document.follow(inv)  # the action failed while its document was leaving: diff the new one
    try:
        if document.navigated:
            answer = await _diff_across(inv)
        elif document.after is not None:
            answer = document.after  # taken by the expect call the moment the page settled (expect.js)
        else:
            answer = await inv.session.bridge.diff()
    except BridgeError as error:
        if error.code is BridgeCode.NO_SNAPSHOT:
            inv.warn(ReceiptWarning.SNAPSHOT_GONE)
            inv.note(LogEvent.NO_DIFF_SNAPSHOT_GONE)
            return None
        raise
    changed = answer.changed
    addresses = refused(inv)
    if addresses:
        changed = changed.model_copy(update={"refused": addresses, "observed": True})
        inv.note(LogEvent.EGRESS_REFUSED, count=len(addresses))
    tabs = await tabs_changed(inv)
    if tabs is not None:
        changed = changed.model_copy(update={"tabs": tabs, "observed": True})
        inv.note(LogEvent.TABS, opened=len(tabs.opened), closed=len(tabs.closed))
    inv.note(LogEvent.DIFF, **_summary(changed))
    return Compared(changed=changed)


async def _diff_across(inv: Invocation) -> Diffed:
    """The new document against the before snapshot the old one handed over as it left: diffed by the
    expect call there when it could (navigation.py ``across``), else by a call of its own."""
    carried = inv.session.bridge.carried(inv.doc)  # taken either way
    answer = inv.document.across
    if answer is None:
        if carried is None:
            raise BridgeError(Refusal(code=BridgeCode.NO_SNAPSHOT))
        answer = await inv.session.bridge.diff_from(carried)
    page = answer.changed.page
    if page is not None:
        inv.note(LogEvent.DIFF_ACROSS, **{"from": page.from_.id or page.from_.url, "to": page.to.id or page.to.url})
    return answer


async def discard(session: Session) -> None:
    """Drop a before snapshot that no action followed (its feedback watch stops with it)."""
    try:
        await session.bridge.diff()
    except Exception:  # nothing depends on it
        pass
