"""Access and limits: the token, Host and Origin checks, body size, the session queue, idle timeout
and lifetime. Each case runs its own service with the setting under test."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from . import patient
from .conftest import ServiceThread, problem, service_settings, serving
from .server import FixtureServer

TOKEN = "s3cret-token-for-tests"


@pytest.fixture(scope="module")
def guarded() -> Iterator[ServiceThread]:
    with serving(token=TOKEN) as svc:
        yield svc


def _code(answer: httpx.Response) -> tuple[int, str]:
    return answer.status_code, problem(answer)["code"]


def test_a_token_guards_every_route_but_health_and_the_public_files(guarded: ServiceThread) -> None:
    url = guarded.url
    assert _code(patient.get(f"{url}/sessions", timeout=60)) == (401, "UNAUTHORIZED")
    assert _code(patient.get(f"{url}/sessions", headers={"Authorization": "Bearer wrong"}, timeout=60)) == (401, "UNAUTHORIZED")
    assert _code(patient.post(f"{url}/mcp", json={}, timeout=60)) == (401, "UNAUTHORIZED")
    assert patient.get(f"{url}/healthz", timeout=60).status_code == 200
    assert patient.get(f"{url}/demo/todos.html", timeout=60).status_code == 200  # the browser fetches it without a token
    assert patient.get(f"{url}/js/pling-react.js", timeout=60).status_code == 200  # so does a page loading the package
    auth = {"Authorization": f"Bearer {TOKEN}"}
    opened = patient.post(f"{url}/sessions", json={}, headers=auth, timeout=60)
    assert opened.status_code == 201, opened.text
    sid = opened.json()["session"]["id"]
    assert patient.get(f"{url}/sessions/{sid}/model", headers=auth, timeout=60).json()["page"]["id"] == "todos"
    patient.delete(f"{url}/sessions/{sid}", headers=auth, timeout=60)


def test_host_and_origin_checks_stop_dns_rebinding(service: ServiceThread) -> None:
    url = service.url
    assert _code(patient.get(f"{url}/sessions", headers={"Host": "attacker.example"}, timeout=60)) == (403, "FORBIDDEN")
    assert _code(patient.get(f"{url}/sessions", headers={"Origin": "http://attacker.example"}, timeout=60)) == (403, "FORBIDDEN")
    assert patient.get(f"{url}/sessions", headers={"Host": f"localhost:{service.port}"}, timeout=60).status_code == 200
    assert patient.get(f"{url}/sessions", headers={"Origin": f"http://127.0.0.1:{service.port}"}, timeout=60).status_code == 200


def test_bodies_over_one_mebibyte_are_413(service: ServiceThread) -> None:
    big = b'{"url": "' + b"a" * (1024 * 1024 + 10) + b'"}'
    answer = patient.post(f"{service.url}/sessions", content=big, headers={"content-type": "application/json"}, timeout=60)
    assert _code(answer) == (413, "PAYLOAD_TOO_LARGE")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"url": "'
        for _ in range(40):
            yield b"a" * 32768
        yield b'"}'

    answer = patient.post(f"{service.url}/sessions", content=chunks(), headers={"content-type": "application/json"}, timeout=60)
    assert _code(answer) == (413, "PAYLOAD_TOO_LARGE")


def _wait_until_queued(client: httpx.Client, count: int) -> None:
    def queued() -> float:
        families = text_string_to_metric_families(client.get("/metrics").text)
        return next(family.samples[0].value for family in families if family.name == "pling_sessions_queued")

    deadline = time.monotonic() + 30
    while queued() != count:
        assert time.monotonic() < deadline, f"not {count} request(s) queued within 30 s"
        time.sleep(0.02)


def test_the_session_queue_answers_429_at_once_and_503_after_waiting(fixtures: FixtureServer) -> None:
    # The queued request must still be waiting when the next one comes: 15 s is room for a loaded machine.
    svc = ServiceThread(service_settings(max_sessions=2, queue=1, queue_timeout_s=15.0)).start()
    page = fixtures.url("demo/todos.html")
    try:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            for _ in range(2):
                assert client.post("/sessions", json={"url": page}).status_code == 201
            waited: dict[str, Any] = {}

            def queued() -> None:
                started = time.monotonic()
                with httpx.Client(base_url=svc.url, timeout=60) as own:
                    waited["answer"] = own.post("/sessions", json={"url": page})
                waited["seconds"] = time.monotonic() - started

            thread = threading.Thread(target=queued)
            thread.start()
            _wait_until_queued(client, 1)  # the queue (1) is full
            started = time.monotonic()
            refused = client.post("/sessions", json={"url": page})
            refused_in = time.monotonic() - started
            thread.join(60)
            assert _code(refused) == (429, "TOO_MANY_SESSIONS") and refused.headers["retry-after"] == "5"
            assert _code(waited["answer"]) == (503, "QUEUE_TIMEOUT")
            print(f"\n  queue: 429 answered in {refused_in * 1000:.0f} ms; queued request got 503 after {waited['seconds']:.2f} s")
            # A freed slot lets a queued request through: closed once the request waits in the queue.
            sid = client.get("/sessions").json()[0]["id"]
            thread = threading.Thread(target=queued)
            thread.start()
            _wait_until_queued(client, 1)
            client.delete(f"/sessions/{sid}")
            thread.join(60)
            assert waited["answer"].status_code == 201, waited["answer"].text
    finally:
        svc.stop()


def _closed_why(client: httpx.Client, sid: str, keep_busy: bool = False) -> str:
    """The detail of the 410 a session answers once the service closed it (polled, never touched:
    a GET does not count as use), waiting up to a generous 60 s; `keep_busy` invokes an action
    between polls, so the session is in use all along."""
    deadline = time.monotonic() + 60
    while (answer := client.get(f"/sessions/{sid}")).status_code == 200:
        assert time.monotonic() < deadline, f"session {sid} still open after 60 s"
        if keep_busy:
            client.post(f"/sessions/{sid}/invoke", json={"action": "set_filter", "args": {"filter": "all"}})
        time.sleep(0.1)
    assert _code(answer) == (410, "SESSION_LOST")
    return str(problem(answer)["detail"])


# Idle and lifetime are tested each with the other limit out of reach (an hour), so which one closes a
# session never depends on how fast the machine answers.
def test_idle_sessions_are_closed_by_the_service(fixtures: FixtureServer) -> None:
    with serving(idle_timeout_s=1.0, max_lifetime_s=3600.0) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            idle = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).json()["session"]["id"]
            assert "it was idle for more than 1 s" in _closed_why(client, idle)


def test_sessions_in_use_are_closed_at_their_lifetime(fixtures: FixtureServer) -> None:
    with serving(idle_timeout_s=3600.0, max_lifetime_s=2.5) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            busy = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).json()["session"]["id"]
            assert "it reached the maximum lifetime of 2.5 s" in _closed_why(client, busy, keep_busy=True)
