"""The operator console at /console: a web page for the person behind the confirmation channel.

It shows the open sessions, what waits for a person (confirmations with Approve / Deny, handoffs with
Done / Cancel, answered through the API's own routes), each session's receipt log, and a live view of
a session's page in which the person's pointer, wheel and keys reach the page as trusted input.

Routes (left out of the OpenAPI document: they serve a person's browser, not an agent):

  GET  /console                          the page; with ?token=… it sets the console cookie and redirects
  GET  /console/static/{name}            its stylesheet and scripts (static/, no build step)
  GET  /console/state                    sessions, waiting requests and latest receipts, as JSON
  GET  /console/events                   server-sent events: that state first, then every change
  GET  /console/sessions/{sid}/receipts  the latest receipts of a session, oldest first
  GET  /console/sessions/{sid}/view      server-sent events: the live view of a session's page
  POST /console/sessions/{sid}/input     the person's pointer, wheel and keys for that page

Streams. Both event streams are plain SSE (an EventSource reconnects by itself). ASGI tells an
application nothing when the server begins to stop, and a server waits for open responses before it
stops, so every stream ends by itself after STREAM_S seconds with a `bye` event, upon which the page
opens a new one at once; a stream also ends as soon as its client goes away. A stopping service thus
waits at most STREAM_S for its consoles.

The live view is Chromium's screencast (`Page.startScreencast` on a CDP session of its own), pushed
as JPEG frames over SSE: frames come only when the page repaints, and the next frame is requested
(acknowledged) only after the last one was sent, so a slow link gets fewer frames rather than a
queue. Secrets stay out of it as they stay out of /screenshot: while the page holds a restored value
in a field (or shows an operator secret as text), the frames are masked screenshots instead of raw
screencast frames, for the rest of the session.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from ..access import COOKIE, cookie_value
from ...errors import BadRequest, NotFound, PageUnresponsive, PlingError

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page

    from ...runtime import Runtime
    from ...core.sessions import Session

STATIC = Path(__file__).resolve().parent / "static"
FILES = {"console.css": "text/css; charset=utf-8", "console.js": "text/javascript; charset=utf-8",
         "liveview.js": "text/javascript; charset=utf-8"}

STREAM_S = 15.0       # an event stream ends after this long (the page reconnects at once)
TICK_S = 1.0          # how often a stream looks for sessions gone without an event, and its client
PING_S = 10.0         # a comment line, so proxies and a gone client notice
RECENT = 3            # receipts per session in the sessions list
FRAME_MIN_S = 1 / 12  # at most 12 frames a second
MASKED_MIN_S = 0.3    # a masked screenshot at most every 0.3 s
SILENT_S = 3.0        # no frame for this long: the screencast is restarted (a new renderer, a hiccup)
QUALITY = 70
INPUT_S = 5.0

HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
PAGE_HEADERS = {
    **HEADERS,
    # No framing: Approve must not be clickjacked. Everything comes from this origin.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Frame-Options": "DENY",
}
STREAM_HEADERS = {**HEADERS, "X-Accel-Buffering": "no"}


class PersonInput(BaseModel):
    """One gesture of the person in the live view, in the page's CSS pixels (1280 × 800 viewport)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["down", "up", "move", "click", "wheel", "key", "text", "paste"]
    x: float = Field(0, ge=-10_000, le=10_000)
    y: float = Field(0, ge=-10_000, le=10_000)
    button: Literal["left", "middle", "right"] = "left"
    clicks: int = Field(1, ge=1, le=3)
    dx: float = Field(0, ge=-10_000, le=10_000)
    dy: float = Field(0, ge=-10_000, le=10_000)
    key: str | None = Field(None, min_length=1, max_length=64)
    text: str | None = Field(None, min_length=1, max_length=2_000)


def _sse(event: str, data: Any, event_id: int | None = None) -> bytes:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return (head + "data: " + text + "\n\n").encode()


def _summary(entry: dict[str, Any]) -> dict[str, Any]:
    receipt = entry["receipt"]
    error = receipt.get("error") or {}
    return {"seq": entry["seq"], "created": entry["created"], "action": (receipt.get("action") or {}).get("id"),
            "ok": bool(receipt.get("ok")), "code": error.get("code"), "stage": error.get("stage"),
            "warning": bool(receipt.get("warning"))}


class _Background:
    """Clean-up that must finish although the stream that started it was cancelled (a client gone)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()

    def run(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: "asyncio.Task[Any]") -> None:
        self.tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: clean-up of a page that is gone may fail, and that is fine


class Console:
    def __init__(self, runtime: "Runtime") -> None:
        self.runtime = runtime
        self.background = _Background()
        self.masked_sessions: set[str] = set()  # sessions whose live view is masked screenshots from now on

    # -- state --------------------------------------------------------------------------------

    def session_view(self, session: "Session") -> dict[str, Any]:
        view = session.info().model_dump()
        store = self.runtime.store
        view["receipts"] = [_summary(entry) for entry in store.latest(session.id, RECENT)] if store else []
        return view

    def state(self) -> dict[str, Any]:
        return {
            "now": time.time(),
            "sessions": [self.session_view(session) for session in self.runtime.sessions.list()],
            "pending": [pending.view() for pending in self.runtime.gates.waiting()],
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
            yield b"retry: 1000\n\n" + _sse("state", state, self.runtime.events.seq)
            loop = asyncio.get_running_loop()
            ends, pinged = loop.time() + STREAM_S, loop.time()
            while loop.time() < ends:
                done, _ = await asyncio.wait({waiting}, timeout=TICK_S)
                if waiting in done:
                    event = waiting.result()
                    waiting = asyncio.ensure_future(watch.__anext__())
                    translated = self.translate(event)
                    if translated is not None:
                        if translated[0] == "session":
                            known.add(translated[1]["id"])
                        elif translated[0] == "closed":
                            known.discard(translated[1]["session"])
                        yield _sse(*translated, event.get("seq"))
                    continue
                if await request.is_disconnected():
                    return
                # Sessions can end without an event (their browser died): say so.
                open_now = {session.id for session in self.runtime.sessions.list()}
                for sid in sorted(known - open_now):
                    yield _sse("closed", {"session": sid})
                known &= open_now
                if loop.time() - pinged >= PING_S:
                    pinged = loop.time()
                    yield b": ping\n\n"
            yield _sse("bye", {"reconnect": True})
        finally:
            waiting.cancel()
            self.background.run(_close_generator(waiting, watch))

    # -- live view ----------------------------------------------------------------------------

    async def view(self, session: "Session", request: Request) -> AsyncIterator[bytes]:
        self.masked_sessions &= {open_session.id for open_session in self.runtime.sessions.list()}
        screen = Screen(self, session)
        try:
            try:
                await screen.start()
            except Exception as error:  # the page is gone or cannot be watched: say so, end the stream
                yield b"retry: 2000\n\n" + _sse("gone", {"session": session.id, "reason": _message(error)})
                return
            yield b"retry: 1000\n\n" + _sse("hello", {"session": session.id, "viewport": screen.viewport(),
                                                     "url": _url(session.page), "title": await screen.title()})
            loop = asyncio.get_running_loop()
            ends, pinged, sent_at, last = loop.time() + STREAM_S, loop.time(), 0.0, None
            quiet_since = loop.time()
            while loop.time() < ends:
                if session.id not in {open_session.id for open_session in self.runtime.sessions.list()}:
                    yield _sse("gone", {"session": session.id, "reason": "the session was closed"})
                    return
                got = await screen.next_frame(TICK_S)
                if got is None:
                    if await request.is_disconnected():
                        return
                    if loop.time() - quiet_since >= SILENT_S:
                        quiet_since = loop.time()
                        await screen.restart()
                    if loop.time() - pinged >= PING_S:
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
                    picture["url"] = _url(session.page)
                    yield _sse("frame", picture)
                elif picture is None:
                    yield _sse("paused", {"reason": "the page's script does not answer; the view waits for it"})
                screen.ack(got)
            yield _sse("bye", {"reconnect": True})
        finally:
            self.background.run(screen.stop())

    async def person_input(self, session: "Session", gesture: PersonInput) -> None:
        from playwright.async_api import Error as PlaywrightError

        page = session.page
        size = page.viewport_size or {"width": 1280, "height": 800}
        x = min(max(gesture.x, 0.0), size["width"] - 1.0)
        y = min(max(gesture.y, 0.0), size["height"] - 1.0)
        mouse, keyboard = page.mouse, page.keyboard

        async def act() -> None:
            kind = gesture.type
            if kind in ("down", "up", "move", "click", "wheel"):
                await mouse.move(x, y)
            if kind == "down":
                await mouse.down(button=gesture.button, click_count=gesture.clicks)
            elif kind == "up":
                await mouse.up(button=gesture.button, click_count=gesture.clicks)
            elif kind == "click":
                await mouse.click(x, y, button=gesture.button, click_count=gesture.clicks)
            elif kind == "wheel":
                await mouse.wheel(gesture.dx, gesture.dy)
            elif kind == "key":
                if not gesture.key:
                    raise BadRequest("A key gesture needs `key`", issues=[{"path": "key", "problem": "missing"}])
                await keyboard.press(gesture.key)
            elif kind in ("text", "paste"):
                if not gesture.text:
                    raise BadRequest(f"A {kind} gesture needs `text`", issues=[{"path": "text", "problem": "missing"}])
                if kind == "text":
                    await keyboard.type(gesture.text)
                else:
                    await keyboard.insert_text(gesture.text)

        try:
            await asyncio.wait_for(act(), INPUT_S)
        except asyncio.TimeoutError:
            raise PageUnresponsive(f"The page did not take the input within {INPUT_S:g} s") from None
        except PlaywrightError as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            if "Unknown key" in message:
                raise BadRequest(f"Unknown key {gesture.key!r}",
                                 issues=[{"path": "key", "problem": "not a key name Playwright knows"}]) from None
            from ...core.playwright import translate

            raise translate(error) from error
        session.touch()


class Screen:
    """One viewer's live picture of one session's page."""

    def __init__(self, console: Console, session: "Session") -> None:
        self.console = console
        self.session = session
        self.cdp: "CDPSession | None" = None
        self.frame: dict[str, Any] | None = None
        self.arrived = asyncio.Event()
        self._title = (session.title, 0.0)

    @property
    def masked(self) -> bool:
        return self.session.id in self.console.masked_sessions

    def viewport(self) -> dict[str, int]:
        return dict(self.session.page.viewport_size or {"width": 1280, "height": 800})

    async def start(self) -> None:
        from ...core.playwright import translate_playwright_errors

        page = self.session.page
        async with translate_playwright_errors():
            self.cdp = await asyncio.wait_for(page.context.new_cdp_session(page), 10)
            self.cdp.on("Page.screencastFrame", self._on_frame)
            await self._start_screencast()

    async def _start_screencast(self) -> None:
        assert self.cdp is not None
        size = self.viewport()
        await asyncio.wait_for(self.cdp.send("Page.startScreencast", {
            "format": "jpeg", "quality": QUALITY, "maxWidth": size["width"], "maxHeight": size["height"]}), 5)

    async def restart(self) -> None:
        """A fresh first frame (Chromium sends one when a screencast starts)."""
        if self.cdp is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.cdp.send("Page.stopScreencast"), 5)
            await self._start_screencast()

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
        if self.cdp is not None:
            self.console.background.run(self.cdp.send("Page.screencastFrameAck", {"sessionId": frame["sessionId"]}))

    async def title(self) -> str:
        title, at = self._title
        if time.monotonic() - at > 2:
            with contextlib.suppress(Exception):
                title = await asyncio.wait_for(self.session.page.title(), 2)
            self._title = (title, time.monotonic())
        return title

    async def picture(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The frame as the console may show it: as is while the page holds no secret, else a masked
        screenshot. None when that cannot be told (the page's script does not answer)."""
        session, page = self.session, self.session.page
        try:
            marked = await asyncio.wait_for(session.bridge.mark_protected(True), 2)
            secret_text = self._secret_text(page)
            if secret_text is not None and not marked:
                shown = await asyncio.wait_for(secret_text.count(), 2)
            else:
                shown = 0
        except Exception:
            return None
        if marked or shown:
            self.console.masked_sessions.add(session.id)
        viewport = self.viewport()
        if not self.masked:
            metadata = frame.get("metadata") or {}
            return {"mime": "image/jpeg", "data": frame["data"], "viewport": viewport, "masked": False,
                    "scroll": [metadata.get("scrollOffsetX", 0), metadata.get("scrollOffsetY", 0)],
                    "title": await self.title()}
        try:
            mask = [page.locator("[data-pling-masked]"), page.locator("input[type=password]")]
            if secret_text is not None:
                mask.append(secret_text)
            shot = await page.screenshot(type="jpeg", quality=QUALITY, mask=mask, caret="initial", timeout=5_000)
        except Exception:
            return None
        finally:
            if marked:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(session.bridge.mark_protected(False), 2)
        return {"mime": "image/jpeg", "data": base64.b64encode(shot).decode("ascii"), "viewport": viewport,
                "masked": True, "title": await self.title()}

    def _secret_text(self, page: "Page") -> Any:
        """Text in the page that shows an operator secret (a page echoing a typed card number)."""
        values = [value for value in self.console.runtime.operator_secrets.values() if len(value) >= 4]
        if not values:
            return None
        return page.get_by_text(re.compile("|".join(re.escape(value) for value in values)))

    async def stop(self) -> None:
        cdp, self.cdp = self.cdp, None
        if cdp is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(cdp.send("Page.stopScreencast"), 3)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(cdp.detach(), 3)


async def _close_generator(waiting: "asyncio.Future[Any]", generator: Any) -> None:
    with contextlib.suppress(BaseException):
        await waiting
    with contextlib.suppress(BaseException):
        await generator.aclose()


def _url(page: "Page") -> str:
    try:
        return page.url
    except Exception:
        return ""


def _message(error: BaseException) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0][:300]


def console_router(runtime: "Runtime") -> APIRouter:
    router = APIRouter(include_in_schema=False)
    console = Console(runtime)

    @router.get("/console")
    async def page(request: Request) -> Response:
        if getattr(request.state, "token_in_query", False):
            # The token came in the address: keep it in an HttpOnly cookie instead, out of the address
            # bar and history (AccessGuard checked it and took it out of the query).
            answer: Response = RedirectResponse("console", status_code=303, headers=HEADERS)
            token = runtime.settings.token
            if token:
                answer.set_cookie(COOKIE, cookie_value(token), httponly=True, samesite="strict", path="/",
                                  secure=request.url.scheme == "https")
            return answer
        return Response((STATIC / "index.html").read_bytes(), media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)

    @router.get("/console/static/{name}")
    async def static(name: str) -> Response:
        if name not in FILES:
            raise NotFound(f"No console file {name[:100]!r}")
        return Response((STATIC / name).read_bytes(), media_type=FILES[name], headers=HEADERS)

    @router.get("/console/state")
    async def state() -> JSONResponse:
        return JSONResponse(console.state(), headers=HEADERS)

    @router.get("/console/events")
    async def events(request: Request) -> StreamingResponse:
        return StreamingResponse(console.events(request), media_type="text/event-stream", headers=STREAM_HEADERS)

    @router.get("/console/sessions/{sid}/receipts")
    async def receipts(sid: str, limit: int = Query(30, ge=1, le=200)) -> JSONResponse:
        assert runtime.store is not None
        entries = await asyncio.to_thread(runtime.store.latest, sid, limit)
        return JSONResponse({"session": sid, "receipts": entries}, headers=HEADERS)

    @router.get("/console/sessions/{sid}/view")
    async def view(sid: str, request: Request) -> StreamingResponse:
        session = runtime.sessions.get(sid)
        return StreamingResponse(console.view(session, request), media_type="text/event-stream", headers=STREAM_HEADERS)

    @router.post("/console/sessions/{sid}/input")
    async def person_input(sid: str, body: PersonInput) -> dict[str, Any]:
        await console.person_input(runtime.sessions.get(sid), body)
        return {"ok": True}

    return router
