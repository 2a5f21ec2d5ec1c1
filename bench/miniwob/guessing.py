"""A number guessed by halving, for the generic policy (policy_generic.py): when the instruction asks to
guess a number in a range ("Guess the number between 0-9 …") and the model offers one operation that takes
a single number, that number is tried at the middle of what is left; after each, the page's answer is read
off the model's state: a text that says the guess and that the number is higher (greater, larger, more,
above) or lower (smaller, less, below) narrows the range; any other answer ends it (the guess was right,
or the page says something this does not read). At most as many guesses as halving the range takes, plus one.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import math
import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError

RANGE = re.compile(r"\b(?:between|from)\s+(-?\d+)\s*(?:-|–|and|to)\s*(-?\d+)\b", re.I)
HIGHER = {"higher", "greater", "larger", "bigger", "more", "above"}
LOWER = {"lower", "smaller", "less", "fewer", "below"}


def guess_range(ins: Instruction) -> tuple[int, int] | None:
    """The range the instruction asks to guess in, when it asks to guess."""
    found = RANGE.search(ins.text)
    if "guess" not in ins.words or not found:
        return None
    low, high = sorted((int(found[1]), int(found[2])))
    return low, high


def guess_operation(model: dict[str, Any]) -> tuple[str, str] | None:
    """The one plain operation whose params are a single number: (action id, param)."""
    found = []
    for action in model.get("actions") or []:
        properties = (action.get("params") or {}).get("properties") or {}
        numbers = [k for k, v in properties.items() if v.get("type") in ("number", "integer")]
        if not action.get("record") and action.get("available", True) and len(properties) == 1 and numbers:
            found.append((action["id"], numbers[0]))
    return found[0] if len(found) == 1 else None


def answer_to(model: dict[str, Any], guess: int, instruction: str = "") -> int:
    """+1 when a state text (not the instruction) says the guess and that the number is higher, -1 lower, 0
    when none says either."""
    for entry in (model.get("state") or {}).values():
        value = entry.get("value") if isinstance(entry, dict) else None
        if not isinstance(value, str) or value == instruction or not re.search(rf"(?<![\d.]){guess}(?![\d])", value):
            continue
        words = set(re.findall(r"[a-z]+", value.lower()))
        if words & HIGHER and not words & LOWER:
            return 1
        if words & LOWER and not words & HIGHER:
            return -1
    return 0


async def guess(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Halve the range until the page's answer says neither higher nor lower; answers the model read last and
    the refs invoked (none when the instruction asks no guess or no operation takes one number)."""
    span, operation = guess_range(ins), guess_operation(model)
    if span is None or operation is None:
        return model, []
    (low, high), (ref, param) = span, operation
    for _ in range(math.ceil(math.log2(high - low + 1)) + 1):
        if low > high:
            break
        middle = (low + high) // 2
        result = await agent.invoke(ref, {param: middle})
        invoked.append(ref)
        if not result.get("ok"):
            error = result.get("error") or {}
            raise PolicyError(f"{ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
        model = await agent.model()
        said = answer_to(model, middle, ins.text)
        if not said:
            break
        low, high = (middle + 1, high) if said > 0 else (low, middle - 1)
    return model, [ref]
