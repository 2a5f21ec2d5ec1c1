"""Lists reordered by dragging, for the generic policy (policy_generic.py): a record type with a family
``drag`` whose param ``onto`` is another record's id (the draft's `{drag: '{onto}'}`). Two kinds of
instruction are read:

- a move: the instruction names one record by its label and a place in the list ("to the 2nd position",
  "to the top", "to the bottom", "up by one", "down by one", "left by one", "right by one"; in nine items,
  three rows of three, "to the bottom left", "to the center"): the record is dragged onto the one there now;
- a sort: "sort … increasing|ascending|decreasing|descending": the labels are numbers; for each place
  from the first, the record that belongs there is dragged onto the one there, and the model is read again
  (the policy checks the order it reads, never assumes the drag did it);
- a put: "drag A into|inside|onto|on top of|over B": each of A and B is a record named by its label, or
  by a comparative of size ("the smaller box", "the larger one") when every record of the type has a
  number field named size, area or width (what the page shows of it): the one with the least or most.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import ORDINALS, Instruction, PolicyError, phrase_at, tokens
from .page_reading import NUMBER


def drag_types(model: dict[str, Any]) -> list[str]:
    """Record types with a drag family that takes the record it goes onto."""
    return [a["record"] for a in model.get("actions") or [] if a.get("record") and a["id"] == "drag"
            and "onto" in ((a.get("params") or {}).get("properties") or {})]


def _items(model: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return list(((model.get("records") or {}).get(kind) or {}).get("items") or [])


THIRDS = {"top": 0, "center": 1, "middle": 1, "bottom": 2}


def place_wanted(text: str, at: int, count: int) -> int | None:
    """The 0-based place the instruction moves a record to, from where it is (`at`), or None."""
    low = text.lower()
    if re.search(r"\b(up|left) by one\b", low):
        return at - 1
    if re.search(r"\b(down|right) by one\b", low):
        return at + 1
    grid = re.search(r"\bto the (top|center|middle|bottom)(?: (left|center|middle|right))?\b", low)
    if grid and count == 9 and (grid[2] or grid[1] in ("center", "middle")):     # three rows of three, named
        return THIRDS[grid[1]] * 3 + {"left": 0, "right": 2}.get(grid[2] or "center", 1)
    if re.search(r"\bto the (top|beginning|start)\b", low):
        return 0
    if re.search(r"\bto the (bottom|end)\b", low):
        return count - 1
    m = re.search(r"\bto the (\d+)(?:st|nd|rd|th) (?:position|place)\b", low)
    if m:
        return int(m[1]) - 1
    m = re.search(r"\bto the (" + "|".join(ORDINALS) + r") (?:position|place)\b", low)
    if m:
        return ORDINALS[m[1]] - 1 if ORDINALS[m[1]] > 0 else count - 1
    return None


async def _drag(agent: PlingAgent, kind: str, ref: str, onto: str, invoked: list[str]) -> dict[str, Any]:
    result = await agent.invoke(ref, {"onto": onto})
    invoked.append(ref)
    if not result.get("ok"):
        error = result.get("error") or {}
        raise PolicyError(f"{ref} onto {onto}: {error.get('code')} {str(error.get('message', ''))[:200]}")
    return await agent.model()


async def _move(agent: PlingAgent, model: dict[str, Any], kind: str, ins: Instruction, invoked: list[str]) -> dict[str, Any] | None:
    items = _items(model, kind)
    named = [i for i, item in enumerate(items) if phrase_at(ins.words, tokens(str(item.get("label") or item["id"]))) >= 0]
    if len(named) != 1:
        return None
    at = named[0]
    to = place_wanted(ins.text, at, len(items))
    if to is None or not 0 <= to < len(items) or to == at:
        return None
    return await _drag(agent, kind, f"drag@{items[at]['id']}", items[to]["id"], invoked)


def _number(item: dict[str, Any]) -> float | None:
    label = str(item.get("label") or item["id"]).strip()
    return float(label) if re.fullmatch(NUMBER, label) else None


async def _sort(agent: PlingAgent, model: dict[str, Any], kind: str, ins: Instruction, invoked: list[str]) -> dict[str, Any] | None:
    m = re.search(r"\bsort\b.*\b(increasing|ascending|decreasing|descending)\b", ins.text, re.I)
    if not m:
        return None
    down = m[1].lower() in ("decreasing", "descending")
    for place in range(len(_items(model, kind))):
        items = _items(model, kind)
        numbers = [_number(i) for i in items]
        if None in numbers:
            return None
        rest = numbers[place:]
        best = place + rest.index(max(rest) if down else min(rest))   # type: ignore[type-var]
        if best != place and numbers[best] != numbers[place]:
            model = await _drag(agent, kind, f"drag@{items[best]['id']}", items[place]["id"], invoked)
    return model


# A comparative or superlative of size: whether it wants the most; the fields that say a record's size.
SIZES = {"smaller": False, "smallest": False, "larger": True, "largest": True, "bigger": True, "biggest": True}
SIZE_FIELDS = ("size", "area", "width")
_PUT = re.compile(r"\bdrag (?:the )?(.+?)\s+(?:so that it is\s+(?:\w+ly\s+)?)?"
                  r"(?:into|inside(?: of)?|onto|on top of|over)\s+(?:the )?(.+?)[.!]?$", re.I)


def _size(item: dict[str, Any]) -> float | None:
    fields = {str(k).lower(): v for k, v in (item.get("fields") or {}).items()}
    for name in SIZE_FIELDS:
        if isinstance(fields.get(name), (int, float)) and not isinstance(fields[name], bool):
            return float(fields[name])
        if isinstance(fields.get(name), str) and re.fullmatch(NUMBER, fields[name].strip()):
            return float(fields[name])
    return None


def _named(items: list[dict[str, Any]], phrase: str) -> dict[str, Any] | None:
    """The one record a phrase names: by a comparative of size, else by its label."""
    words = tokens(phrase)
    said = [SIZES[w] for w in words if w in SIZES]
    if said:
        sizes = [_size(item) for item in items]
        if len(said) != 1 or None in sizes:
            return None
        best = (max if said[0] else min)(s for s in sizes if s is not None)
        chosen = [item for item, s in zip(items, sizes, strict=True) if s == best]
    else:
        chosen = [item for item in items if tokens(str(item.get("label") or item["id"])) and
                  phrase_at(words, tokens(str(item.get("label") or item["id"]))) >= 0]
    return chosen[0] if len(chosen) == 1 else None


async def _put(agent: PlingAgent, model: dict[str, Any], kind: str, ins: Instruction, invoked: list[str]) -> dict[str, Any] | None:
    m = _PUT.search(ins.text.strip())
    items = _items(model, kind)
    moved, onto = (_named(items, m[1]), _named(items, m[2])) if m else (None, None)
    if moved is None or onto is None or moved is onto:
        return None
    return await _drag(agent, kind, f"drag@{moved['id']}", onto["id"], invoked)


async def arrange(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str]) -> tuple[dict[str, Any], list[str]]:
    """A move, a sort or a put the instruction asks of a list reordered by dragging. Answers the model last read
    and the drag refs now done (the policy plans nothing more on them)."""
    for kind in drag_types(model):
        after = (await _sort(agent, model, kind, ins, invoked) or await _move(agent, model, kind, ins, invoked)
                 or await _put(agent, model, kind, ins, invoked))
        if after is not None:
            return after, [f"drag@{i['id']}" for i in _items(model, kind) + _items(after, kind)]
    return model, []
