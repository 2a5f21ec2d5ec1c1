"""The receipt log of a session: every receipt it answered, in order, kept by the runtime's store."""

from __future__ import annotations

import asyncio

from typing import Any

from fastapi import APIRouter, Query

from ...models import ReceiptLog
from . import RuntimeDep

router = APIRouter()


@router.get("/sessions/{sid}/receipts", response_model=ReceiptLog, tags=["actions"])
async def receipt_log(sid: str, runtime: RuntimeDep, after: int = Query(0, ge=0, le=2**62),
                      limit: int = Query(50, ge=1, le=500)) -> dict[str, Any]:
    assert runtime.store is not None
    entries = await asyncio.to_thread(runtime.store.receipts, sid, after, limit)
    return {"session": sid, "receipts": entries, "next": entries[-1]["seq"] if entries else after}
