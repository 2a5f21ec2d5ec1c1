"""Opening a session: `POST /sessions` on the 12-record page, timed until the answer with its model,
OPENS times, each session closed before the next. Twice: after the service has been idle (no session
open and no call for IDLE_S seconds before each open; the state an agent that opens sessions now and
then finds, in which anything the service prepares ahead has had time to be ready), and back to back
(the next open right after the previous close). The target is held against the first; both are shown."""

from __future__ import annotations

import asyncio
from typing import Any

from .fixtures import FixtureServer
from .pling_api import PlingApi
from .stats import summary

IDLE_S = 1.0


def _problem(body: Any, records: int) -> str | None:
    model = body.get("model") if isinstance(body, dict) else None
    total = (((model or {}).get("records") or {}).get("item") or {}).get("total")
    if not model:
        return "the answer has no model"
    if total is not None and total != records:
        return f"the model has {total} items, expected {records}"
    return None


async def measure_opening(fixtures: FixtureServer, api: PlingApi, *, records: int = 12, opens: int = 10,
                          idle_s: float = IDLE_S, progress: Any = print) -> dict[str, Any]:
    url = fixtures.page(records)
    listed = await api.client.get("/sessions")
    open_before = len(listed.json()) if listed.status_code == 200 else None
    out: dict[str, Any] = {"records": records, "opens": opens, "idle_s": idle_s,
                           "sessions_open_before": open_before, "modes": {}}
    for mode, pause in (("after idle", idle_s), ("back to back", 0.0)):
        progress(f"  opening a session, {mode}: {opens} opens")
        times: list[float] = []
        sizes: list[int] = []
        errors: list[str] = []
        for _ in range(opens):
            if pause:
                await asyncio.sleep(pause)
            try:
                sid, call = await api.open(url)
            except RuntimeError as error:
                errors.append(str(error)[:300])
                continue
            times.append(call.ms)
            sizes.append(call.bytes)
            if (problem := _problem(call.body, records)) is not None:
                errors.append(problem)
            await api.close(sid)
        out["modes"][mode] = {"pause_s": pause, "ms": summary(times), "bytes": max(sizes) if sizes else None,
                              "errors": len(errors), "first_error": errors[0] if errors else None}
    return out
