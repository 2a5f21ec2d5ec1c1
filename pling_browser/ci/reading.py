"""What a draft makes of a surveyed page (survey.py): which controls become actions with which params,
which repeated structures become record types keyed on what, which text becomes state and feedback,
which dialogs become regions, and every guess a person should confirm. draft.py writes it out.

The rules (docs/adapters.md, "How the draft reads a page"):
- a form with a submit button is one action whose params are its fields; every other labelled
  control is an element action on that control, found by a locator written down in the draft (a stable
  id or attribute, else role + name), with params typed from the control (format from the input's type,
  an enum from a select's options, a boolean for a checkbox);
- a repeated structure (rows, list items, cards, sibling buttons, tree items, a radio group) is a record
  type keyed on a stable attribute every item carries, a key column, or (a guess) the item's visible
  text; never its position. The controls every item holds become action families on it;
- the first text before any control is the page's instructions (a guess); headings, other text blocks,
  and the values of fields are state; role=status/alert/log and aria-live regions are feedback;
  dialogs are regions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .plans import (
    DANGER,
    ID_LIKE_SEGMENT,
    NATIVE,
    TEXT_ROLES,
    VERBS,
    ActionPlan,
    Names,
    Reading,
    StatePlan,
    control_name,
    described,
    handle,
    js,
    match_pattern,
    role_of,
    slug,
    value_schema,
    where,
)
from .records import group_records, radio_records
from .survey import Control, Form, Survey

__all__ = ["read_survey"]


def _control_action(c: Control, names: Names, regions: dict[int, str]) -> list[ActionPlan]:
    name = control_name(c)
    role = role_of(c)
    label = f"“{name}”" if name else f"“{c.words}” (a guess: no role or name of its own)" if c.guessed else f"(no label; {c.loc.how})"
    found = f"the {described(c) or c.tag} {label}, found by {where(c.loc)}"
    todos = [] if name else ["TODO: this control has no accessible name; say what it is for in the description"]
    if name and not (c.seen.name or c.name or c.placeholder):
        todos.append(f"TODO: no accessible name: named by the text beside it (“{c.beside}”, a guess); give it a <label>")
    if c.loc.guess:
        todos.append("TODO: the locator is the element's place in the page; a change of layout breaks it")
    if c.guessed:
        todos.append(f"TODO: no role in the accessibility tree: a {role} guessed from {c.guessed}; give it role={role} and a name")
    region = regions.get(c.dialog) if c.dialog else None
    loc = c.loc.js()
    words = handle(c)
    out: list[ActionPlan] = []
    if c.tag != "select" and (role in TEXT_ROLES or role == "slider" and c.tag == "input"):
        out += _field_actions(c, names, OnControl(found, label, loc, region), words, todos)
    elif role in ("listbox",) and c.tag == "select" or c.tag == "select":
        # A list's options may be data (people, products) rather than structure: the action is declared
        # again whenever they change, so its enum is always what the list offers now.
        out.append(ActionPlan(names.take(f"choose_{words}"), f"Choose in the list {label}", "write", found, loc,
                              {"type": "object", "properties": {"value": value_schema(c)}, "required": ["value"]},
                              region=region, todos=todos, choice=c.multiple))
    elif role in ("checkbox", "switch"):
        out.append(ActionPlan(names.take(f"check_{words}"), f"Tick or untick the {role} {label}", "write", found, loc,
                              {"type": "object", "properties": {"checked": {"type": "boolean"}}, "required": ["checked"]},
                              region=region, todos=todos,
                              expect=("The box is as asked", "P.valueOf(P.one(%s)) === args.checked") if c.tag == "input" else None))
    elif role == "slider":
        for verb, key in (("increase", "ArrowRight"), ("decrease", "ArrowLeft")):
            out.append(ActionPlan(names.take(f"{verb}_{words}"), f"{verb.capitalize()} the slider {label} by one step (the {key} key)",
                                  "write", found, loc, None, {"press": key}, region=region, todos=list(todos)))
    elif role == "link" and c.href and not c.href.split("#")[0] == "" and not c.href.startswith("javascript:"):
        target = urlsplit(c.href)
        same_doc = c.attrs.get("href", "").startswith("#")
        if same_doc:
            out.append(ActionPlan(names.take(f"click_{words}"), f"Click the link {label}", "write", found, loc,
                                  region=region, todos=todos))
        else:
            path = match_pattern(c.href).split("://", 1)[-1].split("/", 1)[-1]
            out.append(ActionPlan(names.take(f"open_{words}"), f"Follow the link {label} (to /{path} on {target.hostname})",
                                  "read", found, loc, region=region, todos=todos))
    elif role == "menuitem" and c.attrs.get("aria-haspopup") in ("true", "menu"):
        # A menu item that opens a submenu is pointed at, not clicked (clicking one selects it in most menus),
        # as the family `point` of a nested menu's items: what it opens is only shown, so its risk is read.
        out.append(ActionPlan(names.take(f"point_{words}"), f"Point at the menu item {label}: its submenu opens", "read",
                              found, loc, None, "hover", region=region,
                              todos=todos + ["TODO: a guess: a menu item with aria-haspopup opens its submenu when pointed at"]))
    else:
        if role == "clickable" and name and c.beside and c.beside.rstrip(": ") != name:
            # Text that reads as data ("660-918-3135") next to what it is ("Phone:"): the action is named by the latter.
            words = slug(c.beside) or words
            label = f"the text beside “{c.beside.rstrip(': ')}” (it showed {name} when drafted)"
            todos.append("TODO: named by the text beside it (a guess): is that what it is?")
        verb = "click" if role in ("button", "clickable", "") else VERBS.get(role, "click")
        risk = "danger" if DANGER.search(name) else ("read" if role in ("tab", "treeitem") else "write")
        if role == "clickable":
            todos.append("TODO: not a control in the accessibility tree: the pointer shows it is clickable (a guess)")
        out.append(ActionPlan(names.take(f"{verb}_{words}" if words != verb else verb),
                              f"{'Press the button' if role == 'button' else 'Click'} {label}", risk, found, loc,
                              gesture="click" if role == "clickable" or c.tag not in NATIVE else None, region=region, todos=todos))
    for plan in out:
        if plan.risk != "read":
            plan.todos.append(f"TODO: risk {plan.risk!r} is guessed from the words ({'danger: ' if plan.risk == 'danger' else ''}read, write or danger?)")
    return out


@dataclass(frozen=True)
class OnControl:
    """What every action drafted on one control says of it: how it was found, its label, its locator,
    the dialog (region) it is in."""

    found: str
    label: str
    loc: str
    region: str | None


def _field_actions(c: Control, names: Names, at: OnControl, words: str, todos: list[str]) -> list[ActionPlan]:
    """A field a person types into (or a read-only one that opens a picker): fill it, commit it with
    Enter when nothing else does, focus it; what the fill is expected to leave."""
    found, label, loc, region, role = at.found, at.label, at.loc, at.region, role_of(c)
    out: list[ActionPlan] = []
    if c.readonly:
        # Nobody can type here; such a field opens a picker (a calendar, a list) when it gets the focus.
        out.append(ActionPlan(names.take(f"focus_{words}"), f"Focus the read-only {described(c)} {label} (it may open a picker)".strip(),
                              "write", found, loc, None, "focus", region=region, todos=list(todos) + [
                                  "TODO: read-only: a person cannot type here; declare what focusing it opens (a calendar's days, a list)"]))
    else:
        gesture = None
        if role == "combobox" or c.autocomplete:
            gesture = {"commit": "none"}   # suggestions open while the field keeps focus
            todos.append("TODO: a field with suggestions: the fill keeps focus so they open; choose one with its own action")
        schema = value_schema(c)
        out.append(ActionPlan(names.take(f"fill_{words}"), f"Type into the {described(c)} {label}".strip(),
                              "write", found, loc, {"type": "object", "properties": {"value": schema}, "required": ["value"]},
                              gesture, region=region, todos=todos))
        if c.alone and c.tag == "input" and gesture is None and c.type in ("", "text", "search", "email", "url", "tel", "number"):
            # No form and no button beside it: a person commits it with Enter (a new todo, a search).
            out.append(ActionPlan(names.take(f"enter_{words}"), f"Type into the {described(c)} {label} and press Enter".strip(),
                                  "write", found, loc, {"type": "object", "properties": {"value": schema}, "required": ["value"]},
                                  {"commit": "enter"}, region=region, todos=list(todos) + [
                                      "TODO: a guess: nothing beside this field submits it, so Enter is its way to commit"]))
        if c.tag == "input" and c.type not in ("date", "time", "datetime-local", "month", "week", "color", "range"):
            out.append(ActionPlan(names.take(f"focus_{words}"), f"Focus the {described(c)} {label} (put the cursor in it)".strip(),
                                  "write", found, loc, None, "focus", region=region, todos=list(todos)))
        if c.type not in ("password",) and gesture is None and c.tag != "select":
            expr = "String(P.valueOf(P.one(%s))) === String(args.value)" if c.type != "number" else "Number(P.valueOf(P.one(%s))) === Number(args.value)"
            out[0].expect = ("The field holds the value", expr)
    return out


def read_survey(survey: Survey) -> Reading:
    """Interpret a surveyed page: every block the draft will write, with what it guessed."""
    parts = urlsplit(survey.url)
    segments = [s for s in parts.path.split("/") if s and not ID_LIKE_SEGMENT.match(s)]
    page_id = slug(re.sub(r"\.(html?|php|aspx?)$", "", segments[-1]) if segments else (parts.hostname or ""), "page")
    reading = Reading(survey.url, survey.title or parts.path, page_id, match_pattern(survey.url))
    names, types = Names(), Names()
    regions: dict[int, str] = {}
    for dialog in survey.dialogs:
        rid = names.take(slug(dialog.name, "dialog") if dialog.name else "dialog")
        regions[dialog.n] = rid
        reading.regions.append((rid, dialog.name or "A dialog", dialog.loc.js()))
    in_records = radio_records(survey, reading, types, names)
    in_records |= group_records(survey, reading, types, names, regions)
    forms = {f.n: f for f in survey.forms if f.submit is not None}
    in_forms: set[int] = set()
    for form in forms.values():
        in_forms |= _form_action(survey, form, reading, names, in_records)
    for c in survey.controls:
        if c.n in in_records or c.n in in_forms or (c.form in forms and c.n in (forms[c.form].submits or [forms[c.form].submit])):
            continue
        if c.type in ("submit", "reset", "image", "file") and c.form in forms:
            continue
        if not c.visible and not control_name(c):
            continue
        reading.actions.extend(_control_action(c, names, regions))
        if c.tag in ("input", "textarea", "select") or c.editable or role_of(c) in ("slider", "spinbutton") and not c.guessed:
            key = names.take(handle(c))
            secret = c.type == "password"
            reading.states.append(StatePlan(key, f"What the {described(c) or c.tag} “{control_name(c) or key}” holds now",
                                            f"P.valueOf(P.one({js(c.loc.js())}))", f"the value of the control found by {where(c.loc)}", secret))
            if c.tag == "textarea" and c.form not in forms:
                reading.actions.append(_read_whole(names, key, f"the {described(c) or c.tag} “{control_name(c) or key}”",
                                                   f"P.valueOf(P.one({js(c.loc.js())}))", where(c.loc)))
    _texts(survey, reading, names)
    return reading


def _form_action(survey: Survey, form: Form, reading: Reading, names: Names, taken: set[int]) -> set[int]:
    """A form with a submit button: one action whose params are its named fields; `run` fills them as
    typing would and submits the form (its own submit path: validation and handlers run)."""
    fields = [c for c in survey.controls if c.form == form.n and c.n not in taken and c.tag in ("input", "select", "textarea")
              and c.type not in ("submit", "button", "reset", "image", "file", "hidden") and (c.attrs.get("name") or c.attrs.get("id"))]
    submit = survey.control(form.submit)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for c in fields:
        key = c.attrs.get("name") or c.attrs.get("id") or ""
        if key in properties:
            if c.type == "radio" and c.attrs.get("value"):
                properties[key].setdefault("enum", []).append(c.attrs["value"])
            continue
        schema = {"type": "boolean"} if c.type == "checkbox" else value_schema(c)
        if c.tag == "select":   # run() sets the field's value: the options' values, their labels said alongside
            values = [o.value for o in c.options]
            one = {"type": "string", "enum": list(dict.fromkeys(values))} if values else {"type": "string"}
            schema = {"type": "array", "items": one} if c.multiple else one
            shown = [f"{o.value} ({o.label})" for o in c.options if o.label and o.label != o.value]
            if shown:
                schema["description"] = "; ".join(shown)[:300]
        if c.type == "radio":
            schema = {"type": "string", "enum": [c.attrs.get("value", "on")]}
        schema["description"] = (schema.get("description", "") + " " if schema.get("description") else "") + (control_name(c) or key)
        properties[key] = schema
        if c.required:
            required.append(key)
    # One action per submit button: Django's "Save", "Save and add another" and "Save and continue editing"
    # submit the same fields and go different ways (requestSubmit(button) sends the button's name).
    for n in form.submits or [form.submit]:
        submit = survey.control(n)
        label = control_name(submit) if submit else ""
        description = label or form.name or "Submit the form"
        risk = "danger" if DANGER.search(description) else "write"
        todos = [f"TODO: risk {risk!r} is guessed from the words (read, write or danger?)",
                 "TODO: expect: { description: 'what is true once it worked', check: (args) => … }"]
        if form.loc.guess:
            todos.append("TODO: the form is found by its place in the page; prefer a stable attribute")
        found = (f"the form{(' “' + form.name + '”') if form.name else ''} ({form.method.upper()} {urlsplit(form.action).path or '/'}), "
                 f"found by {form.loc.how}; its submit button “{label}”; fields: {', '.join(properties) or 'none'}")
        plan = ActionPlan(reading_id(names, label or form.name, "submit_form"), description, risk, found,
                          params={"type": "object", "properties": properties, "required": required}, form=form.loc.js(), todos=todos)
        plan.submitter = submit.loc.js() if submit and len(form.submits) > 1 else None
        reading.actions.append(plan)
    return {c.n for c in fields}


def reading_id(names: Names, words: str, fallback: str) -> str:
    return names.take(slug(words, fallback))


STATE_CHARS = 200    # the model shows a state's text up to this many characters (js_bridge/bound.js, LIMITS.field)


def _read_whole(names: Names, key: str, what: str, expr: str, how: str) -> ActionPlan:
    """A text longer than the model shows in state (a text area, a long paragraph): a read action answers it whole."""
    return ActionPlan(names.take(f"read_{key}"), f"Answer the whole of {what} (state “{key}” shows at most {STATE_CHARS} characters)",
                      "read", f"{what}, found by {how}; its text in full (up to 2,000 characters, the receipt's limit)", run=expr)


def _texts(survey: Survey, reading: Reading, names: Names) -> None:
    instructions = (next((t for t in survey.texts if t.before and not t.heading), None)
                    or next((t for t in survey.texts if not t.heading and not t.loc.guess), None))
    if instructions is not None:
        reading.states.insert(0, StatePlan(
            names.take("instructions"), "The first text on the page (before any control, when there is one): its instructions, if it has any",
            f"P.textOf({js(instructions.loc.js())})",
            f"the text “{instructions.text[:80]}”, found by {where(instructions.loc)}",
            todos=["TODO: a guess: the first text block before any control; is it what a person is asked to do?"]))
    if any(t.heading for t in survey.texts):
        reading.states.append(StatePlan(
            names.take("headings"), "The headings shown, in order",
            "P.all(document, 'h1, h2, h3, h4, h5, h6, [role=heading]').filter(P.visible).map((h) => P.text(h.textContent)).slice(0, 20)",
            "every heading shown (h1–h6, role=heading), read when asked"))
    for text in survey.texts:
        if text is instructions or text.heading or text.loc.guess:
            continue
        key = names.take(slug(text.loc.css.lstrip("#") if text.loc.css and text.loc.css.startswith("#") else text.text[:30], "text"))
        reading.states.append(StatePlan(key, f"The text shown at {text.loc.css or text.loc.name}", f"P.textOf({js(text.loc.js())})",
                                        f"the text “{text.text[:80]}”, found by {text.loc.how}"))
        if len(text.text) > STATE_CHARS:
            reading.actions.append(_read_whole(names, key, f"the text shown at {text.loc.css or text.loc.name}",
                                               f"P.textOf({js(text.loc.js())})", text.loc.how))
    for live in survey.live:
        kind = "warning" if live.role == "alert" else "info"
        reading.feedback.append((live.loc.js(), kind, f"the {live.role} region found by {where(live.loc)}"))
