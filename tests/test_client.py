"""The Python client against the running service: typed receipts, problems as exceptions."""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import logging
import socket
import threading
import time
from typing import Any

import httpx
import pytest

from pling_browser import AsyncClient, Client, PlingError, Receipt
from pling_browser.agents.client import NO_RETRIES, Retries
from pling_browser.agents.transport import NoAnswer, ServiceUnreachable, UnexpectedAnswer, problem_error, retry_wait
from pling_browser.errors import NavigationRefused, SessionLost, TooManySessions
from pling_browser.models import InvocationProblem

from .conftest import ServiceThread, serving
from .server import FixtureServer


def test_client_round_trip(service: ServiceThread, fixtures: FixtureServer) -> None:
    with Client(service.url) as pling:
        page = pling.open(fixtures.url("demo/todos.html"))
        assert page.model.records["task"].total == 14
        receipt = page.invoke("add_todo", {"text": "Typed"}, idempotency_key="client-1")
        assert isinstance(receipt, Receipt) and receipt.ok and receipt.changed is not None
        assert receipt.changed.records["task"].added == ["t15"]
        assert page.invoke("add_todo", {"text": "Typed"}, idempotency_key="client-1") == receipt
        assert page.read_model(limit=1).records["task"].total == 15
        brief = page.brief_model(type="task", ids=["t15"])  # the brief model (docs/model.md), typed
        assert brief.detail == "brief" and [(i.id, i.label) for i in brief.records["task"].items] == [("t15", "Typed")]
        assert page.model.records["task"].total == 15 and len(page.model.records["task"].items) == 1  # kept: the whole one
        failed = page.invoke("remove@nope")
        assert not failed.ok and failed.error is not None and failed.error.code == "ACTION_NOT_FOUND"
        tool = page.call_tool("toggle", {"record": "t2"})
        assert tool.ok and tool.action.id == "toggle@t2"
        assert [entry["receipt"]["action"]["id"] for entry in page.receipts()] == ["add_todo", "remove@nope", "toggle@t2"]
        assert page.screenshot()[:4] == b"\x89PNG"
        page.close()
        with pytest.raises(SessionLost):
            page.invoke("add_todo", {"text": "gone"})
        with pytest.raises(NavigationRefused) as refused:
            pling.open("file:///etc/passwd")
        assert refused.value.hint


def test_a_page_session_is_a_context_manager_that_closes_it(service: ServiceThread, fixtures: FixtureServer) -> None:
    with Client(service.url) as pling:
        with pling.open(fixtures.url("demo/todos.html")) as page:
            assert page.id in [s.id for s in pling.sessions()]
            assert page.invoke("toggle@t2").ok
        assert page.id not in [s.id for s in pling.sessions()]
        page.close()  # closing again is harmless


# ---- every failure a PlingError; retries that honour Retry-After; the async client (issue 30) --------


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now: a connection is refused
    return port


def test_a_refused_connection_is_a_pling_error_for_both_clients() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    with Client(url) as pling, pytest.raises(ServiceUnreachable) as raised:
        pling.sessions()
    assert isinstance(raised.value, PlingError) and raised.value.code == "SERVICE_UNREACHABLE"
    assert raised.value.started is False and raised.value.hint and url in raised.value.message

    async def attempt() -> None:
        async with AsyncClient(url) as pling:
            await pling.open()

    with pytest.raises(ServiceUnreachable):
        asyncio.run(attempt())


def test_no_answer_in_time_is_a_pling_error_and_is_not_retried() -> None:
    # A server that accepts connections (the kernel's backlog) and never answers.
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        url = f"http://127.0.0.1:{server.getsockname()[1]}"
        with Client(url, timeout=0.5) as pling, pytest.raises(NoAnswer) as raised:
            pling.open()
        assert raised.value.code == "NO_ANSWER" and raised.value.details["timeout"] is True
        assert "receipt log" in raised.value.hint  # the request may have run: read before retrying
    finally:
        server.close()


def test_receipt_errors_are_typed(service: ServiceThread, fixtures: FixtureServer) -> None:
    with Client(service.url) as pling, pling.open(fixtures.url("demo/todos.html")) as page:
        failed = page.invoke("remove@nope")
        error = failed.error
        assert isinstance(error, InvocationProblem) and error.code == "ACTION_NOT_FOUND"
        assert error.stage == "resolve" and error.started is False and error.hint
        bad = page.invoke("add_todo", {"text": ""})
        assert bad.error is not None and bad.error.code == "INVALID_PARAMS" and bad.error.details["issues"][0]["path"] == "text"
        text_args = page.call_tool("add_todo", '{"text": ')
        assert text_args.error is not None and text_args.error.code == "INVALID_ARGS"


def test_429_is_asked_again_after_its_retry_after(tmp_path: Any, fixtures: FixtureServer, caplog: Any) -> None:
    # One session at most, no queue: a second open answers 429 TOO_MANY_SESSIONS with Retry-After.
    with serving(max_sessions=1, queue=0) as service:
        with Client(service.url) as first, Client(service.url, retries=NO_RETRIES) as impatient:
            page = first.open(fixtures.url("demo/todos.html"))
            with pytest.raises(TooManySessions) as refused:
                impatient.open(fixtures.url("demo/todos.html"))
            retry_after = refused.value.details["retry_after"]
            assert retry_after >= 1
            with Client(service.url, retries=Retries(attempts=3, max_wait_s=retry_after - 0.5)) as short:
                with pytest.raises(TooManySessions):  # a Retry-After longer than it may wait: raised at once
                    short.open(fixtures.url("demo/todos.html"))
            opened: dict[str, Any] = {}

            def patient() -> None:
                with Client(service.url, retries=Retries(attempts=3, max_wait_s=60)) as pling:
                    try:
                        with pling.open(fixtures.url("demo/todos.html")) as second:
                            opened["page"] = second.model.page.id
                    except PlingError as error:
                        opened["error"] = error

            with caplog.at_level(logging.INFO, logger="pling_browser.client"):
                waiting = threading.Thread(target=patient)
                waiting.start()
                deadline = time.monotonic() + 60
                while not any("429" in r.getMessage() for r in caplog.records) and time.monotonic() < deadline:
                    time.sleep(0.02)
                page.close()  # a slot is free before the client asks again
                waiting.join(120)
            retries = [r.getMessage() for r in caplog.records if r.name == "pling_browser.client"]
            assert "error" not in opened and opened["page"] == "todos", opened
            assert retries and "429 TOO_MANY_SESSIONS" in retries[0] and f"in {retry_after:g} s" in retries[0], retries


def test_retry_waits_follow_retry_after_and_stay_bounded() -> None:
    def answer(status: int, code: str, retry_after: str | None = None) -> tuple[httpx.Response, PlingError]:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        response = httpx.Response(status, headers=headers, json={"type": f"/errors#{code}", "title": "t", "status": status,
                                                                  "detail": "d", "code": code})
        return response, problem_error(response)

    policy = Retries(attempts=2, max_wait_s=10, first_wait_s=1)
    assert retry_wait(*answer(429, "TOO_MANY_SESSIONS", "5"), 0, policy) == 5
    assert retry_wait(*answer(409, "SESSION_BUSY", "2"), 0, policy) == 2
    assert retry_wait(*answer(409, "STEP_STARTED", "2"), 0, policy) is None  # a 409 that must not be repeated
    assert retry_wait(*answer(503, "QUEUE_TIMEOUT"), 1, policy) == 2  # no Retry-After: 1, 2, 4 …
    assert retry_wait(*answer(503, "QUEUE_TIMEOUT", "11"), 0, policy) is None  # longer than it may wait
    assert retry_wait(*answer(429, "TOO_MANY_SESSIONS", "1"), 2, policy) is None  # attempts used up
    assert retry_wait(*answer(429, "TOO_MANY_SESSIONS", "1"), 0, NO_RETRIES) is None
    assert retry_wait(*answer(404, "SESSION_NOT_FOUND"), 0, policy) is None
    date = email.utils.format_datetime(datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=8), usegmt=True)
    assert 0 < (retry_wait(*answer(503, "BROWSER_UNAVAILABLE", date), 0, policy) or 0) <= 8
    assert isinstance(answer(418, "NO_SUCH_CODE")[1], PlingError) and answer(418, "NO_SUCH_CODE")[1].code == "NO_SUCH_CODE"
    html = problem_error(httpx.Response(502, text="<html>Bad gateway</html>"))
    assert isinstance(html, UnexpectedAnswer) and html.details["status"] == 502


def test_the_async_client_has_the_same_surface(service: ServiceThread, fixtures: FixtureServer) -> None:
    from pling_browser.agents.client import AsyncPageSession, PageSession

    public = {name for name in dir(PageSession) if not name.startswith("_")}
    assert public == {name for name in dir(AsyncPageSession) if not name.startswith("_")}
    assert {n for n in dir(Client) if not n.startswith("_")} - {"close"} == {n for n in dir(AsyncClient) if not n.startswith("_")} - {"aclose"}

    async def conversation() -> dict[str, Any]:
        async with AsyncClient(service.url) as pling:
            async with await pling.open(fixtures.url("demo/todos.html")) as page:
                receipt = await page.invoke("add_todo", {"text": "Async"})
                model = await page.read_model(limit=1)
                tools = await page.tools("anthropic")
                failed = await page.invoke("nope")
                sid = page.id
            try:
                await page.invoke("add_todo", {"text": "gone"})
            except SessionLost as error:
                lost = error
            return {"receipt": receipt, "model": model, "tools": tools, "failed": failed, "lost": lost, "sid": sid,
                    "sessions": await pling.sessions()}

    out = asyncio.run(asyncio.wait_for(conversation(), 120))
    assert out["receipt"].ok and out["receipt"].changed.records["task"].added == ["t15"]
    assert out["model"].records["task"].total == 15 and {t["name"] for t in out["tools"]} >= {"add_todo", "toggle"}
    assert out["failed"].error.code == "ACTION_NOT_FOUND" and isinstance(out["lost"], SessionLost)
    assert out["sid"] not in [s.id for s in out["sessions"]]
