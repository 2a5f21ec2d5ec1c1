"""Browser contexts prepared ahead (PLING_WARM_CONTEXTS): a few contexts made exactly as a session's
fresh one is (same options, init scripts, adapters, its own egress proxy), each with a blank page whose
renderer has started and whose bridge is attached, so opening a session only navigates. Each is given
to one session and never back: a closed session's context is closed, never returned here. Sessions
opened with a profile (cookies and storage in the context's options) never take one.

Refilled in the background after an open has finished, so the refill does not compete with it for the
CPU. A browser that is lost takes its prepared contexts with it: they are dropped when found, and one
is handed out only after its page answered a round trip, so a browser or driver that died a moment
before (not noticed yet) never fails the open that would have taken its context."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

    from .bridge import Bridge
    from .browsers import Endpoint
    from .egress import EgressProxy

log = logging.getLogger("pling_browser")

PROBE_S = 5.0  # a prepared page that does not answer a round trip in this long is not handed out


@dataclass
class Prepared:
    """A context for one session, with its proxy and endpoint, its blank page and that page's bridge
    attached (core/browsers.py ``_prepare``), whether prepared ahead or fresh."""

    context: BrowserContext
    proxy: EgressProxy
    endpoint: Endpoint
    generation: int
    page: Page | None = None
    bridge: Bridge | None = None

    @property
    def usable(self) -> bool:
        return (self.endpoint.up and self.endpoint.generation == self.generation
                and self.page is not None and not self.page.is_closed())

    async def answers(self) -> bool:
        """Its page still answers a round trip. A browser or driver that died a moment ago may not have
        been noticed yet (`usable` still holds): a context of it would fail the open it was given to."""
        if self.page is None:
            return False
        try:
            await asyncio.wait_for(self.page.evaluate("0"), PROBE_S)
        except Exception:
            return False
        return True

    async def discard(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.context.close(), 5)
        await self.proxy.stop()


@dataclass
class _Making:
    """The context being prepared now; an open that finds the pool empty claims it instead of starting
    another (back-to-back opens then each get the one begun when the previous open ended)."""

    endpoint: Endpoint
    task: asyncio.Task[Prepared]
    # The endpoint's browser when it began: a browser lost since takes it along (a call on the dead one
    # may not answer before _prepare's own 30 s bound), so no open waits for it.
    generation: int = 0
    claimed: bool = False
    lost: asyncio.Event = field(default_factory=asyncio.Event)  # set when that browser is lost (`WarmContexts.lost`)


class WarmContexts:
    """Up to `size` prepared contexts; `make(endpoint)` prepares one on an endpoint, `endpoint()`
    names the endpoint to prepare on (None: none is up, nothing is prepared)."""

    REFILL_DELAY_S = 0.05  # after an open, so its answer (the model read) does not share the CPU with it

    def __init__(self, size: int, make: Callable[[Endpoint], Awaitable[Prepared]],
                 endpoint: Callable[[], Endpoint | None]) -> None:
        self.size = size
        self._make = make
        self._endpoint = endpoint
        self._ready: list[Prepared] = []
        self._making: _Making | None = None
        self._filling: asyncio.Task[None] | None = None
        self._closed = False
        self.prepared = 0  # contexts prepared so far

    def __len__(self) -> int:
        return len(self._ready)

    async def take(self, endpoint: Endpoint) -> Prepared | None:
        """A prepared context on `endpoint`, taken out of the pool for good (the one being prepared,
        when none is ready); None when there is none."""
        for prepared in list(self._ready):
            if prepared not in self._ready:
                continue  # another open took it while this one checked another
            if not prepared.usable:
                self._ready.remove(prepared)
                asyncio.ensure_future(prepared.discard())
            elif prepared.endpoint is endpoint:
                self._ready.remove(prepared)
                if await prepared.answers():
                    return prepared
                log.info("a prepared browser context did not answer: it is dropped, the open goes on without it")
                asyncio.ensure_future(prepared.discard())
        making = self._making
        if making is None or making.claimed or making.endpoint is not endpoint or making.generation != endpoint.generation:
            return None
        making.claimed = True
        lost = asyncio.ensure_future(making.lost.wait())
        try:
            await asyncio.wait({making.task, lost}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            # Our open was cancelled: whatever the preparation gives is nobody's.
            making.task.add_done_callback(_discard_result)
            raise
        finally:
            lost.cancel()
        if not making.task.done():  # its browser was lost meanwhile: what it gives is nobody's
            making.task.add_done_callback(_discard_result)
            return None
        try:
            prepared = making.task.result()
        except Exception:
            return None  # the open makes a fresh one, and says why if that fails too
        if prepared.usable and await prepared.answers():
            return prepared
        asyncio.ensure_future(prepared.discard())
        return None

    def lost(self, endpoint: Endpoint) -> None:
        """The browser of `endpoint` is gone: an open waiting for the context being prepared on it goes on
        without it (a call on the dead browser may not answer before _prepare's own 30 s bound)."""
        if self._making is not None and self._making.endpoint is endpoint:
            self._making.lost.set()

    def refill(self, delay_s: float | None = None) -> None:
        """Prepare contexts in the background until the pool is full (nothing when one fill runs)."""
        if self.size <= 0 or self._closed or (self._filling is not None and not self._filling.done()):
            return
        self._filling = asyncio.ensure_future(self._fill(self.REFILL_DELAY_S if delay_s is None else delay_s))

    async def _fill(self, delay_s: float) -> None:
        await asyncio.sleep(delay_s)
        while not self._closed and len(self._ready) < self.size:
            endpoint = self._endpoint()
            if endpoint is None:
                return
            making = self._making = _Making(endpoint, asyncio.ensure_future(self._make(endpoint)), endpoint.generation)
            try:
                prepared = await asyncio.shield(making.task)
            except asyncio.CancelledError:
                if not making.claimed:
                    making.task.cancel()  # _make closes what it had made
                    # ... unless the cancellation was lost inside it (Python 3.11's asyncio.wait_for):
                    # then what it returns is nobody's, and is closed here.
                    making.task.add_done_callback(_discard_result)
                raise
            except Exception as error:  # the next open tries again; sessions open fresh meanwhile
                log.info("a browser context could not be prepared ahead: %s", str(error)[:200])
                return
            finally:
                self._making = None
            self.prepared += 1
            if making.claimed:
                continue  # an open took it as it was being made
            if self._closed:
                await prepared.discard()
                return
            self._ready.append(prepared)

    async def close(self) -> None:
        """Stop preparing and close every prepared context (the service is stopping)."""
        self._closed = True
        filling, self._filling = self._filling, None
        if filling is not None:
            filling.cancel()
            with contextlib.suppress(BaseException):
                await filling
        ready, self._ready = self._ready, []
        for prepared in ready:
            await prepared.discard()


def _discard_result(task: asyncio.Task[Prepared]) -> None:
    if not task.cancelled() and task.exception() is None:
        asyncio.ensure_future(task.result().discard())
