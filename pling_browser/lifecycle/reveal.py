"""Stage 5, reveal: make the target available. Declared availability first (a reason when it says
no), then the target element: when it is missing or hidden and a ``reveal`` is declared (the
action's, else the record type's), call it, let the page settle and look again. When everything
passed, the bridge takes the before snapshot in the same call: only now, after every pre-check (for a
function action, already in the describe call when nothing in between asked a person: resolve.py)."""

from __future__ import annotations

from pydantic import JsonValue

from ..core.answers import BridgeCode, Refusal, Revealed
from ..core.bridge import BridgeError, KnownAction
from ..core.gestures import value_need
from ..errors import ActionUnavailable, InvalidParams
from .codes import LogEvent
from .context import Invocation
from .diff import discard
from .resolve import drop_revealed
from .results import Ready

_VALUE_KEYS = ("value", "text")


def fill_value(args: dict[str, JsonValue]) -> JsonValue:
    """What to type or select: ``value``, else ``text``, else the one argument there is."""
    for key in _VALUE_KEYS:
        if key in args:
            return args[key]
    if len(args) == 1:
        return next(iter(args.values()))
    return None


async def _revealed(inv: Invocation, held: KnownAction | None) -> Revealed:
    """The reveal the describe call took for a function action (resolve.py), when nobody was asked
    in between (a person's answer takes time: the page is revealed again, now); else the call, naming
    the declaration the session holds when it resolved from that (known.py)."""
    early = inv.resolved.revealed if inv.resolved is not None else None
    if early is not None and inv.cleared is not None and inv.cleared.described_again:
        await drop_revealed(inv.session, early)
        early = None
    if isinstance(early, Refusal):
        raise BridgeError(early)
    if early is not None:
        return early
    value = fill_value(inv.args)
    direct_fill = inv.settings.direct_input and value is not None and str(value) != ""
    return await inv.session.bridge.reveal(inv.ref, inv.settings.settle_cap_ms, inv.request.evidence,
                                           aim=inv.settings.direct_input, args=inv.args, fill=direct_fill, known=held)


async def reveal(inv: Invocation, held: KnownAction | None = None) -> Ready:
    """``held``: the declaration the session holds (known.py); the page's ``stale`` is raised as the
    BridgeError it is, for known.py to run the invocation on the full path."""
    assert inv.decl is not None
    try:
        answer = await _revealed(inv, held)
    except BridgeError as error:
        if held is not None and error.code is BridgeCode.STALE:
            raise
        raise unavailable(inv, error.refusal) from None
    return await ready(inv, answer)


def unavailable(inv: Invocation, refusal: Refusal) -> ActionUnavailable:
    """The reveal's refusal, as the error the invocation ends with (nothing ran)."""
    for line in refusal.log:
        inv.note(LogEvent.BRIDGE, text=line)
    reason = refusal.reason
    return ActionUnavailable(reason or f"{inv.ref} is not available now (the page gives no reason)", reason=reason)


async def ready(inv: Invocation, answer: Revealed) -> Ready:
    """What the reveal's answer makes ready for execute (a value required and missing: INVALID_PARAMS)."""
    for line in answer.log:
        inv.note(LogEvent.BRIDGE, text=line)
    # What the gesture types decides whether a value is needed, never the kind of control alone: a
    # declared click, focus, hover, drag or lone key press on a text field types nothing.
    typing = value_need(answer.control, answer.gesture)
    value = fill_value(inv.args) if typing != "no" else None
    if value is None and typing == "required":
        await inv.session.bridge.release()
        if answer.evidence:
            await discard(inv.session)  # nothing runs: the before snapshot just taken is dropped
        what = "types into" if answer.control == "text" or (answer.gesture and answer.gesture.type) else "selects in"
        raise InvalidParams(f"{inv.ref} {what} a {answer.tag}: pass the value as `value` or as its one argument",
                            stage="reveal", issues=[{"path": "value", "problem": "is required"}])
    inv.note(LogEvent.AVAILABLE, control=answer.control, tag=answer.tag)
    # Every pre-check passed: the bridge took the before snapshot (evidence on) in the same call.
    return Ready(control=answer.control, fidelity=answer.fidelity, evidence=answer.evidence, doc=answer.doc,
                 mark=answer.mark, where=answer.where, gesture=answer.gesture, drop=answer.drop, drop_id=answer.dropId,
                 aim=answer.aim, fill_value=value)
