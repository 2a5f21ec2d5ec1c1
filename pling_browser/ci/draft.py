"""``pling-browser draft URL``: a starting adapter (docs/adapters.md) for a page that does not declare
itself. survey.py reads the page (the DOM and Chromium's accessibility tree), reading.py decides what
becomes what, and this module writes it: one commented block per thing found, saying what it is, how
the draft finds it again, and what it guessed (``TODO``). The helpers every draft carries (prelude.js)
find an element by a locator written down here and answer none when two match (invariant 6).

The draft says it is one: a ``DRAFT`` line at the top and ``TODO`` comments where a person must decide
(risks, expectations, ids taken from visible text, elements found by their place)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from .plans import ActionPlan, Reading, RecordPlan, js, one_line
from .reading import read_survey
from .survey import PRELUDE, survey_page

if TYPE_CHECKING:
    from ..runtime import Runtime

__all__ = ["draft", "draft_after", "parse_step", "write_adapter", "DraftStepFailed"]


class DraftStepFailed(RuntimeError):
    """A step of ``draft --do`` did not succeed: the draft would describe a page nobody asked for."""


async def draft(runtime: Runtime, url: str) -> str:
    """Open ``url`` once and answer the text of a draft adapter for it."""
    session = await runtime.open(url)
    try:
        survey = await survey_page(session)
    finally:
        await runtime.close(session.id)
    return write_adapter(read_survey(survey))


def parse_step(text: str) -> tuple[str, dict[str, object]]:
    """``ACTION`` or ``ACTION {JSON args}``."""
    action, _, raw = text.strip().partition(" ")
    args = json.loads(raw) if raw.strip() else {}
    if not isinstance(args, dict):
        raise ValueError(f"the arguments of {action} must be a JSON object")
    return action, args


async def draft_after(runtime: Runtime, url: str, steps: list[tuple[str, dict[str, object]]]) -> str:
    """Open ``url`` (the runtime's adapters hold a first draft), run ``steps`` through the lifecycle, and
    answer the draft of the page as they left it (a list that is empty until something is added)."""
    session = await runtime.open(url)
    try:
        for action, args in steps:
            receipt = await runtime.invoke(session, action, args)
            if not receipt.ok:
                error = receipt.error or {}
                raise DraftStepFailed(f"{action}: {error.get('code')} {error.get('message')}"[:300])
        survey = await survey_page(session)
    finally:
        await runtime.close(session.id)
    reading = read_survey(survey)
    reading.notes.append("Written after these steps of a first draft: " + "; ".join(
        f"{a} {json.dumps(g, ensure_ascii=False)}" if g else a for a, g in steps))
    return write_adapter(reading)


# How a form action fills its fields as typing would (the value setter, then input and change) and
# submits through the form's own path: its submit button pressed (click(): the button's own click handlers
# run, then validation and submit handlers, as requestSubmit(button) runs them), else requestSubmit().
_SUBMIT = """// Fills a form as typing would (the value setter, then input and change), then submits it with its button.
const submitForm = (form, args, submitter) => {
  if (!form) throw new Error('the form is not on the page (or more than one matches)');
  for (const [name, value] of Object.entries(args || {})) {
    const field = form.elements.namedItem(name);
    if (!field) throw new Error('the form has no field ' + name);
    const one = field instanceof RadioNodeList ? Array.from(field).find((r) => r.value === String(value)) : field;
    if (!one) throw new Error('no choice ' + value + ' for ' + name);
    if (one.type === 'checkbox') one.checked = Boolean(value);
    else if (one.type === 'radio') one.checked = true;
    else Object.getOwnPropertyDescriptor(Object.getPrototypeOf(one), 'value').set.call(one, String(value));
    one.dispatchEvent(new Event('input', { bubbles: true }));
    one.dispatchEvent(new Event('change', { bubbles: true }));
  }
  if (submitter === null) throw new Error('its submit button is not on the page (or more than one matches)');
  // Pressed as a person presses it: a page that answers the button's click (and stops the submission) is answered.
  const button = submitter || Array.from(form.elements).find((el) => /^(submit|image)$/.test(el.type) && /^(BUTTON|INPUT)$/.test(el.tagName));
  if (button && !button.disabled) button.click(); else if (submitter) form.requestSubmit(submitter); else form.requestSubmit();
};"""


def _comment(lines: list[str], text: str) -> None:
    lines.append("// " + one_line(text))


def _action(plan: ActionPlan, out: list[str]) -> None:
    out.append("")
    _comment(out, f"Action {plan.id}: {plan.found}.")
    for todo in plan.todos:
        _comment(out, todo)
    parts = [f"id: {js(plan.id)}", f"description: {js(plan.description)}", f"risk: {js(plan.risk)}"]
    if plan.region:
        parts.append(f"region: {js(plan.region)}")
    if plan.choice is not None:
        _comment(out, "Its options are read from the list whenever they change (the enum is what it offers now).")
        parts.append(f"params: P.choice(el, {js(plan.choice)})")
    elif plan.form is not None:
        _comment(out, "Its params are the form's fields as they are now, read again whenever the form changes.")
        parts.append("params: P.formParams(el)")
    elif plan.params:
        parts.append(f"params: {js(plan.params)}")
    if plan.form is not None:
        with_button = f", P.one({js(plan.submitter)})" if plan.submitter else ""
        parts.append(f"run: (args) => submitForm(P.one({js(plan.form)}), args{with_button})")
    elif plan.run is not None:
        parts.append(f"run: () => {plan.run}")
    elif plan.loc is not None:
        loc = js(plan.loc)
        parts.append(f"target: () => P.one({loc})")
        parts.append(f"available: () => P.why({loc})")
        if plan.gesture is not None:
            parts.append(f"gesture: {js(plan.gesture)}")
        if plan.expect is not None:
            parts.append(f"expect: {{ description: {js(plan.expect[0])}, check: (args) => {plan.expect[1] % loc} }}")
    if plan.choice is not None:
        out.append(f"P.live({js(plan.loc)}, P.options, (el) => pling.action({{ " + ",\n  ".join(parts) + " }));")
    elif plan.form is not None:
        out.append(f"P.live({js(plan.form)}, P.formParams, (el) => pling.action({{ " + ",\n  ".join(parts) + " }));")
    else:
        out.append("pling.action({ " + ",\n  ".join(parts) + " });")


def _records(plan: RecordPlan, out: list[str]) -> None:
    out.append("")
    _comment(out, f"Records {plan.type}: {plan.found}.")
    _comment(out, f"Id: {plan.id_how}.")
    for todo in plan.todos:
        _comment(out, todo)
    name = "".join(w.capitalize() if i else w for i, w in enumerate(plan.type.split("_")))
    container = js(plan.container) if plan.container is not None else "null"
    out.append(f"const {name}List = () => P.items({container}, {js(plan.css)});")
    out.append(f"const {name}Id = (el) => {plan.id_expr};")
    out.append(f"const {name}El = (id) => P.pick({name}List(), {name}Id, id);")
    fields = ", ".join(expr if not key else f"{key}: {expr}" for key, expr in plan.fields)
    parts = [f"type: {js(plan.type)}", f"list: {name}List", f"id: {name}Id", f"label: (el) => {plan.label_expr}"]
    if fields:
        parts.append(f"fields: (el) => ({{ {fields} }})")
    parts.append(f"element: {name}El")
    if plan.region:
        parts.append(f"region: {js(plan.region)}")
    out.append("pling.records({ " + ", ".join(parts[:3]) + ",\n  " + ",\n  ".join(parts[3:]) + " });")
    for family in plan.families:
        _comment(out, f"Action {family.id}@{plan.type.upper()}_ID: " + family.description
                 + (f", the control found by {_loc_words(family.inner)} inside the record's element" if family.inner else ""))
        for todo in family.todos:
            _comment(out, todo)
        if family.inner is None:
            target = f"(id) => {name}El(id)"
            available = None
        else:
            inner = f"P.inside({name}El(id), {js(family.inner)}" + (f", {js(plan.nested)})" if plan.nested else ")")
            target = f"(id) => {inner}"
            none = js(f"nothing like that in this {plan.type.replace('_', ' ')} now")
            available = (f"(id) => {{ const c = {inner}; return !c ? {none} : ({family.when[0]}) ? true : {js(family.when[1])}; }}"
                         if family.when else f"(id) => ({inner} ? true : {none})")
        parts = [f"id: {js(family.id)}", f"record: {js(plan.type)}", f"description: {js(family.description)}",
                 f"risk: {js(family.risk)}", f"target: {target}"]
        if available:
            parts.append(f"available: {available}")
        if family.params:
            parts.append(f"params: {js(family.params)}")
        if family.gesture is not None:
            parts.append(f"gesture: {js(family.gesture)}")
        if plan.region:
            parts.append(f"region: {js(plan.region)}")
        out.append("pling.action({ " + ", ".join(parts[:4]) + ",\n  " + ",\n  ".join(parts[4:]) + " });")


def _loc_words(loc: dict[str, object]) -> str:
    if "css" in loc:
        return f"the selector {loc['css']!r}"
    return f"role {loc.get('role')}" + (f" and name “{loc['name']}”" if loc.get("name") else " (the only one)")


def write_adapter(reading: Reading, now: datetime | None = None) -> str:
    """The draft adapter's text for a page read by reading.py."""
    when = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    todos = sum(len(a.todos) for a in reading.actions) + sum(len(r.todos) + sum(len(f.todos) for f in r.families)
                                                            for r in reading.records) + sum(len(s.todos) for s in reading.states)
    out = [
        "// ==UserScript==",
        f"// @name         DRAFT: {one_line(reading.title[:120])}",
        f"// @description  A draft written by pling-browser draft from {reading.url[:200]} on {when}",
        f"// @match        {reading.match}",
        f"// @match        {reading.match}?*",
        "// ==/UserScript==",
        "// DRAFT: written from what a person sees on the page (its accessibility tree and DOM). A person finishes",
        "// it: check every TODO, narrow @match, run `pling-browser check URL --adapter THIS_FILE`, then delete this line.",
        f"// Found: {len(reading.actions)} actions, {len(reading.records)} record types, {len(reading.states)} state entries, "
        f"{len(reading.feedback)} feedback sources, {len(reading.regions)} dialogs; {todos} TODOs.",
    ]
    out += ["// " + one_line(note[:400]) for note in reading.notes]
    out += ["", PRELUDE.rstrip()]
    if any(a.form is not None for a in reading.actions):
        out += ["", _SUBMIT]
    out += ["", "// The page, named from its address (the @match pattern says which addresses it is).",
            f"pling.page({{ id: {js(reading.page_id)} + P.queryKeys(), name: {js(reading.title[:120])} }});"]
    for region_id, name, loc in reading.regions:
        out.append("")
        _comment(out, f"Region {region_id}: the dialog “{name}”, found by {_loc_words(loc)}; its controls name it as their region.")
        out.append(f"pling.region({{ id: {js(region_id)}, name: {js(name)}, purpose: 'A dialog', role: 'dialog' }});")
    for state in reading.states:
        out.append("")
        _comment(out, f"State {state.key}: {state.found}.")
        for todo in state.todos:
            _comment(out, todo)
        sensitive = ", sensitive: true" if state.sensitive else ""
        out.append(f"pling.state({{ key: {js(state.key)}, description: {js(state.description)}{sensitive},\n  get: () => {state.expr} }});")
    if reading.feedback:
        out.append("")
        _comment(out, "Feedback: " + "; ".join(found for _, _, found in reading.feedback) + ".")
        sources = ", ".join(f"[{js(loc)}, {js(kind)}]" for loc, kind, _ in reading.feedback)
        out.append(f"pling.feedback(() => [{sources}].map(([loc, kind]) => [P.textOf(loc), kind]).filter(([text]) => text)\n"
                   "  .map(([text, kind]) => ({ kind: /error|fail|invalid|wrong|could not|cannot/i.test(text) ? 'error' : kind, text })));")
    for record in reading.records:
        _records(record, out)
    for action in reading.actions:
        _action(action, out)
    if not (reading.actions or reading.records or reading.states):
        out.append("// TODO: no control, repeated structure or text was found; declare the page's model by hand.")
    return "\n".join(out) + "\n"
