"""`check`'s rules about adapters (docs/adapters.md) and about reads that write.

``pling-browser check URL --adapter FILE`` loads the page with that one adapter: it must run there
(``ADAPTER_NOT_MATCHED``), its header must read (``ADAPTER_HEADER``) and it must load without a
syntax error or a throw (``ADAPTER_FAILED``, from the model's ``adapter NAME`` problems, which any
check of an adapted page reports). ``READ_WRITES`` holds any page, adapted or not, to invariant 2:
reading the model (records, regions, state, availability) must not change the page."""

from __future__ import annotations

from typing import Any

from .findings import Finding

__all__ = ["adapter_findings", "read_writes"]


def adapter_findings(model: dict[str, Any], adapter: str, header_problems: list[str], url: str) -> list[Finding]:
    """Findings for the adapter file ``adapter`` checked on ``url`` (its model's first load)."""
    out = [Finding("ADAPTER_HEADER", "warning", f"adapter {adapter}", problem) for problem in header_problems]
    ran = (model.get("page") or {}).get("adapter") or []
    if adapter not in ran:
        out.append(Finding("ADAPTER_NOT_MATCHED", "error", f"adapter {adapter}",
                           f"the adapter did not run on {url[:200]}: no @match or @include line matches it, an "
                           "@exclude does (docs/adapters.md, 'Match semantics'), or it declared nothing there"))
    return out


def read_writes(mutations_reading: int, mutations_idle: int) -> list[Finding]:
    """A finding when reading the model changed the page's DOM while the page was otherwise calm."""
    if mutations_reading and not mutations_idle:
        return [Finding("READ_WRITES", "error", "model",
                        f"reading the model changed the page ({mutations_reading} DOM mutations while it was read, none "
                        "while the page was left alone as long): list, fields, label, state, available and more must "
                        "only read; an operation that changes the page belongs in an action")]
    return []
