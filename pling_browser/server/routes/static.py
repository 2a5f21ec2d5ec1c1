"""Files the service serves as they are: the bridge script for pages that load it themselves, and the
demo pages (a session opened without a URL opens the demo's todo app)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles

from ...core.bridge import bridge_source
from ...runtime import demo_dir

DEMO_PAGE = "/demo/todos.html"

router = APIRouter()


@router.get("/pling.js", include_in_schema=False)
async def bridge_script() -> PlainTextResponse:
    return PlainTextResponse(bridge_source(), media_type="text/javascript")


def demo_files() -> StaticFiles:
    """Mounted at /demo (a mount is not a route, so it cannot live on the router)."""
    return StaticFiles(directory=demo_dir(), html=True)

