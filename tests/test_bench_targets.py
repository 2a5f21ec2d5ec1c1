"""bench/targets.py: the targets of issue 21 checked against a synthetic run (no browser, no timing),
and bench/report.py showing them. Each target is met by one results dict and missed by another."""

from __future__ import annotations

import copy
from typing import Any

from bench.report import render
from bench.targets import targets


def _entry(median: float, **extra: Any) -> dict[str, Any]:
    return {"n": 10, "median": median, "p95": median * 1.2, "min": median * 0.9, "max": median * 1.5,
            "errors": 0, **extra}


def _size(n: int, remove: float, click: float, add: float, floor_add: float, nav: float | None = None,
          receipt: int = 1000) -> dict[str, Any]:
    ops = {"floor.click": _entry(click), "floor.click_bare": _entry(click / 2), "floor.add": _entry(floor_add),
           "floor.add_bare": _entry(floor_add / 2), "floor.read": _entry(2.0),
           "pling.remove.ev": _entry(remove, bytes=receipt, bytes_max=receipt),
           "pling.remove.noev": _entry(remove - 5.0, bytes=600, bytes_max=600),
           "pling.add.ev": _entry(add, bytes=900, bytes_max=900)}
    if nav is not None:
        ops["pling.remove_nav.ev"] = _entry(nav, bytes=1500, bytes_max=1500)
        ops["pling.remove_nav.noev"] = _entry(nav - 8.0, bytes=700, bytes_max=700)  # evidence costs 8 ms here, 5 within one page
        ops["floor.click_nav"] = _entry(nav * 0.8)
    return {"records": n, "reps": 10, "warmup": 2, "ops": ops, "open": {"ms": 100.0, "bytes": 2000},
            "model": {"bytes": 200 * 1024, "status": 200, "ms": _entry(5.0), "ids": 50}}


def _mcp(settle0: float, shipped: float) -> dict[str, Any]:
    def sizes(ms: float) -> dict[str, Any]:
        return {str(n): {"reps": 4, "click_and_snapshot_ms": _entry(ms), "click_ms": _entry(ms / 2),
                         "snapshot_ms": _entry(ms / 2), "bytes_read": 100_000, "first_snapshot_bytes": 100_000,
                         "memory": None, "errors": 0} for n in (12, 1000)}
    return {"version": "0.0.83", "variants": {"settle 0": {"sizes": sizes(settle0)}, "as shipped": {"sizes": sizes(shipped)}}}


def _concurrency(p95: float, single: float, pss_added: float) -> dict[str, Any]:
    loaded = {"processes": 30, "rss_mb": 3000.0, "pss_mb": 900.0, "by_kind": {}}
    return {"sessions": 16, "per_session": 50, "records": 12, "operation": "add (evidence on)", "invocations": 800,
            "completed": 800, "wall_s": 8.0, "throughput_per_s": 100.0, "latency_ms": _entry(p95 / 2, p95=p95),
            "errors": 0, "first_errors": [], "single_session_ms": _entry(single), "single_session_errors": 0,
            "p95_over_single_median": round(p95 / single, 2), "cpu_ms_per_invocation": {"service": 5.0},
            "cpu_capacity_ms_per_invocation": 20.0,
            "memory": {"idle": {**loaded, "pss_mb": 300.0}, "loaded": loaded, "rss_per_session_mb": 187.5,
                       "pss_per_session_mb": 56.0, "rss_added_per_session_mb": 150.0,
                       "pss_added_per_session_mb": pss_added}}


def _opening(ms: float) -> dict[str, Any]:
    mode = {"pause_s": 1.0, "ms": _entry(ms), "bytes": 2300, "errors": 0, "first_error": None}
    return {"records": 12, "opens": 10, "idle_s": 1.0, "sessions_open_before": 0,
            "modes": {"after idle": mode, "back to back": {**mode, "pause_s": 0.0}}}


def _meta() -> dict[str, Any]:
    return {"date": "2026-12-03 14:00 UTC", "commit": "abc1234", "cpus": 2, "chromium": "Chromium 1",
            "executable": "/usr/bin/chromium", "playwright": "1", "python": "3.12", "seconds": 100.0,
            "phases_s": {"12 records": 10.0}, "phases_others_cpu_share": {"12 records": 0.05},
            "cpu": {"others_cpu_share": 0.05, "others_cpu_share_peak": 0.1, "bench_cpu_share": 0.6}}


def _passing() -> dict[str, Any]:
    return {"meta": _meta(),
            "sizes": {"12": _size(12, remove=20.0, click=45.0, add=9.0, floor_add=4.0, nav=30.0),
                      "1000": _size(1000, remove=40.0, click=50.0, add=12.0, floor_add=5.0, nav=70.0),
                      "10000": _size(10000, remove=90.0, click=100.0, add=40.0, floor_add=20.0)},
            "mcp": _mcp(settle0=150.0, shipped=600.0),
            "opening": _opening(120.0),
            "concurrency": _concurrency(p95=60.0, single=25.0, pss_added=35.0)}


def _by_name(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in targets(results)}


def test_every_target_passes_on_a_run_that_meets_it() -> None:
    found = _by_name(_passing())
    assert {t["status"] for t in found.values()} == {"PASS"}
    assert len(found) == 18
    assert found["remove@t9 with evidence, 12 records"]["value"] == "20.0 ms"
    assert found["add with evidence, 1,000 records"]["value"] == "2.4x (12.0 / 5.0 ms)"
    assert found["navigating remove@t9, 1,000 records: evidence cost"]["value"] == "8.0 / 5.0 ms"
    assert found["vs Playwright MCP click+snapshot (as shipped), 12 records"]["value"] == "30.0x"
    assert found["memory added per session (16 open)"]["value"] == "35.0 MB"


def test_each_target_misses_when_its_figure_is_over() -> None:
    results = copy.deepcopy(_passing())
    sizes = results["sizes"]
    sizes["12"]["ops"]["pling.remove.ev"]["median"] = 26.0                 # > 25 ms
    sizes["1000"]["ops"]["pling.remove.ev"]["median"] = 51.0               # > the rendered floor click (50)
    sizes["10000"]["ops"]["floor.click"]["median"] = 80.0                  # the floor got faster than Pling (90)
    sizes["12"]["ops"]["floor.add"]["median"] = 2.0                        # 9 ms > 3 x 2 ms
    sizes["1000"]["ops"]["pling.remove_nav.ev"]["median"] = 100.0          # evidence 100 - 62 = 38 ms > 2 x (51 - 35)
    for n in ("12", "1000", "10000"):
        sizes[n]["ops"]["pling.remove.ev"]["bytes_max"] = 4096
    sizes["10000"]["model"]["bytes"] = 300 * 1024
    results["mcp"] = _mcp(settle0=60.0, shipped=200.0)                     # 3x and 10x of 20/51 ms not reached
    results["opening"] = _opening(151.0)
    results["concurrency"] = _concurrency(p95=80.0, single=25.0, pss_added=41.0)
    results["concurrency"]["errors"] = 2
    found = _by_name(results)
    missed = {name for name, t in found.items() if t["status"] == "MISS"}
    assert missed == set(found) - {"add with evidence, 1,000 records"}
    assert found["add with evidence, 1,000 records"]["status"] == "PASS"


def test_unmeasured_targets_are_not_applicable() -> None:
    results = {"meta": _meta(), "sizes": {"12": _size(12, remove=20.0, click=45.0, add=9.0, floor_add=4.0)},
               "mcp": {"skipped": "--no-mcp"}, "concurrency": {"skipped": "--no-concurrency"}}
    found = _by_name(results)
    assert found["remove@t9 with evidence, 12 records"]["status"] == "PASS"
    assert found["vs Playwright MCP click+snapshot (settle 0), 12 records"]["status"] == "n/a"
    assert found["vs Playwright MCP click+snapshot (settle 0), 12 records"]["note"] == "skipped: --no-mcp"
    for name in ("remove@t9 with evidence, 1,000 records", "navigating remove@t9, 1,000 records: evidence cost",
                 "opening a session (POST /sessions with its model), 12 records", "memory added per session"):
        assert found[name]["status"] == "n/a", name


def test_the_table_shows_pass_and_miss_and_the_bare_floors() -> None:
    results = _passing()
    results["opening"] = _opening(400.0)
    results["targets"] = targets(results)
    text = render(results)
    assert "== targets (issue 21" in text
    opening = next(line for line in text.splitlines() if line.startswith("opening a session (POST"))
    assert "400 ms" in opening and "MISS" in opening
    remove = next(line for line in text.splitlines() if line.startswith("remove@t9 with evidence, 12 records"))
    assert "PASS" in remove
    navigating = next(line for line in text.splitlines() if line.startswith("remove@t9, navigating"))
    assert "click+load 24.0 / 28.8" in navigating and "1.5x remove" in navigating  # 12 records: 30 ms, 20 ms
    assert "22.5 / 27.0" in text  # the bare click floor of 12 records (45 / 2), beside the rendered one
