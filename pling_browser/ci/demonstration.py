"""A draft adapter from a person's demonstration (the console's live view, "Record"): each click,
fill, selection, tick and key press they made becomes a proposed action, found the way the person
saw the control (its ARIA role and accessible name), else by a stable attribute (an id that does not
look generated, ``name``, ``data-testid``, ``href``), with the values they used as examples.

The draft has the shape ``pling-browser draft`` writes (docs/adapters.md): the userscript header with
``@match`` from the addresses the steps were made on, a ``DRAFT`` line, a prelude of helpers, one
commented block per action, and ``TODO`` where a person decides (risks, expectations, a locator that
is a guess). The prelude is the one every draft carries (prelude.js); the role, name and locators of each recorded
control were read with it in the page while the person worked, so the adapter finds what was recorded."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Literal
from urllib.parse import urlsplit

from ..core.answers import Reached
from .plans import js, one_line
from .survey import PRELUDE

__all__ = ["ATTRIBUTES", "LOCATE", "Step", "locate", "located", "write_demonstration"]

StepKind = Literal["click", "dblclick", "fill", "select", "check", "press"]

_GENERATED_ID = re.compile(r"\d{3,}|[0-9a-f]{8,}|^[:_]|^(ember|mui|react-|radix-|headlessui-|yui_|ext-gen|j_id|ng-)|[-_]\d+$", re.I)
_DANGER = re.compile(r"\b(delete|remove|destroy|cancel|clear|discard|drop|archive|revoke|pay|purchase|buy)\b", re.I)
_NATIVE_CLICK = {"button", "a", "input"}
ATTRIBUTES = ("id", "name", "data-testid", "data-test", "data-qa", "data-cy", "href")
MAX_EXAMPLES = 5


@dataclass
class Step:
    """One thing the person did, on one control of the document at ``url``."""

    kind: StepKind
    control: Reached
    url: str
    value: str | None = None  # what they typed or chose (None: a secret, not kept)
    checked: bool | None = None
    press: str | None = None  # a key after the fill (Enter), or the key of a press step

    def key(self) -> tuple[object, ...]:
        """Steps on the same control with the same gesture become one action."""
        control = self.control
        return (self.kind, self.press if self.kind == "press" else None, control.role, control.name,
                tuple(sorted((name, a.value) for name, a in control.attrs.items())))

    def said(self) -> str:
        """The step as the console shows it to the person."""
        what = _what(self.control)
        if self.kind == "fill":
            typed = "a secret (not kept)" if self.value is None else _quote(self.value)
            return f"typed {typed} into {what}" + (f", then pressed {self.press}" if self.press else "")
        if self.kind == "select":
            return f"chose {_quote(self.value or '')} in {what}"
        if self.kind == "check":
            return f"{'ticked' if self.checked else 'unticked' if self.checked is False else 'clicked'} {what}"
        if self.kind == "press":
            return f"pressed {self.press} on {what}"
        return f"{'double-clicked' if self.kind == 'dblclick' else 'clicked'} {what}"


@dataclass
class _Action:
    id: str
    steps: list[Step] = field(default_factory=list)

    @property
    def first(self) -> Step:
        return self.steps[0]


def _quote(text: str) -> str:
    return "“" + (text if len(text) <= 60 else text[:59] + "…") + "”"


def _what(control: Reached) -> str:
    noun = control.role or f"<{control.tag}>"
    return f"the {noun} {_quote(control.name)}" if control.name else f"the {noun}"


def _js(value: object) -> str:
    return js(value)


def _slug(text: str, fallback: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[:4]) or fallback


def locate(control: Reached) -> tuple[dict[str, str], str, str | None]:
    """How the draft finds the control (a locator prelude.js reads: {role, name} or {css}), what it
    goes by, and the TODO when that is a guess. A locator finds one element or none (P.one): one that
    several controls share is written with a TODO, never taken as "the first"."""
    if control.role and control.name and control.sharing == 1:
        return {"role": control.role, "name": control.name}, "its role and accessible name", None
    for name in ATTRIBUTES:
        attribute = control.attrs.get(name)
        if attribute is None or attribute.shown != 1 or (name == "id" and _GENERATED_ID.search(attribute.value)):
            continue
        why = None if control.role and control.name else f"it has no role and name to go by; found by its {name}"
        return {"css": attribute.css}, f"its {name} attribute", why
    if control.role and control.name:
        return ({"role": control.role, "name": control.name}, "its role and accessible name",
                f"{control.sharing} shown elements share this role and name, so it finds none: give it a locator of its own")
    return ({"css": control.tag or "body"}, "its tag alone",
            "nothing identifies it (no role and name, no stable attribute): give it a locator of its own")


def _match_pattern(url: str) -> str:
    parts = urlsplit(url)
    folder = parts.path.rsplit("/", 1)[0] + "/"
    return f"{parts.scheme}://{parts.hostname}{folder}*"


def _actions(steps: list[Step]) -> list[_Action]:
    by_key: dict[tuple[object, ...], _Action] = {}
    used: set[str] = set()
    for step in steps:
        action = by_key.get(step.key())
        if action is None:
            verb = {"click": "click", "dblclick": "open", "fill": "fill", "select": "choose", "check": "set",
                    "press": f"press_{(step.press or 'key').lower()}"}[step.kind]
            handle = step.control.name or next((a.value for a in step.control.attrs.values()), "") or step.control.tag
            base = f"{verb}_{_slug(handle, step.control.tag or 'control')}"
            name, n = base, 2
            while name in used:
                name, n = f"{base}_{n}", n + 1
            used.add(name)
            action = by_key[step.key()] = _Action(name)
        action.steps.append(step)
    return list(by_key.values())


def _examples(action: _Action) -> list[str]:
    seen: list[str] = []
    for step in action.steps:
        if step.value is not None and step.value not in seen:
            seen.append(step.value)
    return seen[:MAX_EXAMPLES]


def _block(action: _Action, numbers: list[int], out: list[str]) -> None:
    step = action.first
    control = step.control
    loc, by, guess = locate(control)
    find = _js(loc)
    what = _what(control)
    said = "; ".join(f"step {n}: {s.said()}" for n, s in zip(numbers, action.steps, strict=True))
    out.append(f"\n// {one_line(said[:400])}")
    out.append(f"// Found by {one_line(by)}.")
    if guess:
        out.append(f"// TODO: the locator is a guess: {one_line(guess)}.")
    description, risk, params, gesture = _shape(action, what)
    out.append("pling.action({")
    out.append(f"  id: {_js(action.id)}, description: {_js(description)},")
    out.append(f"  risk: {_js(risk)},  // TODO: read, write or danger?")
    if params is not None:
        out.append(f"  params: {_js(params)},")
    if step.kind == "fill" and any(s.value is None for s in action.steps):
        out.append("  // TODO: the person typed a secret here (not kept): an agent passes it as <secret>NAME</secret>.")
    if step.kind == "fill" and gesture is None:
        out.append("  // TODO: a widget that ignores a fill (it listens to keys) needs gesture: { type: true }.")
    out.append(f"  target: () => P.one({find}),")
    if gesture is not None:
        out.append(f"  gesture: {gesture},")
    out.append(f"  available: () => P.why({find}),")
    out.append("  // TODO: expect: { description: 'what is true once it worked', check: (args) => … },")
    out.append("});")


def _shape(action: _Action, what: str) -> tuple[str, str, dict[str, object] | None, str | None]:
    """The action's description, risk, params and gesture (JS text), from what the person did."""
    step = action.first
    control = step.control
    label = control.name or what
    examples = _examples(action)
    if step.kind in ("fill", "select"):
        value: dict[str, object] = {"type": "string", "description": f"what goes into {what}"}
        if step.kind == "select" and control.options:
            value["enum"] = control.options
        if control.type == "date":
            value["format"] = "date"
        if examples:
            value["examples"] = examples
        params: dict[str, object] | None = {"type": "object", "properties": {"value": value}, "required": ["value"]}
        presses = {s.press for s in action.steps}
        gesture = "{ press: " + _js(step.press) + " }" if step.press and presses == {step.press} else None
        verb = "Type in" if step.kind == "fill" else "Choose in"
        return f"{verb} {what}", "write", params, gesture
    if step.kind == "check":
        seen = [s.checked for s in action.steps if s.checked is not None]
        checked: dict[str, object] = {"type": "boolean", "description": f"whether {what} is ticked (left out: it is toggled)"}
        if seen:
            checked["examples"] = list(dict.fromkeys(seen))
        return f"Tick or untick {what}", "write", {"type": "object", "properties": {"checked": checked}}, None
    if step.kind == "press":
        return f"Press {step.press} on {what}", "write", None, "{ press: " + _js(step.press) + " }"
    risk = "danger" if _DANGER.search(label) else "read" if control.role == "link" else "write"
    native = control.tag in _NATIVE_CLICK and control.role in ("button", "link", "checkbox", "radio")
    gesture = "'dblclick'" if step.kind == "dblclick" else None if native else "'click'"
    return f"{'Double-click' if step.kind == 'dblclick' else 'Click'} {what}", risk, None, gesture


# Read in the page on the recorded control, with the helpers the draft will carry (prelude.js's P):
# its role and name as the draft computes them, and how many shown elements each locator finds.
LOCATE = "(el, attrs) => {\n" + PRELUDE + """
  const shown = (loc) => P.matches(loc).filter(P.visible).length;
  const quoted = (v) => JSON.stringify(String(v));  // a CSS string: quotes and backslashes escaped
  const role = P.roleOf(el) || null;
  const name = P.nameOf(el);
  const found = {};
  for (const attr of attrs) {
    const value = el.getAttribute(attr);
    if (!value || value.length > 200) continue;
    const css = el.tagName.toLowerCase() + '[' + attr + '=' + quoted(value) + ']';
    found[attr] = { value, css, shown: shown({ css }) };
  }
  return { role, name: name.slice(0, 200), sharing: role && name ? shown({ role, name }) : 0, attrs: found };
}"""


def located(reached: Reached, answer: object) -> Reached:
    """The control with its role, name and locators as the page answered them (validated: the
    page's world answered)."""
    if not isinstance(answer, dict):
        return reached
    return Reached.model_validate({**reached.model_dump(), **{k: answer.get(k) for k in ("role", "name", "sharing", "attrs")
                                                                if answer.get(k) is not None}})


def write_demonstration(steps: list[Step], url: str, title: str, now: datetime | None = None) -> str:
    """The draft adapter's text for the steps a person recorded, starting on ``url``."""
    when = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    title = title.strip() or urlsplit(url).path or url
    patterns = list(dict.fromkeys(_match_pattern(u) for u in [url, *(s.url for s in steps)] if u.startswith(("http:", "https:"))))
    out = ["// ==UserScript==",
           f"// @name         DRAFT: {one_line(title[:100])}",
           f"// @description  Recorded in the console's live view from {url[:200]} on {when} ({len(steps)} steps)",
           *(f"// @match        {pattern}" for pattern in patterns),
           "// ==/UserScript==",
           "// DRAFT: recorded from a person's demonstration. A person finishes it: check every TODO, narrow",
           "// @match, run `pling-browser check URL --adapter THIS_FILE`, then delete this line.",
           "",
           PRELUDE.rstrip(),
           "",
           f"pling.page({{ id: {_js(_slug(title, 'page'))}, name: {_js(title[:100])} }});",
           "// TODO: the page's records, state and feedback (what an agent reads to see an effect) are not recorded."]
    numbers = {id(step): n for n, step in enumerate(steps, 1)}
    for action in _actions(steps):
        _block(action, [numbers[id(s)] for s in action.steps], out)
    if not steps:
        out.append("// TODO: nothing was recorded; declare the page's model by hand.")
    return "\n".join(out) + "\n"
