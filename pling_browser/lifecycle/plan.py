"""A flow's plan: its declared steps, with ``{name}`` placeholders filled from the flow's arguments
(and ``{record}`` from its record). Both the confirm stage (the risk of the steps resolvable now) and
the flow's execution read it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..models import ActionDecl, RecordRef

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class Step:
    ref: str
    args: Any


def _fill(template: Any, values: dict[str, Any]) -> Any:
    """`{name}` placeholders from the flow's arguments (and `{record}`); a string that is exactly one
    placeholder takes the value with its type."""
    if isinstance(template, str):
        whole = PLACEHOLDER.fullmatch(template)
        if whole and whole.group(1) in values:
            return values[whole.group(1)]
        return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)
    if isinstance(template, dict):
        return {key: _fill(value, values) for key, value in template.items()}
    if isinstance(template, list):
        return [_fill(value, values) for value in template]
    return template


def plan(decl: ActionDecl, args: dict[str, Any], record: RecordRef | None) -> list[Step]:
    assert decl.steps is not None
    values = dict(args)
    if record is not None:
        values["record"] = record.id
    return [Step(ref=str(_fill(step.action, values)), args=_fill(step.args, values) or {}) for step in decl.steps]
