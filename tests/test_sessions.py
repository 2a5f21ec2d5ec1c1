"""Sessions over HTTP: open, list, read, close; pages that cannot be opened answer a clear problem
within a bounded time, and the service keeps serving."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest

from pling_browser.core.sessions import Session

from .conftest import Pages, ServiceThread, problem
from .server import FixtureServer


def _problem(answer: httpx.Response, status: int, code: str) -> dict:
    assert answer.status_code == status, answer.text
    error = problem(answer)
    assert error["code"] == code and error["status"] == status
    assert error["detail"] and error["hint"]
    return error


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def test_the_title_is_read_when_asked_not_after_every_invocation(client: httpx.Client, pages: Pages,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Each read is a round trip through Playwright's driver into the page: not one per invocation.
    reads: list[str] = []
    original = Session.refresh_title

    async def counted(self: Session) -> None:
        reads.append(self.id)
        await original(self)

    monkeypatch.setattr(Session, "refresh_title", counted)
    page = pages.open("demo/todos.html")
    for i in range(3):
        assert page.invoke("add_todo", {"text": f"task {i}"})["ok"] is True
    assert reads == []
    assert client.get(f"/sessions/{page.id}").json()["title"] == "Tasks"
    assert client.get(f"/sessions/{page.id}").json()["title"] == "Tasks"
    assert reads == [page.id]  # read once since the last invocation, for both


def test_open_list_read_close(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    listed = client.get("/sessions").json()
    assert page.id in [s["id"] for s in listed]
    info = client.get(f"/sessions/{page.id}").json()
    assert info["title"] == "Tasks" and info["url"].endswith("/demo/todos.html")
    assert client.delete(f"/sessions/{page.id}").json() == {"closed": page.id}
    # A closed session says why, and a session that never existed is not found.
    assert "DELETE" in _problem(client.get(f"/sessions/{page.id}"), 410, "SESSION_LOST")["detail"]
    _problem(client.get(f"/sessions/{page.id}/model"), 410, "SESSION_LOST")
    _problem(client.post(f"/sessions/{page.id}/invoke", json={"action": "add_todo"}), 410, "SESSION_LOST")
    _problem(client.get("/sessions/s_never"), 404, "SESSION_NOT_FOUND")


def test_default_session_is_the_services_own_demo(client: httpx.Client, service: ServiceThread) -> None:
    answer = client.post("/sessions", json={})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    try:
        assert body["session"]["url"] == f"{service.url}/demo/todos.html"
        assert body["model"]["page"]["id"] == "todos"
    finally:
        client.delete(f"/sessions/{body['session']['id']}")


def test_unreachable_page_is_a_502_problem(client: httpx.Client) -> None:
    started = time.monotonic()
    _problem(client.post("/sessions", json={"url": f"http://127.0.0.1:{_closed_port()}/"}), 502, "PAGE_UNREACHABLE")
    _problem(client.post("/sessions", json={"url": "http://no-such-host.invalid/"}), 502, "PAGE_UNREACHABLE")
    assert time.monotonic() - started < 30


def test_http_error_status_is_a_502_problem(client: httpx.Client, fixtures: FixtureServer) -> None:
    error = _problem(client.post("/sessions", json={"url": fixtures.url("pages/missing.html")}), 502, "PAGE_UNREACHABLE")
    assert error["status_code"] == 404


def test_only_http_and_https_urls_open(client: httpx.Client) -> None:
    for url in ("file:///etc/passwd", "javascript:alert(1)", "data:text/html,<p>hi", "chrome://version", "ftp://example.com/", "/relative"):
        _problem(client.post("/sessions", json={"url": url}), 400, "URL_REFUSED")


def test_internal_hosts_are_refused_unless_listed(client: httpx.Client) -> None:
    # Refused before any connection is made: nothing is sent to these addresses.
    for url in ("http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://localhost:1/", "http://[::1]:1/"):
        _problem(client.post("/sessions", json={"url": url}), 400, "URL_REFUSED")


def test_page_that_never_finishes_loading_times_out(client: httpx.Client, fixtures: FixtureServer, pages: Pages) -> None:
    started = time.monotonic()
    _problem(client.post("/sessions", json={"url": fixtures.url("pages/never-loads.html"), "timeout_ms": 1500}), 504, "PAGE_LOAD_TIMEOUT")
    assert time.monotonic() - started < 20
    # The service keeps serving other sessions.
    assert pages.open("demo/todos.html").model()["records"]["task"]["total"] == 14
    assert client.get("/healthz").json()["ok"] is True


def test_bad_request_bodies_are_400_problems(client: httpx.Client, pages: Pages) -> None:
    _problem(client.post("/sessions", json={"url": 5}), 400, "BAD_REQUEST")
    page = pages.open("demo/todos.html")
    error = _problem(client.post(f"/sessions/{page.id}/invoke", json={"args": {}}), 400, "BAD_REQUEST")
    assert error["issues"][0]["path"].endswith("action")


def test_healthz_screenshot_and_bridge_script(client: httpx.Client, pages: Pages) -> None:
    health = client.get("/healthz").json()
    assert health["ok"] is True and health["browser"]["connected"] is True
    page = pages.open("demo/todos.html")
    png = client.get(f"/sessions/{page.id}/screenshot")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png" and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    script = client.get("/pling.js")
    assert script.status_code == 200 and "__plingBridge" in script.text
    assert client.get("/demo/todos.html").status_code == 200


def test_one_invocation_at_a_time_per_session(client: httpx.Client, pages: Pages, fixtures: FixtureServer) -> None:
    # Two invocations sent to one session at once never run at the same time: the second starts in
    # the page only after the first has ended (the page counts runs under way; the fixture server logs
    # each run's start and end in the order they arrive).
    page = pages.open("pages/lifecycle/overlap.html")
    since = len(fixtures.requests)
    receipts: dict[int, dict] = {}

    def invoke(n: int) -> None:
        answer = client.post(f"/sessions/{page.id}/invoke", json={"action": "work", "args": {"n": n}})
        receipts[n] = answer.json()["result"]

    first = threading.Thread(target=invoke, args=(1,))
    first.start()
    fixtures.wait_for_request("/api/echo?run=1&phase=start", timeout=30, since=since)
    second = threading.Thread(target=invoke, args=(2,))
    second.start()  # while the first holds on in the page
    first.join(60)
    second.join(60)
    assert receipts[1]["ok"] is True and receipts[2]["ok"] is True, receipts
    order = [path.split("?", 1)[1] for _, path in fixtures.requests[since:] if path.startswith("/api/echo?run=")]
    assert order == ["run=1&phase=start", "run=1&phase=end", "run=2&phase=start", "run=2&phase=end"]
    state = {key: entry["value"] for key, entry in page.model()["state"].items()}
    assert state == {"max_running": 1, "runs": 2}
