"""Remote browsers: two Playwright browser servers as endpoints. Sessions spread over both; killing
one fails only its sessions, new sessions go to the other, and it is used again once restarted. The
lifecycle tests of the stages that work on the page also run against a remote endpoint
(tests/test_remote_lifecycle.py)."""

from __future__ import annotations

import time
from typing import Any

import httpx

from . import patient
from .conftest import ServiceThread, problem, service_settings, serving
from .server import FixtureServer
from .spawn import BrowserServer


def _endpoints(client: httpx.Client) -> dict[str, dict[str, Any]]:
    return {e["endpoint"]: e for e in client.get("/healthz").json()["browser"]["endpoints"]}


def test_sessions_spread_fail_over_and_come_back(fixtures: FixtureServer) -> None:
    first, second = BrowserServer().start(), BrowserServer().start()
    servers = [first, second]
    with serving(browser_endpoints=(first.url, second.url)) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            page = fixtures.url("demo/todos.html")
            sids = [client.post("/sessions", json={"url": page}).json()["session"]["id"] for _ in range(4)]
            placed = _endpoints(client)
            assert placed[first.url]["sessions"] == 2 and placed[second.url]["sessions"] == 2
            on_first = [sid for sid in sids if client.get(f"/sessions/{sid}").json()["endpoint"] == first.url]
            on_second = [sid for sid in sids if sid not in on_first]
            assert len(on_first) == 2
            first.stop()  # only the PIDs of the server this test started
            deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
            while time.monotonic() < deadline and _endpoints(client)[first.url]["up"]:
                time.sleep(0.1)
            assert _endpoints(client)[first.url]["up"] is False
            for sid in on_first:
                lost = client.get(f"/sessions/{sid}/model")
                assert lost.status_code == 410 and problem(lost)["code"] == "SESSION_LOST"
            for sid in on_second:
                assert client.post(f"/sessions/{sid}/invoke", json={"action": "toggle@t1"}).json()["result"]["ok"]
            fresh = client.post("/sessions", json={"url": page}).json()["session"]
            assert fresh["endpoint"] == second.url
            assert client.get("/healthz").json()["ok"] is True
            restarted = BrowserServer(port=first.port, path=first.path).start()  # back on the same address
            servers.append(restarted)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not _endpoints(client)[first.url]["up"]:
                time.sleep(0.2)
            assert _endpoints(client)[first.url]["up"] is True
            again = client.post("/sessions", json={"url": page}).json()["session"]
            assert again["endpoint"] == first.url  # the fewest sessions now
        for server in servers:
            server.stop()


def test_a_version_mismatch_or_dead_endpoint_is_said_clearly(fixtures: FixtureServer) -> None:
    svc = ServiceThread(service_settings(browser_endpoints=("ws://127.0.0.1:9/nothing",)))
    try:
        svc.start()
        answer = patient.post(f"{svc.url}/sessions", json={"url": fixtures.url("demo/todos.html")}, timeout=60)
        assert answer.status_code == 503 and problem(answer)["code"] == "BROWSER_UNAVAILABLE"
        assert "ws://127.0.0.1:9/nothing" in problem(answer)["detail"]
        health = patient.get(f"{svc.url}/healthz").json()
        assert health["ok"] is False and health["browser"]["endpoints"][0]["last_error"]
    finally:
        svc.stop()
