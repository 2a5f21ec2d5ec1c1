"""The REST routes, one module per resource; ``server/api.py`` puts them together.

    sessions.py   /sessions, /sessions/{sid}, its model and screenshot
    actions.py    invoke, resume, and the page's actions as agent tools
    receipts.py   the session's receipt log
    gates.py      what waits for a person: pending confirmations and handoffs, and their answers
    profiles.py   saving a session's sign-in as a profile; listing and deleting profiles
    service.py    /healthz, /metrics
    errors.py     /errors: the page a problem's `type` (/errors#CODE) points at
    static.py     /pling.js, the declaration package at /js/, and the demo pages

Routes reach the runtime through ``RuntimeDep`` (the app's ``state.runtime``), never through a closure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, Request

from ...callers import OPERATOR, Caller
from ...errors import SessionNotFound
from ...runtime import CallerCheck, Runtime


# Dependencies are `async def`: FastAPI runs a plain `def` dependency in its thread pool, a thread hop
# per dependency per request (about a millisecond of every invocation on a busy 2-core machine).
async def _runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


RuntimeDep = Annotated[Runtime, Depends(_runtime)]


def caller_of(request: Request) -> Caller:
    """The caller AccessGuard named for this request (the operator where it named none)."""
    caller: Caller = getattr(request.state, "caller", OPERATOR)
    return caller


async def _caller(request: Request) -> Caller:
    return caller_of(request)


CallerDep = Annotated[Caller, Depends(_caller)]


async def _owned(request: Request) -> None:
    """A route under /sessions/{sid}: an agent reaches only a session it opened (another agent's is 404,
    as if it never was); a person and the operator reach all (SPEC, "Who may do what"). The caller is
    read here, not as a dependency of its own: one less for FastAPI to solve on every request."""
    sid = request.path_params.get("sid")
    caller = caller_of(request)
    runtime: Runtime = request.app.state.runtime
    if sid is not None and caller.owns_its_sessions and not runtime.sessions.owned_by(sid, caller.name):
        raise SessionNotFound(f"No session {sid[:80]!r} is open")


# Every router with /sessions/{sid} routes depends on it (server/api.py includes them).
OWNED = [Depends(_owned)]


@contextmanager
def caller_gone(request: Request) -> Iterator[CallerCheck]:
    """Whether the caller has gone (closed its connection), asked by an invocation waiting for its
    session. Once the body is read, the request's next message can only be the disconnect: a task
    waits for it, started at the first question and stopped on leaving. (Starlette's
    ``request.is_disconnected()`` cannot see it through the ``@app.middleware`` wrapper, whose
    receive does not finish inside an already cancelled scope.)"""
    left = asyncio.Event()
    watcher: asyncio.Task[None] | None = None

    async def watch() -> None:
        while (await request.receive())["type"] == "http.request":
            pass
        left.set()

    async def gone() -> bool:
        nonlocal watcher
        if watcher is None:
            watcher = asyncio.create_task(watch())
            await asyncio.sleep(0)
        return left.is_set()

    try:
        yield gone
    finally:
        if watcher is not None:
            watcher.cancel()


def own_origin(request: Request) -> str:
    """Where this service is reached (its own /demo/ pages are always allowed to open)."""
    host, port = request.scope.get("server") or ("127.0.0.1", 80)
    host = f"[{host}]" if ":" in host else host
    return f"{request.url.scheme}://{host}:{port}"
