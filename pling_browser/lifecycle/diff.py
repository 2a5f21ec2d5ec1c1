"""Stage 8, diff: the after snapshot against the before snapshot, in the page, keyed on business
ids. Failures after the write path started carry this evidence too. When the expectation held (or
none was declared) in the action's own document, the expect call already took the after snapshot,
in the same task as it found the page settled; otherwise it is taken here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.answers import BridgeCode, Diffed, Refusal
from ..core.bridge import BridgeError
from ..models import Changed, RecordsChange, RecordsDeclared
from .context import Invocation

if TYPE_CHECKING:
    from ..core.sessions import Session
from .navigation import refused, tabs_changed
from .results import Compared


def _summary(changed: Changed) -> str:
    parts = []
    for type_, r in changed.records.items():
        if isinstance(r, RecordsDeclared):
            parts.append(f"{type_} declared only {r.declared}")
            continue
        counts = []
        names = ("added", "removed", "updated") if isinstance(r, RecordsChange) else ("entered", "left", "updated")
        for name in names:
            count = len(getattr(r, name)) + r.omitted.get(name, 0)
            if count:
                counts.append(f"{count} {name}")
        if isinstance(r, RecordsChange) and r.reordered:
            counts.append("reordered")
        parts.append(f"{type_} {', '.join(counts)}")
    if changed.state.changed:
        parts.append("state " + ", ".join(list(changed.state.changed)[:5]))
    if changed.page is not None:
        parts.append(f"page {changed.page.from_.id} -> {changed.page.to.id}")
    if changed.feedback.added:
        parts.append(f"{len(changed.feedback.added)} feedback")
    return "; ".join(parts) if parts else "nothing declared changed"


async def diff(inv: Invocation) -> Compared | None:
    document = inv.document
    if not inv.evidence_begun:
        return None
    if document.after_unreadable and not document.navigated:
        inv.note("the diff could not be taken: reading the page's records and state after the action hung")
        inv.warnings.append("What changed could not be read after the action.")
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
            inv.warnings.append("The page was replaced during the action (a navigation or reload), so what changed is not known.")
            inv.note("no diff: the before snapshot is gone (the page navigated)")
            return None
        raise
    changed = answer.changed
    addresses = refused(inv)
    if addresses:
        changed = changed.model_copy(update={"refused": addresses, "observed": True})
        inv.note(f"the egress policy refused {len(addresses)} address(es) during the action")
    tabs = await tabs_changed(inv)
    if tabs is not None:
        changed = changed.model_copy(update={"tabs": tabs, "observed": True})
        inv.note(f"tabs: {len(tabs.opened)} opened, {len(tabs.closed)} closed")
    inv.note(f"diff: {_summary(changed)}")
    return Compared(changed=changed)


async def _diff_across(inv: Invocation) -> Diffed:
    """The new document against the before snapshot the old one handed over as it left."""
    carried = inv.session.bridge.carried(inv.doc)
    if carried is None:
        raise BridgeError(Refusal(code=BridgeCode.NO_SNAPSHOT))
    answer = await inv.session.bridge.diff_from(carried)
    page = answer.changed.page
    if page is not None:
        inv.note(f"diff across documents: {page.from_.id or page.from_.url} -> {page.to.id or page.to.url}")
    return answer


async def discard(session: "Session") -> None:
    """Drop a before snapshot that no action followed (its feedback watch stops with it)."""
    try:
        await session.bridge.diff()
    except Exception:  # nothing depends on it
        pass
