"""Replicas behind the shipped router (docker/nginx/pling.conf.template), as an operator runs them:
Debian's nginx in front of two `pling-browser serve` replicas and two Playwright browser servers, on
loopback only (tests/router.py). Sessions open through the router, every request about a session
reaches the replica that owns it, each replica's /healthz and /metrics are reachable by name, and a
replica killed loses only its own sessions, which then answer a structured error at once.

`make test` installs nginx (Debian's package) when it is missing; where it cannot, this file is
skipped saying so, except in CI, where that is a failure."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from pling_browser.errors import ReplicaUnavailable, SessionNotFound
from pling_browser.server.problems import title

from .conftest import problem
from .router import Cluster, nginx_binary
from .server import FixtureServer

if nginx_binary() is None:
    if os.environ.get("CI"):
        pytest.fail("nginx is not installed: `make test` installs Debian's nginx (apt-get, as root)", pytrace=False)
    pytest.skip("nginx is not installed and could not be (make test installs it with apt-get as root)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def cluster(fixtures: FixtureServer) -> Iterator[Cluster]:
    running = Cluster(allow_hosts=f"127.0.0.1:{fixtures.server_address[1]}").start()
    yield running
    running.stop()


@pytest.fixture
def router(cluster: Cluster) -> Iterator[httpx.Client]:
    with cluster.client() as client:
        yield client


MCP_INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "router-test", "version": "1"}}}


def _owner(sid: str) -> str:
    assert sid.startswith("s-pling-"), sid
    return "-".join(sid.split("-")[1:3])


def _open_on_every_replica(router: httpx.Client, fixtures: FixtureServer, cluster: Cluster) -> dict[str, str]:
    """Sessions opened through the router until every replica owns one (the router tries the replicas
    in a rotating order: a few opens reach both); the first session of each replica, by name."""
    first: dict[str, str] = {}
    names = {replica.name for replica in cluster.replicas}
    for _ in range(40):
        answer = router.post("/sessions", json={"url": fixtures.url("demo/todos.html")})
        assert answer.status_code == 201, answer.text
        sid = answer.json()["session"]["id"]
        if _owner(sid) in first:  # one more on a replica that has one: closed at once, to keep slots free
            assert router.delete(f"/sessions/{sid}").status_code in (200, 204)
        first.setdefault(_owner(sid), sid)
        if set(first) == names:
            break
    assert set(first) == names, f"40 sessions opened through the router all went to {sorted(first)}"
    return first


def _close(router: httpx.Client, sessions: dict[str, str]) -> None:
    for sid in sessions.values():
        router.delete(f"/sessions/{sid}")


def _sessions_open(metrics: str) -> float:
    for family in text_string_to_metric_families(metrics):
        if family.name == "pling_sessions_open":
            return family.samples[0].value
    raise AssertionError("no pling_sessions_open in /metrics")


def _unavailable(answer: httpx.Response, replica: str) -> None:
    error = problem(answer)  # RFC 9457, as the service answers
    assert (error["code"], error["status"]) == (ReplicaUnavailable.code, ReplicaUnavailable.status)
    # The router's words are the error tree's.
    assert error["title"] == title(ReplicaUnavailable) and error["hint"] == ReplicaUnavailable.default_hint
    assert replica in error["detail"]


def test_sessions_open_through_the_router_and_every_request_reaches_their_owner(
        router: httpx.Client, fixtures: FixtureServer, cluster: Cluster) -> None:
    sessions = _open_on_every_replica(router, fixtures, cluster)
    try:
        for name, sid in sessions.items():
            # Read and invoked through the router: a request that reached another replica would be 404.
            assert router.get(f"/sessions/{sid}/model").json()["page"]["id"] == "todos"
            answer = router.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": f"on {name}"}})
            assert answer.status_code == 200, answer.text
            receipt = answer.json()["result"]
            assert receipt["ok"] is True, receipt
            assert len(receipt["changed"]["records"]["task"]["added"]) == 1
            assert router.get(f"/sessions/{sid}").json()["invocations"] == 1

            # The replica by name: its health, its metrics and its own sessions, each its own.
            health = router.get(f"/replicas/{name}/healthz").json()
            mine = [s["id"] for s in router.get(f"/replicas/{name}/sessions").json()]
            assert health["ok"] is True and health["replica"] == name
            assert sid in mine and all(_owner(other) == name for other in mine)
            assert health["sessions"] == len(mine)
            assert _sessions_open(router.get(f"/replicas/{name}/metrics").text) == len(mine)
            # Its MCP endpoint, which keeps a connection's state on one replica (docs/scale.md).
            hello = router.post(f"/replicas/{name}/mcp", json=MCP_INITIALIZE,
                                headers={"Accept": "application/json, text/event-stream"})
            assert hello.status_code == 200 and '"serverInfo"' in hello.text, hello.text
    finally:
        _close(router, sessions)


def test_a_body_over_the_limit_is_refused_by_the_service_in_its_own_shape(router: httpx.Client, cluster: Cluster) -> None:
    big = b'{"url": "' + b"x" * (1024 * 1024 + 10) + b'"}'
    for _ in range(5):
        answer = router.post("/sessions", content=big, headers={"content-type": "application/json"})
        assert problem(answer)["code"] == "PAYLOAD_TOO_LARGE" and answer.status_code == 413, answer.text + cluster.log()


def test_a_killed_replica_loses_only_its_sessions_and_the_others_answer(
        router: httpx.Client, fixtures: FixtureServer, cluster: Cluster) -> None:
    sessions = _open_on_every_replica(router, fixtures, cluster)
    lost, kept = cluster.replicas[1], cluster.replicas[0]
    lost.kill()  # SIGKILL: no goodbye; the cluster's DNS still names it, as it would until the pod is gone
    try:
        # Its sessions answer at once, in the service's problem shape, for every kind of request.
        gone = sessions[lost.name]
        _unavailable(router.get(f"/sessions/{gone}/model"), lost.name)
        _unavailable(router.post(f"/sessions/{gone}/invoke", json={"action": "add_todo", "args": {"text": "x"}}),
                     lost.name)
        _unavailable(router.get(f"/replicas/{lost.name}/healthz"), lost.name)

        # The other replica's session goes on, and new sessions open on the replica that answers.
        receipt = router.post(f"/sessions/{sessions[kept.name]}/invoke",
                              json={"action": "add_todo", "args": {"text": "still here"}}).json()["result"]
        assert receipt["ok"] is True, receipt
        for _ in range(4):
            answer = router.post("/sessions", json={"url": fixtures.url("demo/todos.html")})
            assert answer.status_code == 201, answer.text
            sid = answer.json()["session"]["id"]
            assert _owner(sid) == kept.name
            router.delete(f"/sessions/{sid}")
        assert router.get(f"/replicas/{kept.name}/healthz").json()["replica"] == kept.name

        # Back under the same name (a restarted pod), it does not know the lost session: a 404, not a hang.
        lost.start()
        cluster.publish()
        answer = router.get(f"/sessions/{gone}/model")
        assert problem(answer)["code"] == SessionNotFound.code and answer.status_code == 404, answer.text
        assert router.get(f"/replicas/{lost.name}/healthz").json()["replica"] == lost.name
    finally:
        if lost.process is None:
            lost.start()
            cluster.publish()
        router.delete(f"/sessions/{sessions[kept.name]}")
