"""Concurrency against bare Playwright (issue 31): at each level (16 and 64 sessions), S Pling sessions and
S bare Playwright contexts in one browser (the floor's, launched like the service's) on the same 12-record
page, each doing PER_SESSION `add`s back to back, all S at once, each Pling session through an HTTP
client of its own. The same work on both sides: Pling's `add` with evidence through the HTTP API (its receipt waits for a rendered frame), bare Playwright's
`page.evaluate(addItem(text), then an animation frame and a task)`. Both sides run in the same run,
in bursts of half the invocations each, in the order Pling, bare, bare, Pling (so drift on the machine
touches both alike); throughput is invocations over the wall time of a side's bursts, p95 over its
latencies. CPU per invocation (psutil): the service's tree (the service, Playwright's driver, Chromium)
during Pling's bursts, and the floor's driver and Chromium during bare's; the bench's own Python (Pling's
HTTP client, bare Playwright's Python client) is shown apart on both sides. Memory of the service's tree is read before the sessions open and with
them open (the per-session target is held at 16)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from . import procmem
from .fixtures import FixtureServer
from .floor import ADD_RENDERED, FloorBrowser, FloorPage
from .machine import busy_ms
from .pling_api import PlingApi
from .stats import summary

LEVELS = (16, 64)


def _problem(call: Any) -> str | None:
    if call.status != 200:
        return f"HTTP {call.status}: {str(call.body)[:200]}"
    result = call.result
    if not result.get("ok"):
        error = result.get("error") or {}
        return f"{error.get('code')}: {str(error.get('message'))[:200]}"
    if not any(change.get("added") for change in ((result.get("changed") or {}).get("records") or {}).values()):
        return "the receipt shows no added record"
    return None


@dataclass
class Side:
    """One side's bursts: latencies, errors, wall time and CPU used (ms, by process kind)."""
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    client_s: float = 0.0
    others_ms: float = 0.0          # the machine's busy CPU time during the bursts less this side's own

    def as_json(self, invocations: int) -> dict[str, Any]:
        cpu = {kind: round(ms / invocations, 2) for kind, ms in sorted(self.cpu.items()) if ms / invocations >= 0.005}
        cpu["total"] = round(sum(self.cpu.values()) / invocations, 2)
        cpu["bench client"] = round(self.client_s * 1000 / invocations, 2)
        capacity = self.wall_s * 1000 * (os.cpu_count() or 1)
        return {"invocations": invocations, "completed": len(self.latencies), "wall_s": round(self.wall_s, 2),
                # how much of the machine other work took while this side ran: the two sides' contention
                "others_cpu_share": round(self.others_ms / capacity, 3) if capacity else None,
                "throughput_per_s": round(invocations / self.wall_s, 1) if self.wall_s else None,
                "latency_ms": summary(self.latencies), "errors": len(self.errors), "first_errors": self.errors[:5],
                "cpu_ms_per_invocation": cpu}


async def _burst(side: Side, workers: list[Callable[[], Awaitable[None]]], cpu: Callable[[], dict[str, float]]) -> None:
    before, own, busy, start = cpu(), time.process_time(), busy_ms(), time.perf_counter()
    await asyncio.gather(*(worker() for worker in workers))
    side.wall_s += time.perf_counter() - start
    client_ms = (time.process_time() - own) * 1000
    machine_ms = busy_ms() - busy
    after = cpu()
    used = sum(ms - before.get(kind, 0.0) for kind, ms in after.items())
    side.client_s += client_ms / 1000
    side.others_ms += max(0.0, machine_ms - used - client_ms)
    for kind, ms in after.items():
        side.cpu[kind] = side.cpu.get(kind, 0.0) + ms - before.get(kind, 0.0)


def _pling_worker(api: PlingApi, sid: str, k: int, count: int, side: Side, tag: str) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        for i in range(count):
            try:
                call = await api.invoke(sid, "add", {"text": f"s{k} {tag}{i}"})
            except Exception as error:  # noqa: BLE001 - a transport failure is an error to count
                side.errors.append(f"{type(error).__name__}: {error}"[:300])
                continue
            side.latencies.append(call.ms)
            if (problem := _problem(call)) is not None:
                side.errors.append(problem)
    return run


def _bare_worker(page: FloorPage, k: int, count: int, side: Side, tag: str) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        for i in range(count):
            start = time.perf_counter()
            try:
                added = await page.page.evaluate(ADD_RENDERED, f"s{k} {tag}{i}")
            except Exception as error:  # noqa: BLE001 - counted as the Pling side's are
                side.errors.append(f"{type(error).__name__}: {error}"[:300])
                continue
            side.latencies.append((time.perf_counter() - start) * 1000)
            if not str(added).startswith("t"):
                side.errors.append(f"addItem answered {added!r}")
    return run


def _agents(api: PlingApi, sessions: int) -> list[PlingApi]:
    """An HTTP client per session, as each agent has its own (PlingApi.agent)."""
    return [api.agent() for _ in range(sessions)]


async def _open_all(api: PlingApi, agents: list[PlingApi], floor: FloorBrowser,
                    url: str) -> tuple[list[str], list[FloorPage]]:
    sids: list[str] = []
    pages: list[FloorPage] = []
    for _ in agents:
        sids.append((await api.open(url))[0])
        pages.append(await floor.open(url))
    for agent, sid, page in zip(agents, sids, pages, strict=True):  # one untimed add each: first calls pay
        await agent.invoke(sid, "add", {"text": "warm"})             # for code caches (and the connection)
        await page.page.evaluate(ADD_RENDERED, "warm")
    return sids, pages


async def measure_level(fixtures: FixtureServer, api: PlingApi, floor: FloorBrowser, service_pid: int, *,
                        sessions: int, per_session: int, records: int = 12, progress: Any = print) -> dict[str, Any]:
    url = fixtures.page(records)
    await asyncio.sleep(2)  # processes of sessions closed just before have exited
    idle = procmem.measure(service_pid)
    half = max(1, per_session // 2)
    pling, bare = Side(), Side()
    sids: list[str] = []
    pages: list[FloorPage] = []
    agents = _agents(api, sessions)
    try:
        sids, pages = await _open_all(api, agents, floor, url)
        progress(f"  {sessions} sessions x {2 * half} adds at once, Pling and bare Playwright in turn")
        # The service's tree; bare Playwright's browser side (its driver and Chromium: the bench's own
        # Python, which drives it as the service drives its own, is the client, counted apart on both sides).
        service_cpu = procmem.cpu_reader(service_pid)
        bare_cpu = procmem.cpu_reader(os.getpid(), skip=(service_pid,), own=False)
        for order, tag in (("pling", "a"), ("bare", "a"), ("bare", "b"), ("pling", "b")):
            if order == "pling":
                await _burst(pling, [_pling_worker(agent, sid, k, half, pling, tag)
                                     for k, (agent, sid) in enumerate(zip(agents, sids, strict=True))], service_cpu)
            else:
                await _burst(bare, [_bare_worker(page, k, half, bare, tag) for k, page in enumerate(pages)], bare_cpu)
        loaded = procmem.measure(service_pid)
    finally:
        for sid in sids:
            await api.close(sid)
        for page in pages:
            await page.close()
        for agent in agents:
            await agent.aclose()
    total = sessions * 2 * half
    out = {"sessions": sessions, "per_session": 2 * half, "records": records,
           "pling": pling.as_json(total), "bare": bare.as_json(total), "memory": _memory(idle, loaded, sessions)}
    out["throughput_ratio"] = _ratio(out["pling"]["throughput_per_s"], out["bare"]["throughput_per_s"])
    out["p95_ratio"] = _ratio(out["pling"]["latency_ms"]["p95"], out["bare"]["latency_ms"]["p95"])
    return out


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def _memory(idle: procmem.TreeMemory, loaded: procmem.TreeMemory, sessions: int) -> dict[str, Any]:
    return {
        "idle": idle.as_json(), "loaded": loaded.as_json(),
        "rss_per_session_mb": round(loaded.rss_mb / sessions, 1),
        "pss_per_session_mb": round(loaded.pss_mb / sessions, 1),
        "rss_added_per_session_mb": round((loaded.rss_mb - idle.rss_mb) / sessions, 1),
        "pss_added_per_session_mb": round((loaded.pss_mb - idle.pss_mb) / sessions, 1),
        # Of which file-backed (shared with every process mapping the same files, so it moves with
        # other browsers on the machine) and the rest (anonymous and shared memory: the sessions' own).
        "pss_file_added_per_session_mb": round((loaded.pss_file_mb - idle.pss_file_mb) / sessions, 1),
        "pss_anon_shmem_added_per_session_mb": round(
            (loaded.pss_mb - loaded.pss_file_mb - idle.pss_mb + idle.pss_file_mb) / sessions, 1),
    }


async def measure_concurrency(fixtures: FixtureServer, api: PlingApi, floor: FloorBrowser, service_pid: int, *,
                              levels: tuple[int, ...] = LEVELS, per_session: int = 50,
                              progress: Any = print) -> dict[str, Any]:
    out: dict[str, Any] = {"operation": "add (evidence on) / evaluate(addItem, then a frame and a task)",
                           "levels": {}}
    for sessions in levels:
        try:
            out["levels"][str(sessions)] = await measure_level(fixtures, api, floor, service_pid, sessions=sessions,
                                                               per_session=per_session, progress=progress)
        except Exception as error:  # noqa: BLE001 - report it with the rest of the run
            out["levels"][str(sessions)] = {"sessions": sessions, "error": f"{type(error).__name__}: {error}"[:400]}
    return out
