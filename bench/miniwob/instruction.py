"""The instruction as the generic policy reads it (policy_generic.py): its words, quoted phrases, dates,
times and numbers, where each is; an equation it asks to solve; the number a field wants."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

STOP = {"the", "a", "an", "into", "in", "on", "of", "to", "and", "then", "with", "as", "by", "for", "from", "that", "it",
        "is", "are", "this", "its", "your", "all", "below", "above", "field", "text", "box", "button", "item", "list",
        "click", "press", "hit", "select", "enter", "type", "choose", "find", "please", "go", "when", "done", "you", "at"}


ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10, "last": -1}


# Kinds of control the descriptions name, and the instruction's other words for them.
NOUNS = {"button", "link", "field", "checkbox", "tab", "list", "slider", "textbox", "radio", "date", "time", "dialog", "menu"}


SYNONYMS = {"textbox": "field", "input": "field", "dropdown": "list", "box": "field", "check": "checkbox", "spinner": "field"}


MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]


class PolicyError(RuntimeError):
    pass


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@dataclass
class Instruction:
    text: str
    words: list[str]
    quoted: list[tuple[int, str]]               # (word position, phrase)
    dates: list[tuple[int, str]] = field(default_factory=list)     # (word position, YYYY-MM-DD)
    times: list[tuple[int, str]] = field(default_factory=list)     # (word position, HH:MM)
    numbers: list[tuple[int, float | int]] = field(default_factory=list)
    names: set[str] = field(default_factory=set)     # what the model names things (a button's “Search”): not values
    read: list[tuple[int, str, str]] = field(default_factory=list)   # (word position, value, state key): read off the page
    labels: list[tuple[str, str]] = field(default_factory=list)      # (record type, label) of every record listed
    stressed: dict[str, tuple[int, str]] = field(default_factory=dict)   # a field's label -> (position, value)
    skipped: int = 0        # items of earlier pages passed to reach an ordinal (paging.py)


def word_position(text: str, index: int) -> int:
    return len(tokens(text[:index]))


def read_instruction(text: str) -> Instruction:
    quoted = [(word_position(text, m.start()), m.group(1) or m.group(2) or "") for m in re.finditer(r'"([^"]*)"|“([^”]*)”', text)]
    out = Instruction(text, tokens(text), quoted)
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", text):
        out.dates.append((word_position(text, m.start()), f"{m[3]}-{int(m[1]):02d}-{int(m[2]):02d}"))
    for m in re.finditer(r"\b(\d{1,2}):(\d{2})\s*([AaPp][Mm])?", text):
        hour = int(m[1]) % 12 + (12 if (m[3] or "").lower() == "pm" else 0) if m[3] else int(m[1])
        out.times.append((word_position(text, m.start()), f"{hour:02d}:{m[2]}"))
    for m in re.finditer(r"(?<![\w.:/])-?\d+(?:\.\d+)?(?![\w/:])", text):
        number = float(m[0])
        out.numbers.append((word_position(text, m.start()), int(number) if number.is_integer() else number))
    return out


AFFIX = re.compile(r'\b(start|starts|begin|begins|end|ends) with\s*(?:"([^"]+)"|“([^”]+)”)', re.I)


def affix_span(ins: Instruction, label: str) -> tuple[int, int] | None:
    """Where the instruction says what a label must start and end with ("an item that starts with "Gu" and
    ends with "ala""), when the label has every one: the span of the word before the last such quote (the
    quotes are the values typed to see such labels); else None."""
    said = [(m[1].lower()[0] == "e", word_position(ins.text, m.start(2 if m[2] else 3)), m[2] or m[3]) for m in AFFIX.finditer(ins.text)]
    if not said or not label.strip():
        return None
    fits = all(label.lower().endswith(q.lower()) if end else label.lower().startswith(q.lower()) for end, _, q in said)
    at = max(pos for _, pos, _ in said)
    return (at - 1, at) if fits else None


def same_word(said: str, label: str) -> bool:
    """A quoted phrase names a label: the same words, or one word that is the other's with an ending of
    number or tense ("italics" / "italic", "underlined" / "underline", "boxes" / "box")."""
    said, label = said.strip().lower(), label.strip().lower()
    if said == label:
        return True
    if not said or not label or " " in said or " " in label or min(len(said), len(label)) < 3:
        return False
    short, long = sorted((said, label), key=len)
    return long in (short + "s", short + "es", short + "d", short + "ed")


def phrase_at(words: list[str], phrase: list[str]) -> int:
    if not phrase:
        return -1
    for i in range(len(words) - len(phrase) + 1):
        if words[i:i + len(phrase)] == phrase:
            return i
    return -1


def value_for(schema: dict[str, Any], ins: Instruction, after: int, used: set[str]) -> tuple[Any, int]:
    """A value of the param's type from the instruction, and where the instruction says it."""
    kind = schema.get("type")
    if kind == "boolean":
        return True, -1
    choices = choices_of(schema)
    if choices:
        found_choice = [(pos, const) for pos, q in ins.quoted for const, title in choices
                        if q.strip().lower() in (str(const).strip().lower(), str(title).strip().lower()) and q.strip()]
        return (found_choice[0][1], found_choice[0][0]) if found_choice else (None, -1)
    if "enum" in schema or (kind == "array" and "enum" in (schema.get("items") or {})):
        options = schema.get("enum") or schema["items"]["enum"]
        found = [(pos, str(o)) for o in options for pos, q in ins.quoted if q.strip().lower() == str(o).strip().lower()]
        found = found or [(at, str(o)) for o in options if str(o).strip() for at in [phrase_at(ins.words, tokens(str(o)))] if at >= 0]
        if not found:
            return None, -1
        if kind == "array":
            return [o for _, o in sorted(found)], min(p for p, _ in found)
        return max(found, key=lambda f: len(f[1]))[::-1]
    pattern = str(schema.get("pattern", ""))
    if schema.get("format") == "date":
        return (ins.dates[0][1], ins.dates[0][0]) if ins.dates else (None, -1)
    if ":" in pattern and "T" not in pattern or "HH:MM" in str(schema.get("description", "")):
        return (ins.times[0][1], ins.times[0][0]) if ins.times else (None, -1)
    if kind in ("number", "integer"):
        return (ins.numbers[0][1], ins.numbers[0][0]) if ins.numbers else (None, -1)
    free = [(pos, q) for pos, q in ins.quoted if q not in used and q.strip().lower() not in ins.names]
    later = [(pos, q) for pos, q in free if pos >= after] or free
    if not later and ins.read:
        return ins.read[0][1], ins.read[0][0]
    return (later[0][1], later[0][0]) if later else (None, -1)


def choices_of(schema: dict[str, Any]) -> list[tuple[Any, str]]:
    """A oneOf of {const, title}: the values and what the page shows for each."""
    return [(o["const"], str(o.get("title", o["const"]))) for o in schema.get("oneOf") or [] if isinstance(o, dict) and "const" in o]


def optional_args(params: dict[str, Any], ins: Instruction, taken: dict[str, Any], spans: list[tuple[int, int]]) -> dict[str, Any]:
    """Quoted phrases, in the order the instruction says them, for the optional params, in the order they
    are declared: each to the first param not yet given that offers it as a choice, else to the first
    free-text param."""
    out: dict[str, Any] = {}
    properties = params.get("properties") or {}
    for pos, phrase in ins.quoted:
        wanted = phrase.strip().lower()
        free = [k for k, v in properties.items() if k not in taken and k not in out]
        chosen = next(((k, const) for k in free for const, title in choices_of(properties[k])
                       if wanted and wanted in (str(const).strip().lower(), title.strip().lower())), None)
        if chosen is None:
            text = next((k for k in free if properties[k].get("type") == "string" and not choices_of(properties[k])
                         and "enum" not in properties[k] and "format" not in properties[k]), None)
            chosen = (text, phrase) if text else None
        if chosen:
            out[chosen[0]] = chosen[1]
            spans.append((pos, pos + max(1, len(tokens(phrase)))))
    return out


def ordinal_for(ins: Instruction, kinds: set[str]) -> tuple[int, int] | None:
    """The ordinal said of a kind of thing: of several ("the 2nd radio button … the 3rd textbox"), the first
    followed within two words by one of `kinds` (or a synonym of one); else the instruction's first."""
    found = [(ORDINALS[w] if w in ORDINALS else int(w[:-2]), i) for i, w in enumerate(ins.words)
             if w in ORDINALS or re.fullmatch(r"\d+(st|nd|rd|th)", w)]
    named = [(n, i) for n, i in found if said_of(ins, i, kinds)]
    return named[0] if named else found[0] if found else None


def said_of(ins: Instruction, at: int, kinds: set[str]) -> bool:
    """Whether one of `kinds` (or a synonym of one) follows the word at `at` within two words ("the 3rd search result")."""
    return bool(({w for w in ins.words[at + 1:at + 3]} | {SYNONYMS.get(w, w) for w in ins.words[at + 1:at + 3]}) & kinds)


def wait_before(ins: Instruction, start: int, done: dict[str, list[tuple[int, int]]]) -> float:
    """Seconds the instruction says to wait between what was done and the step mentioned at `start`
    ("…, wait 2 seconds, then …")."""
    last = max((end for spans in done.values() for _, end in spans[:1]), default=None)
    if last is None:
        return 0.0
    for i in range(last, min(start, len(ins.words) - 2) + 1):
        if ins.words[i] == "wait" and re.fullmatch(r"\d+(\.\d+)?", ins.words[i + 1]) and ins.words[i + 2].startswith("second"):
            return min(float(ins.words[i + 1]), 30.0)
    return 0.0


def ordinal_in(ins: Instruction) -> tuple[int, int] | None:
    for i, word in enumerate(ins.words):
        m = re.fullmatch(r"(\d+)(st|nd|rd|th)", word)
        if m:
            return int(m[1]), i
        if word in ORDINALS:
            return ORDINALS[word], i
    return None


def instruction_of(model: dict[str, Any]) -> str:
    state = model.get("state") or {}
    if "instructions" in state and isinstance(state["instructions"].get("value"), str):
        return state["instructions"]["value"]
    texts = [v.get("value") for v in state.values() if isinstance(v.get("value"), str)]
    if not texts:
        raise PolicyError("the model has no instructions in its state")
    return max(texts, key=len)


def verb_last(todo: list[Any]) -> list[Any]:
    """The operations planned (policy_generic.Candidate, in the instruction's order), with a plain button
    named by the instruction's first word ("Order one of each item: …", "Search for …") moved after the
    others: that word says the whole task, and pressing it is what a person does last. A view-only one
    (risk read: "Expand the menu and …") keeps its place, and so does an operation that is no button press
    ("Highlight the text …, then click submit": highlight_text)."""
    first = todo[0] if todo else None
    if first is None or len(todo) < 2 or first.start != 0 or first.record is not None or first.args or first.action.get("risk") == "read" \
            or first.action["id"].split("_")[0] not in ("click", "press"):     # a button drafted so, not "highlight_text"
        return todo
    return todo[1:] + [first]


def alike(c: Any, taken: list[Any], ins: Instruction) -> bool:
    """Whether an instruction that says "all" ("Select all the shades of red") mentions this record where it
    mentions one already taken (policy_generic.Candidate), by the same family action: each is done."""
    return "all" in ins.words and c.record is not None and any(
        o.record is not None and o.action["id"] == c.action["id"] and o.spans() == c.spans() for o in taken)
