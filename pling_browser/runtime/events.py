"""What happened in the runtime, for whoever watches (the operator console): sessions opened and
closed, requests waiting for a person and their answers, receipts. In memory, per process; a slow
watcher loses the oldest events rather than slowing the runtime."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..core.outbound import NOTHING, Outbound

QUEUE = 256


class Events:
    """`outbound` answers the way out for a session's events (by its id): every event leaves through it."""

    def __init__(self, outbound: Callable[[str | None], Outbound] = lambda sid: NOTHING) -> None:
        self._watchers: set[asyncio.Queue[dict[str, Any]]] = set()
        self._outbound = outbound
        self.seq = 0

    def publish(self, kind: str, **data: Any) -> None:
        self.seq += 1
        session = data.get("session")
        event = self._outbound(session if isinstance(session, str) else None).data(
            {"seq": self.seq, "kind": kind, "at": time.time(), **data})
        for queue in list(self._watchers):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(event)

    async def watch(self) -> AsyncIterator[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE)
        self._watchers.add(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._watchers.discard(queue)
