"""`python -m bench`: the whole run, in one process tree, on one machine:

1. a fixture server (thread) for fixtures/bench/list.html?n=…, a Pling service (child process, port 0),
   and a bare Playwright browser (this process) with the service's Chromium and flags;
2. per page size: the floor and Pling through the HTTP API, interleaved (bench/measure.py), and where
   asked the same delete by navigation on the server-rendered list (bench/fixtures.py);
3. opening a session (bench/opening.py), concurrency against bare Playwright at 16 and 64 sessions with
   CPU and memory (bench/concurrency.py), then capacity: sessions held answering within 1 s (bench/capacity.py);
4. optionally Playwright MCP (bench/mcp_bench.py);
5. the table with the targets on stdout, everything in bench/results/latest.json.
Progress goes to stderr."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx

from .capacity import measure_capacity
from .concurrency import LEVELS, measure_concurrency
from .fixtures import FixtureServer
from .floor import FloorBrowser, chromium_executable
from .machine import CpuWatch
from .mcp_bench import measure_mcp
from .measure import measure_size
from .opening import measure_opening
from .pling_api import PlingApi
from .report import draw, render
from .service import ServiceProcess
from .targets import targets

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=BENCH.parent, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=BENCH.parent,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return head + ("+changes" if dirty else "") if head else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _load() -> float | None:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=_ints, default=[12, 1000, 10000], help="record counts (default 12,1000,10000)")
    parser.add_argument("--reps", type=_ints, default=None,
                        help="repetitions per size, in the order of --sizes (default 30 below 10,000, 15 from it)")
    parser.add_argument("--warmup", type=int, default=3, help="warm-up repetitions per size (default 3)")
    parser.add_argument("--nav-sizes", type=_ints, default=[12, 1000],
                        help="sizes that also time the navigating delete (server-rendered list; default 12,1000)")
    parser.add_argument("--opens", type=int, default=10, help="session opens timed, each way (default 10)")
    parser.add_argument("--sessions", type=_ints, default=list(LEVELS),
                        help="concurrency levels: sessions (and bare contexts) at once (default 16,64)")
    parser.add_argument("--per-session", type=int, default=50,
                        help="invocations per concurrent session, each side (default 50)")
    parser.add_argument("--capacity-max", type=int, default=256,
                        help="most sessions the capacity climb opens (default 256, --quick 64; 0 skips it)")
    parser.add_argument("--no-concurrency", action="store_true", help="skip the concurrency part")
    parser.add_argument("--no-mcp", action="store_true", help="skip the optional Playwright MCP comparison")
    parser.add_argument("--mcp-reps", type=int, default=12, help="Playwright MCP repetitions per size (default 12)")
    parser.add_argument("--mcp-sizes", type=_ints, default=None,
                        help="sizes for Playwright MCP (default 12,1000,10000, --quick 12,1000; "
                             "10,000 gets at most 3 reps)")
    parser.add_argument("--quick", action="store_true",
                        help="a short run to try a change: 8 reps, 5 opens, 16 and 64 sessions x 10, capacity up to 64, "
                             "MCP 4 reps at 12 and 1,000")
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.json", help="the JSON file to write")
    parser.add_argument("--suite", choices=("latency", "miniwob", "unseen"), default="latency",
                        help="latency (default: this page against the floor), miniwob (MiniWoB++ tasks, "
                             "Pling against Playwright MCP; bench/miniwob/) or unseen (MiniWoB++ tasks without an "
                             "adapter: drafts and the generic policy; bench/miniwob/unseen.py)")
    parser.add_argument("--drafts", type=Path, default=None,
                        help="unseen: a folder of (edited) drafts to use instead of drafting each page at the start")
    parser.add_argument("--seeds", type=_ints, default=None,
                        help="miniwob: episode seeds (default 1,2; --quick 1); unseen: default 1,2,3")
    parser.add_argument("--tasks", type=lambda text: [t for t in text.split(",") if t], default=None,
                        help="miniwob: task names (default all of bench/miniwob/suite.py); unseen: default the rule's")
    args = parser.parse_args(argv)
    if args.mcp_sizes is None:
        args.mcp_sizes = [12, 1000] if args.quick else [12, 1000, 10000]
    if args.reps is None:
        args.reps = [8 if args.quick else (30 if n < 10000 else 15) for n in args.sizes]
    if len(args.reps) != len(args.sizes):
        parser.error("--reps needs one count per size")
    if args.quick:
        args.warmup = min(args.warmup, 2)
        args.opens, args.per_session, args.mcp_reps = min(args.opens, 5), min(args.per_session, 10), min(args.mcp_reps, 4)
        args.capacity_max = min(args.capacity_max, 64)
    return args


async def _measure_service(args: argparse.Namespace, fixtures: FixtureServer, service: ServiceProcess,
                           results: dict[str, Any], phase: Callable[[str], None]) -> None:
    """Everything that runs against the Pling service: the sizes, opening, concurrency (against bare
    Playwright in the floor's browser, which stays up until then) and capacity."""
    floor = await FloorBrowser().start()
    results["meta"]["chromium"] = f"Chromium {floor.browser.version}"
    limits = httpx.Limits(max_connections=1024, max_keepalive_connections=1024)
    async with httpx.AsyncClient(base_url=service.url, timeout=120, limits=limits) as client:
        api = PlingApi(client)
        try:
            # One throw-away round first: the first session and the first calls of each kind pay for
            # Chromium's and Python's warm-up (code caches, imports, JIT), which no size should carry.
            _progress("warm-up round (not measured)")
            await measure_size(min(args.sizes), 0, max(args.warmup, 5), fixtures, floor, api, lambda _: None,
                               navigate=bool(args.nav_sizes))
            phase("warm-up")
            for n, reps in zip(args.sizes, args.reps, strict=True):
                gc.collect()
                _progress(f"{n:,} records: floor and Pling, {reps} reps")
                results["sizes"][str(n)] = await measure_size(n, reps, args.warmup, fixtures, floor, api, _progress,
                                                              navigate=n in args.nav_sizes)
                phase(f"{n} records")
            _progress("opening a session")
            try:
                results["opening"] = await measure_opening(fixtures, api, opens=args.opens, progress=_progress)
            except Exception as error:  # noqa: BLE001 - report it with the rest of the run
                results["opening"] = {"error": f"{type(error).__name__}: {error}"[:400]}
            phase("opening")
            if args.no_concurrency:
                results["concurrency"] = {"skipped": "--no-concurrency"}
            else:
                _progress("concurrency: Pling and bare Playwright")
                results["concurrency"] = await measure_concurrency(
                    fixtures, api, floor, service.pid, levels=tuple(args.sessions), per_session=args.per_session,
                    progress=_progress)
                phase("concurrency")
        finally:
            await floor.stop()
        if args.capacity_max <= 0:
            results["capacity"] = {"skipped": "--capacity-max 0"}
            return
        _progress("capacity: sessions held with every one answering within 1 s")
        try:
            results["capacity"] = await measure_capacity(fixtures, api, service.pid, most=args.capacity_max,
                                                         progress=_progress)
        except Exception as error:  # noqa: BLE001 - report it with the rest of the run
            results["capacity"] = {"error": f"{type(error).__name__}: {error}"[:400]}
        phase("capacity")


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    from importlib import metadata

    from pling_browser import __version__ as pling_version

    meta: dict[str, Any] = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "commit": _commit(),
        "pling": pling_version, "cpus": os.cpu_count(), "python": platform.python_version(),
        "playwright": metadata.version("playwright"), "executable": chromium_executable() or "playwright's chromium",
        "machine": platform.platform(), "load_at_start": _load(),
    }
    results: dict[str, Any] = {"meta": meta, "sizes": {}}
    phases: dict[str, float] = {}
    busy: dict[str, float] = {}
    meta["phases_s"] = phases
    meta["phases_others_cpu_share"] = busy
    watch = CpuWatch()
    mark = [time.perf_counter(), 0.0, 0.0]

    def phase(name: str) -> None:
        now = time.perf_counter()
        phases[name] = round(now - mark[0], 1)
        window = (watch.elapsed_ms - mark[2]) * watch.cpus
        busy[name] = round((watch.others_ms - mark[1]) / window, 3) if window > 0 else 0.0
        mark[:] = [now, watch.others_ms, watch.elapsed_ms]
    with watch, FixtureServer() as fixtures, ServiceProcess(RESULTS / "service.log") as service:
        _progress(f"Pling service pid {service.pid} at {service.url}; fixtures at {fixtures.page(12)}")
        await _measure_service(args, fixtures, service, results, phase)
        if args.no_mcp:
            results["mcp"] = {"skipped": "--no-mcp"}
        else:
            _progress("Playwright MCP")
            # As shipped at every size (10,000 records: a few reps, its snapshot is over a megabyte); told not
            # to wait (settle 0) only where the target is, at 12 and 1,000.
            plans = {"as shipped": {n: args.mcp_reps if n < 10000 else min(args.mcp_reps, 3) for n in args.mcp_sizes},
                     "settle 0": {n: args.mcp_reps for n in args.mcp_sizes if n < 10000}}
            try:
                results["mcp"] = await asyncio.wait_for(measure_mcp(fixtures, plans, progress=_progress), 600)
            except Exception as error:  # noqa: BLE001 - optional part: say why and go on
                results["mcp"] = {"skipped": f"{type(error).__name__}: {error}"[:400]}
            phase("Playwright MCP")
    meta["seconds"] = round(time.perf_counter() - started, 1)
    meta["load_at_end"] = _load()
    meta["cpu"] = watch.as_json()
    results["targets"] = targets(results)
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.suite == "miniwob":
        from .miniwob.cli import main as miniwob

        return miniwob(args, RESULTS, {"commit": _commit(), "cpus": os.cpu_count(), "load_at_start": _load()})
    if args.suite == "unseen":
        from .miniwob.unseen_cli import main as unseen

        return unseen(args, RESULTS, {"commit": _commit(), "cpus": os.cpu_count(), "load_at_start": _load()})
    results = asyncio.run(_run(args))
    print(render(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten: {args.out.relative_to(BENCH.parent) if args.out.is_relative_to(BENCH.parent) else args.out}")
    picture = args.out.with_suffix(".png")
    print(draw(results, picture) or f"drawn: {picture.name} (python -m bench.report {args.out.name} PNG draws it again)")
    return 0
