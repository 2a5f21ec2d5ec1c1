"""The targets of issues 21 and 31 (and issue 7's byte budgets, which still hold), checked against one
run's results (the dict bench/run.py writes to bench/results/latest.json). Pure: no timing, no I/O.
Every ratio is of figures measured in the same run."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .measure import NAVIGATING, NAVIGATING_FLOOR, NAVIGATING_NO_EVIDENCE

REMOVE_LIMIT_MS = 25.0
REMOVE_LIMIT_AT = 12
REMOVE_VS_FLOOR_AT = (1000, 10000)
# (records, limit, issue): issue 21's 3x at 12 and 1,000 records, kept; issue 31's 1.2x at 1,000
ADD_FLOOR_FACTOR = ((12, 3.0, ""), (1000, 3.0, " (issue 21)"), (1000, 1.2, " (issue 31)"))
READ_FACTOR = 3.0                            # a read against page.evaluate (issue 31)
READ_AT = (12, 1000)
FILL_FACTOR = 1.0                            # a fill against Playwright's fill, both until rendered (issue 31)
FILL_AT = (12, 1000)
MCP_SIZES = (12, 1000)
MCP_SPEEDUP = {"settle 0": 3.0, "as shipped": 10.0}
BRIEF_VS_SNAPSHOT_AT = 1000
BRIEF_VS_SNAPSHOT = 10.0                     # the brief model against Playwright MCP's snapshot (issue 31)
OPEN_LIMIT_MS = 150.0
OPEN_AT = 12
CONCURRENCY_LEVELS = (16, 64)
THROUGHPUT_FACTOR = 1.3                      # invocations per second against bare Playwright's (issue 31)
P95_FACTOR = 1.0                             # p95 against bare Playwright's (issue 31)
CPU_LIMIT_MS = 12.0                          # CPU per invocation of the service's tree, at 16 sessions
CPU_AT = 16
PSS_ADDED_LIMIT_MB = 40.0
PSS_AT = 16
NAVIGATING_AT = 1000
NAVIGATING_FACTOR = 2.0
RECEIPT_LIMIT_BYTES = 2048
RECEIPT_AT = (12, 1000, 10000)
MODEL_LIMIT_BYTES = 256 * 1024
MODEL_LIMIT_AT = 10000

Add = Callable[..., None]


def _med(entry: dict[str, Any] | None) -> float | None:
    return None if not entry else entry.get("median")


def _op(results: dict[str, Any], n: int, key: str) -> float | None:
    return _med(((results.get("sizes", {}).get(str(n)) or {}).get("ops") or {}).get(key))


def mcp_speedup(results: dict[str, Any], variant: str, n: int) -> float | None:
    entry = (((results.get("mcp") or {}).get("variants") or {}).get(variant) or {}).get("sizes", {}).get(str(n))
    if not entry or "click_and_snapshot_ms" not in entry:
        return None
    pling = _op(results, n, "pling.remove.ev")
    mcp = entry["click_and_snapshot_ms"].get("median")
    return round(mcp / pling, 1) if pling and mcp else None


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def add(name: str, target: str, value: str | None, ok: bool | None, note: str = "") -> None:
        out.append({"name": name, "target": target, "value": value,
                    "status": "n/a" if ok is None or value is None else ("PASS" if ok else "MISS"), "note": note})

    _latency(results, add)
    _mcp(results, add)
    _opening(results, add)
    _concurrency(results, add)
    _capacity(results, add, out)
    _navigating(results, add)
    _bytes(results, add)
    return out


def _latency(results: dict[str, Any], add: Add) -> None:
    ms = _op(results, REMOVE_LIMIT_AT, "pling.remove.ev")
    add(f"remove@t9 with evidence, {REMOVE_LIMIT_AT:,} records", f"<= {REMOVE_LIMIT_MS:.0f} ms",
        None if ms is None else f"{ms:.1f} ms", ms is not None and ms <= REMOVE_LIMIT_MS,
        _vs(_op(results, REMOVE_LIMIT_AT, "floor.click"), "rendered floor click"))
    for n in REMOVE_VS_FLOOR_AT:
        ms, floor = _op(results, n, "pling.remove.ev"), _op(results, n, "floor.click")
        add(f"remove@t9 with evidence, {n:,} records", "<= floor click (rendered)", _pair(ms, floor),
            None if ms is None or floor is None else ms <= floor, "Pling / floor, medians")
    for n, limit, issue in ADD_FLOOR_FACTOR:
        _factor(results, add, n, f"add with evidence, {n:,} records{issue}", "pling.add.ev", "floor.add", limit,
                "floor add (rendered)")
    for n in READ_AT:
        _factor(results, add, n, f"read (summary) with evidence, {n:,} records", "pling.summary.ev", "floor.read",
                READ_FACTOR, "page.evaluate")
    for n in FILL_AT:
        _factor(results, add, n, f"fill (type_new) with evidence, {n:,} records", "pling.fill.ev", "floor.fill",
                FILL_FACTOR, "Playwright's fill (rendered)")


def _factor(results: dict[str, Any], add: Add, n: int, name: str, key: str, floor_key: str, limit: float,
            what: str) -> None:
    ms, floor = _op(results, n, key), _op(results, n, floor_key)
    factor = ms / floor if ms is not None and floor else None
    add(name, f"<= {limit:g}x {what}", None if factor is None else f"{factor:.2f}x ({ms:.1f} / {floor:.1f} ms)",
        None if factor is None else factor <= limit, "medians")


def _mcp(results: dict[str, Any], add: Add) -> None:
    mcp = results.get("mcp") or {}
    skipped = "skipped: " + mcp["skipped"] if "skipped" in mcp else ""
    for variant, limit in MCP_SPEEDUP.items():
        for n in MCP_SIZES:
            speed = mcp_speedup(results, variant, n)
            add(f"vs Playwright MCP click+snapshot ({variant}), {n:,} records", f">= {limit:.0f}x faster",
                None if speed is None else f"{speed:.1f}x", None if speed is None else speed >= limit,
                skipped if speed is None and skipped else "MCP median / Pling median")
    n = BRIEF_VS_SNAPSHOT_AT
    snapshot = ((((mcp.get("variants") or {}).get("as shipped") or {}).get("sizes") or {}).get(str(n)) or {}).get(
        "first_snapshot_bytes")
    brief = ((results.get("sizes", {}).get(str(n)) or {}).get("model_brief") or {}).get("bytes")
    ratio = snapshot / brief if snapshot and brief else None
    add(f"brief model vs Playwright MCP's snapshot, {n:,} records", f">= {BRIEF_VS_SNAPSHOT:.0f}x fewer bytes",
        None if ratio is None else f"{ratio:.1f}x ({brief:,} / {snapshot:,} B)",
        None if ratio is None else ratio >= BRIEF_VS_SNAPSHOT,
        skipped or "GET /model?detail=brief against browser_snapshot" + ("" if brief else " (no brief model read)"))


def _opening(results: dict[str, Any], add: Add) -> None:
    opening = ((results.get("opening") or {}).get("modes") or {}).get("after idle") or {}
    ms = _med(opening.get("ms"))
    idle_s = (results.get("opening") or {}).get("idle_s")
    add(f"opening a session (POST /sessions with its model), {OPEN_AT} records", f"<= {OPEN_LIMIT_MS:.0f} ms",
        None if ms is None else f"{ms:.0f} ms", ms is not None and ms <= OPEN_LIMIT_MS and not opening.get("errors"),
        f"median of {opening['ms']['n']} opens, service idle {idle_s:g} s before each" if ms is not None else
        (results.get("opening") or {}).get("skipped", ""))


def _cpu_bound(pling: dict[str, Any], bare: dict[str, Any]) -> str:
    """The ratio the CPU allows: with both sides keeping every core busy, invocations per second go as
    one over the CPU each invocation takes, its HTTP or Playwright client's included. Said beside the
    measured ratio, so a reader sees whether the rate is bound by CPU (then only less CPU per invocation
    moves it) or by something else (waits, queueing)."""
    def per_invocation(side: dict[str, Any]) -> float | None:
        cpu = side.get("cpu_ms_per_invocation") or {}
        total, client = cpu.get("total"), cpu.get("bench client")
        return total + client if isinstance(total, (int, float)) and isinstance(client, (int, float)) else None
    ours, theirs = per_invocation(pling), per_invocation(bare)
    if not ours or not theirs:
        return ""
    return f"; the CPU allows {theirs / ours:.2f}x (bare {theirs:.1f} / Pling {ours:.1f} ms per invocation, clients included)"


def _concurrency(results: dict[str, Any], add: Add) -> None:
    conc = results.get("concurrency") or {}
    why = conc.get("skipped") or conc.get("error") or "not run"
    for n in CONCURRENCY_LEVELS:
        level = (conc.get("levels") or {}).get(str(n)) or {}
        pling, bare = level.get("pling") or {}, level.get("bare") or {}
        note = level.get("error") or ("" if pling else why)
        shape = f"{n} sessions" + (f" x {level['per_session']}" if "per_session" in level else "")
        add(f"concurrency {shape}: errors", "0",
            None if not pling else f"{pling['errors']} (bare {bare.get('errors')})",
            None if not pling else pling["errors"] == 0, note)
        tp = level.get("throughput_ratio")
        add(f"concurrency {shape}: invocations/s vs bare Playwright", f">= {THROUGHPUT_FACTOR:g}x",
            None if tp is None else f"{tp:.2f}x ({pling['throughput_per_s']:.0f} / {bare['throughput_per_s']:.0f} /s)",
            None if tp is None else tp >= THROUGHPUT_FACTOR,
            note or f"{n} bare contexts in one browser, same add" + _cpu_bound(pling, bare))
        p95 = level.get("p95_ratio")
        add(f"concurrency {shape}: p95 vs bare Playwright's", f"<= {P95_FACTOR:g}x",
            None if p95 is None else f"{p95:.2f}x ({pling['latency_ms']['p95']:.0f} / {bare['latency_ms']['p95']:.0f} ms)",
            None if p95 is None else p95 <= P95_FACTOR, note)
    level = (conc.get("levels") or {}).get(str(CPU_AT)) or {}
    cpu = ((level.get("pling") or {}).get("cpu_ms_per_invocation") or {}).get("total")
    add(f"CPU per invocation, {CPU_AT} sessions", f"<= {CPU_LIMIT_MS:g} ms",
        None if cpu is None else f"{cpu:.1f} ms", None if cpu is None else cpu <= CPU_LIMIT_MS,
        "service + driver + Chromium (psutil) / invocations" if cpu is not None else why)
    level = (conc.get("levels") or {}).get(str(PSS_AT)) or {}
    added = (level.get("memory") or {}).get("pss_added_per_session_mb")
    add(f"memory added per session ({PSS_AT} open)", f"<= {PSS_ADDED_LIMIT_MB:.0f} MB PSS",
        None if added is None else f"{added:.1f} MB", None if added is None else added <= PSS_ADDED_LIMIT_MB,
        "(PSS open - PSS before opening) / sessions, the service's process tree" if added is not None else why)


def _capacity(results: dict[str, Any], add: Add, out: list[dict[str, Any]]) -> None:
    cap = results.get("capacity") or {}
    missed = cap.get("missed") or {}
    note = (cap.get("skipped") or cap.get("error") or "not run") if "held" not in cap else (
        f"missed at {missed['sessions']}: {missed['why']}" if missed else f"held every step up to {cap['most_tried']}")
    add("sessions one service holds, every one answering within 1 s", "reported",
        None if "held" not in cap else str(cap["held"]), None, note)
    if "held" in cap:
        out[-1]["status"] = "reported"


def _navigating(results: dict[str, Any], add: Add) -> None:
    # "Evidence" as issue 7 measured it: what taking evidence adds to the same action (evidence on
    # minus off, medians of the same run), across two documents against within one.
    at = NAVIGATING_AT
    nav_ev, nav_off = _op(results, at, NAVIGATING), _op(results, at, NAVIGATING_NO_EVIDENCE)
    ev, off = _op(results, at, "pling.remove.ev"), _op(results, at, "pling.remove.noev")
    nav_cost = nav_ev - nav_off if nav_ev is not None and nav_off is not None else None
    cost = ev - off if ev is not None and off is not None else None
    floor = _op(results, at, NAVIGATING_FLOOR)
    ok = None if nav_cost is None or cost is None else nav_cost <= NAVIGATING_FACTOR * max(cost, 0.0)
    add(f"navigating remove@t9, {at:,} records: evidence cost", f"<= {NAVIGATING_FACTOR:.0f}x non-navigating",
        None if ok is None else f"{nav_cost:.1f} / {cost:.1f} ms", ok,
        "evidence on minus off; server-rendered list (POST, 303, the list again)"
        + ("" if nav_ev is None else f"; with evidence {nav_ev:.0f} ms" + ("" if floor is None else f" vs bare click+load {floor:.0f} ms")))


def _bytes(results: dict[str, Any], add: Add) -> None:
    for n in RECEIPT_AT:
        entry = ((results.get("sizes", {}).get(str(n)) or {}).get("ops") or {}).get("pling.remove.ev")
        value = entry.get("bytes_max") if entry else None
        add(f"receipt of remove@t9, {n:,} records", f"<= {RECEIPT_LIMIT_BYTES:,} B",
            None if value is None else f"{value:,} B", None if value is None else value <= RECEIPT_LIMIT_BYTES,
            "largest HTTP body with evidence")
    size = results.get("sizes", {}).get(str(MODEL_LIMIT_AT))
    value = size["model"]["bytes"] if size and "model" in size else None
    add(f"model of the {MODEL_LIMIT_AT:,}-record page", f"<= {MODEL_LIMIT_BYTES // 1024} KB",
        None if value is None else f"{value / 1024:.1f} KB", None if value is None else value <= MODEL_LIMIT_BYTES,
        "GET /sessions/{sid}/model, default window")


def _pair(ms: float | None, floor: float | None) -> str | None:
    return None if ms is None or floor is None else f"{ms:.1f} / {floor:.1f} ms"


def _vs(floor: float | None, what: str) -> str:
    return "" if floor is None else f"{what} {floor:.1f} ms"
