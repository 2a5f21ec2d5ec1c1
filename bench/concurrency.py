"""Concurrency: SESSIONS sessions on the small page, each running PER_SESSION invocations back to back,
all sessions at once, through the API. The write is `add` with evidence (it never runs out of rows).
The single-session median it is held against is measured just before, in the same service."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from . import procmem
from .fixtures import FixtureServer
from .pling_api import PlingApi
from .stats import median, percentile, summary


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


def _cpu_per_invocation(before: dict[str, float], after: dict[str, float], total: int, own_s: float) -> dict[str, float]:
    used = {kind: (after[kind] - before.get(kind, 0.0)) / total for kind in sorted(after)}
    out = {kind: round(ms, 2) for kind, ms in used.items() if ms >= 0.005}
    out["chromium (all)"] = round(sum(ms for kind, ms in used.items() if kind.startswith("chromium ")), 2)
    out["bench client"] = round(own_s * 1000 / total, 2)
    return out


async def measure_concurrency(fixtures: FixtureServer, api: PlingApi, service_pid: int, *, sessions: int = 16,
                              per_session: int = 50, records: int = 12, single_reps: int = 30,
                              progress: Any = print) -> dict[str, Any]:
    url = fixtures.page(records)
    await asyncio.sleep(2)  # processes of sessions closed just before (the opening part) have exited
    idle = procmem.measure(service_pid)
    sids = []
    try:
        for _ in range(sessions):
            sids.append((await api.open(url))[0])
        for sid in sids:  # warm each session once
            await api.invoke(sid, "add", {"text": "warm"})

        single: list[float] = []
        single_errors: list[str] = []
        for i in range(single_reps):
            call = await api.invoke(sids[0], "add", {"text": f"single {i}"})
            single.append(call.ms)
            if (problem := _problem(call)) is not None:
                single_errors.append(problem)

        latencies: list[float] = []
        errors: list[str] = []

        async def worker(k: int, sid: str) -> None:
            for i in range(per_session):
                try:
                    call = await api.invoke(sid, "add", {"text": f"s{k} #{i}"})
                except Exception as error:  # noqa: BLE001 - a transport failure is an error to count
                    errors.append(f"{type(error).__name__}: {error}")
                    continue
                latencies.append(call.ms)
                if (problem := _problem(call)) is not None:
                    errors.append(problem)

        progress(f"  {sessions} sessions x {per_session} invocations at once")
        cpu_before, own_before = procmem.cpu_ms(service_pid), time.process_time()
        start = time.perf_counter()
        await asyncio.gather(*(worker(k, sid) for k, sid in enumerate(sids)))
        wall = time.perf_counter() - start
        cpu_after, own_after = procmem.cpu_ms(service_pid), time.process_time()
        loaded = procmem.measure(service_pid)
    finally:
        for sid in sids:
            await api.close(sid)

    total = sessions * per_session
    single_median = median(single) or 0.0
    p95 = percentile(latencies, 95) or 0.0
    return {
        "sessions": sessions, "per_session": per_session, "records": records, "operation": "add (evidence on)",
        "invocations": total, "completed": len(latencies), "wall_s": round(wall, 2),
        "throughput_per_s": round(total / wall, 1) if wall else None,
        "latency_ms": summary(latencies), "errors": len(errors), "first_errors": errors[:5],
        "single_session_ms": summary(single), "single_session_errors": len(single_errors),
        "p95_over_single_median": round(p95 / single_median, 2) if single_median else None,
        # Where the machine's CPU went during the concurrent part, per invocation (2 CPUs give at most
        # 2 x wall time): the service's Python, Playwright's driver, Chromium, and the bench's own client.
        # Chromium by process type (browser, renderer, gpu-process: the display compositor, utility);
        # types that took no measurable time (the zygotes, idle utilities) are left out.
        "cpu_ms_per_invocation": _cpu_per_invocation(cpu_before, cpu_after, total, own_after - own_before),
        "cpu_capacity_ms_per_invocation": round(wall * 1000 * (os.cpu_count() or 1) / total, 2),
        "memory": {
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
        },
    }
