"""Records marked by a property of the number each shows, for the generic policy (policy_generic.py): a
record type with two or more family actions, each named by a property of a number (odd, even, positive,
negative, zero) that the instruction says ("Mark the numbers below as odd or even"). On each record whose
label shows exactly one number, the one of those actions whose property that number has is invoked; a
record whose number has none or several of them is left alone. The model is read again after.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError, tokens
from .picking import counted, picks
from .revealing import reveal
from .similar_words import select_similar

PROPERTIES: dict[str, Callable[[float], bool]] = {
    "odd": lambda n: n.is_integer() and n % 2 == 1,
    "even": lambda n: n.is_integer() and n % 2 == 0,
    "positive": lambda n: n > 0,
    "negative": lambda n: n < 0,
    "zero": lambda n: n == 0,
}


def _property_named(action: dict[str, Any]) -> str | None:
    """The property an action is named by: its quoted name in the description (“Odd”), else its id."""
    named = re.findall(r"“([^”]+)”", action.get("description") or "")
    words = tokens(" ".join(named)) if named else tokens(action["id"].replace("_", " "))
    return words[0] if len(words) == 1 and words[0] in PROPERTIES else None


def marks(model: dict[str, Any], ins: Instruction) -> list[str]:
    """The refs to invoke, one per record whose number has exactly one of the properties its actions name."""
    by_type: dict[str, dict[str, str]] = {}
    for action in model.get("actions") or []:
        prop = _property_named(action)
        if action.get("record") and prop and prop in ins.words and not (action.get("params") or {}).get("required"):
            by_type.setdefault(action["record"], {})[prop] = action["id"]
    refs = []
    for kind, named in by_type.items():
        if len(named) < 2:
            continue
        for item in ((model.get("records") or {}).get(kind) or {}).get("items") or []:
            numbers = re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", str(item.get("label") or item["id"]))
            if len(numbers) != 1:
                continue
            fits = [action for prop, action in named.items() if PROPERTIES[prop](float(numbers[0]))
                    and action not in (item.get("unavailable") or {})]
            if len(fits) == 1:
                refs.append(f"{fits[0]}@{item['id']}")
    return refs


async def mark(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Each record marked as its number is, or the one a superlative picks, or as many as a count asks
    (picking.py); answers the model read after, and the refs invoked."""
    refs = marks(model, ins) or picks(model, ins) or counted(model, ins)
    if not refs:     # a quantity each record shows only once acted on; words picked by meaning
        model, revealed = await reveal(agent, model, ins, invoked)
        return (model, revealed) if revealed else await select_similar(agent, model, ins, invoked)
    for ref in refs:
        result = await agent.invoke(ref, {})
        invoked.append(ref)
        if not result.get("ok"):
            error = result.get("error") or {}
            raise PolicyError(f"{ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
    return (await agent.model() if refs else model), refs
