"""Files the service serves as they are: the bridge script for pages that load it themselves, the
declaration package's built files under /js/ (docs/declare.md), and the demo pages (a session opened
without a URL opens the demo's todo app)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from ...core.bridge import bridge_source
from ...errors import NotFound
from ...runtime import demo_dir

DEMO_PAGE = "/demo/todos.html"
# By suffix; guessing from the system's tables would call a .d.ts a video (.ts is MPEG transport).
_MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".d.ts": "text/plain; charset=utf-8"}

router = APIRouter()


@router.get("/pling.js", include_in_schema=False)
async def bridge_script() -> PlainTextResponse:
    return PlainTextResponse(bridge_source(), media_type="text/javascript")


def package_dir() -> Path:
    """The declaration package's built files: js/dist of the repository, packaged as pling_browser/js."""
    package = Path(__file__).resolve().parent.parent.parent
    packaged = package / "js"
    return packaged if packaged.is_dir() else package.parent / "js" / "dist"


@lru_cache(maxsize=1)
def package_files() -> dict[str, tuple[Path, str]]:
    """Every file served under /js/, by its path there: a fixed table read once, so no request names a
    file outside it."""
    root = package_dir()
    found: dict[str, tuple[Path, str]] = {}
    if root.is_dir():
        for path in sorted(root.rglob("*")):
            kind = ".d.ts" if path.name.endswith(".d.ts") else path.suffix
            if path.is_file() and kind in _MEDIA_TYPES:
                found[path.relative_to(root).as_posix()] = (path, _MEDIA_TYPES[kind])
    return found


@router.get("/js/{name:path}", include_in_schema=False)
async def package_file(name: str) -> FileResponse:
    found = package_files().get(name)
    if found is None:
        raise NotFound(f"No file {name[:80]!r} in the declaration package",
                       hint="/js/pling-declare.js, /js/pling-react.js, /js/pling-vue.js and /js/esm/ are served (docs/declare.md).")
    path, media = found
    return FileResponse(path, media_type=media, headers={"Cache-Control": "no-cache"})


def demo_files() -> StaticFiles:
    """Mounted at /demo (a mount is not a route, so it cannot live on the router)."""
    return StaticFiles(directory=demo_dir(), html=True)
