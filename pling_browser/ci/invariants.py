"""The invariants `check` holds a page's model to, as rules over two loads of it.

Every finding has a code (the table in docs/ci.md), a severity (``error`` fails a CI run,
``warning`` only with ``--strict``), the declaration it points at (``where``, written like the
model's own problems: ``action ID``, ``records TYPE``, ``state KEY``, ``region ID``, ``page``,
``model``) and a message that says what to change. What can only be guessed from one model is a
heuristic, and says so in docs/ci.md: ids that are row positions or DOM-like names, secrets told
apart by field names.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Literal

from ..models import PageModel

__all__ = ["Finding", "CODES", "Severity", "analyse", "secret_kind"]

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    where: str
    message: str

    def as_json(self) -> dict[str, str]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.severity:<7} {self.code:<22} {self.where}: {self.message}"


# code -> (what it checks, for docs and the JUnit report of `check`); the table in docs/ci.md says more.
CODES: dict[str, str] = {
    "NOTHING_DECLARED": "the page declares something through window.pling",
    "ID_UNSTABLE": "record and action ids are the same on every load",
    "ID_POSITIONAL": "record ids are not row positions",
    "ID_DOM_LIKE": "record ids do not look like generated DOM ids or render keys",
    "ID_ELEMENT": "record ids are not the id attributes of elements",
    "DESCRIPTION_MISSING": "every action and state has a description",
    "ACTION_PER_ROW": "per-record actions are families, not one action per record",
    "REASON_MISSING": "unavailable actions say why",
    "PARAMS_INVALID": "params are valid JSON Schema for an object of arguments",
    "SENSITIVE_UNMARKED": "fields and state named like secrets are marked sensitive",
    "DECLARATIONS_OMITTED": "every declaration fits in the model",
    "IDS_OMITTED": "the active set of every record type fits in the model's ids",
    "VALUE_CUT": "field, label and state values fit their bounds",
    "MODEL_UNSTABLE": "the model is identical on every load",
    "PAGE_PROBLEM": "the model reports no problems with the declarations",
    "MODEL_INVALID": "the bridge's model is well formed",
}

_SECRET_REF = re.compile(r"<secret>[^<>]{0,200}</secret>")


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
    unstable_types, unstable_actions = _stability_of_ids(model, again, out)
    for type_name, records in model.records.items():
        _id_shape(type_name, records.ids, element_ids, out)
    _descriptions(model, out)
    _per_row(model, out)
    _reasons(model, out)
    _params(model, out)
    _sensitive(model, out)
    _bounds(model, out)
    _stability_of_model(first, second, unstable_types, unstable_actions, out)
    for problem in model.problems:
        out.append(Finding("PAGE_PROBLEM", "error", problem.where, problem.problem))
    order = {code: n for n, code in enumerate(CODES)}
    return sorted(out, key=lambda f: (f.severity != "error", order.get(f.code, 99), f.where))


# ---- identity ---------------------------------------------------------------------------------------


def _short(values: Iterable[Any], n: int = 3) -> str:
    values = list(values)
    shown = ", ".join(str(v)[:40] for v in values[:n])
    return shown + (f", … (+{len(values) - n})" if len(values) > n else "")


def _stability_of_ids(model: PageModel, again: PageModel, out: list[Finding]) -> tuple[set[str], bool]:
    unstable: set[str] = set()
    for type_name, records in model.records.items():
        other = again.records.get(type_name)
        if other is None:
            continue  # the type itself comes and goes: MODEL_UNSTABLE says so
        gone = [i for i in records.ids if i not in set(other.ids)]
        if gone:
            unstable.add(type_name)
            new = [i for i in other.ids if i not in set(records.ids)]
            out.append(Finding("ID_UNSTABLE", "error", f"records {type_name}",
                               f"{len(gone)} of {len(records.ids)} ids differ between two loads of the page "
                               f"(first load: {_short(gone)}; second load: {_short(new)}); a record id must come "
                               "from the app's data, not from a counter, a clock or a random number"))
    first_ids = [a.id for a in model.actions]
    second_ids = [a.id for a in again.actions]
    actions_unstable = set(first_ids) != set(second_ids)
    if actions_unstable:
        only_first = [i for i in first_ids if i not in set(second_ids)]
        only_second = [i for i in second_ids if i not in set(first_ids)]
        out.append(Finding("ID_UNSTABLE", "error", "actions",
                           f"action ids differ between two loads (only in the first: {_short(only_first) or '-'}; "
                           f"only in the second: {_short(only_second) or '-'}); an action id names an operation and "
                           "must not be generated per load"))
    return unstable, actions_unstable


# A prefix that names a place in the page, not a thing in the app.
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
                                       f"the ids are row positions ({_short(ids)}: each id is its "
                                       f"{'0' if zero_based else '1'}-based place in the list); when a record is added, "
                                       "removed or sorted, an agent's id would point at another record. Use the app's "
                                       "own id of each record"))
                    return
    domlike = [i for i in ids if _RENDER_KEY.match(i)]
    if domlike:
        out.append(Finding("ID_DOM_LIKE", "warning", where,
                           f"{len(domlike)} of {len(ids)} ids look like generated element ids or render keys "
                           f"({_short(domlike)}); record ids must be the app's business ids"))
        return
    if element_ids:
        same = [i for i in ids if i in element_ids]
        if same:
            out.append(Finding("ID_ELEMENT", "warning", where,
                               f"{len(same)} of {len(ids)} ids are also the id attribute of an element in the page "
                               f"({_short(same)}); fine when the app renders its own ids into the DOM, wrong when the "
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
                           f"{len(ids)} actions ({_short(ids)}) differ only by the id of a record of type {type_name}; "
                           f"declare one family instead: pling.action({{ id: '{name}', record: '{type_name}', … }}) "
                           f"(its instances are {name}@RECORD)"))
    for stem, ids in by_number.items():
        if len(ids) < 3:
            continue
        name = stem.replace("*", "").strip(_SEPARATORS) or "ACTION"
        out.append(Finding("ACTION_PER_ROW", "error", f"actions {stem}",
                           f"{len(ids)} actions ({_short(ids)}) differ only by a number; when they act on one "
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
                           f"unavailable for {len(ids)} record(s) ({_short(ids)}) without a reason: "
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


# ---- sensitive values --------------------------------------------------------------------------------

# Credentials, payment and government ids: shown in clear they leak (error).
_SECRET_WORDS = {"password", "passwd", "passphrase", "pwd", "passcode", "pin", "secret", "token", "apikey",
                 "cvv", "cvc", "cvv2", "ssn", "iban", "otp", "totp", "mfa", "credential", "credentials"}
_SECRET_PAIRS = [("api", "key"), ("private", "key"), ("secret", "key"), ("access", "key"), ("card", "number"),
                 ("card", "no"), ("card", "num"), ("credit", "card"), ("debit", "card"), ("cc", "number"),
                 ("cc", "num"), ("account", "number"), ("routing", "number"), ("social", "security"),
                 ("tax", "id"), ("sort", "code"), ("security", "code")]
# Contact details: personal data an app may mean to show (warning).
_CONTACT_WORDS = {"email", "phone", "telephone", "mobile", "msisdn", "dob", "birthday", "birthdate"}
_CONTACT_PAIRS = [("e", "mail"), ("date", "birth"), ("birth", "date")]
# A value the page already masked itself: mask characters, at most the last four digits shown.
_MASKED = re.compile(r"^[\s*•●·xX#-]{3,}\d{0,4}$")


def _words(name: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)]


def secret_kind(name: str) -> Severity | None:
    """`error` when a name suggests a credential, payment or government id; `warning` for contact
    details; None otherwise."""
    words = _words(name)
    joined = "".join(words)
    present = set(words)
    if present & _SECRET_WORDS or joined in _SECRET_WORDS or joined == "card":
        return "error"
    if any(a in present and b in present for a, b in _SECRET_PAIRS):
        return "error"
    if present & _CONTACT_WORDS or any(a in present and b in present for a, b in _CONTACT_PAIRS):
        return "warning"
    return None


def _in_clear(value: Any) -> bool:
    if value is None or isinstance(value, bool) or value == "":
        return False
    if isinstance(value, str) and (_SECRET_REF.fullmatch(value) or _MASKED.match(value)):
        return False
    return True


def _named_secrets(value: Any, path: str, found: list[tuple[str, Severity]]) -> None:
    if not isinstance(value, dict):
        if isinstance(value, list):
            for item in value[:20]:
                _named_secrets(item, path + "[]", found)
        return
    for key, inner in value.items():
        kind = secret_kind(key)
        here = f"{path}.{key}" if path else key
        if kind and _in_clear(inner):
            found.append((here, kind))
        elif not kind:
            _named_secrets(inner, here, found)


def _sensitive(model: PageModel, out: list[Finding]) -> None:
    for type_name, records in model.records.items():
        seen: dict[str, tuple[Severity, list[str]]] = {}
        for item in records.items:
            found: list[tuple[str, Severity]] = []
            _named_secrets(item.fields, "", found)
            for path, kind in found:
                seen.setdefault(path, (kind, []))[1].append(item.id)
        for path, (kind, ids) in seen.items():
            out.append(Finding("SENSITIVE_UNMARKED", kind, f"records {type_name}",
                               f"field {path} is shown in clear on {len(ids)} record(s) ({_short(ids)}); its name "
                               f"suggests {'a secret' if kind == 'error' else 'personal contact data'}: add "
                               f"'{path.split('.')[0].rstrip('[]')}' to sensitive"))
    for key, entry in model.state.items():
        kind = secret_kind(key)
        if kind and _in_clear(entry.value):
            out.append(Finding("SENSITIVE_UNMARKED", kind, f"state {key}",
                               f"the value is shown in clear; its name suggests "
                               f"{'a secret' if kind == 'error' else 'personal contact data'}: declare it with sensitive: true"))
        elif not kind:
            found: list[tuple[str, Severity]] = []
            _named_secrets(entry.value, "", found)
            for path, inner_kind in found:
                out.append(Finding("SENSITIVE_UNMARKED", inner_kind, f"state {key}",
                                   f"{path} is shown in clear inside the value; declare the state with sensitive: true"))


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


# ---- the model across loads --------------------------------------------------------------------------


def _normal(value: Any) -> Any:
    """The model with per-load secret reference names replaced by one placeholder."""
    if isinstance(value, str):
        return _SECRET_REF.sub("<secret>…</secret>", value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _diff(a: Any, b: Any, path: str, found: list[str], limit: int = 3) -> None:
    if len(found) >= limit or a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            _diff(a.get(key, "<absent>"), b.get(key, "<absent>"), f"{path}.{key}" if path else str(key), found, limit)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b)):
            label = x.get("id") if isinstance(x, dict) and isinstance(x.get("id"), str) else n
            _diff(x, y, f"{path}[{label}]", found, limit)
        return
    show = lambda v: json.dumps(v, ensure_ascii=False, default=str)[:60]  # noqa: E731
    found.append(f"{path or '(value)'}: {show(a)} then {show(b)}")


def _keyed(items: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    return {str(item.get(key)): item for item in items if isinstance(item, dict)}


def _stability_of_model(first: dict[str, Any], second: dict[str, Any], unstable_types: set[str],
                        actions_unstable: bool, out: list[Finding]) -> None:
    a, b = _normal(first), _normal(second)
    parts: list[tuple[str, Any, Any]] = [("page", a.get("page"), b.get("page"))]
    ra, rb = _keyed(a.get("regions") or [], "id"), _keyed(b.get("regions") or [], "id")
    parts += [(f"region {k}", ra.get(k), rb.get(k)) for k in list(ra) + [k for k in rb if k not in ra]]
    if [r.get("id") for r in a.get("regions") or []] != [r.get("id") for r in b.get("regions") or []] and set(ra) == set(rb):
        parts.append(("regions", "declaration order", "another order"))
    if not actions_unstable:
        aa, ab = _keyed(a.get("actions") or [], "id"), _keyed(b.get("actions") or [], "id")
        parts += [(f"action {k}", aa.get(k), ab.get(k)) for k in aa]
    recs_a, recs_b = a.get("records") or {}, b.get("records") or {}
    for type_name in list(recs_a) + [t for t in recs_b if t not in recs_a]:
        if type_name not in unstable_types:
            parts.append((f"records {type_name}", recs_a.get(type_name), recs_b.get(type_name)))
    sa, sb = a.get("state") or {}, b.get("state") or {}
    parts += [(f"state {k}", sa.get(k), sb.get(k)) for k in list(sa) + [k for k in sb if k not in sa]]
    parts += [("feedback", a.get("feedback"), b.get("feedback")), ("model", {"omitted": a.get("omitted"), "problems": a.get("problems")},
                                                                     {"omitted": b.get("omitted"), "problems": b.get("problems")})]
    for where, x, y in parts:
        if x == y:
            continue
        if x is None or y is None:
            out.append(Finding("MODEL_UNSTABLE", "error", where,
                               f"declared on the {'second' if x is None else 'first'} load only"))
            continue
        found: list[str] = []
        _diff(x, y, "", found)
        out.append(Finding("MODEL_UNSTABLE", "error", where,
                           "differs between two loads of the page (" + "; ".join(found) + "); an agent cannot rely on "
                           "a model that changes by itself: keep clocks, counters and random values out of records, "
                           "state and labels (a read action can answer them as data)"))
