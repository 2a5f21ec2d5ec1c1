"""What `check` reports: a finding (code, severity, where, message) and the table of codes (docs/ci.md
says more about each)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = ["CODES", "Finding", "SECRET_REF", "Severity", "short"]

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
    "READ_WRITES": "reading the model does not change the page",
    "PAGE_PROBLEM": "the model reports no problems with the declarations",
    "ADAPTER_FAILED": "the page's adapters compile and load without throwing",
    "ADAPTER_NOT_MATCHED": "the adapter checked (--adapter) runs on the page",
    "ADAPTER_HEADER": "the adapter's header lines (@match, @exclude, @run-at) can be read",
    "MODEL_INVALID": "the bridge's model is well formed",
}

SECRET_REF = re.compile(r"<secret>[^<>]{0,200}</secret>")


def short(values: Iterable[Any], n: int = 3) -> str:
    values = list(values)
    shown = ", ".join(str(v)[:40] for v in values[:n])
    return shown + (f", … (+{len(values) - n})" if len(values) > n else "")
