"""One policy for every page: the stand-in for an LLM that shows whether a model is enough to act on.
It reads only the model and receipts (never the DOM, never a task's name) and knows no task:

1. the instruction is the state an adapter calls ``instructions`` (else the longest text in state);
2. every operation the model offers is a candidate: each available plain action, and each family
   action on each record it lists. A candidate is *mentioned* where the instruction names it: a quoted
   phrase equal to a record's label or an enum value (strongest), the label's words in a row, the words
   of the action's own name, or an ordinal ("the 2nd …") over a record type in list order;
3. a candidate that takes a value gets one by the param's type: a date (format ``date``) or time from
   the instruction's dates and times, a number, an enum value the instruction names, else the quoted
   text nearest after the field's mention (or the only quoted text, for the only field);
4. mentions are taken strongest first where they do not overlap, then run in the order the instruction
   says them. After a receipt that added or removed actions or records, the model is read again and the
   rest is planned on it; a receipt that says not ok stops the policy (the failure is the page's answer).

Everything it knows is in this file; no branch names a task (tests/test_miniwob_unseen.py checks)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .agent_pling import PlingAgent

STOP = {"the", "a", "an", "into", "in", "on", "of", "to", "and", "then", "with", "as", "by", "for", "from", "that", "it",
        "is", "are", "this", "its", "your", "all", "below", "above", "field", "text", "box", "button", "item", "list",
        "click", "press", "hit", "select", "enter", "type", "choose", "find", "please", "go", "when", "done", "you", "at"}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
            "ninth": 9, "tenth": 10, "last": -1}
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
    dates: list[str] = field(default_factory=list)
    times: list[str] = field(default_factory=list)
    numbers: list[float] = field(default_factory=list)


def _position(text: str, index: int) -> int:
    return len(tokens(text[:index]))


def read_instruction(text: str) -> Instruction:
    quoted = [(_position(text, m.start()), m.group(1) or m.group(2) or "") for m in re.finditer(r'"([^"]*)"|“([^”]*)”', text)]
    out = Instruction(text, tokens(text), quoted)
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", text):
        out.dates.append(f"{m[3]}-{int(m[1]):02d}-{int(m[2]):02d}")
    for m in re.finditer(r"\b(\d{1,2}):(\d{2})\s*([AaPp][Mm])?", text):
        hour = int(m[1]) % 12 + (12 if (m[3] or "").lower() == "pm" else 0) if m[3] else int(m[1])
        out.times.append(f"{hour:02d}:{m[2]}")
    bare = re.sub(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{1,2}:\d{2}\b", " ", text)
    out.numbers = [float(n) for n in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w/])", bare)]
    return out


@dataclass
class Candidate:
    ref: str
    action: dict[str, Any]
    record: dict[str, Any] | None = None
    args: dict[str, Any] = field(default_factory=dict)
    score: float = 0.0
    start: int = 0
    end: int = 0


def _phrase_at(words: list[str], phrase: list[str]) -> int:
    if not phrase:
        return -1
    for i in range(len(words) - len(phrase) + 1):
        if words[i:i + len(phrase)] == phrase:
            return i
    return -1


def _name_words(action: dict[str, Any]) -> list[str]:
    """The words that name an action: its quoted name in the description, else its id's words."""
    description = action.get("description") or ""
    named = re.findall(r"“([^”]+)”", description)
    return tokens(" ".join(named)) if named else tokens(action["id"].replace("_", " "))


def _value_for(schema: dict[str, Any], ins: Instruction, after: int, used: set[str]) -> Any:
    kind = schema.get("type")
    if kind == "boolean":
        return True
    if "enum" in schema or (kind == "array" and "enum" in (schema.get("items") or {})):
        options = schema.get("enum") or schema["items"]["enum"]
        named = [o for o in options if any(q.strip().lower() == str(o).lower() for _, q in ins.quoted)]
        named = named or [o for o in options if str(o).strip() and _phrase_at(ins.words, tokens(str(o))) >= 0]
        if not named:
            return None
        return named if kind == "array" else max(named, key=lambda o: len(str(o)))
    if schema.get("format") == "date":
        return ins.dates[0] if ins.dates else None
    if schema.get("format") == "time" or "HH:MM" in str(schema.get("description", "")):
        return ins.times[0] if ins.times else None
    if kind in ("number", "integer"):
        return ins.numbers[0] if ins.numbers else None
    later = [q for pos, q in ins.quoted if pos >= after and q not in used] or [q for _, q in ins.quoted if q not in used]
    return later[0] if later else None


def candidates(model: dict[str, Any], ins: Instruction) -> list[Candidate]:
    out: list[Candidate] = []
    records = model.get("records") or {}
    for action in model.get("actions") or []:
        if action.get("record"):
            items = (records.get(action["record"]) or {}).get("items") or []
            for n, item in enumerate(items):
                if action["id"] in (item.get("unavailable") or {}):
                    continue
                out.append(_mention(Candidate(f"{action['id']}@{item['id']}", action, item), ins, n, len(items)))
        elif action.get("available", True) and action.get("kind", "action") != "handoff":
            out.append(_mention(Candidate(action["id"], action), ins))
    return [c for c in out if c.score > 0]


def _ordinal(ins: Instruction) -> tuple[int, int] | None:
    for i, word in enumerate(ins.words):
        m = re.fullmatch(r"(\d+)(st|nd|rd|th)", word)
        if m:
            return int(m[1]), i
        if word in ORDINALS:
            return ORDINALS[word], i
    return None


def _mention(c: Candidate, ins: Instruction, index: int = 0, count: int = 0) -> Candidate:
    action, words = c.action, ins.words
    verb = action["id"].split("_")[0]
    if c.record is not None:
        label = str(c.record.get("label") or c.record["id"])
        for pos, q in ins.quoted:
            if q.strip().lower() == label.strip().lower():
                c.score, c.start, c.end = 4.0, pos, pos + len(tokens(q))
        at = _phrase_at(words, tokens(label))
        if not c.score and at >= 0 and [w for w in tokens(label) if w not in STOP]:
            c.score, c.start, c.end = 2.0 + 0.1 * len(tokens(label)), at, at + len(tokens(label))
        ordinal = _ordinal(ins)
        if not c.score and ordinal and (ordinal[0] == index + 1 or ordinal[0] == -1 and index == count - 1):
            c.score, c.start, c.end = 1.5, ordinal[1], ordinal[1] + 1
        if c.score and verb in words:
            c.score += 0.5
    else:
        name = [w for w in _name_words(action) if w not in STOP]
        hits = [words.index(w) for w in name if w in words]
        if hits and len(hits) * 2 >= len(name):
            c.score, c.start, c.end = 1.0 + 0.2 * len(hits), min(hits), max(hits) + 1
        if verb in words:
            c.score += 0.6 if c.score else 0.0
            if not c.score and verb not in ("fill", "click", "open", "choose"):
                c.score, c.start, c.end = 0.8, words.index(verb), words.index(verb) + 1
    params = action.get("params") or {}
    wanted = [k for k in params.get("required") or [] if k in (params.get("properties") or {})]
    used: set[str] = set()
    for key in wanted:
        value = _value_for(params["properties"][key], ins, c.start, used)
        if value is None:
            c.score = 0.0
            return c
        c.args[key] = value
        used.add(str(value))
        if not c.score and params["properties"][key].get("type") != "boolean":
            c.score, c.start, c.end = 0.7, _value_position(ins, value), _value_position(ins, value) + 1
    return c


def _value_position(ins: Instruction, value: Any) -> int:
    for pos, q in ins.quoted:
        if q == value:
            return pos
    at = _phrase_at(ins.words, tokens(str(value if not isinstance(value, list) else value[0])))
    return at if at >= 0 else len(ins.words)


def plan(model: dict[str, Any], ins: Instruction, done: dict[str, tuple[int, int]]) -> list[Candidate]:
    """The operations still to run, in the order the instruction says them; the words of operations
    already done are taken (another candidate does not get them again)."""
    chosen: list[Candidate] = []
    taken: list[tuple[int, int]] = [span for span in done.values() if span[1] > span[0]]
    for c in sorted(candidates(model, ins), key=lambda c: (-c.score, c.start)):
        if c.ref in done:
            continue
        if any(c.start < end and start < c.end for start, end in taken) and c.end > c.start:
            continue
        chosen.append(c)
        taken.append((c.start, c.end))
    return sorted(chosen, key=lambda c: (c.start, -c.score))


def instruction_of(model: dict[str, Any]) -> str:
    state = model.get("state") or {}
    if "instructions" in state and isinstance(state["instructions"].get("value"), str):
        return state["instructions"]["value"]
    texts = [v.get("value") for v in state.values() if isinstance(v.get("value"), str)]
    if not texts:
        raise PolicyError("the model has no instructions in its state")
    return max(texts, key=len)


def _moved(result: dict[str, Any]) -> bool:
    changed = result.get("changed") or {}
    actions = changed.get("actions") or {}
    return bool(actions.get("added") or actions.get("removed") or changed.get("page")
                or any((r.get("added") or r.get("removed") or r.get("entered")) for r in (changed.get("records") or {}).values()))


async def solve(agent: PlingAgent, model: dict[str, Any], steps: int = 8) -> list[str]:
    """Act on the model until the instruction's operations are done; answers the refs invoked."""
    ins = read_instruction(instruction_of(model))
    done: dict[str, tuple[int, int]] = {}
    for _ in range(steps):
        todo = plan(model, ins, done)
        if not todo:
            break
        step = todo[0]
        result = await agent.invoke(step.ref, step.args)
        done[step.ref] = (step.start, step.end)
        if not result.get("ok"):
            error = result.get("error") or {}
            raise PolicyError(f"{step.ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
        if _moved(result):
            model = await agent.model()
    if not done:
        raise PolicyError(f"nothing in the model matches the instruction {ins.text[:120]!r}")
    return list(done)
