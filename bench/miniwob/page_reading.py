"""What the generic policy reads off the page (policy_generic.py): values the instruction asks to copy
(a word shown, a row's value, a text cut short in the model read whole), and the number a field wants."""

from __future__ import annotations

import re
from typing import Any

from .agent_pling import PlingAgent
from .colours import colour_value
from .instruction import ORDINALS, Instruction, ordinal_in, tokens

# ---- values a person reads off the page when the instruction quotes none ("type the answer", "the 3rd word")
NUMBER = r"-?\d+(?:\.\d+)?"


EQUATION = re.compile(rf"^\s*({NUMBER}|x)\s*([-+x×*/÷])\s*({NUMBER}|x)\s*=\s*({NUMBER}|x)?\s*$", re.I)


READ_WORDS = {"solve", "answer", "copy", "paste", "word", "value", "below", "above", "shown", "displayed", "total"}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(round(value, 6))


def solve_equation(text: str) -> str | None:
    """The unknown of `a op b = c` where one of a, b, c is x or c is missing ("3 x 4 =", "x + 2 = 9")."""
    m = EQUATION.match(text)
    if not m:
        return None
    a, op, b, c = m[1].lower(), m[2].lower().replace("×", "x").replace("*", "x").replace("÷", "/"), m[3].lower(), (m[4] or "x").lower()
    if [a, b, c].count("x") != 1:
        return None
    apply = {"+": lambda p, q: p + q, "-": lambda p, q: p - q, "x": lambda p, q: p * q, "/": lambda p, q: p / q if q else None}
    undo = {"+": "-", "-": "+", "x": "/", "/": "x"}
    if c == "x":
        value = apply[op](float(a), float(b))
    elif a == "x":
        value = apply[undo[op]](float(c), float(b))
    elif op in "+x":
        value = apply[undo[op]](float(c), float(a))
    else:
        value = apply[op](float(a), float(c))
    return None if value is None else _number(value)


def _shown(model: dict[str, Any], ins: Instruction) -> list[tuple[str, str]]:
    """Texts the page shows now (state that is a string), but the instruction itself: (key, text as shown,
    spaces included: a text to copy is copied as it is). A text the model cut ("…(+N chars)") is not whole."""
    return [(k, v["value"]) for k, v in (model.get("state") or {}).items()
            if isinstance(v, dict) and isinstance(v.get("value"), str) and v["value"].strip() and v["value"].strip() != ins.text.strip()
            and not CUT.search(v["value"])]


def _word_at(ins: Instruction) -> tuple[int, int] | None:
    """"the 3rd word", "the last word": (which, where the instruction says it)."""
    for i, word in enumerate(ins.words[:-1]):
        if ins.words[i + 1] != "word":
            continue
        m = re.fullmatch(r"(\d+)(st|nd|rd|th)", word)
        if m or word in ORDINALS:
            return (int(m[1]) if m else ORDINALS[word]), i
    return None


def _value_of_row(model: dict[str, Any], ins: Instruction) -> tuple[int, str] | None:
    """"the value of Year of Birth": the record whose label begins with the most of the words after "of"
    says the value after them ("Year of Birth 1987")."""
    best: tuple[int, int, str] | None = None
    for i, word in enumerate(ins.words[:-2]):
        if word != "value" or ins.words[i + 1] != "of":
            continue
        for kind in (model.get("records") or {}).values():
            for item in kind.get("items") or []:
                said = str(item.get("label") or "").split()
                n = 0
                while n < len(said) - 1 and tokens(said[n]) == ins.words[i + 2 + n:i + 3 + n]:
                    n += 1
                if n and (best is None or n > best[0]):
                    best = (n, i, " ".join(said[n:]))
    return (best[1], best[2]) if best else None


CUT = re.compile(r"…\(\+\d+ chars\)$")


def answers_text(action: dict[str, Any]) -> bool:
    """A read action that answers a text the model's state shows cut (`read_KEY`: “the whole of …”)."""
    return action.get("risk") == "read" and str(action.get("description", "")).startswith("Answer the whole of")


def _asks_reading(ins: Instruction) -> bool:
    return bool(READ_WORDS & set(ins.words)) and not any(q.strip().lower() not in ins.names for _, q in ins.quoted)


async def whole_texts(agent: PlingAgent, model: dict[str, Any], ins: Instruction) -> dict[str, Any]:
    """When the instruction asks for something read off the page, each state text the model shows cut is
    read whole through the read action the model offers for it (its receipt's data)."""
    if not _asks_reading(ins):
        return model
    readers = {a["id"]: a for a in model.get("actions") or [] if answers_text(a)}
    for key, entry in (model.get("state") or {}).items():
        if isinstance(entry, dict) and isinstance(entry.get("value"), str) and CUT.search(entry["value"]) and f"read_{key}" in readers:
            result = await agent.invoke(f"read_{key}", {})
            if result.get("ok") and isinstance(result.get("data"), str) and not CUT.search(result["data"]):
                entry["value"] = result["data"]
    return model


def _held_by_ordinal(model: dict[str, Any], ins: Instruction) -> tuple[str, str] | None:
    """"the 2nd text area": the field of that place in a record type of fields (items with a value), (id, value)."""
    ordinal = ordinal_in(ins)
    if ordinal is None:
        return None
    for kind in (model.get("records") or {}).values():
        items = kind.get("items") or []
        if items and all(isinstance((i.get("fields") or {}).get("value"), str) for i in items) and ordinal[0] <= len(items):
            item = items[ordinal[0] - 1 if ordinal[0] > 0 else -1]
            if item["fields"]["value"].strip() and not CUT.search(item["fields"]["value"]):
                return item["id"], item["fields"]["value"]
    return None


def read_values(model: dict[str, Any], ins: Instruction) -> list[tuple[int, str, str]]:
    """What the instruction asks to type when it quotes nothing: an equation's answer, a word at a place
    in a text, a row's value, a text to copy. Each with where the instruction asks for it and the state
    it was read from (a field the value is read from is not the field it goes to)."""
    if colour_value(model, ins):
        return colour_value(model, ins)      # a colour named in words, to a colour field
    if not _asks_reading(ins):
        return []
    at = min(i for i, w in enumerate(ins.words) if w in READ_WORDS)
    shown = _shown(model, ins)
    for key, text in shown:
        answer = solve_equation(text)
        if answer is not None:
            return [(at, answer, key)]
    which = _word_at(ins)
    if which and shown:
        key, text = max(shown, key=lambda s: len(s[1].split()))
        words = [re.sub(r"[^\w'-]", "", w) for w in text.split()]
        words = [w for w in words if w]
        if words and abs(which[0]) <= len(words):
            return [(which[1], words[which[0] - 1 if which[0] > 0 else -1], key)]
    row = _value_of_row(model, ins)
    if row:
        return [(row[0], row[1], "")]
    held = _held_by_ordinal(model, ins)
    if held and {"copy", "paste"} & set(ins.words):
        return [(at, held[1], "@" + held[0])]
    if {"copy", "paste", "below", "above", "shown", "displayed"} & set(ins.words) and len(shown) == 1:
        return [(at, shown[0][1], shown[0][0])]
    return []


def wanted_number(text: str) -> Any:
    """What the instruction asks of a number the page shows ("a number less than 8", "an odd number"): a test, or None."""
    m = re.search(r"\b(less|smaller|lower|fewer|greater|more|larger|bigger|higher) than (-?\d+(?:\.\d+)?)", text, re.I)
    if m:
        bound = float(m[2])
        return (lambda v: v < bound) if m[1].lower() in ("less", "smaller", "lower", "fewer") else (lambda v: v > bound)
    m = re.search(r"\b(odd|even) number", text, re.I)
    if m:
        return (lambda v: v % 2 == 1) if m[1].lower() == "odd" else (lambda v: v % 2 == 0)
    return None
