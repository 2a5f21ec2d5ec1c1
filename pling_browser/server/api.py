"""The HTTP API: ``create_app()``. The lifespan owns the runtime (browser and sessions); one handler
renders every problem as ``{"error": {code, message, hint, …}}`` with its status."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Literal

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from .access import AccessGuard
from ..core.bridge import bridge_source
from ..config import Settings
from ..errors import BadRequest, MethodNotAllowed, NotFound, ServiceError, SessionNotFound, ToolNotFound
from ..models import (ConfirmationAnswer, HTTPProblem, CreateSession, HandoffAnswer, InvokeAnswer, InvokeRequest, PageModel,
                     PendingList, Receipt, ReceiptLog, ResumeRequest, SessionInfo, SessionOpened, ToolCall)
from ..core.sessions import Session
from ..runtime import Runtime, demo_dir

log = logging.getLogger("pling_browser.api")

DEMO_PAGE = "/demo/todos.html"


def _problem(error: ServiceError) -> JSONResponse:
    body = error.to_dict()
    body.pop("stage", None)
    body.pop("started", None)
    body["status"] = error.status
    headers = {}
    if "retry_after" in error.details:
        headers["Retry-After"] = str(error.details["retry_after"])
    return JSONResponse({"error": body}, status_code=error.status, headers=headers)


def _own_origin(request: Request) -> str:
    host, port = request.scope.get("server") or ("127.0.0.1", 80)
    host = f"[{host}]" if ":" in host else host
    return f"{request.url.scheme}://{host}:{port}"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    runtime = Runtime(settings)

    from .mcp import create_mcp

    mcp = create_mcp(runtime)
    from mcp.server.transport_security import TransportSecuritySettings

    # Host, Origin and token checks are AccessGuard's, for MCP as for REST.
    mcp_routes = mcp.streamable_http_app(
        streamable_http_path="/mcp",
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False)).routes

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await runtime.start()
        app.state.runtime = runtime
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            await runtime.stop()

    problem = {"model": HTTPProblem, "description": "A problem with the request or the session"}
    app = FastAPI(title="Pling browser", version=__version__, lifespan=lifespan,
                  description="Operate web pages through their declared capability model.",
                  responses={status: problem for status in (400, 401, 403, 404, 405, 409, 410, 413, 422, 429, 502, 503, 504)})

    @app.middleware("http")
    async def remember_origin(request: Request, call_next: Any) -> Any:
        # Where this service is reached: its own /demo/ pages are always allowed to open.
        runtime.own_origin = _own_origin(request)
        return await call_next(request)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        return _problem(error)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Errors raised by the framework itself (a body that is not JSON, an unknown path) in our shape.
        codes = {400: BadRequest, 404: SessionNotFound}
        if error.status_code == 404:
            return _problem(NotFound(f"No route {request.url.path[:200]!r}"))
        if error.status_code == 405:
            return _problem(MethodNotAllowed(f"{request.method} is not allowed on {request.url.path[:200]!r}"))
        return _problem(codes.get(error.status_code, BadRequest)(str(error.detail)[:300]))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        issues = [{"path": "/".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")} for e in error.errors()[:20]]
        return _problem(BadRequest("The request body or parameters are not valid", issues=issues))

    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict[str, Any]:
        status = runtime.controller.browser_status
        return {"ok": bool(status["connected"]), "browser": status, "sessions": len(runtime.sessions)}

    @app.get("/metrics", tags=["service"], response_class=PlainTextResponse,
             responses={200: {"content": {"text/plain": {}}}})
    async def metrics() -> PlainTextResponse:
        return PlainTextResponse(runtime.metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8")

    @app.post("/sessions", status_code=201, response_model=SessionOpened, tags=["sessions"])
    async def open_session(body: CreateSession, request: Request) -> Response:
        own = _own_origin(request)
        session = await runtime.open(body.url or own + DEMO_PAGE, timeout_ms=body.timeout_ms)
        model = await runtime.model_json(session)
        text = '{"session":' + session.info().model_dump_json() + ',"model":' + model + "}"
        return Response(text, status_code=201, media_type="application/json")

    @app.get("/sessions", response_model=list[SessionInfo], tags=["sessions"])
    async def list_sessions() -> list[SessionInfo]:
        return [session.info() for session in runtime.sessions.list()]

    @app.get("/sessions/{sid}", response_model=SessionInfo, tags=["sessions"])
    async def read_session(sid: str) -> SessionInfo:
        return runtime.sessions.get(sid).info()

    @app.delete("/sessions/{sid}", tags=["sessions"])
    async def close_session(sid: str) -> dict[str, str]:
        await runtime.close(sid)
        return {"closed": sid}

    @app.get("/sessions/{sid}/model", response_model=PageModel, tags=["model"])
    async def read_model(
        sid: str,
        offset: int = Query(0, ge=0, description="First record of the item window."),
        limit: int = Query(50, ge=0, le=1000, description="Records with fields in the window."),
        type: str | None = Query(None, description="Apply the window to this record type only."),
        ids: str | None = Query(None, description="Comma-separated record ids: items for exactly these."),
    ) -> Response:
        session = runtime.sessions.get(sid)
        window: dict[str, Any] = {"offset": offset, "limit": limit}
        if type:
            window["type"] = type
        if ids:
            window["ids"] = [part for part in ids.split(",") if part][:1000]
        text = await runtime.model_json(session, window)
        return Response(text, media_type="application/json")

    @app.post("/sessions/{sid}/invoke", response_model=InvokeAnswer, tags=["actions"])
    async def invoke_action(sid: str, body: InvokeRequest,
                            idempotency_key: str | None = Header(None, max_length=200)) -> JSONResponse:
        receipt = await runtime.once(
            sid, idempotency_key, ["invoke", body.model_dump()],
            lambda session: runtime.invoke(session, body.action, body.args, evidence=body.evidence))
        return JSONResponse({"result": receipt})

    @app.get("/sessions/{sid}/receipts", response_model=ReceiptLog, tags=["actions"])
    async def receipt_log(sid: str, after: int = Query(0, ge=0, le=2**62), limit: int = Query(50, ge=1, le=500)) -> dict[str, Any]:
        assert runtime.store is not None
        entries = runtime.store.receipts(sid, after, limit)
        return {"session": sid, "receipts": entries, "next": entries[-1]["seq"] if entries else after}

    @app.post("/sessions/{sid}/resume", response_model=InvokeAnswer, tags=["actions"])
    async def resume_flow(sid: str, body: ResumeRequest) -> JSONResponse:
        receipt = await runtime.once(sid, None, ["resume", body.handle],
                                     lambda session: runtime.resume(session, body.handle, evidence=body.evidence))
        return JSONResponse({"result": receipt})

    @app.get("/sessions/{sid}/tools", tags=["agents"])
    async def list_tools(sid: str, format: Literal["openai", "anthropic", "mcp"] = "openai") -> dict[str, Any]:
        from ..agents.tools import tools

        model = await runtime.model(runtime.sessions.get(sid), {"limit": 0})
        return {"format": format, "tools": tools(model, format)}

    @app.post("/sessions/{sid}/tools/{name}", response_model=InvokeAnswer, tags=["agents"])
    async def call_tool(sid: str, name: str, body: ToolCall,
                        idempotency_key: str | None = Header(None, max_length=200)) -> JSONResponse:
        from ..agents.tools import resolve_call

        async def work(session: Session) -> Receipt:
            call = resolve_call(await runtime.model(session, {"limit": 0}), name, body.arguments)
            if call is None:
                raise ToolNotFound(f"No tool {name!r} in this session's model")
            return await runtime.invoke(session, call[0], call[1], evidence=body.evidence)

        receipt = await runtime.once(sid, idempotency_key, ["tool", name, body.model_dump()], work)
        return JSONResponse({"result": receipt})

    @app.get("/sessions/{sid}/screenshot", tags=["sessions"], response_class=Response,
             responses={200: {"content": {"image/png": {}}}})
    async def screenshot(sid: str) -> Response:
        png = await runtime.screenshot(runtime.sessions.get(sid))
        return Response(png, media_type="image/png")

    @app.get("/sessions/{sid}/pending", response_model=PendingList, tags=["gates"])
    async def pending(sid: str) -> dict[str, Any]:
        runtime.sessions.get(sid)
        return {"pending": [p.view() for p in runtime.gates.waiting(sid)]}

    @app.post("/sessions/{sid}/confirmations/{cid}", tags=["gates"])
    async def answer_confirmation(sid: str, cid: str, body: ConfirmationAnswer) -> dict[str, Any]:
        runtime.sessions.get(sid)
        runtime.gates.answer(sid, "confirmation", cid, body.approve)
        return {"id": cid, "answered": True, "approve": body.approve}

    @app.post("/sessions/{sid}/handoffs/{hid}", tags=["gates"])
    async def answer_handoff(sid: str, hid: str, body: HandoffAnswer) -> dict[str, Any]:
        runtime.sessions.get(sid)
        runtime.gates.answer(sid, "handoff", hid, body.outcome)
        return {"id": hid, "answered": True, "outcome": body.outcome}

    @app.get("/pling.js", include_in_schema=False)
    async def bridge_script() -> PlainTextResponse:
        return PlainTextResponse(bridge_source(), media_type="text/javascript")

    from .console import console_router

    app.include_router(console_router(runtime))
    app.router.routes.extend(mcp_routes)
    app.add_middleware(AccessGuard, token=settings.token)
    app.mount("/demo", StaticFiles(directory=demo_dir(), html=True), name="demo")
    return app
