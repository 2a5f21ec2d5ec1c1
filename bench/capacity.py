"""Capacity (issue 31): the most sessions one service holds on this machine with every one answering
within 1 s. Each session is driven through an HTTP client of its own, as each agent has one (a
shared pool's bookkeeping takes the bench's CPU from the service's 2 cores). Sessions are opened in steps (8, 16, 32, 64, 96, 128, 192, 256, … up to --capacity-max) on the
12-record page and kept open; at each step every open session invokes `add` (evidence on) once, all at
the same moment, twice. A step is held when both rounds answer every invocation ok within ANSWER_MS;
the first step that is not ends the climb. Reported (no target): the last step held, the first missed
and why, and the service tree's memory at the last step held."""

from __future__ import annotations

import asyncio
from typing import Any

from . import procmem
from .fixtures import FixtureServer
from .pling_api import PlingApi
from .stats import summary

ANSWER_MS = 1000.0
STEPS = (8, 16, 32, 64, 96, 128, 192, 256, 320, 384, 512)
ROUNDS = 2
OPEN_AT_ONCE = 4


async def _round(agents: list[PlingApi], sids: list[str], tag: str) -> tuple[list[float], list[str]]:
    async def one(k: int, sid: str) -> tuple[float | None, str | None]:
        try:
            call = await agents[k].invoke(sid, "add", {"text": f"c{k} {tag}"})
        except Exception as error:  # noqa: BLE001 - a transport failure is a session not answering
            return None, f"{type(error).__name__}: {error}"[:200]
        ok = call.status == 200 and call.result.get("ok")
        return call.ms, None if ok else f"HTTP {call.status}: {str(call.body)[:200]}"

    answers = await asyncio.gather(*(one(k, sid) for k, sid in enumerate(sids)))
    return [ms for ms, _ in answers if ms is not None], [error for _, error in answers if error]


async def _open(api: PlingApi, url: str, count: int) -> list[str]:
    sids: list[str] = []
    for start in range(0, count, OPEN_AT_ONCE):
        opened = await asyncio.gather(*(api.open(url) for _ in range(min(OPEN_AT_ONCE, count - start))))
        sids.extend(sid for sid, _ in opened)
    return sids


def held(step: dict[str, Any]) -> bool:
    return step["errors"] == 0 and step["latency_ms"]["max"] is not None and step["latency_ms"]["max"] <= ANSWER_MS


async def measure_capacity(fixtures: FixtureServer, api: PlingApi, service_pid: int, *, most: int = 256,
                           records: int = 12, progress: Any = print) -> dict[str, Any]:
    url = fixtures.page(records)
    out: dict[str, Any] = {"answer_ms": ANSWER_MS, "rounds": ROUNDS, "most_tried": most, "steps": [],
                           "held": 0, "missed": None}
    sids: list[str] = []
    agents: list[PlingApi] = []
    try:
        for size in [s for s in STEPS if s <= most]:
            try:
                new = await _open(api, url, size - len(sids))
            except RuntimeError as error:  # the service refused to open more: that is the limit
                out["missed"] = {"sessions": size, "why": str(error)[:300]}
                break
            agents += [api.agent() for _ in new]
            # untimed: a session's first call pays for code caches
            await _round(agents[len(sids):], new, "warm")
            sids += new
            progress(f"  capacity: {size} sessions, every one invoking at once")
            latencies, errors = [], []
            for r in range(ROUNDS):
                got, failed = await _round(agents, sids, f"r{r}")
                latencies += got
                errors += failed
            step = {"sessions": size, "latency_ms": summary(latencies), "errors": len(errors),
                    "first_error": errors[0] if errors else None}
            out["steps"].append(step)
            if not held(step):
                out["missed"] = {"sessions": size, "why": step["first_error"] or
                                 f"slowest answer {step['latency_ms']['max']:.0f} ms"}
                break
            out["held"] = size
            out["memory"] = procmem.measure(service_pid).as_json()
    finally:
        for sid in sids:
            await api.close(sid)
        for agent in agents:
            await agent.aclose()
    return out
