"""An agent never loses an answer to a kept-alive connection the service closes as it is reused (issue 31:
4 of 3,200 `add`s at 64 sessions failed with httpx.ReadError in bench/concurrency.py).

The cause: the bench's service (bench/service.py) and the pytest plugin's (pytest_plugin._LocalService)
ran uvicorn with its defaults, which close a kept-alive connection after 5 s idle: as long as httpx keeps
one for reuse. A client whose event loop is busy between its pool's check that the connection is still
open and the request's write (the bench's client at 64 sessions, 11 ms of CPU per invocation) then writes
into a connection the service closed in between: the request is lost (ReadError when the close met it,
RemoteProtocolError when it came first). `pling-browser serve` and the tests' services pass
server/limits.py's `uvicorn_options` (idle connections kept for the head deadline, 10 s): so do these now.

The test plays it on the real services, nothing faked: agents with a session each on the bench's page,
one `add` each, then idle for a little less than httpx's keep-alive expiry (so the pool reuses the
connection), then all `add` again while the client's loop is busy for a moment after the pool's check
(as a loaded client's is). Every answer must come back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.fixtures import FixtureServer
from bench.service import ServiceProcess
from pling_browser.pytest_plugin import _LocalService

AGENTS = 8
KEEPALIVE_S = 5.0  # httpx's default keep-alive expiry: what its pool still reuses
IDLE_S = KEEPALIVE_S - 0.2
BUSY_S = 0.5  # the client's loop busy between the pool's check and the write


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def _add(client: httpx.AsyncClient, sid: str, text: str) -> str:
    try:
        answer = await client.post(f"/sessions/{sid}/invoke", json={"action": "add", "args": {"text": text}})
    except httpx.TransportError as error:
        return f"{type(error).__name__}: {error}"
    if answer.status_code != 200 or not answer.json()["result"]["ok"]:
        return f"HTTP {answer.status_code}: {answer.text[:300]}"
    return "ok"


async def _agents_after_idle(url: str, page: str) -> list[str]:
    assert httpx.Limits().keepalive_expiry == KEEPALIVE_S  # what the idle below is measured against
    clients = [httpx.AsyncClient(base_url=url, timeout=60) for _ in range(AGENTS)]
    try:
        sids = []
        for client in clients:
            answer = await client.post("/sessions", json={"url": page})
            assert answer.status_code == 201, answer.text
            sids.append(answer.json()["session"]["id"])
        pairs = list(zip(clients, sids, strict=True))
        first = await asyncio.gather(*(_add(c, sid, f"first {k}") for k, (c, sid) in enumerate(pairs)))
        assert first == ["ok"] * AGENTS
        await asyncio.sleep(IDLE_S)
        # Each add runs until its pool has picked the kept-alive connection, then the loop is busy.
        adds = [asyncio.ensure_future(_add(c, sid, f"again {k}")) for k, (c, sid) in enumerate(pairs)]
        asyncio.get_running_loop().call_soon(_busy, BUSY_S)
        again = await asyncio.gather(*adds)
        for client, sid in pairs:
            await client.delete(f"/sessions/{sid}")
        return again
    finally:
        for client in clients:
            await client.aclose()


@pytest.fixture(scope="module")
def pages() -> Iterator[FixtureServer]:
    with FixtureServer() as server:
        yield server


def test_the_bench_service_loses_no_answer_after_an_idle_connection(pages: FixtureServer, tmp_path: Path) -> None:
    with ServiceProcess(tmp_path / "service.log") as service:
        again = asyncio.run(_agents_after_idle(service.url, pages.page(12)))
    assert again == ["ok"] * AGENTS


def test_the_pytest_plugin_service_loses_no_answer_after_an_idle_connection(pages: FixtureServer,
                                                                            tmp_path: Path) -> None:
    service = _LocalService(tmp_path / "data").start()
    try:
        again = asyncio.run(_agents_after_idle(service.url, pages.page(12)))
    finally:
        service.stop()
    assert again == ["ok"] * AGENTS
