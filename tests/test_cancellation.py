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
