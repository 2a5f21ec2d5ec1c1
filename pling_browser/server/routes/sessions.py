"""Sessions: open a page, list, read and close sessions, read a session's model and screenshot."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from ...bodies import MODEL_DETAIL, CreateSession, ModelDetail, SessionInfo, SessionOpened
from ...brief import BriefModel
from ...models import PageModel
from ...pages import TabsAnswer, TabUpdate
from ...runtime import tabs
from . import CallerDep, RuntimeDep, own_origin
from .static import DEMO_PAGE

router = APIRouter()


@router.post("/sessions", status_code=201, response_model=SessionOpened, tags=["sessions"])
async def open_session(body: CreateSession, request: Request, runtime: RuntimeDep, caller: CallerDep) -> Response:
    session = await runtime.open(body.url or own_origin(request) + DEMO_PAGE, timeout_ms=body.timeout_ms,
                                 profile=body.profile, caller=caller)
    model = await runtime.model_json(session, detail=body.detail)
    text = '{"session":' + session.info().model_dump_json() + ',"model":' + model + "}"
    return Response(text, status_code=201, media_type="application/json")


@router.get("/sessions", response_model=list[SessionInfo], tags=["sessions"])
async def list_sessions(runtime: RuntimeDep, caller: CallerDep) -> list[SessionInfo]:
    """The open sessions: an agent's own, or all for a person and the operator."""
    agent = caller.name if caller.owns_its_sessions else None
    return [await session.current_info() for session in runtime.sessions.list(agent)]


@router.get("/sessions/{sid}", response_model=SessionInfo, tags=["sessions"])
async def read_session(sid: str, runtime: RuntimeDep) -> SessionInfo:
    return await runtime.sessions.get(sid).current_info()


@router.delete("/sessions/{sid}", tags=["sessions"])
async def close_session(sid: str, runtime: RuntimeDep) -> dict[str, str]:
    await runtime.close(sid)
    return {"closed": sid}


@router.get("/sessions/{sid}/model", response_model=PageModel | BriefModel, tags=["model"])
async def read_model(
    sid: str,
    runtime: RuntimeDep,
    offset: int = Query(0, ge=0, description="First record of the item window."),
    limit: int = Query(50, ge=0, le=1000, description="Records with fields in the window."),
    type: str | None = Query(None, description="Apply the window to this record type only."),
    ids: str | None = Query(None, description="Comma-separated record ids: items for exactly these."),
    tab: str | None = Query(None, description="The tab to read (`t1`, `t2`…); default the active tab."),
    detail: ModelDetail = Query("full", description=MODEL_DETAIL),
) -> Response:
    from ...runtime import model_window

    text = await runtime.model_json(runtime.sessions.get(sid), model_window(offset, limit, type, ids), tab, detail)
    return Response(text, media_type="application/json")


@router.get("/sessions/{sid}/screenshot", tags=["sessions"], response_class=Response,
            responses={200: {"description": "A PNG of the page, sensitive fields masked",
                             "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}}})
async def screenshot(sid: str, runtime: RuntimeDep,
                     tab: str | None = Query(None, description="The tab to show; default the active tab.")) -> Response:
    png = await runtime.screenshot(runtime.sessions.get(sid), tab)
    return Response(png, media_type="image/png")


@router.get("/sessions/{sid}/tabs", response_model=TabsAnswer, response_model_exclude_none=True, tags=["sessions"])
async def list_tabs(sid: str, runtime: RuntimeDep) -> dict[str, Any]:
    """The session's tabs: t1 is the page it opened; pages its actions opened follow (at most 8)."""
    return tabs.listing(runtime.sessions.get(sid))


@router.post("/sessions/{sid}/tabs/{tab}", response_model=TabsAnswer, response_model_exclude_none=True, tags=["sessions"])
async def update_tab(sid: str, tab: str, body: TabUpdate, runtime: RuntimeDep) -> dict[str, Any]:
    """`{"active": true}` makes the tab the one the model, invoke and screenshot act on."""
    session = runtime.sessions.get(sid)
    if not body.active:
        return tabs.listing(session)
    return await tabs.activate(session, tab)


@router.delete("/sessions/{sid}/tabs/{tab}", response_model=TabsAnswer, response_model_exclude_none=True, tags=["sessions"])
async def close_tab(sid: str, tab: str, runtime: RuntimeDep) -> dict[str, Any]:
    """Close a tab; closing the active one activates the one active before it (`activated`)."""
    return await tabs.close(runtime.sessions.get(sid), tab)
