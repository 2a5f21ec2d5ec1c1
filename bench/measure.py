"""One page size: the floor and Pling, interleaved operation by operation so that drift on the machine
touches both sides alike; evidence on and off alternate which goes first. Where asked (`navigate`), the
same delete done by navigation too, on the server-rendered list of the same N records (bench/fixtures.py:
a form posted, 303 back to the list), in the same loop, so it is set against the non-navigating
remove@t9 of the same repetitions."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .fixtures import FixtureServer
from .floor import FloorBrowser, FloorPage
from .pling_api import Call, PlingApi
from .stats import median, summary

# What each Pling operation is compared with: the floor of the same operation on the same page.
OPS = {
    "remove": {"label": "remove@t9", "kind": "element action", "floor": "click"},
    "add": {"label": "add", "kind": "function write", "floor": "add"},
    "summary": {"label": "summary", "kind": "read", "floor": "read"},
    "invalid": {"label": 'add {"text": ""}', "kind": "validation failure", "floor": "read"},
    "fill": {"label": "type_new", "kind": "element fill", "floor": "fill"},
}
FLOORS = {
    "click": "trusted locator.click() on t9's delete button, then an animation frame and a task (rendered)",
    "add": "page.evaluate(addItem(text), then an animation frame and a task) (rendered)",
    "read": "page.evaluate(summary())",
    "fill": "locator.fill() on the new-item field, then an animation frame and a task (rendered)",
    "click+load": "on the server-rendered list, the same click posting the form, until the 303's list loaded "
                  "and rendered (informative)",
}
# Issue 7's floors, kept in the JSON and the table so the change is visible: until Playwright answered.
BARE_FLOORS = {"click": "click_bare", "add": "add_bare"}
NAVIGATING = "pling.remove_nav.ev"
NAVIGATING_NO_EVIDENCE = "pling.remove_nav.noev"
NAVIGATING_FLOOR = "floor.click_nav"
STAGES = ("resolve", "decode", "validate", "confirm", "reveal", "execute", "expect", "diff")


def _check(op: str, evidence: bool, call: Call) -> str | None:
    if call.status != 200:
        return f"HTTP {call.status}: {str(call.body)[:200]}"
    result = call.result
    error = result.get("error") or {}
    if op == "invalid":
        if result.get("ok") is False and error.get("code") == "INVALID_PARAMS":
            return None
        return f"expected INVALID_PARAMS, got ok={result.get('ok')} {error.get('code')}"
    if not result.get("ok"):
        return f"{error.get('code')}: {str(error.get('message'))[:200]}"
    if op in ("remove", "remove_nav") and evidence:
        removed = (((result.get("changed") or {}).get("records") or {}).get("item") or {}).get("removed")
        if removed != ["t9"]:
            return f"changed.records.item.removed was {removed!r}, expected ['t9']"
    if op == "remove_nav" and evidence and not (result.get("changed") or {}).get("page"):
        return "the navigating remove@t9 reported no changed.page"
    if op == "add" and not str((result.get("data") or {}).get("id", "")).startswith("t"):
        return f"add answered no id: {str(result.get('data'))[:100]}"
    if op == "fill" and (result.get("error") or result.get("fidelity") == "low"):
        return f"type_new answered {str(result)[:200]}"
    if op == "summary" and "total" not in (result.get("data") or {}):
        return f"summary answered no total: {str(result.get('data'))[:100]}"
    return None


class SizeRun:
    def __init__(self, n: int, reps: int, warmup: int) -> None:
        self.n = n
        self.reps = reps
        self.warmup = warmup
        self.times: dict[str, list[float]] = defaultdict(list)
        self.bytes: dict[str, list[int]] = defaultdict(list)
        self.stages: dict[str, list[dict[str, float]]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.extra: dict[str, Any] = {}

    def pling(self, op: str, evidence: bool, call: Call, keep: bool) -> None:
        key = f"pling.{op}.{'ev' if evidence else 'noev'}"
        problem = _check(op, evidence, call)
        if problem:
            self.errors[key].append(problem)
        if not keep:
            return
        self.times[key].append(call.ms)
        self.bytes[key].append(call.bytes)
        timings = call.result.get("timings_ms")
        if isinstance(timings, dict):
            self.stages[key].append(timings)

    def as_json(self) -> dict[str, Any]:
        ops: dict[str, Any] = {}
        for key, values in self.times.items():
            entry: dict[str, Any] = summary(values)
            if key in self.bytes:
                entry["bytes"] = int(median(self.bytes[key]) or 0)
                entry["bytes_max"] = max(self.bytes[key])
            if self.stages.get(key):
                names = [s for s in STAGES if any(s in t for t in self.stages[key])]
                names += sorted({s for t in self.stages[key] for s in t} - set(names))
                entry["stages_ms"] = {s: round(median([t.get(s, 0.0) for t in self.stages[key]]) or 0.0, 2) for s in names}
                entry["stages_sum_ms"] = round(median([sum(t.values()) for t in self.stages[key]]) or 0.0, 2)
            entry["errors"] = len(self.errors.get(key, []))
            if self.errors.get(key):
                entry["first_error"] = self.errors[key][0]
            ops[key] = entry
        for key, problems in self.errors.items():
            if key not in ops:
                ops[key] = {"n": 0, "errors": len(problems), "first_error": problems[0]}
        return {"records": self.n, "reps": self.reps, "warmup": self.warmup, "ops": ops, **self.extra}


async def _reset(api: PlingApi, sid: str, run: SizeRun, **expected: int) -> None:
    """Untimed: the page back to its N records (t9 in place, added records gone), through `reset`."""
    call = await api.invoke(sid, "reset", evidence=False)
    data = call.result.get("data") or {}
    if not call.result.get("ok") or any(data.get(k) != v for k, v in expected.items()):
        run.errors["reset"].append(f"reset expected {expected}, answered {str(call.body)[:200]}")


async def _reset_navigating(api: PlingApi, sid: str, run: SizeRun, fixtures: FixtureServer, n: int) -> None:
    """Untimed: the server-rendered list back to its N records (its `reset` posts a form, 303 back)."""
    call = await api.invoke(sid, "reset", evidence=False)
    if not call.result.get("ok") or fixtures.deleted(n):
        run.errors["reset_nav"].append(f"reset of the server-rendered list answered {str(call.body)[:200]}")


async def _removes(i: int, keep: bool, modes: tuple[bool, bool], run: SizeRun, fixtures: FixtureServer,
                   floor_page: FloorPage, api: PlingApi, sid: str, nav: tuple[str, FloorPage] | None) -> None:
    bare, ms = await floor_page.click_t9()
    if keep:
        run.times["floor.click"].append(ms)
        run.times["floor.click_bare"].append(bare)
    # The navigating delete goes before the non-navigating ones every other repetition; both
    # with evidence on and off (what evidence costs, across documents and within one).
    removes = [("remove", evidence) for evidence in modes]
    navs = [("nav", evidence) for evidence in modes] if nav is not None else []
    for what, evidence in ([*navs, *removes] if i % 2 else [*removes, *navs]):
        if what == "remove":
            run.pling("remove", evidence, await api.invoke(sid, "remove@t9", evidence=evidence), keep)
            await _reset(api, sid, run, restored=1)
        elif nav is not None:
            nav_sid, nav_floor = nav
            if evidence:  # the floor once per repetition
                ms = await nav_floor.click_t9_navigating()
                if fixtures.deleted(run.n) != {"t9"}:
                    run.errors["floor.click_nav"].append(f"the floor's navigating click left {fixtures.deleted(run.n)}")
                fixtures.reset(run.n)
                await nav_floor.reload()
                if keep:
                    run.times["floor.click_nav"].append(ms)
            run.pling("remove_nav", evidence, await api.invoke(nav_sid, "remove@t9", evidence=evidence), keep)
            await _reset_navigating(api, nav_sid, run, fixtures, run.n)


async def _writes(i: int, keep: bool, modes: tuple[bool, bool], run: SizeRun, floor_page: FloorPage,
                  api: PlingApi, sid: str) -> None:
    for bare_add in ((False, True) if i % 2 == 0 else (True, False)):
        ms = await (floor_page.add_bare(f"floor bare {i}") if bare_add else floor_page.add(f"floor {i}"))
        if keep:
            run.times["floor.add_bare" if bare_add else "floor.add"].append(ms)
    for evidence in modes:
        run.pling("add", evidence, await api.invoke(sid, "add", {"text": f"pling {i} {int(evidence)}"},
                                                    evidence=evidence), keep)
        await _reset(api, sid, run, dropped=1)
    ms = await floor_page.fill(f"floor typed {i}")
    if keep:
        run.times["floor.fill"].append(ms)
    for evidence in modes:
        run.pling("fill", evidence, await api.invoke(sid, "type_new", {"text": f"pling typed {i} {int(evidence)}"},
                                                     evidence=evidence), keep)


async def _reads(keep: bool, modes: tuple[bool, bool], run: SizeRun, floor_page: FloorPage, api: PlingApi,
                 sid: str) -> None:
    await floor_page.settle()
    ms = await floor_page.read()
    if keep:
        run.times["floor.read"].append(ms)
    for evidence in modes:
        run.pling("summary", evidence, await api.invoke(sid, "summary", evidence=evidence), keep)
    for evidence in modes:
        run.pling("invalid", evidence, await api.invoke(sid, "add", {"text": ""}, evidence=evidence), keep)


async def _models(run: SizeRun, api: PlingApi, sid: str) -> None:
    models = [await api.model(sid) for _ in range(5)]
    run.extra["model"] = {"bytes": models[-1].bytes, "status": models[-1].status,
                          "ms": summary([m.ms for m in models]),
                          "ids": len(((models[-1].body or {}).get("records") or {}).get("item", {}).get("ids", []))}
    full = await api.model(sid, limit=1000)
    run.extra["model_limit_1000"] = {"bytes": full.bytes, "status": full.status, "ms": round(full.ms, 1)}
    brief = await api.model(sid, detail="brief")  # counted only where the service answers a brief model
    if brief.status == 200 and (brief.body or {}).get("detail") == "brief":
        run.extra["model_brief"] = {"bytes": brief.bytes, "ms": round(brief.ms, 1)}


async def measure_size(n: int, reps: int, warmup: int, fixtures: FixtureServer, floor: FloorBrowser,
                       api: PlingApi, progress: Any = print, navigate: bool = False) -> dict[str, Any]:
    run = SizeRun(n, reps, warmup)
    url = fixtures.page(n)
    floor_page = await floor.open(url)
    sid, opened = await api.open(url)
    run.extra["open"] = {"ms": round(opened.ms, 1), "bytes": opened.bytes}
    nav: tuple[str, FloorPage] | None = None
    try:
        if navigate:
            fixtures.reset(n)
            nav_floor = await floor.open(fixtures.ssr_page(n))
            nav_sid, nav_opened = await api.open(fixtures.ssr_page(n))
            nav = (nav_sid, nav_floor)
            run.extra["navigating_page"] = {"url": fixtures.ssr_page(n), "open_ms": round(nav_opened.ms, 1),
                                            "open_bytes": nav_opened.bytes}
        for i in range(warmup + reps):
            keep = i >= warmup
            modes = (True, False) if i % 2 == 0 else (False, True)
            await _removes(i, keep, modes, run, fixtures, floor_page, api, sid, nav)
            await _writes(i, keep, modes, run, floor_page, api, sid)
            await _reads(keep, modes, run, floor_page, api, sid)
            if i + 1 == warmup or (keep and (i - warmup + 1) % 10 == 0):
                progress(f"  {n} records: {i + 1 - warmup if keep else 'warm-up'}"
                         f"{'/' + str(reps) if keep else ' done'}")
        await _models(run, api, sid)
    finally:
        await api.close(sid)
        if nav is not None:
            await api.close(nav[0])
            await nav[1].close()
        await floor_page.close()
    return run.as_json()
