"""ID_UNSTABLE and MODEL_UNSTABLE: what differs between two loads of one page. Record and action ids
come first (a type whose ids changed is left out of the model comparison, which would only repeat it);
then the model part by part, with per-load secret reference names made equal."""

from __future__ import annotations

from typing import Any

from ..models import PageModel
from .compare import differences, same
from .findings import SECRET_REF, Finding, short

__all__ = ["stability_of_ids", "stability_of_model"]


def stability_of_ids(model: PageModel, again: PageModel, out: list[Finding]) -> tuple[set[str], bool]:
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
                               f"(first load: {short(gone)}; second load: {short(new)}); a record id must come "
                               "from the app's data, not from a counter, a clock or a random number"))
    first_ids = [a.id for a in model.actions]
    second_ids = [a.id for a in again.actions]
    actions_unstable = set(first_ids) != set(second_ids)
    if actions_unstable:
        only_first = [i for i in first_ids if i not in set(second_ids)]
        only_second = [i for i in second_ids if i not in set(first_ids)]
        out.append(Finding("ID_UNSTABLE", "error", "actions",
                           f"action ids differ between two loads (only in the first: {short(only_first) or '-'}; "
                           f"only in the second: {short(only_second) or '-'}); an action id names an operation and "
                           "must not be generated per load"))
    return unstable, actions_unstable




def _normal(value: Any) -> Any:
    """The model with per-load secret reference names replaced by one placeholder."""
    if isinstance(value, str):
        return SECRET_REF.sub("<secret>…</secret>", value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _keyed(items: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    return {str(item.get(key)): item for item in items if isinstance(item, dict)}


def stability_of_model(first: dict[str, Any], second: dict[str, Any], unstable_types: set[str],
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
        if same(x, y):
            continue
        if x is None or y is None:
            out.append(Finding("MODEL_UNSTABLE", "error", where,
                               f"declared on the {'second' if x is None else 'first'} load only"))
            continue
        found = differences(x, y)
        out.append(Finding("MODEL_UNSTABLE", "error", where,
                           "differs between two loads of the page (" + "; ".join(found) + "); an agent cannot rely on "
                           "a model that changes by itself: keep clocks, counters and random values out of records, "
                           "state and labels (a read action can answer them as data)"))
