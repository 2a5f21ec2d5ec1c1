"""What waits for a person in a session: confirmations (approve or deny) and handoffs (done or cancel)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...bodies import ConfirmationAnswer, HandoffAnswer, PendingList
from ...errors import BadRequest
from ...runtime.confirmations import Answer
from . import CallerDep, RuntimeDep

router = APIRouter()


@router.get("/sessions/{sid}/pending", response_model=PendingList, tags=["gates"])
async def pending(sid: str, runtime: RuntimeDep) -> dict[str, Any]:
    runtime.sessions.get(sid)
    return {"pending": [p.view() for p in runtime.pending_requests.waiting(sid)]}


@router.post("/sessions/{sid}/confirmations/{cid}", tags=["gates"])
async def answer_confirmation(sid: str, cid: str, body: ConfirmationAnswer, runtime: RuntimeDep,
                              caller: CallerDep) -> dict[str, Any]:
    """A person's answer; with `grant`, also later calls of the same action (or family) in this session, for
    the caller that asked, for `for_s` seconds, never a riskier one (lifecycle/grants.py)."""
    runtime.sessions.get(sid)
    grant = body.grant.model_dump() if body.grant is not None else None
    if grant is not None:
        if not body.approve:
            raise BadRequest("A grant comes with an approval (`approve: true`)")
        asked = next((p for p in runtime.pending_requests.waiting(sid) if p.id == cid), None)
        if asked is not None and ("interaction" in asked.request or "dialog" in asked.request):
            raise BadRequest("A grant approves an action's later calls; a tool's interaction or dialog takes none")
    runtime.pending_requests.answer(sid, "confirmation", cid, Answer(body.approve, by=caller.name, grant=grant))
    return {"id": cid, "answered": True, "approve": body.approve, **({"grant": grant} if grant else {})}


@router.post("/sessions/{sid}/handoffs/{hid}", tags=["gates"])
async def answer_handoff(sid: str, hid: str, body: HandoffAnswer, runtime: RuntimeDep) -> dict[str, Any]:
    runtime.sessions.get(sid)
    runtime.pending_requests.answer(sid, "handoff", hid, body.outcome)
    return {"id": hid, "answered": True, "outcome": body.outcome}
