"""One invocation at a time per session, in arrival order (SPEC, "Cancelling"): an invocation that has
to wait for its session is dropped when its caller has gone, and answered SESSION_BUSY past
PLING_INVOKE_WAIT; either way it never started, and the log says so."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..errors import SessionBusy

if TYPE_CHECKING:
    from ..config import Settings
    from ..core.sessions import Session

__all__ = ["CallerCheck", "CallerGone", "Turns"]

GONE_POLL_S = 0.2  # how often a waiting invocation asks whether its caller is still there
BUSY_RETRY_AFTER_S = 5

log = logging.getLogger("pling_browser.runtime")

CallerCheck = Callable[[], Awaitable[bool]]


class CallerGone(Exception):
    """The caller of an invocation still waiting for its session has gone (its connection closed):
    the invocation is dropped before it starts, and there is nobody left to answer."""


class Turns:
    """The sessions' turns: `waiting` counts invocations waiting for their session while another runs
    there; `started` holds the tasks whose invocation got its turn (a caller's cancel no longer stops
    them); `dropped(reason)` counts one dropped before it started."""

    def __init__(self, settings: Settings, dropped: Callable[[str], None]) -> None:
        self.settings = settings
        self._dropped = dropped
        self.waiting = 0
        self.started: weakref.WeakSet[asyncio.Task[Any]] = weakref.WeakSet()
        # Invocations queued for a session, by its id, until they have its turn: a lock that looks free
        # is not taken past them (a queued one's acquire may not have started yet).
        self._queued: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def turn(self, session: Session, what: str, gone: CallerCheck | None) -> AsyncIterator[None]:
        """The session's turn: one invocation at a time, in arrival order. One that has to wait is
        dropped when its caller has gone (CallerGone, logged as not started) and answered SESSION_BUSY
        past PLING_INVOKE_WAIT; either way it never started."""
        await self._wait(session, what, gone)
        holder = asyncio.current_task()
        if holder is not None:
            self.started.add(holder)
        try:
            yield
        finally:
            session.lock.release()

    async def _wait(self, session: Session, what: str, gone: CallerCheck | None) -> None:
        lock = session.lock
        if not lock.locked() and not getattr(lock, "_waiters", True) and session.id not in self._queued:
            # Free, and nobody queued before this one (ours, and asyncio.Lock's own queue; where a Python
            # names it otherwise, the path below): taken at once, without a task and a timed wait around it.
            await lock.acquire()
            return
        self._queued[session.id] = self._queued.get(session.id, 0) + 1
        try:
            await self._queue(session, what, gone)
        finally:
            left = self._queued.pop(session.id) - 1
            if left:
                self._queued[session.id] = left

    async def _queue(self, session: Session, what: str, gone: CallerCheck | None) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.invoke_wait_s
        waiter = asyncio.ensure_future(session.lock.acquire())
        counted = False
        try:
            while True:
                await asyncio.wait({waiter}, timeout=max(0.0, min(GONE_POLL_S, deadline - loop.time())))
                if waiter.done():
                    waiter.result()
                    return
                if not counted:
                    counted = True
                    self.waiting += 1
                if gone is not None and await gone():
                    log.info("%.200s on session %s dropped before it started: its caller has gone (not started)",
                             what, session.id)
                    self._dropped("caller_gone")
                    raise CallerGone(what)
                if loop.time() >= deadline:
                    log.info("%.200s on session %s not started: the session stayed busy for %g s (PLING_INVOKE_WAIT)",
                             what, session.id, self.settings.invoke_wait_s)
                    self._dropped("session_busy")
                    raise SessionBusy(
                        f"Another invocation held session {session.id} for longer than {self.settings.invoke_wait_s:g} s "
                        f"(PLING_INVOKE_WAIT); {what[:200]!r} did not start", retry_after=BUSY_RETRY_AFTER_S)
        except BaseException as error:
            self._give_up(waiter, session.lock)
            if isinstance(error, asyncio.CancelledError):  # its caller cancelled it (an MCP client, say)
                log.info("%.200s on session %s dropped before it started: its caller cancelled it (not started)",
                         what, session.id)
                self._dropped("caller_gone")
            raise
        finally:
            if counted:
                self.waiting -= 1

    @staticmethod
    def _give_up(waiter: asyncio.Future[bool], lock: asyncio.Lock) -> None:
        # The lock may have been handed to us in the same instant: then it is passed on, not kept.
        if not waiter.done():
            waiter.cancel()
            waiter.add_done_callback(lambda w: lock.release() if not w.cancelled() and w.exception() is None else None)
        elif not waiter.cancelled() and waiter.exception() is None:
            lock.release()
