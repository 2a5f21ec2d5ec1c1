"""A WebMCP agent calling one of the tools Pling exported (js_bridge/export.js): the page's pling actions,
registered with the browser's WebMCP. The page tells the controller; the call runs as an invocation
like any other (validation, a person's confirmation for a danger action, the receipt logged and
published), and its receipt is the tool's result. One invocation at a time per session: a call that
arrives while another invocation holds the session is refused at once (SESSION_BUSY), never queued
behind an invocation that may itself be waiting for this very call."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..core.bridge import Bridge
from ..core.sessions import Session
from ..errors import PlingError

log = logging.getLogger("pling_browser.runtime")

CALLER = "a WebMCP agent in the page (an exported tool)"


def listen(runtime: Any, session: Session) -> None:
    """From now on, calls of exported tools in the session's first tab run as invocations."""
    bridge = session.bridge
    tasks: set[asyncio.Task[None]] = set()

    def heard(call: dict[str, Any]) -> None:
        task = asyncio.ensure_future(_run(runtime, session, bridge, call))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    bridge.listeners["call"] = heard


async def _run(runtime: Any, session: Session, bridge: Bridge, call: dict[str, Any]) -> None:
    action, args = str(call.get("action") or ""), call.get("args") or {}
    receipt: dict[str, Any]
    if session.lock.locked():
        receipt = {"ok": False, "error": {"code": "SESSION_BUSY", "message": (
            f"Another invocation holds session {session.id}: an exported tool runs only between invocations")}}
    else:
        try:
            receipt = await runtime.run_keyed(session.id, None, ["invoke", {"action": action, "args": args, "via": CALLER}],
                                              lambda s: runtime.invoke(s, action, args))
        except PlingError as error:
            receipt = {"ok": False, "error": {"code": error.code, "message": error.message}}
        except Exception as error:  # never leave the page's promise unanswered
            log.exception("an exported tool call failed")
            receipt = {"ok": False, "error": {"code": "INTERNAL_ERROR", "message": type(error).__name__}}
    try:
        await bridge.answer("toolAnswer", {"cid": call.get("cid"), "receipt": receipt})
    except Exception:  # the page navigated or closed meanwhile: nobody is waiting for the answer
        log.info("the answer to an exported tool call of session %s found no page", session.id)
