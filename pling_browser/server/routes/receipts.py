"""The receipt log of a session: every receipt it answered, in order, kept by the runtime's store;
and the Playwright trace of an invocation that asked for one (`trace: true`)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import FileResponse

from ...bodies import ReceiptLog
from ...ci.record import scenario_from
from ...errors import NotFound
from . import RuntimeDep

router = APIRouter()


@router.get("/sessions/{sid}/receipts", response_model=ReceiptLog, tags=["actions"])
async def receipt_log(sid: str, runtime: RuntimeDep, after: int = Query(0, ge=0, le=2**62),
                      limit: int = Query(50, ge=1, le=500)) -> dict[str, Any]:
    assert runtime.store is not None
    entries = await asyncio.to_thread(runtime.store.receipts, sid, after, limit)
    return {"session": sid, "receipts": entries, "next": entries[-1]["seq"] if entries else after}


TRACE_ID = re.compile(r"^t_[A-Za-z0-9_-]{1,32}$")
_ZIP = {200: {"description": "A Playwright trace (open it with `playwright show-trace FILE`)",
              "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}}}


def _trace_file(runtime: Any, sid: str, tid: str) -> FileResponse:
    path = runtime.trace_path(sid, tid) if TRACE_ID.match(tid) else None
    if path is None or not path.is_file():
        raise NotFound(f"No trace {tid[:40]!r} in session {sid[:40]!r} (invoke with trace: true records one)")
    return FileResponse(path, media_type="application/zip", filename=f"{sid}-{tid}.zip")


@router.get("/sessions/{sid}/traces/{tid}", response_class=FileResponse, responses=_ZIP, tags=["actions"])
async def read_trace(sid: str, tid: str, runtime: RuntimeDep) -> FileResponse:
    return _trace_file(runtime, sid, tid)


@router.get("/sessions/{sid}/receipts/{seq}/trace", response_class=FileResponse, responses=_ZIP, tags=["actions"])
async def receipt_trace(sid: str, runtime: RuntimeDep, seq: int = Path(ge=1, le=2**62)) -> FileResponse:
    assert runtime.store is not None
    entries = await asyncio.to_thread(runtime.store.receipts, sid, seq - 1, 1)
    link = entries[0]["receipt"].get("trace") if entries and entries[0]["seq"] == seq else None
    if not isinstance(link, str):
        raise NotFound(f"Receipt {seq} of session {sid[:40]!r} has no trace")
    return _trace_file(runtime, sid, link.rsplit("/", 1)[-1])


@router.get("/sessions/{sid}/scenario", tags=["actions"])
async def recorded_scenario(sid: str, runtime: RuntimeDep, name: str = Query("recorded", max_length=200)) -> dict[str, Any]:
    """The session's receipt log as a scenario file for `pling-browser run` (see docs/ci.md)."""
    session = runtime.sessions.get(sid)
    assert runtime.store is not None
    entries = await asyncio.to_thread(runtime.store.with_requests, sid)
    return session.outbound.data(scenario_from(session.opened_url or session.info().url, entries, name=name,
                                       profile=session.profile))  # type: ignore[return-value]
