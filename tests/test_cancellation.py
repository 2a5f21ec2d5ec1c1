"""A cancelled bridge call is cancelled, even when the page's answer arrives in the very turn the
cancellation does. On Python 3.11 ``asyncio.wait_for`` returned that answer and dropped the cancellation,
and a loop that ends only by being cancelled (a handoff's watcher of the page's done()) went on for ever:
the invocation, and the session's close behind it, never answered (tests/test_gates.py has that case).
Here the cancellation is sent from the answer's own callback, ahead of the call's wake-up, on a real
page through the real driver."""

from __future__ import annotations

import asyncio
from typing import Any

from .conftest import ServiceThread
from .server import FixtureServer


class _CancelOnAnswer(dict):  # type: ignore[type-arg]
    """Playwright's pending calls by id (its Connection._callbacks): the next CDP `send` registered gets,
    before anything awaits it, a done-callback that cancels ``target``."""

    target: asyncio.Future[Any] | None = None

    def __setitem__(self, key: Any, callback: Any) -> None:
        target = self.target
        if target is not None and callback.method == "send":
            self.target = None
            callback.future.add_done_callback(lambda _: target.cancel())
        super().__setitem__(key, callback)


def test_a_bridge_call_cancelled_as_its_answer_arrives_is_cancelled(service: ServiceThread,
                                                                     fixtures: FixtureServer) -> None:
    async def cancel_as_answered(runtime: Any) -> list[str]:
        session = await runtime.open(fixtures.url("pages/check/good.html"))
        connection = session.bridge.cdp._impl_obj._connection
        own, hooked = connection._callbacks, _CancelOnAnswer(connection._callbacks)
        connection._callbacks = hooked
        outcomes: list[str] = []
        try:
            for _ in range(5):
                call = asyncio.ensure_future(session.bridge.raw("model", {}))
                hooked.target = call
                try:
                    await call
                    outcomes.append("answered")
                except asyncio.CancelledError:
                    outcomes.append("cancelled")
        finally:
            own.clear()
            own.update(hooked)  # the calls still pending
            connection._callbacks = own
            await runtime.close(session.id)
        return outcomes

    assert service.in_service(cancel_as_answered) == ["cancelled"] * 5


class _CancelOnTerminate:
    """The bridge's CDP session, but the answer to its ``Runtime.terminateExecution`` cancels ``target``
    from its own done-callback, ahead of the call's wake-up."""

    def __init__(self, real: Any, target: asyncio.Future[Any]) -> None:
        self.real, self.target = real, target

    def send(self, method: str, params: Any = None) -> Any:
        sent = self.real.send(method, params) if params is not None else self.real.send(method)
        if method != "Runtime.terminateExecution":
            return sent
        answered = asyncio.ensure_future(sent)
        answered.add_done_callback(lambda _: self.target.cancel())
        return answered


def test_a_bridge_call_cancelled_as_its_stuck_script_is_stopped_is_cancelled(service: ServiceThread,
                                                                                fixtures: FixtureServer) -> None:
    """A bridge call past its budget stops the page's script (Runtime.terminateExecution) and raises
    PageUnresponsive. Cancelled in the turn that stop answers, it must end cancelled: the stop waited
    under asyncio.wait_for, which returned the answer and dropped the cancellation, and the call raised
    PageUnresponsive instead (a loop that suppresses PlingError, as the handoff's watcher does, went on)."""
    from pling_browser.errors import PageUnresponsive

    async def cancel_as_stopped(runtime: Any) -> str:
        session = await runtime.open(fixtures.url("pages/check/good.html"))
        bridge, real_cdp, grace = session.bridge, session.bridge.cdp, session.bridge.grace_s
        # Sent on the bridge's own CDP session ahead of the call: the page takes them in that order, so the
        # call's evaluate waits behind the endless loop (a page.evaluate could be overtaken by it).
        spinning = asyncio.ensure_future(real_cdp.send("Runtime.evaluate", {"expression": "for (;;) {}"}))
        try:
            bridge.grace_s = 0.1
            call = asyncio.ensure_future(bridge.raw("model", {}, budget_ms=100))
            bridge.cdp = _CancelOnTerminate(real_cdp, call)
            try:
                await call
                return "answered"
            except asyncio.CancelledError:
                return "cancelled"
            except PageUnresponsive:
                return "page unresponsive"
        finally:
            bridge.cdp, bridge.grace_s = real_cdp, grace
            await asyncio.gather(spinning, return_exceptions=True)
            await runtime.close(session.id)

    assert service.in_service(cancel_as_stopped) == "cancelled"


def test_the_mcp_page_tools_watcher_stops_when_cancelled_as_a_model_arrives(service: ServiceThread,
                                                                            fixtures: FixtureServer) -> None:
    """The MCP page tools' watcher ends only by being cancelled (the service stopping awaits it). Its
    page's tools were read under asyncio.wait_for: cancelled in the turn the model read finished, it
    went on watching, and the service's shutdown awaited it for ever. The cancellation is sent from the
    read's own done-callback, ahead of the watcher's wake-up."""
    from mcp.server.subscriptions import InMemorySubscriptionBus

    from pling_browser.server.mcp_pages import PageTools

    async def cancel_as_built(runtime: Any) -> tuple[bool, bool]:
        tools = PageTools(runtime, InMemorySubscriptionBus())
        real, built = tools._build, asyncio.Event()

        async def build(session: Any) -> Any:
            own = asyncio.current_task()
            if not built.is_set() and own is not None and watcher is not None:
                own.add_done_callback(lambda _: (watcher.cancel(), built.set()))
            return await real(session)

        tools._build = build  # type: ignore[method-assign]
        tools.active, tools._running = True, True
        tools._start()
        watcher = tools._watcher
        await asyncio.sleep(0)  # the watcher listens for events before the session opens
        session = await runtime.open(fixtures.url("pages/check/good.html"))
        try:
            await built.wait()
            for _ in range(10):  # the cancelled watcher's next turns
                await asyncio.sleep(0)
            return watcher is not None and watcher.done(), watcher is not None and watcher.cancelled()
        finally:
            tools._running = False
            if watcher is not None and not watcher.done():
                watcher.cancel()
            await runtime.close(session.id)

    assert service.in_service(cancel_as_built) == (True, True)


def test_the_reaper_stops_when_its_cancellation_is_lost() -> None:
    """The runtime's reaper loops until it is cancelled (the service stopping). A cancellation lost inside
    a round (Python 3.11's asyncio.wait_for around a title read or a context's close) left it reaping on
    after stop(). One round here swallows the cancellation as wait_for would; stop() must still end it."""
    from pling_browser.runtime import Runtime

    from .conftest import service_settings

    async def lose_a_cancellation() -> tuple[bool, list[str]]:
        runtime = Runtime(service_settings(idle_timeout_s=2.0))
        runtime.loop = asyncio.get_running_loop()
        reaping, lost = asyncio.Event(), []

        async def reap(idle_s: float, lifetime_s: float) -> list[str]:
            reaping.set()
            if not lost:
                try:  # held until the reaper is cancelled, then the cancellation is dropped
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    lost.append("reap")
            return []

        async def prune() -> tuple[int, int]:
            return 0, 0

        runtime.sessions.reap = reap  # type: ignore[method-assign]
        runtime.prune = prune  # type: ignore[method-assign]
        runtime._reaper = asyncio.create_task(runtime._reap_forever())
        await reaping.wait()
        await runtime.stop()
        for _ in range(10):  # the reaper's next turns
            await asyncio.sleep(0)
        stopped = runtime._reaper.done()
        runtime._reaper.cancel()
        return stopped, lost

    assert asyncio.run(lose_a_cancellation()) == (True, ["reap"])


def test_a_browser_recovery_stops_with_the_controller_when_its_cancellation_is_lost() -> None:
    """An endpoint's recovery retries, with backoff, until its browser is up; it was ended only by
    stop()'s cancellation. Lost inside an attempt (Python 3.11's asyncio.wait_for returning a launch
    that ended in the turn of the cancellation), it retried on after the service stopped. The first
    attempt here swallows the cancellation, as wait_for would, and fails; stop() must still end it."""
    from pling_browser.errors import BrowserUnavailable
    from pling_browser.runtime import Runtime

    from .conftest import service_settings

    async def lose_a_cancellation() -> tuple[bool, int]:
        controller = Runtime(service_settings()).controller
        trying, tries = asyncio.Event(), []

        async def ensure(endpoint: Any) -> Any:
            tries.append(endpoint)
            trying.set()
            if len(tries) == 1:
                try:  # held until the recovery is cancelled, then the cancellation is dropped
                    await asyncio.Event().wait()
                except asyncio.CancelledError:
                    pass
            raise BrowserUnavailable("no browser here")

        controller._ensure = ensure  # type: ignore[method-assign]
        controller._retry_later(controller.endpoints[0])
        recovering = next(iter(controller._tasks))
        await trying.wait()
        await controller.stop()
        for _ in range(10):  # the recovery's next turns
            await asyncio.sleep(0)
        stopped = recovering.done()
        recovering.cancel()
        return stopped, len(tries)

    assert asyncio.run(lose_a_cancellation()) == (True, 1)


def test_a_session_open_cancelled_as_its_slot_frees_is_cancelled() -> None:
    """An open waiting for a session slot whose caller leaves (its request cancelled) is cancelled, even
    when the caller leaves in the turn the slot frees. Under Python 3.11's asyncio.wait_for the wait
    returned and the cancellation was dropped: the open went on to make a browser context for nobody,
    which held its slot until the idle reaper came. The cancellation is sent as the slot is found free."""
    from pling_browser.errors import BrowserUnavailable
    from pling_browser.runtime import Runtime

    from .conftest import service_settings

    async def cancel_as_freed() -> tuple[bool, list[str]]:
        runtime = Runtime(service_settings(max_sessions=1, warm_contexts=0))
        sessions, loop, went_on = runtime.sessions, asyncio.get_running_loop(), []
        full = sessions._full

        def freed_as_the_caller_leaves() -> bool:
            taken = full()
            if not taken and not opening.done():
                loop.call_soon(opening.cancel)
            return taken

        async def new_context(storage_state: Any = None) -> Any:
            await asyncio.sleep(0)
            went_on.append("a context made")
            raise BrowserUnavailable("no browser in this test")

        sessions._full = freed_as_the_caller_leaves  # type: ignore[method-assign]
        runtime.controller.new_context = new_context  # type: ignore[method-assign]
        sessions._opening = 1  # the one slot is taken
        opening = asyncio.ensure_future(sessions.open("http://127.0.0.1:9/", 1_000))
        while not sessions.waiting:  # the open waits for a slot
            await asyncio.sleep(0)
        sessions._opening = 0
        await sessions._notify()
        await asyncio.wait([opening])
        if not opening.cancelled():
            opening.exception()
        return opening.cancelled(), went_on

    assert asyncio.run(cancel_as_freed()) == (True, [])


def test_a_context_prepared_despite_its_cancellation_is_discarded() -> None:
    """Closing the warm pool cancels the context being prepared; `_make` closes what it had made when
    cancelled. A cancellation lost inside it (Python 3.11's asyncio.wait_for around new_context or
    new_page) returned a prepared context nobody would take or close. Here the preparation swallows the
    cancellation, as wait_for would, and returns what it made: it must be discarded."""
    from pling_browser.core.endpoints import Endpoint
    from pling_browser.core.warm import WarmContexts

    async def lose_a_cancellation() -> int:
        discarded: list[object] = []

        class Made:
            async def discard(self) -> None:
                discarded.append(self)

        making = asyncio.Event()

        async def make(endpoint: Any) -> Any:
            making.set()
            try:  # held until the pool closes, then the cancellation is dropped
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                pass
            return Made()

        endpoint = Endpoint(url=None)
        pool = WarmContexts(1, make, lambda: endpoint)
        pool.refill(0)
        await making.wait()
        await pool.close()
        for _ in range(10):  # the preparation's last turns
            await asyncio.sleep(0)
        return len(discarded)

    assert asyncio.run(lose_a_cancellation()) == 1
