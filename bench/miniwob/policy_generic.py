"""One policy for every page: the stand-in for an LLM that shows whether a model is enough to act on.
It reads only the model and receipts (never the DOM, never a task's name) and knows no task:

1. the instruction is the state an adapter calls ``instructions`` (else the longest text in state);
2. every operation the model offers is a candidate: each available plain action, and each family
   action on each record it lists. A candidate is *mentioned* where the instruction names it: a quoted
   phrase equal to a record's label or an enum value (strongest), the label's words in a row, the words
   of the action's own name, or an ordinal ("the 2nd …") over a record type in list order; the word
   naming a record's kind just before its label ("the group "Reviewers"") is part of its mention;
3. a candidate that takes a value gets one by the param's type: a date (format ``date``) or time from
   the instruction's dates and times, a number, an enum value the instruction names, else the quoted
   text nearest after the field's mention (or the only quoted text, for the only field), never a phrase
   the model names a control by (a button's “Search”);
4. mentions are taken strongest first where they do not overlap, then run in the order the instruction
   says them. After a receipt that added or removed actions or records or changed what is available, the model
   is read again and the rest is planned on it; a receipt that says not ok stops it (the page's answer);
5. a fill whose name's words went to another operation ("press Search") is still mentioned where its
   quoted value is ("enter "Keneth""); "wait N seconds" between two operations is waited.

Everything it knows is here and in instruction.py, page_reading.py (values read off the page), stepping.py (sliders),
arranging.py (drags), marking.py (records marked by their number), guessing.py, paging.py, repeating.py, seeking.py."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import Any

from .agent_pling import PlingAgent
from .arranging import arrange
from .guessing import guess
from .instruction import (
    NOUNS,
    STOP,
    SYNONYMS,
    Instruction,
    PolicyError,
    affix_span,
    alike,
    instruction_of,
    optional_args,
    ordinal_for,
    phrase_at,
    read_instruction,
    said_of,
    same_word,
    tokens,
    value_for,
    verb_last,
    wait_before,
    word_position,
)
from .marking import mark
from .page_reading import NUMBER, answers_text, read_values, wanted_number, whole_texts
from .paging import seek_named, turn_page
from .repeating import repeat
from .seeking import seek
from .stepping import set_sliders


@dataclass
class Candidate:
    ref: str
    action: dict[str, Any]
    record: dict[str, Any] | None = None
    args: dict[str, Any] = field(default_factory=dict)
    score: float = 0.0
    start: int = 0
    end: int = 0
    weak: bool = False          # mentioned only by the kind of thing it is ("the button"): taken when it is the only one
    values: list[tuple[int, int]] = field(default_factory=list)   # where the instruction says its values
    alt: tuple[int, int] | None = None      # another mention (an ordinal said of its kind), where the first is taken

    def spans(self) -> list[tuple[int, int]]:
        return [(self.start, self.end)] + self.values


def _name_words(action: dict[str, Any]) -> list[str]:
    """The words that name an action: its quoted name in the description, else its id's words."""
    description = action.get("description") or ""
    named = re.findall(r"“([^”]+)”", description)
    return tokens(" ".join(named)) if named else tokens(action["id"].replace("_", " "))


def candidates(model: dict[str, Any], ins: Instruction) -> list[Candidate]:
    out: list[Candidate] = []
    records = model.get("records") or {}
    ins.names = {n.strip().lower() for a in model.get("actions") or [] for n in re.findall(r"“([^”]+)”", a.get("description") or "")}
    ins.read = read_values(model, ins)
    ins.labels = [(kind, str(item.get("label") or "")) for kind, listed in records.items() for item in listed.get("items") or []]
    ins.stressed = stressed_values(model, ins)
    sources = {key for _, _, key in ins.read if key}
    for action in model.get("actions") or []:
        if not action.get("record") and any(action["id"].endswith("_" + key) for key in sources) or answers_text(action):
            continue     # the field a value is read from is not where it goes; a text is read, not done
        if action.get("record"):
            items = (records.get(action["record"]) or {}).get("items") or []
            for n, item in enumerate(items):
                held = str((item.get("fields") or {}).get("value") or "").strip()
                if action["id"] in (item.get("unavailable") or {}) or f"@{item['id']}" in sources or ins.read and held:
                    continue     # a value read off the page goes to an empty field
                out.append(_mention(Candidate(f"{action['id']}@{item['id']}", action, item), ins, n, len(items)))
        elif action.get("available", True) and action.get("kind", "action") != "handoff":
            out.append(_mention(Candidate(action["id"], action), ins))
    out = [c for c in out if c.score > 0]
    weak = [c for c in out if c.weak]
    # A mention by kind alone ("click the button") counts only when nothing is named otherwise, and
    # only for the one candidate of that kind.
    if len(weak) < len(out):
        return [c for c in out if not c.weak]
    return [c for c in out if sum(1 for o in weak if o.start == c.start) == 1]


def _mention(c: Candidate, ins: Instruction, index: int = 0, count: int = 0) -> Candidate:
    action, words = c.action, ins.words
    verb = action["id"].split("_")[0]
    if c.record is not None:
        label = str(c.record.get("label") or c.record["id"])
        held = {str(v).strip().lower() for k, v in (c.record.get("fields") or {}).items() if isinstance(v, str) and k != "text"}
        for pos, q in ins.quoted:
            if same_word(q, label):
                c.score, c.start, c.end = 4.0, pos, pos + len(tokens(q))
            elif not c.score and q.strip() and q.strip().lower() in held:
                c.score, c.start, c.end = 3.5, pos, pos + len(tokens(q))     # a field says it ("text" of data-type)
        at = phrase_at(words, tokens(label))
        if not c.score and at >= 0 and [w for w in tokens(label) if w not in STOP]:
            c.score, c.start, c.end = 2.0 + 0.1 * len(tokens(label)), at, at + len(tokens(label))
        if not c.score and affix_span(ins, label):
            c.score, (c.start, c.end) = 3.0, affix_span(ins, label)     # "starts with "Gu" and ends with "ala""
        if not c.score:
            _named_first(c, ins, label)
        kinds = set(tokens(str(action.get("record", "")).replace("_", " "))) | NOUNS & set(tokens(action.get("description") or ""))
        ordinal = ordinal_for(ins, kinds)
        if ordinal and (ordinal[0] == ins.skipped + index + 1 or ordinal[0] == -1 and index == count - 1) and not c.score:
            c.score, c.start, c.end = 1.5, ordinal[1], ordinal[1] + 1
        elif ordinal and ordinal[0] == ins.skipped + index + 1 and said_of(ins, ordinal[1], kinds):
            c.alt = (ordinal[1], ordinal[1] + 1)     # "enter "Michel" … click the 1st result" (labelled Michel)
        if c.score and c.start > 0 and words[c.start - 1] in tokens(str(action.get("record", "")).replace("_", " ")):
            c.start -= 1     # "the group "Reviewers"": the word naming its kind is part of the mention
        if c.score and verb in words:
            c.score += 0.5 if verb in GENERIC_VERBS else 0.7     # a family's own name ("trash") over a bare click
        if not c.score and "value" in words:
            _looked_up(c, ins, label)
        if label.strip().lower() in ins.stressed and _takes_text(action):
            at, c.args["value"] = ins.stressed[label.strip().lower()]
            c.values.append((at, at + max(1, len(tokens(c.args["value"])))))
            if not c.score:
                c.score, c.start, c.end = 1.0, at, at
    else:
        named = [n.strip().lower() for n in re.findall(r"“([^”]+)”", action.get("description") or "")]
        for pos, q in ins.quoted:
            if q.strip().lower() in named and q.strip():
                c.score, c.start, c.end = 4.0, pos, pos + len(tokens(q))
                return _valued(c, ins)
        name = [w for w in _name_words(action) if w not in STOP]
        hits = [words.index(w) for w in name if w in words]
        if hits and len(hits) * 2 >= len(name):
            c.score, c.start, c.end = 1.0 + 0.2 * len(hits), min(hits), max(hits) + 1
        if verb in words:
            c.score += 0.6 if c.score else 0.0
            if not c.score and verb not in ("fill", "click", "open", "choose"):
                c.score, c.start, c.end = 0.8, words.index(verb), words.index(verb) + 1
    return _valued(c, ins)


GENERIC_VERBS = {"click", "open", "choose", "check", "fill", "focus", "point", "drag"}


def _named_first(c: Candidate, ins: Instruction, label: str) -> None:
    """A record whose label begins with a name the instruction gives (a capitalised word not starting a
    sentence: "the email by Mae" for "Mae Massa. Dui…"), when no other record of its type begins so."""
    first = tokens(label)[:1]
    if not first or len(first[0]) < 2:
        return
    proper = [m for m in re.finditer(r"\b[A-Z][a-z]+\b", ins.text) if m.start() and not re.search(r"[.!?]\s*$", ins.text[:m.start()])]
    at = [word_position(ins.text, m.start()) for m in proper if m[0].lower() == first[0]]
    kind = c.action.get("record")
    alike = [lab for k, lab in ins.labels if k == kind and tokens(lab)[:1] == first]
    if len(at) == 1 and len(alike) == 1:
        c.score, c.start, c.end = 1.8, at[0], at[0] + 1


def _takes_text(action: dict[str, Any]) -> bool:
    params = action.get("params") or {}
    return "value" in (params.get("required") or []) and (params.get("properties") or {}).get("value", {}).get("type") == "string"


def stressed_values(model: dict[str, Any], ins: Instruction) -> dict[str, tuple[int, str]]:
    """The values an instruction stresses (a list the page shows whose every item is a phrase of the
    instruction: its bold words), each to the field of a record type labelled by a word the instruction says
    just before it ("directed by Booth": Director; "year 2016": Year); the one value left to the one field left."""
    stressed = next((v["value"] for v in (model.get("state") or {}).values() if isinstance(v, dict) and isinstance(v.get("value"), list)
                     and len(v["value"]) >= 2 and all(isinstance(x, str) and x.strip() and phrase_at(ins.words, tokens(x)) >= 0 for x in v["value"])), None)
    if not stressed:
        return {}
    free = sorted((phrase_at(ins.words, tokens(x)), x) for x in stressed)
    kinds = {a["record"] for a in model.get("actions") or [] if a.get("record") and _takes_text(a)}
    labels = [label.strip().lower() for kind, label in ins.labels if kind in kinds and tokens(label)]
    out: dict[str, tuple[int, str]] = {}
    for label in labels:
        said = [i for i, w in enumerate(ins.words) if len(w) > 2 and w[:5] == tokens(label)[0][:5]]     # a stem
        after = [f for f in free if said and f[0] > said[0]]
        if after:
            out[label] = after[0]
            free.remove(after[0])
    left = [label for label in labels if label not in out]
    if len(left) == 1 and len(free) == 1:
        out[left[0]] = free[0]
    return out


def _looked_up(c: Candidate, ins: Instruction, label: str) -> None:
    """A field labelled like a key ("Gender:") when the instruction asks for values ("the value that corresponds
    with each label"): its value is what a record of another type says after the same words ("Gender Female")."""
    params = c.action.get("params") or {}
    key, words = "value", tokens(label)
    if not words or key not in (params.get("required") or []) or (params.get("properties") or {}).get(key, {}).get("type") != "string":
        return
    found = [" ".join(said.split()[len(words):]) for kind, said in ins.labels if kind != c.action["record"]
             and tokens(" ".join(said.split()[:len(words)])) == words and len(said.split()) > len(words)]
    if len(found) == 1:
        at = ins.words.index("value")
        c.score, c.start, c.end, c.args[key] = 1.0, at, at, found[0]


def _valued(c: Candidate, ins: Instruction) -> Candidate:
    """The candidate's arguments from the instruction; one it cannot give a required value is dropped."""
    action = c.action
    params = action.get("params") or {}
    wanted = [k for k in params.get("required") or [] if k in (params.get("properties") or {})]
    used: set[str] = set()
    for key in [k for k in wanted if k not in c.args]:
        value, at = value_for(params["properties"][key], ins, c.start, used)
        if value is None:
            c.score = 0.0
            return c
        c.args[key] = value
        used.add(str(value))
        if at >= 0:
            c.values.append((at, at + max(1, len(tokens(str(value))) if isinstance(value, str) else 1)))
        if not c.score and at >= 0:
            c.score, c.start, c.end = 0.7, at, at + 1
    if not wanted and len(params.get("properties") or {}) > 1:
        given: list[tuple[int, int]] = []
        c.args.update(optional_args(params, ins, c.args, given))      # a form's fields
        c.values.extend(given)
        if c.score and len(given) >= 2:
            c.score += 1.5 * len(given)   # a form the instruction fills: its phrases are its values
    if not c.score:
        nouns = NOUNS & set(tokens(action.get("description") or ""))
        said = [ins.words.index(w) for w in ins.words if w in nouns or SYNONYMS.get(w) in nouns]
        if said:
            c.score, c.start, c.end, c.weak = 0.3, said[0], said[0] + 1, True
    return c


def plan(model: dict[str, Any], ins: Instruction, done: dict[str, list[tuple[int, int]]]) -> list[Candidate]:
    """The operations still to run, in the order the instruction says them; the words of operations
    already done are taken (another candidate does not get them again)."""
    chosen: list[Candidate] = []
    taken: list[tuple[int, int]] = [span for spans in done.values() for span in spans if span[1] > span[0]]
    for c in (found := sorted(candidates(model, ins), key=lambda c: (-c.score, c.start))):
        if c.ref in done:
            continue
        clash = lambda spans: any(a < end and start < b for a, b in spans if b > a for start, end in taken)  # noqa: E731
        if clash(c.spans()) and c.values and not clash(c.values):
            # Its name's words went to another operation ("press Search"), but its value is said and free
            # ("enter "Keneth""): it is mentioned where its value is.
            c.start, c.end = min(a for a, _ in c.values), min(a for a, _ in c.values)
        if clash(c.spans()) and c.alt and not clash([c.alt] + c.values):
            c.start, c.end = c.alt
        if clash(c.spans()) and not alike(c, [o for o in found if o in chosen or o.ref in done], ins):
            continue
        chosen.append(c)
        taken.extend(c.spans())
    return verb_last(sorted(chosen, key=lambda c: (c.start, -c.score)))


def _moved(result: dict[str, Any]) -> bool:
    changed = result.get("changed") or {}
    actions = changed.get("actions") or {}
    return bool(actions.get("added") or actions.get("removed") or actions.get("availability") or changed.get("page")
                or any((r.get("added") or r.get("removed") or r.get("entered")) for r in (changed.get("records") or {}).values()))


def _unmatched(ins: Instruction, done: dict[str, list[tuple[int, int]]]) -> bool:
    """Whether a quoted phrase of the instruction is still unaccounted for by what was done."""
    return any(not any(start <= pos < max(end, start + 1) for spans in done.values() for start, end in spans) for pos, _ in ins.quoted)


def explorations(model: dict[str, Any], tried: set[str]) -> list[str]:
    """Operations that only change what is shown (risk read: a tab, a section, a tree item), not the
    business state nor the document (a link that leaves is not one): safe to try to find something."""
    out = []
    records = model.get("records") or {}
    for action in model.get("actions") or []:
        if action.get("risk") != "read" or str(action.get("description", "")).startswith("Follow") or action.get("params") or answers_text(action):
            continue
        if action.get("record"):
            for item in (records.get(action["record"]) or {}).get("items") or []:
                ref = f"{action['id']}@{item['id']}"
                if ref not in tried and action["id"] not in (item.get("unavailable") or {}):
                    out.append(ref)
        elif action.get("available", True) and action["id"] not in tried and not action["id"].startswith("focus"):
            out.append(action["id"])
    return out


SUBMITS = {"submit", "search", "go", "ok", "send", "done"}


def _submit_left(model: dict[str, Any], ins: Instruction, done: dict[str, list[tuple[int, int]]], worked: bool = False) -> list[Candidate]:
    """Fields filled with the values the instruction stresses (or sliders set, a list reordered: `worked`),
    and the page's one submit button ("Submit", "Search") not pressed: pressing it is what a person does last."""
    if not (ins.stressed or worked or any(ref.split("_")[0].split("@")[0] == "fill" for ref in done)) or not done:
        return []
    left = [a for a in model.get("actions") or [] if not a.get("record") and a.get("available", True) and not a.get("params")
            and a["id"] not in done and a["id"].split("_")[0] in ("click", "press") and set(_name_words(a)) & SUBMITS]
    return [Candidate(left[0]["id"], left[0], score=0.1, start=len(ins.words), end=len(ins.words))] if len(left) == 1 else []


async def _until_wanted(agent: PlingAgent, step: Candidate, ins: Instruction, invoked: list[str], most: int = 12) -> dict[str, Any] | None:
    """After an operation without values, when the instruction asks for a number with some property and the
    page now shows a number (a state that is one): the operation again until that number has it. Answers
    the model last read, or None when the instruction asks no such thing."""
    wanted = wanted_number(ins.text)
    if wanted is None or step.args:
        return None
    model = await agent.model()
    for _ in range(most):
        shown = [float(v["value"]) for v in (model.get("state") or {}).values()
                 if isinstance(v, dict) and isinstance(v.get("value"), str) and re.fullmatch(NUMBER, v["value"].strip())]
        if not shown or any(wanted(n) for n in shown):
            break
        result = await agent.invoke(step.ref, {})
        invoked.append(step.ref)
        if not result.get("ok"):
            break
        model = await agent.model()
    return model


async def solve(agent: PlingAgent, model: dict[str, Any], steps: int = 8, explore: int = 6, instruction: str | None = None) -> list[str]:
    """Act on the model until the instruction's operations are done; answers the refs invoked. When the
    instruction quotes something the model does not show, it opens what only changes the view, one at
    a time, reading the model again after each, up to `explore` times. `instruction`: the task in words,
    when the page itself does not say it (an app, not a benchmark page)."""
    ins = read_instruction(instruction if instruction is not None else instruction_of(model))
    ins.names = {n.strip().lower() for a in model.get("actions") or [] for n in re.findall(r"“([^”]+)”", a.get("description") or "")}
    invoked: list[str] = []
    model = await whole_texts(agent, await seek_named(agent, model, ins, invoked), ins)     # a name shown on another page
    ruled: list[list[str]] = []   # the refs each rule did: sliders, drags, marks (each then asks a submit), guesses…
    for rule in (set_sliders, arrange, mark, guess, repeat, seek):
        model, refs = await rule(agent, model, ins, invoked)
        ruled.append(refs)
    done: dict[str, list[tuple[int, int]]] = {ref: [] for refs in ruled for ref in refs}
    tried: set[str] = set()
    took, ended = 0.0, time.perf_counter()     # the last call's duration, and when it ended
    for _ in range(steps + explore):
        todo = plan(model, ins, done)
        strong = [c for c in todo if c.score >= 2]
        lost = not todo and not done or ins.quoted and _unmatched(ins, done) and not strong
        if lost and len(tried) < explore:
            options = explorations(model, tried | set(done))
            if options:
                tried.add(options[0])
                result = await agent.invoke(options[0], {})
                invoked.append(options[0])
                if result.get("ok"):
                    model = await whole_texts(agent, await agent.model(), ins)
                continue
        if not todo and (paged := await turn_page(agent, model, ins, invoked)):
            model = paged
            continue
        if not todo:
            todo = _submit_left(model, ins, done, worked=any(ruled[:3]))
            if not todo:
                break
        step = todo[0]
        pause = wait_before(ins, step.start, done)
        if pause:
            # The wait is between two gestures, each inside its call: the rest of the last, the time since, count
            await asyncio.sleep(max(0.0, pause - took - (time.perf_counter() - ended)))
        began = time.perf_counter()
        result = await agent.invoke(step.ref, step.args)
        ended = time.perf_counter()
        took = ended - began
        invoked.append(step.ref)
        done[step.ref] = step.spans()
        if not result.get("ok"):
            error = result.get("error") or {}
            raise PolicyError(f"{step.ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
        repeated = await _until_wanted(agent, step, ins, invoked)
        if repeated is not None or _moved(result):
            model = repeated or await whole_texts(agent, await agent.model(), ins)
    if not invoked:
        raise PolicyError(f"nothing in the model matches the instruction {ins.text[:120]!r}")
    return invoked
