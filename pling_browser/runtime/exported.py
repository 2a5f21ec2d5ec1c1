"""A WebMCP agent calling one of the tools Pling exported (js_bridge/export.js): the page's pling actions,
registered with the browser's WebMCP, in every tab of the session (the first and each page an action
opened). The page tells the controller; the call runs as an invocation like any other, on the tab that
made it (validation, a person's confirmation for a danger action, the receipt logged and published), and
its receipt is the tool's result.

One invocation at a time per session, and a call never waits for its session (it may come from the very
invocation holding it):

- **Nested**: a call the page makes while one of its own actions' ``run()`` is running in that document
  (a WebMCP tool whose ``execute`` calls a Pling export) is part of that invocation. It runs at once,
  without waiting for the session: resolve, decode, validate, confirm (a danger action still asks a
  person, or the operator's policy), reveal, execute and its expectation, in the same document; it takes
  no before snapshot of its own (what it changed is in the running invocation's receipt, whose log names
  the call), and its own receipt, stored like any other, is the tool's result.
- **Busy**: any other call while an invocation holds the session is refused at once (SESSION_BUSY),
  never queued behind an invocation that may itself be waiting for this very call."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

from ..core.bridge import Bridge
from ..core.sessions import Session
from ..errors import PlingError
from ..lifecycle import LogEvent
from .commands import Invoke

log = logging.getLogger("pling_browser.runtime")

CALLER = "a WebMCP agent in the page (an exported tool)"
NESTED = "the page's own action while it ran (an exported tool called during it)"


def listen(runtime: Any, session: Session) -> None:
    """From now on, calls of exported tools in any tab of the session run as invocations on that tab."""
    tasks: set[asyncio.Task[None]] = set()

    def on(tab: str | None, bridge: Bridge) -> None:
        def heard(call: dict[str, Any]) -> None:
            task = asyncio.ensure_future(_run(runtime, session, tab, bridge, call))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        bridge.listeners["call"] = heard

    on(session.tab_id, session.bridge)
    if session.tabs is not None:
        session.tabs.on_adopted.append(lambda tab: on(tab.id, tab.bridge))


async def _run(runtime: Any, session: Session, tab: str | None, bridge: Bridge, call: dict[str, Any]) -> None:
    action, args = str(call.get("action") or ""), call.get("args") or {}
    receipt: dict[str, Any]
    outer = bridge.running
    try:
        if session.lock.locked() and outer is not None:
            receipt = await _nested(runtime, session, tab, bridge, action, args, outer)
        elif session.lock.locked():
            receipt = {"ok": False, "error": {"code": "SESSION_BUSY", "message": (
                f"Another invocation holds session {session.id}: an exported tool runs only between invocations, "
                "or during one of this page's own actions")}}
        else:
            receipt = await runtime.run(Invoke(session=session.id, action=action, args=args, tab=tab, via=CALLER))
    except PlingError as error:
        receipt = {"ok": False, "error": {"code": error.code, "message": error.message}}
    except Exception as error:  # never leave the page's promise unanswered
        log.exception("an exported tool call failed")
        receipt = {"ok": False, "error": {"code": "INTERNAL_ERROR", "message": type(error).__name__}}
    try:
        await bridge.answer_tool_call(call.get("cid"), receipt)
    except Exception:  # the page navigated or closed meanwhile: nobody is waiting for the answer
        log.info("the answer to an exported tool call of session %s found no page", session.id)


async def _nested(runtime: Any, session: Session, tab: str | None, bridge: Bridge, action: str, args: Any,
                  outer: Any) -> dict[str, Any]:
    """The call as part of the invocation running now (the session's lock is that invocation's)."""
    view = dataclasses.replace(session.on_tab(tab), bridge=bridge.nested_view())
    receipt: dict[str, Any] = await runtime.run(Invoke(session=session.id, action=action, args=args, evidence=False,
                                                       via=NESTED, within=view))
    outcome = "ok" if receipt.get("ok") else (receipt.get("error") or {}).get("code", "failed")
    outer.note(LogEvent.EXPORT_CALLED, action=action[:120], outcome=outcome)
    return receipt
