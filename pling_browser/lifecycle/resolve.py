"""Stage 1, resolve: find the action in the page as it is now. Families resolve ``ACTION@RECORD``
by reading the record id at this moment, so a row that moved or scrolled away still resolves. For a
function action the same call also reveals it (stage 5: availability and the before snapshot, nothing
touched on the page), one round trip less; reveal.py uses that answer once decode, validate and
confirm passed without asking a person, and otherwise the snapshot is dropped and reveal asked again."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pydantic import JsonValue, ValidationError

from ..core.answers import BridgeCode, Described, Refusal, Revealed
from ..core.bridge import BridgeBug, BridgeError, KnownAction
from ..core.frames import Frames, declaring
from ..errors import ActionNotFound, PlingError
from .codes import LogEvent
from .confirm import by_caller, needs_confirmation, operator_risk
from .context import Invocation
from .diff import discard
from .results import Resolved

if TYPE_CHECKING:
    from ..core.sessions import Session
    from ..models import ActionDecl

KNOWN_ACTIONS = 64  # declarations a bridge holds for known.py (a page's actions that are not a family's)
SECRET_MARK = "<secret>"  # decode.py's references: <secret>NAME</secret>
_WHY = {
    "not_found": "No action {id!r} is declared on this page now",
    "record_required": "{id!r} is an action family over {record} records: name one, as ACTION@RECORD",
    "not_a_family": "{id!r} is not a family; invoke it without @RECORD",
    "no_records": "{id!r} acts on {record} records, but the page declares none",
    "record_not_found": "There is no {record} with id {rid!r} now ({total} {record} records are active)",
}


async def resolve(inv: Invocation) -> Resolved:
    ref = inv.ref.strip()
    if not ref or len(ref) > 600:
        raise ActionNotFound("The action id is empty or too long", available=[])
    try:
        answer, session, frame = await _describe(inv, ref)
    except BridgeError as error:
        action_id, _, record_id = ref.partition("@")
        refusal = error.refusal
        message = _WHY.get(refusal.code.value, "The action could not be resolved ({code})").format(
            id=action_id[:200], record=refusal.record, rid=record_id[:200], total=refusal.total,
            code=refusal.code.value)
        raise ActionNotFound(message, available=refusal.available) from None
    decl = operator_risk(answer.action, inv.settings)
    revealed = _revealed(answer.revealed)
    # The caller's limits, as soon as the action is known: before its references are restored (decode
    # sends values to the page), so an action outside them gets nothing. Confirm checks again (a flow's
    # risk is its steps' too).
    try:
        by_caller(inv, decl.risk, decl.id)
    except PlingError:
        await drop_revealed(inv.session, revealed)
        raise
    remember(inv, decl, answer, revealed, frame)
    record = answer.record
    inv.note(LogEvent.RESOLVED, ref=ref, what=decl.description or decl.id,
             record_type=record.type if record is not None else None, label=record.label if record is not None else None)
    return Resolved(decl=decl, record=record, session=session, frame=frame, revealed=revealed)


def remember(inv: Invocation, decl: ActionDecl, answer: Described, revealed: Revealed | Refusal | None,
             frame: str | None) -> None:
    """After a describe on the full path: an action of the session's own document (not a family's: its
    record is read in the describe), is held for its next invocation (known.py): a plain function
    action, revealed with the describe (revealed.js), then runs in one call; an element action skips
    the describe and its reveal names the declaration. Not held: what confirm would ask a person for at
    the risk the operator's policy gives it (the call comes after the answer, and a declaration changed
    meanwhile would ask twice), a WebMCP tool (a person may answer during its run: execute.py), and an
    invocation whose arguments name a secret (decode restores it and the page masks it first)."""
    bridge = inv.session.bridge
    if bridge.nested or bridge.frame_hosted or frame is not None or answer.seq is None or answer.doc is None:
        return
    if decl.webmcp or decl.kind != "action" or decl.record is not None or answer.record is not None:
        return
    if names_secret(inv.request.raw_args) or needs_confirmation(decl.risk, decl.confirm, inv.settings.ask, decl.id):
        return
    bridge.known.pop(inv.ref.strip(), None)
    while len(bridge.known) >= KNOWN_ACTIONS:
        del bridge.known[next(iter(bridge.known))]
    bridge.known[inv.ref.strip()] = KnownAction(doc=answer.doc, seq=answer.seq, action=answer.action,
                                                plain=revealed is not None)


def names_secret(raw_args: object) -> bool:
    """Whether the arguments, as sent, name a secret reference (decode restores it, and the page masks
    it before any snapshot is taken): such an invocation is neither revealed early nor held."""
    return raw_args is not None and SECRET_MARK in (raw_args if isinstance(raw_args, str)
                                                    else json.dumps(raw_args, default=str))


def _reveal_asked(inv: Invocation) -> dict[str, JsonValue] | None:
    """What the describe call asks of a function action's reveal, as the reveal stage would ask it
    (revealed.js); nothing when the arguments name a secret (decode restores it and has the page mask
    it before any snapshot is taken)."""
    if names_secret(inv.request.raw_args):
        return None
    return {"capMs": inv.settings.settle_cap_ms, "evidence": inv.request.evidence}


def _revealed(raw: dict[str, JsonValue] | None) -> Revealed | Refusal | None:
    if raw is None:
        return None
    try:
        return Revealed.model_validate(raw) if raw.get("ok") is True else Refusal.model_validate(raw)
    except ValidationError:
        raise BridgeBug("The bridge's describe answer carried a reveal answer of the wrong shape") from None


async def drop_revealed(session: Session, revealed: Revealed | Refusal | None) -> None:
    """A reveal taken in the describe call that will not be used: its before snapshot dropped."""
    if isinstance(revealed, Revealed) and revealed.evidence:
        await discard(session)


async def _describe(inv: Invocation, ref: str) -> tuple[Described, Session, str | None]:
    """The declaration in the page, or else in the one child frame whose declaration of that id is in
    the model (pling_browser/framing.py keeps ids apart): the invocation then runs in that frame's
    document, on that frame's bridge (core/frames.py), with the frame's own risk. With it, the session
    it runs on and the frame's origin."""
    try:
        return await inv.session.bridge.describe(ref, reveal=_reveal_asked(inv)), inv.session, None
    except BridgeError as error:
        bridge = inv.session.bridge
        if error.code is not BridgeCode.NOT_FOUND or bridge.frame_hosted or not Frames.of(bridge).any():
            raise
        action_id = ref.partition("@")[0]
        frame, why = await declaring(bridge, action_id, inv.session.proxy.policy if inv.session.proxy else None)
        if frame is None:
            if why:
                raise ActionNotFound(f"{action_id[:200]!r} is declared only in child frames, and not in the model: {why}",
                                     available=error.refusal.available) from None
            raise
    inv.note(LogEvent.FRAME_DECLARES, action=action_id, origin=frame.origin)
    return await frame.describe(ref), inv.session.in_frame(frame), frame.origin
