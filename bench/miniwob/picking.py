"""The one record an instruction picks by a superlative ("the ticket with the cheapest cost", "the shortest
duration"), for the generic policy (policy_generic.py, through marking.py): the quantity is a record's field
named like the word after the superlative or like what the superlative measures (cost: price; duration:
time), else what a text field says after that word ("Duration: 6h 19m"); a number, or a duration in hours
and minutes. When every record of a type with one valueless family action has the quantity and exactly one
has the extreme, that action on it. Records without the quantity (a label alone) are never guessed at.
Also a count of records that have a property ("Order 3 items that are vegan"): that action that many times,
once on each record whose fields say the property, in list order, again from the first when they are fewer.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import re
from typing import Any

from .instruction import Instruction, phrase_at, tokens

# A superlative: whether it wants the largest, and the words its quantity goes by.
SUPERLATIVES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "cheapest": (False, ("price", "cost")), "most expensive": (True, ("price", "cost")),
    "shortest": (False, ("duration", "length", "time")), "longest": (True, ("duration", "length", "time")),
    "smallest": (False, ()), "lowest": (False, ()), "least": (False, ()), "fewest": (False, ()),
    "largest": (True, ()), "greatest": (True, ()), "highest": (True, ()), "biggest": (True, ()), "most": (True, ()),
}
_QUANTITY = r"(\d+\s*h(?:ours?)?(?:\s*\d+\s*m(?:in(?:utes?)?)?)?|\d+\s*m(?:in(?:utes?)?)?\b|[$€£]?\s*-?\d[\d,]*(?:\.\d+)?)"


def _amount(text: str) -> float | None:
    """A number ("$1,085", "12.5") or a duration ("6h 19m", "45m") in minutes."""
    text = text.strip()
    hm = re.fullmatch(r"(?:(\d+)\s*h(?:ours?)?)?\s*(?:(\d+)\s*m(?:in(?:utes?)?)?)?", text)
    if hm and (hm[1] or hm[2]):
        return int(hm[1] or 0) * 60.0 + int(hm[2] or 0)
    number = re.fullmatch(r"[$€£]?\s*(-?\d[\d,]*(?:\.\d+)?)", text)
    return float(number[1].replace(",", "")) if number else None


def _quantity(item: dict[str, Any], names: tuple[str, ...]) -> float | None:
    fields = {str(k).lower(): str(v) for k, v in (item.get("fields") or {}).items() if isinstance(v, (str, int, float))}
    for name in names:
        if name in fields and _amount(fields[name]) is not None:
            return _amount(fields[name])
    for said in fields.values():
        for name in names:
            m = re.search(rf"\b{re.escape(name)}\s*:\s*{_QUANTITY}", said, re.I)
            if m:
                return _amount(m[1])
    return None


def picks(model: dict[str, Any], ins: Instruction) -> list[str]:
    m = re.search(r"\b(" + "|".join(sorted(SUPERLATIVES, key=len, reverse=True)) + r")\b\s*(\w+)?", ins.text, re.I)
    if not m:
        return []
    largest, measures = SUPERLATIVES[m[1].lower()]
    names = tuple(dict.fromkeys(([m[2].lower()] if m[2] else []) + list(measures)))
    records = model.get("records") or {}
    refs = []
    for kind in sorted({a["record"] for a in model.get("actions") or [] if a.get("record")}):
        family = [a for a in model.get("actions") or [] if a.get("record") == kind and not (a.get("params") or {}).get("required")
                  and a.get("risk") != "read"]
        items = (records.get(kind) or {}).get("items") or []
        amounts = [_quantity(item, names) for item in items]
        if len(family) != 1 or len(items) < 2 or any(a is None for a in amounts):
            continue
        best = (max if largest else min)(a for a in amounts if a is not None)
        chosen = [item for item, a in zip(items, amounts, strict=True) if a == best]
        if len(chosen) == 1 and family[0]["id"] not in (chosen[0].get("unavailable") or {}):
            refs.append(f"{family[0]['id']}@{chosen[0]['id']}")
    return refs if len(refs) == 1 else []


def _family(model: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [a for a in model.get("actions") or [] if a.get("record") == kind and not (a.get("params") or {}).get("required")
            and a.get("risk") != "read"]


def counted(model: dict[str, Any], ins: Instruction) -> list[str]:
    """N invocations of a record type's one family action, spread over the records whose fields (not their
    label) say the property the instruction asks for ("3 items that are gluten-free")."""
    m = re.search(r"\b(\d+) \w+ (?:that|which) (?:are|is|have|has) ([\w-]+(?: [\w-]+)?)", ins.text, re.I)
    if not m or not 1 <= int(m[1]) <= 20:
        return []
    said, refs = tokens(m[2]), []
    for kind, listed in sorted((model.get("records") or {}).items()):
        family = _family(model, kind)
        fits = [item for item in listed.get("items") or [] if len(family) == 1 and family[0]["id"] not in (item.get("unavailable") or {})
                and any(phrase_at(tokens(str(v)), said) >= 0 for k, v in (item.get("fields") or {}).items() if k != "text")]
        refs += [f"{family[0]['id']}@{fits[n % len(fits)]['id']}" for n in range(int(m[1]))] if fits else []
    return refs if len({r.split("@")[0] for r in refs}) == 1 else []
