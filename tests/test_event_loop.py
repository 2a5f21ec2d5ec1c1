"""The service's event loop is uvloop's (server/limits.py `uvicorn_options`, as `pling-browser serve`, the
bench's service and the tests' services run): a read through the HTTP API was 8 % faster on it than on
asyncio's loop, with 0.25 ms less of the service's CPU (docs/decisions.md, "The service's share of a read")."""

from __future__ import annotations

import asyncio
from typing import Any

from . import patient
from .conftest import serving


async def _loop_module(runtime: Any) -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_service_runs_on_uvloop_and_answers() -> None:
    with serving() as service:
        assert service.in_service(_loop_module).split(".")[0] == "uvloop"
        assert patient.get(service.url + "/healthz", timeout=30).status_code == 200


def test_a_write_to_a_closed_driver_pipe_is_a_lost_session() -> None:
    """On uvloop a write to the driver's pipe after the driver died raises uvloop's RuntimeError from
    Playwright's transport (asyncio's loop drops it); at the Playwright boundary it is SESSION_LOST, so
    opening a session starts a new driver instead of answering 500 (seen in CI: test_cli's killed driver)."""
    import os

    import uvloop

    from pling_browser.core.playwright import translate_playwright_errors
    from pling_browser.errors import SessionLost

    async def write_after_close() -> None:
        read_fd, write_fd = os.pipe()
        transport, _ = await asyncio.get_running_loop().connect_write_pipe(asyncio.BaseProtocol, os.fdopen(write_fd, "wb"))
        transport.close()
        os.close(read_fd)
        for _ in range(3):  # the handle closes on the loop's next turns, as when the driver's end went away
            await asyncio.sleep(0)
        async with translate_playwright_errors():
            transport.write(b"{}")  # as playwright's PipeTransport.send writes a message

    try:
        uvloop.run(write_after_close())
    except SessionLost as error:
        assert error.code == "SESSION_LOST" and "driver is gone" in error.message
        assert isinstance(error.__cause__, RuntimeError) and "handler is closed" in str(error.__cause__)
    else:
        raise AssertionError("a write on uvloop's closed pipe raised nothing")
