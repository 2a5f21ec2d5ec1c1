"""The operator console at /console: a web page for the person behind the confirmation channel.

It shows the open sessions, what waits for a person (confirmations with Approve / Deny, handoffs with
Done / Cancel, answered through the API's own routes), each session's receipt log, and a live view of
a session's page in which the person's pointer, wheel and keys reach the page as trusted input.

Routes (left out of the OpenAPI document: they serve a person's browser, not an agent):

  GET  /console                          the page; with ?token=… it opens a console session and redirects
  POST /console/sign-out                 ends the console session
  GET  /console/static/{name}            its stylesheet and scripts (static/, no build step)
  GET  /console/state                    sessions, waiting requests and latest receipts, as JSON
  GET  /console/events                   server-sent events: that state first, then every change
  GET  /console/sessions/{sid}/receipts  the latest receipts of a session, oldest first
  GET  /console/sessions/{sid}/view      server-sent events: the live view of a session's page
  POST /console/sessions/{sid}/input     the person's pointer, wheel and keys for that page
  POST /console/sessions/{sid}/recording       start recording a draft from the person's input
  GET  /console/sessions/{sid}/recording       its steps so far
  POST /console/sessions/{sid}/recording/stop  stop: the steps and the draft adapter
  GET  /console/sessions/{sid}/recording/draft the draft, as a file to download

Modules: ``feed.py`` (the state and the event feed), ``liveview.py`` (the screencast of a page),
``gestures.py`` (the person's input into it), ``recording.py`` (a draft adapter from what the person
does while "Record" is on), ``streams.py`` (what both event streams share: SSE,
their lifetime, clean-up); the page itself is in ``static/`` (no build step).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse

from ...callers import OPERATOR
from ...errors import NotFound
from ..access import ConsoleSessions, cookie_name
from .feed import Feed
from .gestures import PersonInput, person_input
from .liveview import LiveView
from .recording import Recordings
from .streams import HEADERS, STREAM_HEADERS, Background

if TYPE_CHECKING:
    from ...runtime import Runtime

__all__ = ["console_router"]

STATIC = Path(__file__).resolve().parent / "static"
FILES = {"console.css": "text/css; charset=utf-8", "console.js": "text/javascript; charset=utf-8",
         "liveview.js": "text/javascript; charset=utf-8", "receipts.js": "text/javascript; charset=utf-8",
         "recording.js": "text/javascript; charset=utf-8"}
PAGE_HEADERS = {
    **HEADERS,
    # No framing: Approve must not be clickjacked. Everything comes from this origin.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Frame-Options": "DENY",
}


def console_router(runtime: Runtime, sessions: ConsoleSessions | None = None) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    background = Background()
    _page_routes(router, runtime, sessions)
    _feed_routes(router, runtime, Feed(runtime, background))
    _session_routes(router, runtime, LiveView(runtime, background), Recordings(runtime))
    return router


def _page_routes(router: APIRouter, runtime: Runtime, sessions: ConsoleSessions | None) -> None:
    """The page, signing in and out, its static files."""

    @router.get("/console")
    async def page(request: Request) -> Response:
        if getattr(request.state, "token_in_query", False):
            # The token came in the address (AccessGuard checked it and took it out of the query): open
            # a console session instead, its id in an HttpOnly cookie, its CSRF token in the fragment
            # of the address the browser goes to next (the script keeps it; no server receives it).
            if not (runtime.settings.token or runtime.settings.tokens_file) or sessions is None:
                return RedirectResponse("console", status_code=303, headers=HEADERS)
            host = request.headers.get("host", "")
            sid, csrf = sessions.open(host, getattr(request.state, "caller", OPERATOR))
            answer: Response = RedirectResponse(f"console#csrf={csrf}", status_code=303, headers=HEADERS)
            answer.set_cookie(cookie_name(host), sid, httponly=True, samesite="strict", path="/",
                              max_age=int(sessions.lifetime_s), secure=request.url.scheme == "https")
            return answer
        return Response((STATIC / "index.html").read_bytes(), media_type="text/html; charset=utf-8",
                        headers=PAGE_HEADERS)

    @router.post("/console/sign-out", status_code=204)
    async def sign_out(request: Request) -> Response:
        host = request.headers.get("host", "")
        sid = request.cookies.get(cookie_name(host))
        if sid and sessions is not None:
            sessions.close(sid)
        answer = Response(status_code=204, headers=HEADERS)
        answer.delete_cookie(cookie_name(host), path="/", httponly=True, samesite="strict")
        return answer

    @router.get("/console/static/{name}")
    async def static(name: str) -> Response:
        if name not in FILES:
            raise NotFound(f"No console file {name[:100]!r}")
        return Response((STATIC / name).read_bytes(), media_type=FILES[name], headers=HEADERS)


def _feed_routes(router: APIRouter, runtime: Runtime, feed: Feed) -> None:
    """The state, its event stream, a session's latest receipts."""

    @router.get("/console/state")
    async def state() -> JSONResponse:
        return JSONResponse(feed.state(), headers=HEADERS)

    @router.get("/console/events")
    async def events(request: Request) -> StreamingResponse:
        return StreamingResponse(feed.events(request), media_type="text/event-stream", headers=STREAM_HEADERS)

    @router.get("/console/sessions/{sid}/receipts")
    async def receipts(sid: str, limit: int = Query(30, ge=1, le=200)) -> JSONResponse:
        assert runtime.store is not None
        entries = await asyncio.to_thread(runtime.store.latest, sid, limit)
        return JSONResponse({"session": sid, "receipts": entries}, headers=HEADERS)


def _session_routes(router: APIRouter, runtime: Runtime, live: LiveView, recordings: Recordings) -> None:
    """A session's live view, the person's input into it, and a draft recorded from that input."""

    @router.get("/console/sessions/{sid}/view")
    async def view(sid: str, request: Request) -> StreamingResponse:
        session = runtime.sessions.get(sid)
        return StreamingResponse(live.stream(session, request), media_type="text/event-stream", headers=STREAM_HEADERS)

    @router.post("/console/sessions/{sid}/input")
    async def gesture(sid: str, body: PersonInput) -> dict[str, Any]:
        session = runtime.sessions.get(sid)
        await recordings.around(session, body, lambda: person_input(session, body))
        return {"ok": True}

    @router.post("/console/sessions/{sid}/recording")
    async def record(sid: str) -> JSONResponse:
        session = runtime.sessions.get(sid)
        recording = await recordings.start(session)
        return JSONResponse(session.outbound.data(recording.shown()), headers=HEADERS)

    @router.get("/console/sessions/{sid}/recording")
    async def recorded(sid: str) -> JSONResponse:
        session = runtime.sessions.get(sid)
        return JSONResponse(session.outbound.data(recordings.get(sid).shown()), headers=HEADERS)

    @router.post("/console/sessions/{sid}/recording/stop")
    async def stop_recording(sid: str) -> JSONResponse:
        session = runtime.sessions.get(sid)
        recording = recordings.stop(session)
        return JSONResponse(session.outbound.data({**recording.shown(), "filename": recordings.filename(sid)}), headers=HEADERS)

    @router.get("/console/sessions/{sid}/recording/draft")
    async def draft(sid: str) -> Response:
        runtime.sessions.get(sid)
        recording = recordings.get(sid)
        if recording.draft is None:
            raise NotFound("The recording has no draft yet", hint="Press Stop to write the draft.")
        disposition = f'attachment; filename="{recordings.filename(sid)}"'
        return Response(recording.draft, media_type="text/javascript; charset=utf-8",
                        headers={**HEADERS, "Content-Disposition": disposition})
