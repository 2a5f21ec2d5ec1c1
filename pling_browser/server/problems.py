"""Every HTTP problem is rendered here, in one shape: ``{"error": {code, status, message, hint, …}}``.

Three ways in, one renderer (``problem``):
- a ``ServiceError`` raised by a route (FastAPI's exception handler);
- what the framework refuses by itself: an unknown path (404), a method the path does not take
  (405, keeping the ``Allow`` header), a body or parameters that do not validate (400);
- anything that escapes the routes or the middlewares (``Problems``, the outermost middleware): a
  ``ServiceError`` raised by a middleware such as ``AccessGuard`` with its own status, and any other
  exception as 500 ``INTERNAL_ERROR``, logged with its traceback, never a plain-text 500.
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import BadRequest, InternalError, MethodNotAllowed, NotFound, ServiceError, Unauthorized
from ..runtime import CallerGone

log = logging.getLogger("pling_browser.api")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def problem_body(error: ServiceError) -> dict[str, Any]:
    """The problem's JSON body inside ``{"error": …}`` (REST's, and the text of an MCP tool error)."""
    body = error.to_dict()
    body.pop("stage", None)
    body.pop("started", None)
    body["status"] = error.status
    return body


def problem(error: ServiceError, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The one rendering of a service error: its body, its status and the headers its kind needs."""
    body = problem_body(error)
    out = dict(headers or {})
    if "retry_after" in error.details:
        out["Retry-After"] = str(error.details["retry_after"])
    if isinstance(error, Unauthorized):
        out["WWW-Authenticate"] = "Bearer"
    return JSONResponse({"error": body}, status_code=error.status, headers=out)


def install(app: FastAPI) -> None:
    """Register the handlers for errors raised inside the routes."""

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        return problem(error)

    @app.exception_handler(CallerGone)
    async def caller_gone(request: Request, error: CallerGone) -> Response:
        # An invocation dropped before it started because its caller left: nobody reads this answer
        # (499, as nginx logs a client that closed its request).
        return Response(status_code=499)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Refusals by the framework itself (an unknown path, a method the path does not take).
        path = request.url.path[:200]
        if error.status_code == 404:
            return problem(NotFound(f"No route {path!r}"))
        if error.status_code == 405:
            return problem(MethodNotAllowed(f"{request.method} is not allowed on {path!r}"), error.headers)
        return problem(BadRequest(str(error.detail)[:300]), error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        issues = [{"path": "/".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")}
                  for e in error.errors()[:20]]
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
