"""Actions: invoke one, resume a flow, and the page's actions as agent tools. Every call answers
``{"result": receipt}`` (without its log and timings for ``detail: "brief"``; the receipt log keeps them);
a key in ``Idempotency-Key`` makes a retry answer the first receipt. A route builds a command
(runtime/commands.py) and the runtime runs it (``Runtime.run``); nothing here fingerprints a request."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse

from ... import telemetry
from ...agents.tools import names, tools
from ...bodies import InvokeAnswer, InvokeRequest, ResumeRequest, ToolCall, ToolList
from ...callers import Caller
from ...models import answered
from ...runtime import Runtime
from ...runtime.commands import CallTool, Invoke, Resume
from . import RuntimeDep, caller_gone, caller_of

router = APIRouter()

# Visible ASCII only: a key is stored, logged and compared, and a byte outside it is a mistake or an attack.
IdempotencyKey = Header(None, max_length=200, pattern=r"^[\x21-\x7e]+$",
                        description="Answer the first receipt again for a retry with the same key (visible ASCII).")


def _asked(request: Request) -> tuple[Runtime, Caller, Any]:
    """The runtime, the caller (named by AccessGuard) and the caller's trace context (W3C traceparent,
    continued by the invocation's span), read here rather than as FastAPI dependencies: each dependency
    FastAPI solves costs every invocation ~20 µs of the service's CPU (docs/decisions.md, "The service's
    share of a read"). The session's owner is checked by the routers' ``OWNED`` dependency, as for every
    route under /sessions/{sid}."""
    return request.app.state.runtime, caller_of(request), telemetry.parent_from(request.headers)


@router.post("/sessions/{sid}/invoke", response_model=InvokeAnswer, tags=["actions"])
async def invoke_action(sid: str, body: InvokeRequest, request: Request,
                        idempotency_key: str | None = IdempotencyKey) -> JSONResponse:
    # `detail` shapes only the answer: a retry asking for another detail is the same request.
    runtime, caller, parent = _asked(request)
    with caller_gone(request) as gone:
        receipt = await runtime.run(Invoke(session=sid, key=idempotency_key, caller=caller, gone=gone, parent=parent,
                                           action=body.action, args=body.args, evidence=body.evidence,
                                           trace=body.trace, tab=body.tab))
    return JSONResponse({"result": answered(receipt, body.detail)})


@router.post("/sessions/{sid}/resume", response_model=InvokeAnswer, tags=["actions"])
async def resume_flow(sid: str, body: ResumeRequest, request: Request) -> JSONResponse:
    runtime, caller, parent = _asked(request)
    with caller_gone(request) as gone:
        receipt = await runtime.run(Resume(session=sid, caller=caller, gone=gone, parent=parent, handle=body.handle,
                                           evidence=body.evidence, repeat_started_step=body.repeat_started_step))
    return JSONResponse({"result": answered(receipt, body.detail)})


@router.get("/sessions/{sid}/tools", response_model=ToolList, tags=["agents"])
async def list_tools(sid: str, runtime: RuntimeDep,
                     format: Literal["openai", "openai-responses", "anthropic", "mcp"] = "openai") -> dict[str, Any]:
    model = await runtime.model(runtime.sessions.get(sid), {"limit": 0})
    return {"format": format, "tools": tools(model, format), "names": names(model)}


@router.post("/sessions/{sid}/tools/{name}", response_model=InvokeAnswer, tags=["agents"])
async def call_tool(sid: str, name: str, body: ToolCall, request: Request,
                    idempotency_key: str | None = IdempotencyKey) -> JSONResponse:
    runtime, caller, parent = _asked(request)
    with caller_gone(request) as gone:
        receipt = await runtime.run(CallTool(session=sid, key=idempotency_key, caller=caller, gone=gone,
                                             parent=parent, name=name, arguments=body.arguments,
                                             evidence=body.evidence))
    return JSONResponse({"result": answered(receipt, body.detail)})
