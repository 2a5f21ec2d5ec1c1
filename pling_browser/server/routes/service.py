"""The service itself: liveness with the browser's status, Prometheus metrics, the operator's adapters."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from ...bodies import AdapterInfo, AdapterList
from . import RuntimeDep

router = APIRouter()


@router.get("/healthz", tags=["service"])
async def healthz(runtime: RuntimeDep) -> dict[str, Any]:
    status = runtime.controller.browser_status
    # `replica` (PLING_REPLICA, else null): which replica answered, when a router is in front of several.
    return {"ok": bool(status["connected"]), "replica": runtime.controller.settings.replica, "browser": status,
            "sessions": len(runtime.sessions)}


@router.get("/metrics", tags=["service"], response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {}}}})
async def metrics(runtime: RuntimeDep) -> PlainTextResponse:
    return PlainTextResponse(runtime.metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8")


@router.get("/adapters", response_model=AdapterList, tags=["service"])
async def adapters(runtime: RuntimeDep) -> AdapterList:
    """The operator's adapters (PLING_ADAPTERS, read at startup): names, descriptions and match patterns."""
    scripts = runtime.controller.adapters
    listed = []
    for adapter in scripts.adapters:
        info = adapter.listing()
        if adapter.name in scripts.syntax_errors:
            info["problems"] = [*adapter.problems, f"does not compile: {scripts.syntax_errors[adapter.name]}"]
        listed.append(AdapterInfo.model_validate(info))
    return AdapterList(adapters=listed)
