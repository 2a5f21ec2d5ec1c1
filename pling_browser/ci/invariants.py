"""The invariants `check` holds a page's model to, as rules over two loads of it.

Every finding has a code (the table in docs/ci.md), a severity (``error`` fails a CI run,
``warning`` only with ``--strict``), the declaration it points at (``where``, written like the
model's own problems: ``action ID``, ``records TYPE``, ``state KEY``, ``region ID``, ``page``,
``model``) and a message that says what to change. What can only be guessed from one model is a
heuristic, and says so in docs/ci.md: ids that are row positions or DOM-like names, secrets told
apart by field names.

This module runs the rules and holds those about the declarations themselves (id shapes,
descriptions, families, reasons, params, bounds); the rules about secrets are in ``sensitive.py``,
those comparing two loads in ``stability.py``, the finding and its codes in ``findings.py``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..models import PageModel
from .findings import CODES, Finding, Severity, short
from .sensitive import secret_kind, sensitive
from .stability import stability_of_ids, stability_of_model

__all__ = ["Finding", "CODES", "Severity", "analyse", "secret_kind"]


def analyse(first: dict[str, Any], second: dict[str, Any], element_ids: set[str] | None = None) -> list[Finding]:
    """The findings for two loads of one page (the bridge's model JSON of each)."""
    from pydantic import ValidationError

    try:
        model = PageModel.model_validate(first)
        again = PageModel.model_validate(second)
    except ValidationError as error:
        return [Finding("MODEL_INVALID", "error", "model", f"the model does not match PageModel: {str(error)[:400]}")]
    out: list[Finding] = []
    if not (model.actions or model.records or model.state or model.regions or model.page.id):
        out.append(Finding("NOTHING_DECLARED", "error", "page",
                           "the page declares nothing through window.pling (is the bridge loaded? did the declarations run?)"))
    unstable_types, unstable_actions = stability_of_ids(model, again, out)
    for type_name, records in model.records.items():
        _id_shape(type_name, records.ids, element_ids, out)
    _descriptions(model, out)
    _per_row(model, out)
    _reasons(model, out)
    _params(model, out)
    sensitive(model, out)
    _bounds(model, out)
    stability_of_model(first, second, unstable_types, unstable_actions, out)
    for problem in model.problems:
        code = "ADAPTER_FAILED" if problem.where.startswith("adapter ") else "PAGE_PROBLEM"
        out.append(Finding(code, "error", problem.where, problem.problem))
    order = {code: n for n, code in enumerate(CODES)}
    return sorted(out, key=lambda f: (f.severity != "error", order.get(f.code, 99), f.where))


_DOM_WORDS = {"row", "tr", "li", "el", "elem", "element", "node", "dom", "index", "idx", "pos", "position",
              "item", "entry", "line", "cell", "key", "child", "nth"}
# Shapes of ids that libraries and frameworks generate for elements or render keys.
_RENDER_KEY = re.compile(
    r"""^(?:
        :[rR][0-9a-zA-Z]*:                         # React useId (:r1:, :R2d6:)
      | «r[0-9a-z]+»                                # React 19 useId
      | \.\d+(?:\.[\w$:-]+)*                        # data-reactid (.0.1.$key)
      | ember\d+ | ext-(?:gen|comp|element)-?\d+ | yui_[\w.-]+ | gwt-uid-\d+
      | (?:headlessui|radix|mui|react-select|downshift|reach|chakra|mantine|rc-\w+|ng|mat|vs|el|elem|element
          |node|row|tr|li|dom|index|idx|pos|position|cell|nth)[-_:]+(?:[\w-]*?[-_:])?\d+
    )$""", re.X | re.I)


def _id_shape(type_name: str, ids: list[str], element_ids: set[str] | None, out: list[Finding]) -> None:
    where = f"records {type_name}"
    if len(ids) >= 2:
        parts = [re.fullmatch(r"(.*?)(\d+)", i) for i in ids]
        if all(parts):
            prefixes = {p.group(1) for p in parts if p}
            numbers = [int(p.group(2)) for p in parts if p]
            if len(prefixes) == 1:
                prefix = prefixes.pop()
                words = [w for w in re.split(r"[^a-zA-Z]+", prefix) if w]
                domish = bool(words) and words[-1].lower() in _DOM_WORDS
                zero_based = numbers == list(range(len(ids)))
                one_based = numbers == list(range(1, len(ids) + 1))
                if zero_based or (one_based and domish):
                    out.append(Finding("ID_POSITIONAL", "error", where,
                                       f"the ids are row positions ({short(ids)}: each id is its "
                                       f"{'0' if zero_based else '1'}-based place in the list); when a record is added, "
                                       "removed or sorted, an agent's id would point at another record. Use the app's "
                                       "own id of each record"))
                    return
    domlike = [i for i in ids if _RENDER_KEY.match(i)]
    if domlike:
        out.append(Finding("ID_DOM_LIKE", "warning", where,
                           f"{len(domlike)} of {len(ids)} ids look like generated element ids or render keys "
                           f"({short(domlike)}); record ids must be the app's business ids"))
        return
    if element_ids:
        same = [i for i in ids if i in element_ids]
        if same:
            out.append(Finding("ID_ELEMENT", "warning", where,
                               f"{len(same)} of {len(ids)} ids are also the id attribute of an element in the page "
                               f"({short(same)}); fine when the app renders its own ids into the DOM, wrong when the "
                               "ids are read back from the DOM"))


# ---- declarations ------------------------------------------------------------------------------------


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


def _where(action_kind: str, action_id: str) -> str:
    return f"{'action' if action_kind == 'action' else action_kind} {action_id}"


def _descriptions(model: PageModel, out: list[Finding]) -> None:
    for action in model.actions:
        if _blank(action.description):
            out.append(Finding("DESCRIPTION_MISSING", "error", _where(action.kind, action.id),
                               "no description: an agent chooses actions by what they say they do"))
    for key, entry in model.state.items():
        if _blank(entry.description):
            out.append(Finding("DESCRIPTION_MISSING", "error", f"state {key}",
                               "no description: an agent cannot tell what this value means"))


_SEPARATORS = "_-:.#/"


def _per_row(model: PageModel, out: list[Finding]) -> None:
    """Actions whose ids differ only by a record id (or, three or more, only by a number)."""
    record_type_of: dict[str, str] = {}
    for type_name, records in model.records.items():
        for i in records.ids:
            record_type_of.setdefault(i, type_name)
    by_record: dict[str, list[tuple[str, str]]] = {}
    by_number: dict[str, list[str]] = {}
    for action in model.actions:
        if action.record:
            continue
        action_id = action.id
        stem = None
        for k, char in enumerate(action_id):
            if char not in _SEPARATORS:
                continue
            left, right = action_id[:k], action_id[k + 1:]
            if right in record_type_of and left:
                stem, rid = left + char + "*", right
            elif left in record_type_of and right:
                stem, rid = "*" + char + right, left
            else:
                continue
            by_record.setdefault(stem, []).append((action_id, record_type_of[rid]))
            break
        if stem is None:
            match = re.fullmatch(r"(.*?\D)(\d+)", action_id)
            if match:
                by_number.setdefault(match.group(1) + "*", []).append(action_id)
    for stem, members in by_record.items():
        if len(members) < 2:
            continue
        ids = [m[0] for m in members]
        type_name = members[0][1]
        name = stem.replace("*", "").strip(_SEPARATORS) or "ACTION"
        out.append(Finding("ACTION_PER_ROW", "error", f"actions {stem}",
                           f"{len(ids)} actions ({short(ids)}) differ only by the id of a record of type {type_name}; "
                           f"declare one family instead: pling.action({{ id: '{name}', record: '{type_name}', … }}) "
                           f"(its instances are {name}@RECORD)"))
    for stem, ids in by_number.items():
        if len(ids) < 3:
            continue
        name = stem.replace("*", "").strip(_SEPARATORS) or "ACTION"
        out.append(Finding("ACTION_PER_ROW", "error", f"actions {stem}",
                           f"{len(ids)} actions ({short(ids)}) differ only by a number; when they act on one "
                           f"record each, declare the records and one family: pling.action({{ id: '{name}', record: TYPE, … }})"))


def _reasons(model: PageModel, out: list[Finding]) -> None:
    for action in model.actions:
        if not action.available and _blank(action.reason):
            out.append(Finding("REASON_MISSING", "error", _where(action.kind, action.id),
                               "unavailable without a reason: available() should answer a string saying why"))
    silent: dict[str, list[str]] = {}
    for records in model.records.values():
        for item in records.items:
            for action_id, reason in (item.unavailable or {}).items():
                if _blank(reason):
                    silent.setdefault(action_id, []).append(item.id)
    kinds = {a.id: a.kind for a in model.actions}
    for action_id, ids in silent.items():
        out.append(Finding("REASON_MISSING", "error", _where(kinds.get(action_id, "action"), action_id),
                           f"unavailable for {len(ids)} record(s) ({short(ids)}) without a reason: "
                           "available(id) should answer a string saying why"))


def _params(model: PageModel, out: list[Finding]) -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    for action in model.actions:
        if action.params is None:
            continue
        where = _where(action.kind, action.id)
        try:
            Draft202012Validator.check_schema(action.params)
        except SchemaError as error:
            path = "/".join(str(p) for p in error.absolute_path) or "(the schema)"
            out.append(Finding("PARAMS_INVALID", "error", where,
                               f"params is not valid JSON Schema (draft 2020-12) at {path}: {error.message[:200]}"))
            continue
        kind = action.params.get("type")
        if kind is not None and kind != "object" and not (isinstance(kind, list) and "object" in kind):
            out.append(Finding("PARAMS_INVALID", "error", where,
                               f"params describes {json.dumps(kind)}, not an object; the arguments of an action "
                               "(and of its agent tool) are always an object of named values"))


# ---- bounds ------------------------------------------------------------------------------------------

_CUT_MARKS = (re.compile(r"…\(\+\d+ chars\)$"), re.compile(r"^…\(\+\d+ items\)$"), re.compile(r"^\{…\}$"),
              re.compile(r"^\[…\d+ items\]$"))


def _cut_in(value: Any) -> bool:
    if isinstance(value, str):
        return any(mark.search(value) for mark in _CUT_MARKS)
    if isinstance(value, dict):
        if "…" in value and isinstance(value["…"], str) and value["…"].endswith(" keys"):
            return True
        return any(_cut_in(v) for v in value.values())
    if isinstance(value, list):
        return any(_cut_in(v) for v in value)
    return False


def _bounds(model: PageModel, out: list[Finding]) -> None:
    omitted = model.omitted
    for part, count, cap in (("regions", omitted.regions, 200), ("actions", omitted.actions, 300), ("state", omitted.state, 200)):
        if count:
            out.append(Finding("DECLARATIONS_OMITTED", "error", "model",
                               f"{count} {part} are left out of the model (it shows at most {cap}, and all of it must "
                               "fit in 250 KB); an agent cannot use what it cannot see: declare fewer, or per route"))
    for type_name, records in model.records.items():
        if records.omitted.ids:
            out.append(Finding("IDS_OMITTED", "warning", f"records {type_name}",
                               f"the model lists {len(records.ids)} of {records.total} ids; list() should answer the "
                               "active set (what the page shows or pages through), not everything the app knows"))
    located = False
    for type_name, records in model.records.items():
        fields: dict[str, int] = {}
        for item in records.items:
            if _cut_in(item.label):
                fields["label"] = fields.get("label", 0) + 1
            for name, value in item.fields.items():
                if _cut_in(value) or name == "…":
                    fields[name] = fields.get(name, 0) + 1
        for name, count in fields.items():
            located = True
            what = "fields() answers more than 30 fields" if name == "…" else f"{name} is cut"
            out.append(Finding("VALUE_CUT", "warning", f"records {type_name}",
                               f"{what} on {count} record(s) of the window; fields() should answer a trimmed view "
                               "(strings up to 200 characters, arrays up to 20 items, objects up to 30 keys, depth 4)"))
    for key, entry in model.state.items():
        if _cut_in(entry.value):
            located = True
            out.append(Finding("VALUE_CUT", "warning", f"state {key}",
                               "the value is cut to fit the model's bounds; get() should answer a small view"))
    for region in model.regions:
        if _cut_in(region.more):
            located = True
            out.append(Finding("VALUE_CUT", "warning", f"region {region.id}", "more() answers a value larger than the bounds"))
    if not located and (omitted.chars or omitted.items or omitted.keys or omitted.depth):
        out.append(Finding("VALUE_CUT", "warning", "model",
                           f"values were cut to fit the bounds (chars {omitted.chars}, items {omitted.items}, "
                           f"keys {omitted.keys}, depth {omitted.depth})"))
