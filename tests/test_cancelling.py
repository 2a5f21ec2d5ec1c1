"""Cancelling, as SPEC says: one invocation at a time per session; one still waiting for its session
whose caller has gone is dropped before it starts; a wait past PLING_INVOKE_WAIT answers 409
SESSION_BUSY with Retry-After; once started, a disconnect cancels nothing (the receipt is stored).

fixtures/pages/sessions/busy.html: `hold` keeps the session busy until the test releases it (through
Playwright, in the service's own loop); `write` counts how often its write path ran."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from .conftest import ServiceThread, problem, serving
from .server import FixtureServer


def _service(**changes: Any) -> Iterator[ServiceThread]:
    with serving(**changes) as svc:
        yield svc


@pytest.fixture
def patient() -> Iterator[ServiceThread]:
    # Waits far longer than the test: only the caller leaving ends the wait.
    yield from _service(invoke_wait_s=300.0)


@pytest.fixture
def impatient() -> Iterator[ServiceThread]:
    yield from _service(invoke_wait_s=0.5)


def _until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _metric(client: httpx.Client, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(client.get("/metrics").text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def _state(client: httpx.Client, sid: str, key: str) -> Any:
    model = client.get(f"/sessions/{sid}/model")
    assert model.status_code == 200, model.text
    return model.json()["state"][key]["value"]


def _post_and_leave_open(port: int, path: str, body: dict[str, Any]) -> socket.socket:
    """A caller that sends its request and can then go away (close the connection) without an answer."""
    payload = json.dumps(body).encode()
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
    return sock


def _release(svc: ServiceThread, sid: str) -> None:
    async def release(runtime: Any) -> None:
        await runtime.sessions.get(sid).page.evaluate("window.releaseHold()")

    svc.in_service(release)


def _open_busy(client: httpx.Client, fixtures: FixtureServer) -> str:
    opened = client.post("/sessions", json={"url": fixtures.url("pages/sessions/busy.html")})
    assert opened.status_code == 201, opened.text
    return opened.json()["session"]["id"]


def test_a_waiting_invocation_whose_caller_left_never_runs(patient: ServiceThread, fixtures: FixtureServer) -> None:
    with httpx.Client(base_url=patient.url, timeout=60) as client:
        sid = _open_busy(client, fixtures)
        invoke = f"/sessions/{sid}/invoke"
        # The first caller starts `hold` and leaves while it runs: once started, nothing is cancelled.
        holder = _post_and_leave_open(patient.port, invoke, {"action": "hold"})
        assert _until(lambda: _state(client, sid, "holding") is True)
        # The second waits for the session, then its caller leaves too.
        waiter = _post_and_leave_open(patient.port, invoke, {"action": "write"})
        assert _until(lambda: _metric(client, "pling_invocations_waiting") == 1)
        waiter.close()
        holder.close()
        # Dropped before it started (given time to notice; the assertions below decide).
        _until(lambda: _metric(client, "pling_invocations_dropped_total", reason="caller_gone") == 1)
        _release(patient, sid)
        # A later call queues behind anything still waiting, so it sees every write that ran.
        last = client.post(invoke, json={"action": "write"})
        assert last.status_code == 200, last.text
        assert last.json()["result"]["ok"] and last.json()["result"]["data"] == 1  # the dropped write never ran
        assert _metric(client, "pling_invocations_dropped_total", reason="caller_gone") == 1
        assert _metric(client, "pling_invocations_waiting") == 0
        # The first caller's receipt is stored although nobody read its answer; the dropped one has none.
        log = client.get(f"/sessions/{sid}/receipts").json()["receipts"]
        assert [(entry["receipt"]["action"]["id"], entry["receipt"]["ok"], entry["receipt"].get("data"))
                for entry in log] == [("hold", True, "released"), ("write", True, 1)]


def test_a_wait_past_invoke_wait_is_session_busy(impatient: ServiceThread, fixtures: FixtureServer) -> None:
    with httpx.Client(base_url=impatient.url, timeout=60) as client:
        sid = _open_busy(client, fixtures)
        invoke = f"/sessions/{sid}/invoke"
        result: dict[str, httpx.Response] = {}

        def hold() -> None:
            with httpx.Client(base_url=impatient.url, timeout=120) as own:
                result["hold"] = own.post(invoke, json={"action": "hold"})

        holder = threading.Thread(target=hold)
        holder.start()
        try:
            assert _until(lambda: _state(client, sid, "holding") is True)
            with httpx.Client(base_url=impatient.url, timeout=30) as other:
                busy = other.post(invoke, json={"action": "write"}, headers={"Idempotency-Key": "busy-1"})
        finally:
            _release(impatient, sid)
            holder.join(60)
        assert busy.status_code == 409, busy.text
        error = problem(busy)
        assert error["code"] == "SESSION_BUSY" and error["status"] == 409 and "PLING_INVOKE_WAIT" in error["detail"]
        assert int(busy.headers["Retry-After"]) >= 1
        assert result["hold"].json()["result"]["ok"]
        # It never started: the same key runs now, once, as the first write.
        again = client.post(invoke, json={"action": "write"}, headers={"Idempotency-Key": "busy-1"})
        assert again.status_code == 200 and again.json()["result"]["data"] == 1
        assert _metric(client, "pling_invocations_dropped_total", reason="session_busy") == 1


def test_an_mcp_caller_that_cancels_drops_what_waits_and_not_what_runs(patient: ServiceThread,
                                                                      fixtures: FixtureServer) -> None:
    # The MCP SDK cancels a tool call's handler when its client cancels it (or its stream closes):
    # a started invocation must still finish and log its receipt; a waiting one must never run.
    import asyncio

    from mcp import Client

    with httpx.Client(base_url=patient.url, timeout=60) as client:
        sid = _open_busy(client, fixtures)

        async def conversation() -> None:
            async with Client(f"{patient.url}/mcp") as mcp:
                hold = asyncio.ensure_future(mcp.call_tool("invoke", {"session": sid, "action": "hold"}))
                while not await asyncio.to_thread(lambda: _state(client, sid, "holding")):
                    await asyncio.sleep(0.05)
                write = asyncio.ensure_future(mcp.call_tool("invoke", {"session": sid, "action": "write"}))
                while await asyncio.to_thread(lambda: _metric(client, "pling_invocations_waiting")) != 1:
                    await asyncio.sleep(0.05)
                write.cancel()
                hold.cancel()
                await asyncio.gather(hold, write, return_exceptions=True)
                await asyncio.to_thread(
                    _until, lambda: _metric(client, "pling_invocations_dropped_total", reason="caller_gone") == 1)

        asyncio.run(asyncio.wait_for(conversation(), 90))
        _release(patient, sid)
        last = client.post(f"/sessions/{sid}/invoke", json={"action": "write"})
        assert last.status_code == 200 and last.json()["result"]["data"] == 1  # the cancelled write never ran
        log = client.get(f"/sessions/{sid}/receipts").json()["receipts"]
        assert [(entry["receipt"]["action"]["id"], entry["receipt"].get("data")) for entry in log] == [
            ("hold", "released"), ("write", 1)]
