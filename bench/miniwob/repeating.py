"""Records operated in the order the page displayed them, for the generic policy (policy_generic.py): when
the instruction asks for the order something was displayed or shown in ("Push the buttons in the order
displayed") and a state lists records of one type by id (every item an id of that type, in order), the model
is read again until that list has stayed the same for `settle` seconds (the page has finished showing it;
when no state lists such ids within twice that, nothing is waited for any longer),
then the type's one family action without params is invoked on each record, in the list's order, repeats
included. The model is read again after.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError

ORDER = re.compile(r"\b(in )?the (same )?order (they were |it was )?(displayed|shown|lit|played)\b", re.I)


def shown_order(model: dict[str, Any]) -> tuple[str, list[str]] | None:
    """(record type, ids) of the first state that lists only ids of records of one type, at least one."""
    records = model.get("records") or {}
    for entry in (model.get("state") or {}).values():
        value = entry.get("value") if isinstance(entry, dict) else None
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            continue
        for kind, listed in records.items():
            if set(value) <= {str(item["id"]) for item in listed.get("items") or []}:
                return kind, value
    return None


def press_action(model: dict[str, Any], kind: str) -> str | None:
    """The one family action of a record type that takes no required params."""
    found = [a["id"] for a in model.get("actions") or [] if a.get("record") == kind and not (a.get("params") or {}).get("required")]
    return found[0] if len(found) == 1 else None


async def repeat(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str],
                 settle: float = 1.5, most: float = 12.0) -> tuple[dict[str, Any], list[str]]:
    """The records invoked in the order shown; answers the model read last and the refs done."""
    if not ORDER.search(ins.text):
        return model, []
    began = since = time.monotonic()
    last = shown_order(model)
    # Read until the list stays the same `settle` seconds; no list after twice that: there is none to wait for.
    while time.monotonic() - began < (most if last else 2 * settle) and not (last and time.monotonic() - since >= settle):
        await asyncio.sleep(0.5)
        model = await agent.model()
        if shown_order(model) != last:
            last, since = shown_order(model), time.monotonic()
    action = press_action(model, last[0]) if last else None
    if not last or action is None:
        return model, []
    for record in last[1]:
        ref = f"{action}@{record}"
        result = await agent.invoke(ref, {})
        invoked.append(ref)
        if not result.get("ok"):
            error = result.get("error") or {}
            raise PolicyError(f"{ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
    return await agent.model(), sorted({f"{action}@{record}" for record in last[1]})
