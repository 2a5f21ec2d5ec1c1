"""``pling-browser draft URL``: a starting adapter (docs/adapters.md) for a page that does not declare
itself, written from what survey.py reads in it:

- each form becomes a function action whose params are the form's named fields (labels as
  descriptions; a select's options as an enum; a checkbox a boolean) and whose ``run`` fills them as
  typing would (the value setter, then ``input`` and ``change``) and submits the form;
- each table, and each list whose items carry an id-like attribute, becomes a record type keyed on a
  row attribute or column that looks like an id (a name with ``id``/``key``/``code``/``#``, or values
  that are unique and look like identifiers); the other columns become fields;
- a button every row has becomes an action family on that record type; a button outside forms and rows
  a plain element action; both found by their label.

The draft says it is one: a ``DRAFT`` line at the top and ``TODO`` comments where a person must decide
(risks, expectations, ids found by guess, elements found by their place)."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .survey import SURVEY, FormInfo, Survey, TableInfo, parse_survey

if TYPE_CHECKING:
    from ..runtime import Runtime

__all__ = ["draft", "write_adapter"]

_ID_NAME = re.compile(r"(^|[\s_-])(id|key|code|ref|sku|no\.?|number|#)($|[\s_-])", re.I)
_ID_VALUE = re.compile(r"^[A-Za-z]{0,6}[-_:#]?\d[\w-]*$")
_DANGER = re.compile(r"\b(delete|remove|destroy|cancel|clear|discard|drop|archive|revoke|pay|purchase|buy)\b", re.I)


async def draft(runtime: "Runtime", url: str) -> str:
    """Open ``url`` once and answer the text of a draft adapter for it."""
    session = await runtime.open(url)
    try:
        survey = parse_survey(await session.page.evaluate(SURVEY))
    finally:
        await runtime.close(session.id)
    return write_adapter(survey)


def _slug(text: str, fallback: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[:5]) or fallback


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _js(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _match_pattern(url: str) -> str:
    parts = urlsplit(url)
    folder = parts.path.rsplit("/", 1)[0] + "/"
    return f"{parts.scheme}://{parts.hostname}{folder}*"


def _key(table: TableInfo) -> tuple[str, str, bool]:
    """How a row's id is read (a JS expression over `row`), what it is, and whether it is a guess."""
    rows = len(table.cells)
    for attr, values in table.attrs.items():
        if (attr.startswith("data-") or attr == "id") and _ID_NAME.search(attr.replace("data-", " ")) or attr in ("data-id", "data-key"):
            if all(values) and len(set(values)) == rows:
                return f"row.getAttribute({_js(attr)})", f"the {attr} attribute", False
    for index, header in enumerate(table.headers):
        values = [cells[index] if index < len(cells) else "" for cells in table.cells]
        if _ID_NAME.search(header) and all(values) and len(set(values)) == rows:
            return f"cell(row, {index})", f"the {header!r} column", False
    for index in range(max((len(c) for c in table.cells), default=0)):
        values = [cells[index] if index < len(cells) else "" for cells in table.cells]
        if all(values) and len(set(values)) == rows and all(_ID_VALUE.match(v) for v in values):
            return f"cell(row, {index})", f"column {index + 1}, whose values look like ids", True
    return "cell(row, 0)", "the first column (nothing looked like an id)", True


def _table(table: TableInfo, n: int, out: list[str], used: set[str]) -> None:
    noun = _singular(_slug(table.label, "")) if table.label else ""
    type_name = noun or f"item{n}"
    while type_name in used:
        type_name += "_"
    used.add(type_name)
    key, what, guess = _key(table)
    const = f"{type_name}Rows"
    out.append(f"\n// Records: {table.kind} {table.label or table.selector!r}, keyed on {what}.")
    if guess:
        out.append("// TODO: the key is a guess; a record id must be the app's own id of the record (invariant 1).")
    if table.by_place:
        out.append(f"// TODO: {table.selector} finds the {table.kind} by its place in the page; prefer a stable selector.")
    out.append(f"const {const} = () => Array.from(document.querySelector({_js(table.selector)})?.querySelectorAll({_js(table.row)}) ?? [])"
               ".filter((row) => !row.querySelector('th'));")
    out.append(f"const {type_name}Id = (row) => {key};")
    fields = []
    for index, header in enumerate(table.headers):
        field = _slug(header, "")
        if field and f"cell(row, {index})" != key:
            fields.append(f"{field}: cell(row, {index})")
    label_index = next((i for i, h in enumerate(table.headers) if f"cell(row, {i})" != key and h), None)
    label = f"cell(row, {label_index})" if label_index is not None else "text(row)"
    out.append("pling.records({")
    out.append(f"  type: {_js(type_name)},")
    out.append(f"  list: {const},")
    out.append(f"  id: {type_name}Id,")
    out.append(f"  label: (row) => {label},")
    if fields:
        out.append(f"  fields: (row) => ({{ {', '.join(fields)} }}),")
    out.append(f"  element: (id) => {const}().find((row) => {type_name}Id(row) === id),")
    out.append("});")
    for button in table.buttons:
        risk = "danger" if _DANGER.search(button) else "write"
        out.append("pling.action({")
        out.append(f"  id: {_js(_slug(button, 'act'))}, record: {_js(type_name)}, description: {_js(button + ' (the ' + type_name + ')')},")
        out.append(f"  risk: {_js(risk)},  // TODO: read, write or danger?")
        out.append(f"  target: (id) => byLabel({const}().find((row) => {type_name}Id(row) === id), {_js(button)}),")
        out.append("});")


def _form(form: FormInfo, n: int, out: list[str], used: set[str]) -> None:
    action = _slug(form.submit or form.label, f"submit_form{n}")
    while action in used:
        action += "_"
    used.add(action)
    properties = {}
    for field in form.fields:
        schema: dict[str, object] = {"description": field.label}
        if field.type == "checkbox":
            schema["type"] = "boolean"
        elif field.type in ("number", "range"):
            schema["type"] = "number"
        else:
            schema["type"] = "string"
        if field.options:
            schema["enum"] = field.options
        properties[field.name] = schema
    params = {"type": "object", "properties": properties, "required": [f.name for f in form.fields if f.required]}
    description = form.submit or form.label or "Submit the form"
    out.append(f"\n// Action: the form {form.label or form.selector!r}.")
    if form.by_place:
        out.append(f"// TODO: {form.selector} finds the form by its place in the page; prefer a stable selector.")
    out.append("pling.action({")
    out.append(f"  id: {_js(action)}, description: {_js(description)},")
    out.append(f"  risk: {_js('danger' if _DANGER.search(description) else 'write')},  // TODO: read, write or danger?")
    out.append(f"  params: {_js(params)},")
    out.append(f"  run: (args) => submitForm(document.querySelector({_js(form.selector)}), args),")
    out.append("  // TODO: expect: { description: 'what is true once it worked', check: (args) => … },")
    out.append("});")


PRELUDE = """const text = (el) => (el?.textContent ?? '').replace(/\\s+/g, ' ').trim();
const cell = (row, i) => text(row.cells ? row.cells[i] : row.children[i]);
const labelOf = (el) => (el.getAttribute('aria-label') || text(el) || el.value || el.title || '').trim();
const byLabel = (root, label) => root && Array.from(root.querySelectorAll(
  'button, [role=button], input[type=submit], input[type=button]')).find((el) => labelOf(el) === label);
// Fills a form as typing would (the value setter, then input and change), then submits it.
const submitForm = (form, args) => {
  if (!form) throw new Error('the form is not on the page');
  for (const [name, value] of Object.entries(args || {})) {
    const field = form.elements.namedItem(name);
    if (!field) throw new Error('the form has no field ' + name);
    if (field.type === 'checkbox') field.checked = Boolean(value);
    else Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value').set.call(field, String(value));
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
  }
  form.requestSubmit();
};
"""


def write_adapter(survey: Survey, now: datetime | None = None) -> str:
    """The draft adapter's text for a surveyed page."""
    when = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    title = survey.title or urlsplit(survey.url).path
    out = [
        "// ==UserScript==",
        f"// @name         DRAFT: {title}",
        f"// @description  A draft written by pling-browser draft from {survey.url[:200]} on {when}",
        f"// @match        {_match_pattern(survey.url)}",
        "// ==/UserScript==",
        "// DRAFT: written from the page's forms, buttons, tables and lists. A person finishes it: check every",
        "// TODO, narrow @match, run `pling-browser check URL --adapter THIS_FILE`, then delete this line.",
        "",
        PRELUDE.rstrip(),
        "",
        f"pling.page({{ id: {_js(_slug(title, 'page'))}, name: {_js(title)} }});",
    ]
    used: set[str] = set()
    types: set[str] = set()
    for n, table in enumerate(survey.tables, 1):
        _table(table, n, out, types)
        used.update(_slug(b, "act") for b in table.buttons)
    for n, form in enumerate(survey.forms, 1):
        _form(form, n, out, used)
    if survey.buttons:
        out.append("\n// Actions: buttons outside forms and rows.")
    for button in survey.buttons:
        action = _slug(button.label, "press")
        while action in used:
            action += "_"
        used.add(action)
        out.append(f"pling.action({{ id: {_js(action)}, description: {_js(button.label)}, "
                   f"risk: {_js('danger' if _DANGER.search(button.label) else 'write')},  // TODO: read, write or danger?")
        out.append(f"  target: () => byLabel(document, {_js(button.label)}) }});")
    if not (survey.tables or survey.forms or survey.buttons):
        out.append("// TODO: no form, button, table or list with ids was found; declare the page's model by hand.")
    return "\n".join(out) + "\n"
