"""A WebMCP tool asking for the person while it runs: ``client.requestUserInteraction(callback)`` in
``execute(input, client)`` (js_bridge/interaction.js). The request becomes a pending confirmation that a
person answers through the confirmation channel (``/pending``, ``/confirmations/{cid}``); never an
operator policy, never automatic. Approved, the page's callback runs, and each dialog it raises
(``confirm()``, ``prompt()``, ``alert()``) is a confirmation of its own for the same person (approve: OK,
deny: Cancel) instead of being dismissed. Denied, expired, or with no confirmation channel: the page's
promise rejects with a NotAllowedError and the callback never runs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from .codes import LogEvent
from .context import Invocation

DIALOG_TEXT_MAX = 2_000


def _request(inv: Invocation, **what: Any) -> dict[str, Any]:
    assert inv.decl is not None
    # A child frame's tool says so, as its action's confirmation does (confirm.py): never the page's own.
    frame = {"frame": inv.frame} if inv.frame is not None else {}
    return inv.outbound.data({"action": inv.ref, "description": inv.decl.description, "risk": inv.decl.risk,
                              "args": inv.args, **frame, **what})


async def _ask_dialog(inv: Invocation, kind: str, message: str, default: str) -> bool:
    dialog = {"type": kind, "message": message[:DIALOG_TEXT_MAX], "default": default[:DIALOG_TEXT_MAX]}
    assert inv.request.confirmer is not None  # a page's dialog is asked about only where a person may answer
    approved, who, _ = await inv.request.confirmer.ask(inv, _request(inv, dialog=dialog))
    inv.note(LogEvent.DIALOG_ANSWERED, kind=kind, accepted=approved, by=who)
    return approved


async def _interact(inv: Invocation, request: dict[str, Any]) -> None:
    iid = str(request.get("id"))
    page = inv.session.handle
    if inv.request.confirmer is None:
        approved, who = False, "no confirmation channel (PLING_CONFIRM=none): nobody can answer for the person"
    else:
        ask = {"interaction": "The tool asks for the person (requestUserInteraction): approve to let it ask you "
                              "in the page; its dialogs come here next"}
        approved, who, _ = await inv.request.confirmer.ask(inv, _request(inv, **ask))
    inv.note(LogEvent.INTERACTION_ANSWERED, approved=approved, by=who)
    if approved:
        page.route_dialogs(lambda kind, message, default: _ask_dialog(inv, kind, message, default))
    await inv.session.bridge.answer_interaction(iid, approved, who)


@contextlib.asynccontextmanager
async def person_interactions(inv: Invocation) -> AsyncIterator[None]:
    """While a function action runs: a tool's requests for the person are asked of a person."""
    bridge, page = inv.session.bridge, inv.session.handle
    tasks: set[asyncio.Task[None]] = set()

    def heard(request: dict[str, Any]) -> None:
        if request.get("phase") == "ask":
            task = asyncio.ensure_future(_interact(inv, request))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif request.get("phase") == "done":
            page.unroute_dialogs()

    bridge.listeners["interact"] = heard
    try:
        yield
    finally:
        bridge.listeners.pop("interact", None)
        page.unroute_dialogs()
        for task in list(tasks):
            task.cancel()
