"""A handoff, in place of execution: a step only the person may do. It waits in /pending until the
person answers, the page's ``done()`` turns true by itself, or its ``timeoutMs`` passes. Never
confirmed, never simulated."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..core.bridge import BridgeError
from ..errors import HandoffCancelled, HandoffFailed, HandoffTimeout, PlingError
from .codes import LogEvent
from .context import Invocation

DEFAULT_TIMEOUT_MS = 120_000
POLL_S = 0.25


async def _watch_done(inv: Invocation, done: asyncio.Future[Any]) -> None:
    while not done.done():
        await asyncio.sleep(POLL_S)
        with contextlib.suppress(BridgeError, PlingError):
            if (await inv.session.bridge.handoff_state(inv.ref)).done and not done.done():
                done.set_result(True)


async def handoff(inv: Invocation) -> None:
    assert inv.decl is not None and inv.request.pending_requests is not None
    decl = inv.decl
    timeout_s = (decl.timeoutMs or DEFAULT_TIMEOUT_MS) / 1000
    request = inv.outbound.data({"action": inv.ref, "description": decl.description, "region": decl.region,
                                 "params": decl.params, "args": inv.args})
    pending = inv.request.pending_requests.open("handoff", inv.session.id, request, timeout_s)
    inv.note(LogEvent.HANDOFF_WAITING, pending=pending.id)
    page_done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    watcher = asyncio.create_task(_watch_done(inv, page_done))
    try:
        outcome, answer = await inv.request.pending_requests.wait(pending, also=page_done)
    finally:
        # The watcher's loop ends by its own test too: on Python 3.11 a cancellation that arrives in the
        # same turn as a bridge call's answer is lost inside asyncio.wait_for, and the loop polled on
        # while this awaited it (the invocation, and the session's close behind it, never answered).
        if not page_done.done():
            page_done.cancel()
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
    if outcome == "expired":
        raise HandoffTimeout(f"Nobody did the step within {timeout_s:g} s", waited_s=timeout_s)
    if outcome == "withdrawn":
        raise HandoffCancelled("The session was closed while the step was waiting", outcome="withdrawn")
    if outcome == "page":
        inv.note(LogEvent.HANDOFF_PAGE_DONE)
        return
    if answer == "cancel":
        raise HandoffCancelled("The person cancelled the step", outcome="cancel")
    state = await inv.session.bridge.handoff_state(inv.ref)
    if not state.done:
        raise HandoffFailed("The person said the step is done, but the page's done() does not hold",
                            outcome="done", check_error=state.error)
    inv.note(LogEvent.HANDOFF_PERSON_DONE)
