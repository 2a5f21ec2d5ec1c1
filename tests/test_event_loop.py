"""The service's event loop is uvloop's (server/limits.py `uvicorn_options`, as `pling-browser serve`, the
bench's service and the tests' services run): a read through the HTTP API was 8 % faster on it than on
asyncio's loop, with 0.25 ms less of the service's CPU (docs/decisions.md, "The service's share of a read")."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .conftest import serving


async def _loop_module(runtime: Any) -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_service_runs_on_uvloop_and_answers() -> None:
    with serving() as service:
        assert service.in_service(_loop_module).split(".")[0] == "uvloop"
        assert httpx.get(service.url + "/healthz", timeout=30).status_code == 200
