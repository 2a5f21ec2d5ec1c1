"""The live view of a session's page (``GET /console/sessions/{sid}/view``).

It is Chromium's screencast (``Page.startScreencast`` on a CDP session of its own), pushed as JPEG
frames over SSE: frames come only when the page repaints, and the next frame is requested
(acknowledged) only after the last one was sent, so a slow link gets fewer frames rather than a
queue. Secrets stay out of it as they stay out of /screenshot: while the page holds a restored value
in a field (or shows an operator secret as text), the frames are masked screenshots instead of raw
screencast frames, for the rest of the session."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from fastapi import Request

from . import streams
from .streams import Background, sse

if TYPE_CHECKING:
    from ...core.handle import Screencast
    from ...core.sessions import Session
    from ...runtime import Runtime

FRAME_MIN_S = 1 / 12  # at most 12 frames a second
MASKED_MIN_S = 0.3    # a masked screenshot at most every 0.3 s
SILENT_S = 3.0        # no frame for this long: the screencast is restarted (a new renderer, a hiccup)
QUALITY = 70


class LiveView:
    """Every viewer's stream of pictures, and which sessions are masked from now on."""

    def __init__(self, runtime: Runtime, background: Background) -> None:
        self.runtime = runtime
        self.background = background
        self.masked_sessions: set[str] = set()  # sessions whose live view is masked screenshots from now on

    def _open(self) -> set[str]:
        return {open_session.id for open_session in self.runtime.sessions.list()}

    async def stream(self, session: Session, request: Request) -> AsyncIterator[bytes]:
        self.masked_sessions &= self._open()
        screen = Screen(self, session)
        try:
            try:
                await screen.start()
            except Exception as error:  # the page is gone or cannot be watched: say so, end the stream
                yield b"retry: 2000\n\n" + sse("gone", {"session": session.id, "reason": _message(error)})
                return
            yield b"retry: 1000\n\n" + sse("hello", {"session": session.id, "viewport": screen.viewport(),
                                                    "url": _url(session), "title": await screen.title()})
            loop = asyncio.get_running_loop()
            ends, pinged, sent_at, last = loop.time() + streams.STREAM_S, loop.time(), 0.0, None
            quiet_since = loop.time()
            while loop.time() < ends:
                if session.id not in self._open():
                    yield sse("gone", {"session": session.id, "reason": "the session was closed"})
                    return
                got = await screen.next_frame(streams.TICK_S)
                if got is None:
                    if await request.is_disconnected():
                        return
                    if loop.time() - quiet_since >= SILENT_S:
                        quiet_since = loop.time()
                        await screen.restart()
                    if loop.time() - pinged >= streams.PING_S:
                        pinged = loop.time()
                        yield b": ping\n\n"
                    continue
                quiet_since = loop.time()
                wait = (MASKED_MIN_S if screen.masked else FRAME_MIN_S) - (loop.time() - sent_at)
                if wait > 0:
                    await asyncio.sleep(wait)
                picture = await screen.picture(got)
                if picture is not None and picture["data"] != last:
                    last = picture["data"]
                    sent_at = loop.time()
                    picture["url"] = _url(session)
                    yield sse("frame", picture)
                elif picture is None:
                    yield sse("paused", {"reason": "the page's script does not answer; the view waits for it"})
                screen.ack(got)
            yield sse("bye", {"reconnect": True})
        finally:
            self.background.run(screen.stop())


class Screen:
    """One viewer's live picture of one session's page."""

    def __init__(self, live: LiveView, session: Session) -> None:
        self.live = live
        self.session = session
        self.cast: Screencast | None = None
        self.frame: dict[str, Any] | None = None
        self.arrived = asyncio.Event()
        self._title = (session.title, 0.0)

    @property
    def masked(self) -> bool:
        return self.session.id in self.live.masked_sessions

    def viewport(self) -> dict[str, int]:
        return self.session.handle.viewport()

    async def start(self) -> None:
        self.cast = await self.session.handle.screencast(self._on_frame, QUALITY)

    async def restart(self) -> None:
        """A fresh first frame (Chromium sends one when a screencast starts)."""
        if self.cast is not None:
            await self.cast.restart()

    def _on_frame(self, params: dict[str, Any]) -> None:
        if self.frame is not None:
            self.ack(self.frame)  # a newer frame replaces one not yet sent
        self.frame = params
        self.arrived.set()

    async def next_frame(self, timeout: float) -> dict[str, Any] | None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.arrived.wait(), timeout)
        frame, self.frame = self.frame, None
        self.arrived.clear()
        return frame

    def ack(self, frame: dict[str, Any]) -> None:
        if self.cast is not None:
            self.live.background.run(self.cast.ack(frame))

    async def title(self) -> str:
        title, at = self._title
        if time.monotonic() - at > 2:
            with contextlib.suppress(Exception):
                title = await self.session.handle.title(2)
            self._title = (title, time.monotonic())
        return self.session.outbound.text(title)

    async def picture(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The frame as the console may show it: as is while the page holds no secret, else a masked
        screenshot. None when that cannot be told (the page's script does not answer)."""
        session, page = self.session, self.session.handle
        try:
            marked = await asyncio.wait_for(session.bridge.mark_protected(True), 2)
            shown = 0 if marked else await page.secret_text_shown(2)
        except Exception:
            return None
        if marked or shown:
            self.live.masked_sessions.add(session.id)
        viewport = self.viewport()
        if not self.masked:
            metadata = frame.get("metadata") or {}
            return {"mime": "image/jpeg", "data": frame["data"], "viewport": viewport, "masked": False,
                    "scroll": [metadata.get("scrollOffsetX", 0), metadata.get("scrollOffsetY", 0)],
                    "title": await self.title()}
        try:
            shot = await page.screenshot(jpeg_quality=QUALITY, caret="initial", timeout_ms=5_000)
        except Exception:
            return None
        finally:
            if marked:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(session.bridge.mark_protected(False), 2)
        return {"mime": "image/jpeg", "data": base64.b64encode(shot).decode("ascii"), "viewport": viewport,
                "masked": True, "title": await self.title()}

    async def stop(self) -> None:
        cast, self.cast = self.cast, None
        if cast is not None:
            await cast.stop()


def _url(session: Session) -> str:
    """The page's address as the console may show it (masked like session info)."""
    try:
        return session.outbound.text(session.handle.url)
    except Exception:
        return ""


def _message(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0][:300]
