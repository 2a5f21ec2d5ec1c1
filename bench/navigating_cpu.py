"""Where evidence spends CPU on a navigating action (issue 31): remove@t9 at N records on the
server-rendered list (a form posted, 303, the list again: a new document) and on the in-document list,
evidence on and off alternating in one run, one service. Per invocation, the CPU of each thread of the
service's process tree (schedstat, grouped as process kind / thread name, digits folded), medians; the
table lists evidence on minus off per thread, largest first.

On Chromium a renderer's main thread is named after the process (`renderer/chromium`); its V8
compilers (Maglev, TurboFan), raster and GC helpers run on `renderer/ThreadPoolForeg`.

    python -m bench.navigating_cpu [--records 1000] [--reps 40] [--pages ssr,spa] [--json FILE]"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import httpx

from . import procmem
from .fixtures import FixtureServer
from .pling_api import PlingApi
from .service import ServiceProcess
from .stats import median

HERE = Path(__file__).resolve().parent.parent
WARMUP = 2


def thread_cpu_ms(root: int) -> dict[str, float]:
    """CPU so far (ms) of every thread of the tree, by process kind / thread name."""
    out: dict[str, float] = {}
    for pid in procmem.tree(root):
        kind = procmem._kind(pid, root)
        if kind == "chromium":
            kind = procmem._chromium_type(pid)
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                used = int((task / "schedstat").read_text().split()[0])
                name = re.sub(r"\d+", "#", (task / "comm").read_text().strip())
            except (OSError, ValueError, IndexError):
                continue
            key = f"{kind}/{name}"
            out[key] = out.get(key, 0.0) + used / 1e6
    return out


def _observed(page: str, result: dict[str, Any]) -> bool:
    changed = result.get("changed") or {}
    return bool(result.get("ok")) and bool(changed.get("page") if page == "ssr" else changed.get("records"))


async def _one(api: PlingApi, root: int, sid: str, page: str, evidence: bool) -> dict[str, float]:
    before = thread_cpu_ms(root)
    call = await api.invoke(sid, "remove@t9", evidence=evidence)
    after = thread_cpu_ms(root)
    if not call.result.get("ok") or (evidence and not _observed(page, call.result)):
        raise RuntimeError(f"remove@t9 on {page} (evidence {evidence}) answered {str(call.body)[:300]}")
    reset = await api.invoke(sid, "reset", evidence=False)
    if not reset.result.get("ok"):
        raise RuntimeError(f"reset on {page} answered {str(reset.body)[:300]}")
    used = {k: v - before.get(k, 0.0) for k, v in after.items()}
    used["TOTAL"] = sum(used.values())
    used["latency ms"] = call.ms
    return used


async def run(records: int, reps: int, pages: list[str]) -> dict[str, dict[str, list[float]]]:
    samples: dict[str, dict[str, list[float]]] = {}
    fixtures = FixtureServer()
    with fixtures, ServiceProcess(HERE / "bench" / "results" / "navigating_cpu.log") as service:
        async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
            api = PlingApi(client)
            sids = {p: (await api.open(fixtures.ssr_page(records) if p == "ssr" else fixtures.page(records)))[0]
                    for p in pages}
            for rep in range(WARMUP + reps):
                order = (True, False) if rep % 2 == 0 else (False, True)
                for page in pages:
                    for evidence in order:
                        used = await _one(api, service.pid, sids[page], page, evidence)
                        if rep < WARMUP:
                            continue
                        side = samples.setdefault(f"{page} {'on' if evidence else 'off'}", {})
                        for key, value in used.items():
                            side.setdefault(key, []).append(value)
    return samples


def table(samples: dict[str, dict[str, list[float]]], pages: list[str], floor_ms: float = 0.3) -> list[str]:
    lines = []
    for page in pages:
        on, off = samples.get(f"{page} on", {}), samples.get(f"{page} off", {})
        rows = []
        for key in sorted(set(on) | set(off)):
            a, b = median(on.get(key, [0.0])) or 0.0, median(off.get(key, [0.0])) or 0.0
            if max(a, b) >= floor_ms:
                rows.append((a - b, key, a, b))
        lines.append(f"== {page}: evidence on / off / on minus off (ms, medians of {len(on.get('TOTAL', []))})")
        lines += [f"{key:40} {a:8.2f} {b:8.2f} {d:+7.2f}" for d, key, a, b in sorted(rows, key=lambda r: -abs(r[0]))]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.navigating_cpu", description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=40)
    parser.add_argument("--pages", default="ssr,spa", help="ssr (navigating), spa (in the document), or both")
    parser.add_argument("--json", type=Path, default=None, help="write the samples here")
    args = parser.parse_args(argv)
    pages = [p for p in args.pages.split(",") if p in ("ssr", "spa")]
    samples = asyncio.run(run(args.records, args.reps, pages))
    print("\n".join(table(samples, pages)))
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
