"""The REST routes, one module per resource; ``server/api.py`` puts them together.

    sessions.py   /sessions, /sessions/{sid}, its model and screenshot
    actions.py    invoke, resume, and the page's actions as agent tools
    receipts.py   the session's receipt log
    gates.py      what waits for a person: pending confirmations and handoffs, and their answers
    service.py    /healthz, /metrics
    static.py     /pling.js and the demo pages

Routes reach the runtime through ``RuntimeDep`` (the app's ``state.runtime``), never through a closure.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ...callers import OPERATOR, Caller
from ...runtime import Runtime


def _runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


RuntimeDep = Annotated[Runtime, Depends(_runtime)]


def _caller(request: Request) -> Caller:
    caller: Caller = getattr(request.state, "caller", OPERATOR)  # set by AccessGuard
    return caller


CallerDep = Annotated[Caller, Depends(_caller)]



def own_origin(request: Request) -> str:
    """Where this service is reached (its own /demo/ pages are always allowed to open)."""
    host, port = request.scope.get("server") or ("127.0.0.1", 80)
    host = f"[{host}]" if ":" in host else host
    return f"{request.url.scheme}://{host}:{port}"
