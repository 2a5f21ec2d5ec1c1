"""Every HTTP problem is rendered here, as RFC 9457 problem details (``application/problem+json``):

    {"type": "/errors#SESSION_NOT_FOUND", "title": "Session not found", "status": 404,
     "detail": "No session 's_x'", "code": "SESSION_NOT_FOUND", "hint": "List sessions with …", …details}

``type`` is a URI reference resolved against the request's URL: the service serves the page it points at
(``GET /errors``, one anchor per code; routes/errors.py), and the same problem has the same ``type`` on
every deployment. ``title`` is the same for every occurrence of a code; ``detail`` says what happened
this time; ``code`` and ``hint`` (the next step) are extensions, and so is every detail of the error
(``issues``, ``available``, ``retry_after`` …).

Three ways in, one renderer (``problem``):
- a ``ServiceError`` raised by a route (FastAPI's exception handler);
- what the framework refuses by itself: an unknown path (404), a method the path does not take (405,
  with ``Allow`` naming every method of the path, from every route that matches it), a body or
  parameters that do not validate (400);
- anything that escapes the routes or the middlewares (``Problems``, the outermost middleware): a
  ``ServiceError`` raised by a middleware such as ``AccessGuard`` with its own status, and any other
  exception as 500 ``INTERNAL_ERROR``, logged with its traceback, never a plain-text 500.

A problem raised by a route leaves through the way out of the session it is about (core/outbound.py):
its detail may repeat what a page or an agent wrote, and the session's values are masked in it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount, Route

from ..core.outbound import NOTHING, Outbound
from ..errors import (
    INVOCATION_CODES,
    SERVICE_CODES,
    BadRequest,
    InternalError,
    MethodNotAllowed,
    NotFound,
    PlingError,
    ServiceError,
    Unauthorized,
)
from ..runtime import CallerGone

log = logging.getLogger("pling_browser.api")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "/errors#"  # the page GET /errors serves, one anchor per code
METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def title(error: type[PlingError]) -> str:
    """The same for every occurrence of a code: the class name in words (SessionNotFound -> "Session not found")."""
    words = re.findall(r"[A-Z][a-z]*", error.__name__)
    return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else error.code


def problem_type(code: str) -> str:
    return TYPE_BASE + code


def problem_body(error: PlingError) -> dict[str, Any]:
    """The problem details of an error: REST's body, and the text of an MCP tool error. An invocation
    error (no HTTP status of its own) keeps its ``stage`` and ``started`` instead of a ``status``."""
    # The title of the code's own class: a refinement core raises (core/bridge.py's CutByNavigation, a
    # SessionLost) is titled as the code it answers with.
    kind = SERVICE_CODES.get(error.code) or INVOCATION_CODES.get(error.code) or type(error)
    body: dict[str, Any] = {"type": problem_type(error.code), "title": title(kind)}
    if isinstance(error, ServiceError):
        body["status"] = error.status
    else:
        body["stage"], body["started"] = error.stage, error.started
    body["detail"] = error.message
    body["code"] = error.code
    if error.hint:
        body["hint"] = error.hint
    for key, value in error.details.items():
        body.setdefault(key, value)  # a detail never overwrites a member of the problem itself
    return body


class ProblemResponse(JSONResponse):
    media_type = MEDIA_TYPE


def problem(error: ServiceError, headers: Mapping[str, str] | None = None, outbound: Outbound = NOTHING) -> ProblemResponse:
    """The one rendering of a service error: its body (through `outbound`, the way out of the session it
    is about), its status and the headers its kind needs."""
    out = dict(headers or {})
    if "retry_after" in error.details:
        out["Retry-After"] = str(error.details["retry_after"])
    if isinstance(error, Unauthorized):
        out["WWW-Authenticate"] = "Bearer"
    return ProblemResponse(outbound.data(problem_body(error)), status_code=error.status, headers=out)


def allowed_methods(request: Request, also: str = "") -> str:
    """Every method some route takes on the request's path (Starlette's 405 names one route's only):
    each method is asked of every route as the router would. A mount (the demo's static files) and the
    MCP endpoint take any method at routing and refuse in their own 405, whose `also` is kept."""
    methods = {m.strip().upper() for m in also.split(",") if m.strip()}
    for route in request.app.router.routes:
        if isinstance(route, Mount) or (isinstance(route, Route) and not route.methods):
            continue
        for method in METHOD_ORDER:
            if method not in methods and route.matches({**request.scope, "method": method})[0] == Match.FULL:
                methods.add(method)
    known = [m for m in METHOD_ORDER if m in methods]
    return ", ".join(known + sorted(methods - set(known)))


def install(app: FastAPI) -> None:
    """Register the handlers for errors raised inside the routes."""

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> Response:
        runtime = getattr(request.app.state, "runtime", None)
        sid = request.path_params.get("sid")
        return problem(error, outbound=runtime.sessions.outbound(sid) if runtime is not None else NOTHING)

    @app.exception_handler(CallerGone)
    async def caller_gone(request: Request, error: CallerGone) -> Response:
        # An invocation dropped before it started because its caller left: nobody reads this answer
        # (499, as nginx logs a client that closed its request).
        return Response(status_code=499)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        # Refusals by the framework itself (an unknown path, a method the path does not take).
        path = request.url.path[:200]
        if error.status_code == 404:
            return problem(NotFound(f"No route {path!r}"))
        if error.status_code == 405:
            headers = dict(error.headers or {})
            headers["Allow"] = allowed_methods(request, headers.pop("Allow", headers.pop("allow", "")))
            return problem(MethodNotAllowed(f"{request.method} is not allowed on {path!r}", allow=headers["Allow"]), headers)
        return problem(BadRequest(str(error.detail)[:300]), error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> Response:
        issues = [{"path": "/".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
                  for e in error.errors()[:20]]
        # Logged, so a refused request is not lost without a trace (the filter escapes the agent's text).
        log.info("refused %s %s (400): %s", request.method, request.url.path[:200],
                 "; ".join(f"{i['path']}: {i['problem']}" for i in issues)[:500])
        return problem(BadRequest("The request body or parameters are not valid", issues=issues))


class Problems:
    """The outermost middleware: what escapes everything inside it is answered as a problem, as long as
    no response has begun (a stream that fails halfway can only be cut)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: dict[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except ServiceError as error:
            if started:
                raise
            await problem(error)(scope, receive, send)
        except Exception:
            log.exception("unexpected error answering %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            error = InternalError("The service failed unexpectedly while answering this request")
            await problem(error)(scope, receive, send)
