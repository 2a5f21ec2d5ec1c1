"""The HTTP API: ``create_app()``. The lifespan owns the runtime (browser and sessions); the routes
live in ``routes/`` (one module per resource), the operator console in ``console/``, MCP in
``mcp.py``; ``problems.py`` renders every error as RFC 9457 problem details; ``openapi.py`` completes the document.

Requests pass, from the outside in: ``Problems`` (anything that escapes is answered as a problem),
``AccessGuard`` (host, origin, token, size), ``McpSessionOwners`` (an MCP session id is its caller's), the
origin note, then the routes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from mcp.server.transport_security import TransportSecuritySettings

from .. import __version__
from ..bodies import ProblemDetails
from ..callers import load_callers
from ..config import Settings
from ..runtime import Runtime
from . import problems
from .access import AccessGuard, ConsoleSessions
from .console import console_router
from .mcp import create_mcp
from .mcp_sessions import McpSessionOwners
from .openapi import document
from .routes import OWNED, actions, errors, gates, own_origin, profiles, receipts, service, sessions, static

PROBLEM_STATUSES = (400, 401, 403, 404, 405, 409, 410, 413, 422, 429, 500, 502, 503, 504)


class RememberOrigin:
    """Where this service is reached: its own /demo/ pages are always allowed to open. A plain ASGI
    middleware: ``@app.middleware("http")`` (Starlette's BaseHTTPMiddleware) runs every request in a
    task of its own and streams the answer through a memory channel, a millisecond per invocation."""

    def __init__(self, app: Any, runtime: Runtime) -> None:
        self.app = app
        self.runtime = runtime

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.runtime.own_origin = own_origin(Request(scope))
        await self.app(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    runtime = Runtime(settings)
    mcp = create_mcp(runtime)
    # Host, Origin and token checks are AccessGuard's, for MCP as for REST.
    mcp_routes = mcp.streamable_http_app(
        streamable_http_path="/mcp",
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False)).routes

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        try:
            async with mcp.session_manager.run(), mcp.pages.running():
                yield
        finally:
            await runtime.stop()

    problem = {"model": ProblemDetails, "description": "A problem with the request or the session (RFC 9457)"}
    # Operation ids are the route functions' names (open_session, invoke_action, …), so generated
    # clients get readable method names.
    app = FastAPI(title="Pling browser", version=__version__, lifespan=lifespan,
                  generate_unique_id_function=lambda route: route.name,
                  description="Operate web pages through their declared capability model.",
                  responses={status: problem for status in PROBLEM_STATUSES})
    app.state.runtime = runtime
    app.openapi = lambda: document(app, ProblemDetails.__name__)  # type: ignore[method-assign]
    problems.install(app)

    app.add_middleware(RememberOrigin, runtime=runtime)
    app.add_middleware(McpSessionOwners)  # inside AccessGuard: the caller is named
    for module in (service, errors, sessions, profiles, actions, receipts, gates, static):
        app.include_router(module.router, dependencies=OWNED)  # an agent reaches only its own sessions
    console = ConsoleSessions(settings.console_idle_s, settings.console_lifetime_s)
    app.state.console_sessions = console
    app.include_router(console_router(runtime, console))
    app.router.routes.extend(mcp_routes)
    app.add_middleware(AccessGuard, token=settings.token, console=console, callers=load_callers(settings.tokens_file))
    app.add_middleware(problems.Problems)  # added last: the outermost
    app.mount("/demo", static.demo_files(), name="demo")
    return app
