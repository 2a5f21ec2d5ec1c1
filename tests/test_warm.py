"""Opening a session: browser contexts prepared ahead (PLING_WARM_CONTEXTS, core/warm.py) are each
given to one session, hold nothing of another session, route through their own egress proxy, are
refilled, and are closed with the service; 0 turns them off."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from pling_browser.core import processes

from .conftest import ServiceThread, serving
from .server import FixtureServer

PAGE = "pages/egress/probe.html"


def _until(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def _warm(svc: ServiceThread) -> Any:
    return svc.app.state.runtime.controller.warm


def _ready_contexts(svc: ServiceThread) -> list[Any]:
    return [prepared.context for prepared in _warm(svc)._ready]


def _open(client: httpx.Client, url: str) -> str:
    answer = client.post("/sessions", json={"url": url})
    assert answer.status_code == 201, answer.text
    return answer.json()["session"]["id"]


def _in_page(svc: ServiceThread, sid: str, script: str) -> Any:
    async def run(runtime: Any) -> Any:
        return await runtime.sessions.get(sid).page.evaluate(script)
    return svc.in_service(run)


def _context_of(svc: ServiceThread, sid: str) -> Any:
    return svc.app.state.runtime.sessions.get(sid).context


@pytest.fixture(scope="module")
def warm_service(fixtures: FixtureServer) -> Iterator[ServiceThread]:
    # Only the fixture server's own port is allowed: any other 127.0.0.1 port is a canary. One service for
    # the three tests below: each closes its sessions, and waits for a full pool before it starts.
    with serving(warm_contexts=2, allow_hosts=(f"127.0.0.1:{fixtures.server_address[1]}",)) as svc:
        yield svc


def test_a_prepared_context_serves_one_session_and_holds_nothing_of_another(warm_service: ServiceThread,
                                                                            fixtures: FixtureServer) -> None:
    svc = warm_service
    _until(lambda: len(_warm(svc)) == 2)
    with httpx.Client(base_url=svc.url, timeout=60) as client:
        ready = _ready_contexts(svc)
        first = _open(client, fixtures.url(PAGE))
        assert _context_of(svc, first) in ready  # taken from the pool
        _in_page(svc, first, "() => { localStorage.setItem('who', 'first'); sessionStorage.setItem('who', 'first');"
                             " document.cookie = 'who=first; path=/'; }")
        assert _in_page(svc, first, "() => document.cookie") == "who=first"
        _until(lambda: len(_warm(svc)) == 2)
        ready = _ready_contexts(svc)
        second = _open(client, fixtures.url(PAGE))
        assert _context_of(svc, second) in ready and _context_of(svc, second) is not _context_of(svc, first)
        seen = "() => [localStorage.getItem('who'), sessionStorage.getItem('who'), document.cookie]"
        assert _in_page(svc, second, seen) == [None, None, ""]
        # A closed session's context is closed, never handed to the next session.
        closed = _context_of(svc, first)
        assert client.delete(f"/sessions/{first}").status_code == 200
        _until(lambda: len(_warm(svc)) == 2)
        assert closed not in _ready_contexts(svc)
        third = _open(client, fixtures.url(PAGE))
        assert _context_of(svc, third) is not closed
        assert _in_page(svc, third, seen) == [None, None, ""]
        for sid in (second, third):
            client.delete(f"/sessions/{sid}")


def test_a_prepared_context_goes_through_its_own_egress_proxy(warm_service: ServiceThread,
                                                              fixtures: FixtureServer) -> None:
    svc = warm_service
    canary = FixtureServer().start()
    try:
        _until(lambda: len(_warm(svc)) == 2)
        ready = _ready_contexts(svc)
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            sid = _open(client, fixtures.url(PAGE))
            assert _context_of(svc, sid) in ready
            answer = client.post(f"/sessions/{sid}/invoke", json={"action": "fetch", "args": {"id": "c", "url": canary.url("api/echo")}})
            assert answer.status_code == 200 and answer.json()["result"]["ok"], answer.text
            model = client.get(f"/sessions/{sid}/model").json()
            assert model["records"]["attempt"]["items"][0]["fields"]["outcome"] == "failed"
            refused = client.get(f"/sessions/{sid}").json()["refused"]
            assert any(str(canary.server_address[1]) in entry["target"] for entry in refused), refused
            client.delete(f"/sessions/{sid}")
        assert canary.requests == []
    finally:
        canary.stop()


def test_the_pool_refills_and_a_profile_session_never_takes_from_it(warm_service: ServiceThread,
                                                                    fixtures: FixtureServer) -> None:
    svc = warm_service
    _until(lambda: len(_warm(svc)) == 2)
    prepared_before = _warm(svc).prepared
    with httpx.Client(base_url=svc.url, timeout=60) as client:
        sids = [_open(client, fixtures.url(PAGE)) for _ in range(3)]
        _until(lambda: len(_warm(svc)) == 2)
        assert _warm(svc).prepared >= prepared_before + 2
        ready = _ready_contexts(svc)

        # A context given a profile's cookies and storage is always made fresh for its session, with
        # its blank page's bridge attached before the session's first document loads, as a pooled one.
        async def with_state(runtime: Any) -> tuple[bool, bool]:
            prepared = await runtime.controller.new_context({"cookies": [], "origins": []})
            try:
                return prepared.bridge is not None, prepared.context in ready
            finally:
                await prepared.context.close()
        assert svc.in_service(with_state) == (True, False)
        assert _ready_contexts(svc) == ready
        for sid in sids:
            client.delete(f"/sessions/{sid}")


def test_zero_prepares_nothing_and_sessions_still_open(fixtures: FixtureServer) -> None:
    with serving(warm_contexts=0) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            sid = _open(client, fixtures.url(PAGE))
            assert client.get(f"/sessions/{sid}/model").json()["page"]["title"] == "Egress probe"
            client.delete(f"/sessions/{sid}")
            time.sleep(0.5)
            assert len(_warm(svc)) == 0 and _warm(svc).prepared == 0
            assert client.get("/healthz").json()["browser"]["warm_contexts"] == 0


def _refuses(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_stopping_the_service_closes_prepared_contexts_and_leaves_no_chromium(fixtures: FixtureServer) -> None:
    with serving(warm_contexts=2) as svc:
        _until(lambda: len(_warm(svc)) == 2)
        proxies = [prepared.proxy.port for prepared in _warm(svc)._ready]
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            _open(client, fixtures.url(PAGE))  # a refill is under way as the service stops
        pids = svc.app.state.runtime.controller.browser_pids()
        assert pids and not any(_refuses(port) for port in proxies)
    _until(lambda: not any(processes.alive(pid) for pid in pids), timeout=30)
    assert all(_refuses(port) for port in proxies)


def test_closing_the_pool_closes_its_contexts_and_their_proxies(fixtures: FixtureServer) -> None:
    with serving(warm_contexts=2) as svc:
        _until(lambda: len(_warm(svc)) == 2)
        proxies = [prepared.proxy.port for prepared in _warm(svc)._ready]

        async def close(runtime: Any) -> tuple[int, int]:
            controller = runtime.controller
            ready = _ready_contexts(svc)
            await controller.warm.close()
            controller.warm.refill()  # closed: prepares nothing more
            browser = controller.endpoints[0].browser
            return sum(context in browser.contexts for context in ready), len(controller.warm)
        assert svc.in_service(close) == (0, 0)
        assert all(_refuses(port) for port in proxies)
        with httpx.Client(base_url=svc.url, timeout=60) as client:  # sessions open fresh
            client.delete(f"/sessions/{_open(client, fixtures.url(PAGE))}")
        assert len(_warm(svc)) == 0


def test_an_open_after_the_browser_died_does_not_wait_for_a_context_begun_on_the_dead_one() -> None:
    """A context was being prepared ahead when the browser died: Playwright's call on the dead browser may
    never answer (it ends at _prepare's 30 s wait_for), and an open that claimed it waited that long
    before opening a fresh one (tests/test_crash.py's killed browser: a fresh open took 30 s in about one
    run in four, its service's log saying 'a browser context could not be prepared ahead: ' 30 s after
    the loss). A preparation begun before the loss is the lost browser's: the open goes on without it."""
    import asyncio

    from pling_browser.core.browsers import _forget_sessions
    from pling_browser.core.endpoints import Endpoint
    from pling_browser.core.warm import WarmContexts

    async def open_after_the_loss() -> object:
        endpoint = Endpoint(url=None)
        making = asyncio.Event()

        async def make(_: Endpoint) -> Any:
            making.set()
            await asyncio.Event().wait()  # a call on the dead browser that never answers

        pool = WarmContexts(1, make, lambda: endpoint)
        pool.refill(0)
        await making.wait()
        _forget_sessions(endpoint)  # what the service does when it hears the browser disconnected
        try:
            async with asyncio.timeout(30):  # a ceiling for a loaded machine, not a measurement
                return await pool.take(endpoint)
        except TimeoutError:
            return "waited for the dead browser's context"
        finally:
            await pool.close()

    assert asyncio.run(open_after_the_loss()) is None


def test_an_open_already_waiting_for_a_context_goes_on_without_it_when_the_browser_dies() -> None:
    """The same, the other way round: the open claimed the context being prepared, then the browser died.
    The controller tells the pool of the loss (`BrowserController._lost`), and the open stops waiting for it;
    what the preparation gives later is discarded (its egress proxy stopped), not left to nobody."""
    import asyncio

    from pling_browser.core.browsers import _forget_sessions
    from pling_browser.core.endpoints import Endpoint
    from pling_browser.core.warm import WarmContexts

    async def loss_while_waiting() -> tuple[object, bool]:
        endpoint = Endpoint(url=None)
        making, answer = asyncio.Event(), asyncio.Event()
        made: list[object] = []
        discarded: list[object] = []

        class Made:
            async def discard(self) -> None:
                discarded.append(self)

        async def make(_: Endpoint) -> Any:
            making.set()
            await answer.wait()  # a call on the dead browser, answered only after the open gave up
            made.append(Made())
            return made[-1]

        pool = WarmContexts(1, make, lambda: endpoint)
        pool.refill(0)
        await making.wait()
        waiting = asyncio.ensure_future(pool.take(endpoint))
        for _ in range(10):  # the open's turns, until it waits for the preparation
            await asyncio.sleep(0)
        _forget_sessions(endpoint)  # what BrowserController._lost does when the browser disconnects ...
        pool.lost(endpoint)  # ... and then this
        try:
            async with asyncio.timeout(30):  # a ceiling for a loaded machine, not a measurement
                taken: object = await waiting
        except TimeoutError:
            taken = "waited for the dead browser's context"
        answer.set()
        for _ in range(10):  # the preparation's last turns
            await asyncio.sleep(0)
        first_discarded = made[0] in discarded  # before the pool's close discards what it prepared since
        await pool.close()
        return taken, first_discarded

    assert asyncio.run(loss_while_waiting()) == (None, True)
