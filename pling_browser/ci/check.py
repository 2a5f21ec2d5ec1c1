"""``check``: load a page twice, each time in a fresh browser context (the way every agent session
and every CI run sees it), and hold its capability model to SPEC's invariants (invariants.py)."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from .invariants import CODES, Finding, analyse

if TYPE_CHECKING:
    from .progress import Progress
    from ..runtime import Runtime
    from ..core.sessions import Session

__all__ = ["Finding", "CODES", "check", "analyse", "report"]


async def check(runtime: "Runtime", url: str, *, progress: "Progress | None" = None) -> list[Finding]:
    """Load `url` twice in fresh sessions and answer the findings, errors first."""
    models: list[dict[str, Any]] = []
    element_ids: set[str] | None = None
    for number in (1, 2):
        if progress is not None:
            progress.status(f"check: load {number}/2 {url}")
        session = await runtime.open(url)
        try:
            models.append(json.loads(await session.bridge.model({})))
            if number == 1:
                element_ids = await _element_ids(session, models[0])
        finally:
            await runtime.close(session.id)
    if progress is not None:
        progress.clear()
    return analyse(models[0], models[1], element_ids)


async def _element_ids(session: "Session", model: dict[str, Any]) -> set[str] | None:
    """Which record ids are also the `id` attribute of an element in the page (None: could not tell)."""
    ids: list[str] = []
    for records in (model.get("records") or {}).values():
        ids.extend(str(i) for i in (records.get("ids") or [])[:2000])
    if not ids:
        return set()
    script = "ids => ids.filter(id => { try { return document.getElementById(id) !== null; } catch (e) { return false; } })"
    try:
        found = await asyncio.wait_for(session.page.evaluate(script, ids), 5)
    except Exception:  # a hostile or stuck page: this heuristic is skipped, the others still run
        return None
    return {str(i) for i in found} if isinstance(found, list) else None


def report(url: str, findings: list[Finding], path: str, strict: bool = False, seconds: float = 0.0) -> None:
    """Write `check`'s JUnit XML: one testcase per code; it fails on an error finding (on any finding
    with `strict`), and its warnings are in the testcase's output."""
    from .junit import Case, SuiteReport, junit_xml

    suite = SuiteReport(name=f"pling-browser check {url}", seconds=seconds)
    for code, what in CODES.items():
        mine = [f for f in findings if f.code == code]
        failing = [f for f in mine if f.severity == "error" or strict]
        case = Case(name=f"{code}: {what}", classname="pling-browser check",
                    output="\n".join(str(f) for f in mine if f not in failing))
        if failing:
            case.failure = (f"{failing[0].where}: {failing[0].message}"[:1000], "\n".join(str(f) for f in failing))
        suite.cases.append(case)
    with open(path, "w", encoding="utf-8") as out:
        out.write(junit_xml([suite], name="pling-browser check"))
