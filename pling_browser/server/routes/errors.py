"""``GET /errors``: the page every problem's ``type`` points at (``/errors#CODE``), one section per code,
generated from errors/ so it cannot drift: the title, the HTTP status (or, for an error answered inside
a receipt, its stage), and the hint naming the next step. Public like /healthz: documentation only."""

from __future__ import annotations

import html
import inspect

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from ...errors import INVOCATION_CODES, SERVICE_CODES, PlingError, ServiceError
from ..problems import title

router = APIRouter()


def _section(cls: type[PlingError]) -> str:
    where = (f"HTTP {cls.status}" if issubclass(cls, ServiceError)
             else f"inside a receipt; stage <code>{cls.default_stage}</code>")
    about = inspect.getdoc(cls) if cls.__doc__ else ""
    lines = [f'<section id="{cls.code}"><h2><a href="#{cls.code}">{cls.code}</a>: {html.escape(title(cls))}</h2>',
             f"<p>{where}</p>"]
    if about:
        lines.append(f"<p>{html.escape(about)}</p>")
    if cls.default_hint:
        lines.append(f"<p>Next step: {html.escape(cls.default_hint)}</p>")
    return "\n".join(lines) + "</section>"


def page() -> str:
    body = "\n".join(_section(cls) for cls in [*SERVICE_CODES.values(), *INVOCATION_CODES.values()])
    return ("<!doctype html><html lang=en><meta charset=utf-8><title>Pling browser: problem types</title>"
            "<h1>Problem types</h1><p>HTTP errors are RFC 9457 problem details whose <code>type</code> is "
            "<code>/errors#CODE</code>; errors of an action are answered inside its receipt.</p>\n" + body + "</html>")


@router.get("/errors", response_class=HTMLResponse, tags=["service"],
            responses={200: {"content": {"text/html": {}}, "description": "One section per error code"}})
async def error_types() -> HTMLResponse:
    """The problem types: what each `type` (`/errors#CODE`) of a problem means, and the next step."""
    return HTMLResponse(page())
