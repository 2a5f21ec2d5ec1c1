"""What waits for a person in a session: confirmations (approve or deny) and handoffs (done or cancel)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...bodies import ConfirmationAnswer, HandoffAnswer, PendingList
from . import RuntimeDep

router = APIRouter()


@router.get("/sessions/{sid}/pending", response_model=PendingList, tags=["gates"])
async def pending(sid: str, runtime: RuntimeDep) -> dict[str, Any]:
    runtime.sessions.get(sid)
    return {"pending": [p.view() for p in runtime.pending_requests.waiting(sid)]}


@router.post("/sessions/{sid}/confirmations/{cid}", tags=["gates"])
async def answer_confirmation(sid: str, cid: str, body: ConfirmationAnswer, runtime: RuntimeDep) -> dict[str, Any]:
    runtime.sessions.get(sid)
    runtime.pending_requests.answer(sid, "confirmation", cid, body.approve)
    return {"id": cid, "answered": True, "approve": body.approve}


@router.post("/sessions/{sid}/handoffs/{hid}", tags=["gates"])
async def answer_handoff(sid: str, hid: str, body: HandoffAnswer, runtime: RuntimeDep) -> dict[str, Any]:
    runtime.sessions.get(sid)
    runtime.pending_requests.answer(sid, "handoff", hid, body.outcome)
    return {"id": hid, "answered": True, "outcome": body.outcome}
