"""The service itself: liveness with the browser's status, and Prometheus metrics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from . import RuntimeDep

router = APIRouter()


@router.get("/healthz", tags=["service"])
async def healthz(runtime: RuntimeDep) -> dict[str, Any]:
    status = runtime.controller.browser_status
    return {"ok": bool(status["connected"]), "browser": status, "sessions": len(runtime.sessions)}


@router.get("/metrics", tags=["service"], response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {}}}})
async def metrics(runtime: RuntimeDep) -> PlainTextResponse:
    return PlainTextResponse(runtime.metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8")
