"""The one record a superlative picks when the records show their quantity only once acted on (cards lying
face down, each turned by clicking it), for the generic policy (policy_generic.py, through marking.py):
what a person does — turn each in turn, note the number it then shows, and pick the best one.

It applies to a record type with one valueless family action (the one picking.py would invoke) when the
instruction says a superlative and names the quantity ("the card with the greatest number"), and at most one
of the records shows that quantity now. Each record is acted on in list order; after each, the model is
read and what that record shows is noted (its field named like the quantity, the same rule as picking.py).
When every record showed one, and exactly one has the extreme, the action goes to it once more (unless it
was the last turned). Nothing is read that the model does not show; nothing here names a task."""

from __future__ import annotations

import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError
from .picking import SUPERLATIVES, _family, _quantity


def hidden_quantity(model: dict[str, Any], ins: Instruction) -> tuple[str, list[str], tuple[str, ...], bool] | None:
    """(the family action, the record ids in order, the quantity's names, whether the largest is wanted) of
    the one record type whose quantity is shown by at most one record now; None when there is none."""
    m = re.search(r"\b(" + "|".join(sorted(SUPERLATIVES, key=len, reverse=True)) + r")\s+(\w+)", ins.text, re.I)
    if not m:
        return None
    largest, measures = SUPERLATIVES[m[1].lower()]
    names = tuple(dict.fromkeys([m[2].lower(), *measures]))
    found = []
    for kind, listed in sorted((model.get("records") or {}).items()):
        family, items = _family(model, kind), listed.get("items") or []
        declared = any(n in {str(k).lower() for item in items for k in (item.get("fields") or {})} for n in names)
        shown = [item for item in items if _quantity(item, names) is not None]
        if len(family) == 1 and len(items) >= 2 and declared and len(shown) <= 1:
            found.append((family[0]["id"], [str(item["id"]) for item in items], names, largest))
    return found[0] if len(found) == 1 else None


async def _act(agent: PlingAgent, ref: str, invoked: list[str]) -> dict[str, Any]:
    result = await agent.invoke(ref, {})
    invoked.append(ref)
    if not result.get("ok"):
        error = result.get("error") or {}
        raise PolicyError(f"{ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
    return await agent.model()


async def reveal(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Each record acted on and its shown quantity noted, then the best one picked; answers the model read
    last and the refs invoked (none when the instruction and the model are not of that shape)."""
    found = hidden_quantity(model, ins)
    if found is None:
        return model, []
    action, ids, names, largest = found
    refs: list[str] = []
    seen: dict[str, float] = {}
    for record_id in ids:
        ref = f"{action}@{record_id}"
        model = await _act(agent, ref, invoked)
        refs.append(ref)
        for kind_items in ((model.get("records") or {}).values()):
            for item in kind_items.get("items") or []:
                if str(item["id"]) == record_id and _quantity(item, names) is not None:
                    seen[record_id] = _quantity(item, names)  # type: ignore[assignment]
    if len(seen) < len(ids):
        return model, refs
    best = (max if largest else min)(seen.values())
    chosen = [record_id for record_id in ids if seen[record_id] == best]
    if len(chosen) == 1 and chosen[0] != ids[-1]:
        model = await _act(agent, f"{action}@{chosen[0]}", invoked)
        refs.append(f"{action}@{chosen[0]}")
    return model, refs
