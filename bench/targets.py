"""The targets of issue 21 (and issue 7's byte budgets, which still hold), checked against one run's
results (the dict bench/run.py writes to bench/results/latest.json). Pure: no timing, no I/O."""

from __future__ import annotations

from typing import Any

from .measure import NAVIGATING, NAVIGATING_FLOOR, NAVIGATING_NO_EVIDENCE

REMOVE_LIMIT_MS = 25.0
REMOVE_LIMIT_AT = 12
REMOVE_VS_FLOOR_AT = (1000, 10000)
ADD_FLOOR_FACTOR = 3.0
ADD_AT = (12, 1000)
MCP_SIZES = (12, 1000)
MCP_SPEEDUP = {"settle 0": 3.0, "as shipped": 10.0}
OPEN_LIMIT_MS = 150.0
OPEN_AT = 12
CONCURRENCY_SESSIONS = 16
CONCURRENCY_P95_FACTOR = 3.0
PSS_ADDED_LIMIT_MB = 40.0
NAVIGATING_AT = 1000
NAVIGATING_FACTOR = 2.0
RECEIPT_LIMIT_BYTES = 2048
RECEIPT_AT = (12, 1000, 10000)
MODEL_LIMIT_BYTES = 256 * 1024
MODEL_LIMIT_AT = 10000


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

    ms = _op(results, REMOVE_LIMIT_AT, "pling.remove.ev")
    add(f"remove@t9 with evidence, {REMOVE_LIMIT_AT:,} records", f"<= {REMOVE_LIMIT_MS:.0f} ms",
        None if ms is None else f"{ms:.1f} ms", ms is not None and ms <= REMOVE_LIMIT_MS,
        _vs(_op(results, REMOVE_LIMIT_AT, "floor.click"), "rendered floor click"))
    for n in REMOVE_VS_FLOOR_AT:
        ms, floor = _op(results, n, "pling.remove.ev"), _op(results, n, "floor.click")
        add(f"remove@t9 with evidence, {n:,} records", "<= floor click (rendered)", _pair(ms, floor),
            None if ms is None or floor is None else ms <= floor, "Pling / floor, medians")
    for n in ADD_AT:
        ms, floor = _op(results, n, "pling.add.ev"), _op(results, n, "floor.add")
        factor = ms / floor if ms is not None and floor else None
        add(f"add with evidence, {n:,} records", f"<= {ADD_FLOOR_FACTOR:.0f}x floor add (rendered)",
            None if factor is None else f"{factor:.1f}x ({ms:.1f} / {floor:.1f} ms)",
            None if factor is None else factor <= ADD_FLOOR_FACTOR)

    mcp = results.get("mcp") or {}
    for variant, limit in MCP_SPEEDUP.items():
        for n in MCP_SIZES:
            speed = mcp_speedup(results, variant, n)
            note = "skipped: " + mcp["skipped"] if speed is None and "skipped" in mcp else "MCP median / Pling median"
            add(f"vs Playwright MCP click+snapshot ({variant}), {n:,} records", f">= {limit:.0f}x faster",
                None if speed is None else f"{speed:.1f}x", None if speed is None else speed >= limit, note)

    opening = ((results.get("opening") or {}).get("modes") or {}).get("after idle") or {}
    ms = _med(opening.get("ms"))
    idle_s = (results.get("opening") or {}).get("idle_s")
    add(f"opening a session (POST /sessions with its model), {OPEN_AT} records", f"<= {OPEN_LIMIT_MS:.0f} ms",
        None if ms is None else f"{ms:.0f} ms", ms is not None and ms <= OPEN_LIMIT_MS and not opening.get("errors"),
        f"median of {opening['ms']['n']} opens, service idle {idle_s:g} s before each" if ms is not None else
        (results.get("opening") or {}).get("skipped", ""))

    conc = results.get("concurrency") or {}
    if "errors" in conc:
        shape = f"{conc['sessions']}x{conc['per_session']}"
        short = "" if conc["sessions"] >= CONCURRENCY_SESSIONS else f"only {conc['sessions']} sessions (target: 16)"
        add(f"concurrency {shape}: errors", "0", str(conc["errors"]), None if short else conc["errors"] == 0, short)
        factor = conc.get("p95_over_single_median")
        add(f"concurrency {shape}: p95 vs single-session median", f"<= {CONCURRENCY_P95_FACTOR:.0f}x",
            None if factor is None else f"{factor:.2f}x ({conc['latency_ms']['p95']:.1f} / "
                                        f"{conc['single_session_ms']['median']:.1f} ms)",
            None if factor is None or short else factor <= CONCURRENCY_P95_FACTOR, short)
        added = (conc.get("memory") or {}).get("pss_added_per_session_mb")
        add(f"memory added per session ({conc['sessions']} open)", f"<= {PSS_ADDED_LIMIT_MB:.0f} MB PSS",
            None if added is None else f"{added:.1f} MB", None if added is None else added <= PSS_ADDED_LIMIT_MB,
            "(PSS open - PSS before opening) / sessions, the service's process tree")
    else:
        why = conc.get("skipped") or conc.get("error") or "not run"
        for name in ("concurrency 16x50: errors", "concurrency 16x50: p95 vs single-session median",
                     "memory added per session"):
            add(name, "", None, None, why)

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
    return out


def _pair(ms: float | None, floor: float | None) -> str | None:
    return None if ms is None or floor is None else f"{ms:.1f} / {floor:.1f} ms"


def _vs(floor: float | None, what: str) -> str:
    return "" if floor is None else f"{what} {floor:.1f} ms"
