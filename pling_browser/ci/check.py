"""``check``: load a page twice, each time in a fresh browser context (the way every agent session
and every CI run sees it), and hold its capability model to SPEC's invariants (invariants.py)."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from .adapted import adapter_findings, read_writes
from .invariants import CODES, Finding, analyse

if TYPE_CHECKING:
    from ..core.sessions import Session
    from ..runtime import Runtime
    from .progress import Progress

__all__ = ["Finding", "CODES", "check", "analyse", "report"]


async def check(runtime: Runtime, url: str, *, progress: Progress | None = None,
                adapter: str | None = None, profile: str | None = None) -> list[Finding]:
    """Load `url` twice in fresh sessions and answer the findings, errors first. With `adapter` (the
    file name of one of the runtime's adapters), also whether that adapter runs there and loads; with
    `profile`, each session is signed in as that saved profile (a page behind a sign-in)."""
    models: list[dict[str, Any]] = []
    element_ids: set[str] | None = None
    mutations = (0, 0)
    for number in (1, 2):
        if progress is not None:
            progress.status(f"check: load {number}/2 {url}")
        session = await runtime.open(url, profile=profile)
        try:
            models.append(json.loads(await session.bridge.model({})))
            if number == 1:
                element_ids = await _element_ids(session, models[0])
                mutations = await _mutations_of_a_read(session)
        finally:
            await runtime.close(session.id)
    if progress is not None:
        progress.clear()
    findings = analyse(models[0], models[1], element_ids) + read_writes(*mutations)
    if adapter is not None:
        known = {a.name: a for a in runtime.controller.adapters.adapters}
        header = list(known[adapter].problems) if adapter in known else []
        findings += adapter_findings(models[0], adapter, header, url)
    order = {code: n for n, code in enumerate(CODES)}
    return sorted(findings, key=lambda f: (f.severity != "error", order.get(f.code, 99), f.where))


_WATCH = """() => {
  let seen = 0;
  const observer = new MutationObserver((records) => { seen += records.length; });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  window.__plingCheckWatch = () => { const n = seen + observer.takeRecords().length; seen = 0; return n; };
  window.__plingCheckStop = () => { observer.disconnect(); delete window.__plingCheckWatch; delete window.__plingCheckStop; };
}"""


async def _mutations_of_a_read(session: Session) -> tuple[int, int]:
    """DOM mutations while the model is read once more, and while the page is then left alone as long
    (a page whose own timers change it is not blamed for its reads). (0, 0) when it cannot be told."""
    loop = asyncio.get_running_loop()
    page = session.handle  # one handle: its world keeps the watch between the calls
    try:
        await page.evaluate(_WATCH)
        started = loop.time()
        await session.bridge.model({})
        reading = await page.evaluate("() => window.__plingCheckWatch()")
        await asyncio.sleep(max(0.2, loop.time() - started))
        idle = await page.evaluate("() => window.__plingCheckWatch()")
        await page.evaluate("() => window.__plingCheckStop()")
    except Exception:  # a hostile or stuck page: this rule is skipped, the others still run
        return 0, 0
    return int(reading or 0), int(idle or 0)


async def _element_ids(session: Session, model: dict[str, Any]) -> set[str] | None:
    """Which record ids are also the `id` attribute of an element in the page (None: could not tell)."""
    ids: list[str] = []
    for records in (model.get("records") or {}).values():
        ids.extend(str(i) for i in (records.get("ids") or [])[:2000])
    if not ids:
        return set()
    script = "ids => ids.filter(id => { try { return document.getElementById(id) !== null; } catch (e) { return false; } })"
    try:
        found = await session.handle.evaluate(script, ids)
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
