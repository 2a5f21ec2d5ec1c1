"""Stage 8, diff: the after snapshot against the before snapshot, in the page, keyed on business
ids. Failures after the write path started carry this evidence too."""

from __future__ import annotations

from ..core.answers import BridgeCode
from ..core.bridge import BridgeError
from ..models import Changed
from .context import Invocation


def _summary(changed: Changed) -> str:
    parts = []
    for type_, r in changed.records.items():
        counts = []
        for name, count in (("added", len(r.added) + r.omitted.get("added", 0)),
                            ("removed", len(r.removed) + r.omitted.get("removed", 0)),
                            ("updated", len(r.updated) + r.omitted.get("updated", 0))):
            if count:
                counts.append(f"{count} {name}")
        if r.reordered:
            counts.append("reordered")
        parts.append(f"{type_} {', '.join(counts)}")
    if changed.state.changed:
        parts.append("state " + ", ".join(list(changed.state.changed)[:5]))
    if changed.feedback.added:
        parts.append(f"{len(changed.feedback.added)} feedback")
    return "; ".join(parts) if parts else "nothing declared changed"


async def diff(inv: Invocation) -> None:
    if not inv.evidence_begun:
        return
    try:
        answer = await inv.session.bridge.diff()
    except BridgeError as error:
        if error.code is BridgeCode.NO_SNAPSHOT:
            inv.warnings.append("The page was replaced during the action (a navigation or reload), so what changed is not known.")
            inv.note("no diff: the before snapshot is gone (the page navigated)")
            return
        raise
    inv.changed = answer.changed
    inv.note(f"diff: {_summary(inv.changed)}")


async def discard(inv: Invocation) -> None:
    """Drop a before snapshot that no action followed (its feedback watch stops with it)."""
    try:
        await inv.session.bridge.diff()
    except Exception:  # nothing depends on it
        pass
