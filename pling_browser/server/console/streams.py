"""What the console's two event streams share: SSE framing, their lifetime, and clean-up that must
outlive them.

ASGI tells an application nothing when the server begins to stop, and a server waits for open
responses before it stops, so every stream ends by itself after ``STREAM_S`` seconds with a ``bye``
event, upon which the page opens a new one at once; a stream also ends as soon as its client goes
away. A stopping service thus waits at most ``STREAM_S`` for its consoles. Streams read these
constants through this module (``streams.STREAM_S``) so that a test can shorten them."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

STREAM_S = 15.0  # an event stream ends after this long (the page reconnects at once)
TICK_S = 1.0     # how often a stream looks for sessions gone without an event, and its client
PING_S = 10.0    # a comment line, so proxies and a gone client notice

HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
STREAM_HEADERS = {**HEADERS, "X-Accel-Buffering": "no"}


def sse(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One server-sent event."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return (head + "data: " + text + "\n\n").encode()


class Background:
    """Clean-up that must finish although the stream that started it was cancelled (a client gone)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()

    def run(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: clean-up of a page that is gone may fail, and that is fine


async def close_generator(waiting: asyncio.Future[Any], generator: Any) -> None:
    """Let a cancelled ``__anext__`` settle, then close the generator it was waiting on."""
    with contextlib.suppress(BaseException):
        await waiting
    with contextlib.suppress(BaseException):
        await generator.aclose()
