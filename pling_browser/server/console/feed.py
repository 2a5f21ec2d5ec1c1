"""The console's event feed: the state a console page starts from (open sessions with their latest
receipts, what waits for a person) and the runtime's events translated into the changes that page
applies (``GET /console/state``, ``GET /console/events``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from fastapi import Request

from ...errors import PlingError
from . import streams
from .streams import Background, close_generator, sse

if TYPE_CHECKING:
    from ...core.sessions import Session
    from ...runtime import Runtime

RECENT = 3  # receipts per session in the sessions list


def receipt_summary(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored receipt as one line of the sessions list."""
    receipt = entry["receipt"]
    error = receipt.get("error") or {}
    return {"seq": entry["seq"], "created": entry["created"], "action": (receipt.get("action") or {}).get("id"),
            "ok": bool(receipt.get("ok")), "code": error.get("code"), "stage": error.get("stage"),
            "warning": bool(receipt.get("warning"))}


class Feed:
    """The console's view of the runtime: its state now, and each change as an event."""

    def __init__(self, runtime: Runtime, background: Background) -> None:
        self.runtime = runtime
        self.background = background

    def session_view(self, session: Session) -> dict[str, Any]:
        view = session.info().model_dump()
        store = self.runtime.store
        view["receipts"] = [receipt_summary(entry) for entry in store.latest(session.id, RECENT)] if store else []
        return view

    def state(self) -> dict[str, Any]:
        return {
            "now": time.time(),
            "sessions": [self.session_view(session) for session in self.runtime.sessions.list()],
            "pending": [pending.view() for pending in self.runtime.pending_requests.waiting()],
            "confirm": self.runtime.settings.confirm,
        }

    def translate(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """A runtime event as the console's event (what the page needs to update itself)."""
        kind = event.get("kind")
        sid = event.get("session")
        if kind == "session":
            with contextlib.suppress(PlingError):
                return "session", self.session_view(self.runtime.sessions.get(sid))
            return None
        if kind == "closed":
            return "closed", {"session": sid}
        if kind == "pending":
            return "pending", event["request"]
        if kind in ("answered", "withdrawn", "expired"):
            return "resolved", {"id": event.get("id"), "session": sid, "status": kind}
        if kind == "receipt":
            data: dict[str, Any] = {"session": sid, "seq": event.get("receipt_seq"), "created": event.get("at"),
                                    "receipt": event.get("receipt")}
            with contextlib.suppress(PlingError):
                data["info"] = self.session_view(self.runtime.sessions.get(sid))
            return "receipt", data
        return None

    async def events(self, request: Request) -> AsyncIterator[bytes]:
        watch = self.runtime.events.watch()
        # The watcher is registered before the state is read: nothing falls between the two (an event
        # about something already in the state is applied twice, which the page takes in its stride).
        waiting: asyncio.Task[dict[str, Any]] = asyncio.ensure_future(watch.__anext__())
        try:
            await asyncio.sleep(0)
            state = self.state()
            known = {view["id"] for view in state["sessions"]}
            yield b"retry: 1000\n\n" + sse("state", state, self.runtime.events.seq)
            loop = asyncio.get_running_loop()
            ends, pinged = loop.time() + streams.STREAM_S, loop.time()
            while loop.time() < ends:
                done, _ = await asyncio.wait({waiting}, timeout=streams.TICK_S)
                if waiting in done:
                    event = waiting.result()
                    waiting = asyncio.ensure_future(watch.__anext__())
                    translated = self.translate(event)
                    if translated is not None:
                        if translated[0] == "session":
                            known.add(translated[1]["id"])
                        elif translated[0] == "closed":
                            known.discard(translated[1]["session"])
                        yield sse(*translated, event.get("seq"))
                    continue
                if await request.is_disconnected():
                    return
                # Sessions can end without an event (their browser died): say so.
                open_now = {session.id for session in self.runtime.sessions.list()}
                for sid in sorted(known - open_now):
                    yield sse("closed", {"session": sid})
                known &= open_now
                if loop.time() - pinged >= streams.PING_S:
                    pinged = loop.time()
                    yield b": ping\n\n"
            yield sse("bye", {"reconnect": True})
        finally:
            waiting.cancel()
            self.background.run(close_generator(waiting, watch))
