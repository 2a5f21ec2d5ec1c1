"""CPU and round trips per invocation, A/B in one run (issue 31): one Pling service per tree (this one,
and any others given with --tree, e.g. a `git archive` of main), bursts alternating between them so both
meet the same load from the rest of the machine. Per service, medians of:

- CPU of its process tree per `add` with evidence at 12 records (service, driver, Chromium by process
  type) and the bench client's own: sequential, or with --sessions S, S sessions adding at once;
- a read (`summary`, evidence on) against a bare ``page.evaluate(summary())`` on the same page;
- a fill (`type_new`, evidence on) against Playwright's ``locator.fill`` until rendered (bench/floor.py);
- `add` with evidence at 1,000 records against the floor's rendered add;
- the invocation's stage timings (``timings_ms``).

    python -m bench.invocation_cpu [--tree NAME=DIR ...] [--rounds 4] [--burst 20] [--sessions 1]"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

from . import procmem
from .fixtures import FixtureServer
from .floor import FloorBrowser
from .pling_api import PlingApi
from .service import ServiceProcess
from .stats import median

HERE = Path(__file__).resolve().parent.parent


def cpu_ms(root: int) -> dict[str, float]:
    """CPU time so far of the tree's processes by kind (as procmem.cpu_ms), from each thread's
    schedstat (nanoseconds: /proc/PID/stat counts 10 ms ticks, too coarse for a few ms per call)."""
    out: dict[str, float] = {}
    for pid in procmem.tree(root):
        used = 0
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                try:
                    used += int((task / "schedstat").read_text().split()[0])
                except (OSError, ValueError, IndexError):
                    continue
        except OSError:
            continue
        kind = procmem._kind(pid, root)
        if kind == "chromium":
            kind = f"chromium {procmem._chromium_type(pid)}"
        out[kind] = out.get(kind, 0.0) + used / 1e6
    return out


class TreeService(ServiceProcess):
    """The bench's service, run from another source tree (its own pling_browser and bridge)."""

    def __init__(self, root: Path, log_path: Path) -> None:
        super().__init__(log_path)
        self.root = root

    def __enter__(self) -> TreeService:
        if self.root == HERE:
            return super().__enter__()  # type: ignore[return-value]
        log = open(self.log_path, "w")
        self.process = subprocess.Popen([sys.executable, "-m", "bench.service", self.data_dir], cwd=self.root,
                                        stdout=subprocess.PIPE, stderr=log, text=True,
                                        env={**os.environ, "PYTHONPATH": str(self.root), "PYTHONUNBUFFERED": "1"})
        log.close()
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"the service in {self.root} did not start (see {self.log_path})")
        self.port = int(line.split()[1])
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the service in {self.root} did not become healthy")


class Side:
    def __init__(self, name: str, service: TreeService, client: httpx.AsyncClient) -> None:
        self.name = name
        self.service = service
        self.api = PlingApi(client)
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.stages: dict[str, list[dict[str, float]]] = defaultdict(list)
        self.sids: dict[int, str] = {}
        self.crowd: list[str] = []  # the sessions of the CPU bursts (the 12-record one alone by default)

    async def open(self, fixtures: FixtureServer, sessions: int = 1) -> None:
        for n in (12, 1000):
            self.sids[n] = (await self.api.open(fixtures.page(n)))[0]
        self.crowd = [self.sids[12]] + [(await self.api.open(fixtures.page(12)))[0] for _ in range(sessions - 1)]

    async def invoke(self, key: str, n: int, action: str, args: Any = None, sid: str | None = None) -> None:
        call = await self.api.invoke(sid or self.sids[n], action, args)
        if not call.result.get("ok"):
            raise RuntimeError(f"{self.name} {action}: {str(call.body)[:300]}")
        self.samples[key].append(call.ms)
        if isinstance(call.result.get("timings_ms"), dict):
            self.stages[key].append(call.result["timings_ms"])

    async def cpu_burst(self, burst: int) -> None:
        async def adds(sid: str) -> None:
            for i in range(burst):
                await self.invoke("add.12", 12, "add", {"text": f"cpu {i}"}, sid=sid)

        before, own = cpu_ms(self.service.pid), time.process_time()
        await asyncio.gather(*(adds(sid) for sid in self.crowd))
        after, own_after = cpu_ms(self.service.pid), time.process_time()
        count = burst * len(self.crowd)
        for kind in after:
            self.samples["cpu " + kind].append((after[kind] - before.get(kind, 0.0)) / count)
        self.samples["cpu bench client"].append((own_after - own) * 1000 / count)
        for sid in self.crowd:
            await self.api.invoke(sid, "reset", evidence=False)

    async def latency_burst(self, burst: int) -> None:
        for i in range(burst):
            await self.invoke("read.12", 12, "summary")
            await self.invoke("fill.12", 12, "type_new", {"text": f"typed {i}"})
            await self.invoke("add.1000", 1000, "add", {"text": f"add {i}"})
            await self.api.invoke(self.sids[1000], "reset", evidence=False)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {key: round(median(values) or 0.0, 2) for key, values in sorted(self.samples.items())}
        out["cpu total (tree + client)"] = round(sum(v for k, v in out.items() if k.startswith("cpu ")), 2)
        for key, rows in self.stages.items():
            names = sorted({s for row in rows for s in row})
            out["stages " + key] = {s: round(median([row.get(s, 0.0) for row in rows]) or 0.0, 2) for s in names}
        return out


async def _floor(floor: FloorBrowser, fixtures: FixtureServer, burst: int, samples: dict[str, list[float]]) -> None:
    page12, page1000 = await floor.open(fixtures.page(12)), await floor.open(fixtures.page(1000))
    try:
        for i in range(burst):
            samples["floor read.12"].append(await page12.read())
            samples["floor fill.12"].append(await page12.fill(f"floor typed {i}"))
            samples["floor add.1000"].append(await page1000.add(f"floor {i}"))
    finally:
        await page12.close()
        await page1000.close()


async def main_async(trees: dict[str, Path], rounds: int, burst: int, sessions: int = 1) -> dict[str, Any]:
    floor_samples: dict[str, list[float]] = defaultdict(list)
    logs = Path("/tmp") / "pling-invocation-cpu"
    logs.mkdir(exist_ok=True)
    with FixtureServer() as fixtures:
        services = {name: TreeService(root, logs / f"{name}.log").__enter__() for name, root in trees.items()}
        floor = await FloorBrowser().start()
        clients = [httpx.AsyncClient(base_url=s.url, timeout=120) for s in services.values()]
        try:
            sides = [Side(name, s, c) for (name, s), c in zip(services.items(), clients, strict=True)]
            for side in sides:
                await side.open(fixtures, sessions)
                await side.cpu_burst(5)  # warm-up, dropped below
                side.samples.clear()
                side.stages.clear()
            for r in range(rounds):
                order = sides if r % 2 == 0 else sides[::-1]
                for side in order:
                    await side.cpu_burst(burst)
                for side in order:
                    await side.latency_burst(burst)
                await _floor(floor, fixtures, burst, floor_samples)
                print(f"round {r + 1}/{rounds}", file=sys.stderr)
            result = {side.name: side.as_json() for side in sides}
        finally:
            for client in clients:
                await client.aclose()
            await floor.stop()
            for s in services.values():
                s.__exit__()
    result["floor"] = {k: round(median(v) or 0.0, 2) for k, v in floor_samples.items()}
    for name in trees:
        side = result[name]
        side["read / floor read"] = round(side["read.12"] / result["floor"]["floor read.12"], 2)
        side["fill / floor fill"] = round(side["fill.12"] / result["floor"]["floor fill.12"], 2)
        side["add.1000 / floor add"] = round(side["add.1000"] / result["floor"]["floor add.1000"], 2)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.invocation_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", default=[], help="NAME=DIR: another source tree to compare")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=1, help="sessions adding at once in the CPU bursts")
    args = parser.parse_args(argv)
    trees = {"this": HERE}
    for entry in args.tree:
        name, _, root = entry.partition("=")
        trees[name] = Path(root).resolve()
    result = asyncio.run(main_async(trees, args.rounds, args.burst, args.sessions))
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
