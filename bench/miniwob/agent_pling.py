"""The agent's side of Pling: its HTTP API only (open a session, read the model, invoke, read the
receipt, asked for brief: without its log and timings). Every call is one step: its answer's bytes (what
the agent reads) and its wall time. `detail="brief"` also asks for the brief model (issue 31: ids,
labels, fields, actions, state values; docs/model.md), at the open and on every model read."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Step:
    call: str
    bytes: int
    ms: float
    ok: bool | None = None          # an invocation's receipt: result.ok
    silent: bool = False            # set by the harness: ok, but the task's reward says the step failed
    diagnostics: int = 0            # of `bytes`: a receipt's `log` and `timings_ms` (what the runtime did, how long)


@dataclass
class PlingAgent:
    client: httpx.AsyncClient
    after_step: Callable[[Step], None] = lambda step: None
    steps: list[Step] = field(default_factory=list)
    sid: str | None = None
    detail: str = "full"            # of the model: "brief" for the brief model

    def _step(self, call: str, answer: httpx.Response, start: float, ok: bool | None = None) -> None:
        step = Step(call, len(answer.content), (time.perf_counter() - start) * 1000, ok)
        self.steps.append(step)
        self.after_step(step)

    async def open(self, url: str) -> dict[str, Any]:
        start = time.perf_counter()
        answer = await self.client.post("/sessions", json={"url": url, "detail": self.detail})
        if answer.status_code != 201:
            raise RuntimeError(f"POST /sessions answered {answer.status_code}: {answer.text[:300]}")
        body = answer.json()
        self.sid = body["session"]["id"]
        self._step("open", answer, start)
        return body["model"]

    async def model(self) -> dict[str, Any]:
        start = time.perf_counter()
        answer = await self.client.get(f"/sessions/{self.sid}/model", params={"detail": self.detail})
        answer.raise_for_status()
        self._step("model", answer, start)
        return answer.json()

    async def invoke(self, action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        start = time.perf_counter()
        # A brief receipt: the policy reads ok, error, changed and data, never the call log or the stage
        # timings (the receipt log keeps them).
        answer = await self.client.post(f"/sessions/{self.sid}/invoke",
                                        json={"action": action, "args": args or {}, "detail": "brief"})
        answer.raise_for_status()
        result = answer.json()["result"]
        self._step(f"invoke {action}", answer, start, bool(result.get("ok")))
        self.steps[-1].diagnostics = sum(len(json.dumps({key: result[key]}, ensure_ascii=False).encode()) - 2
                                         for key in ("log", "timings_ms") if key in result)
        return result

    async def close(self) -> None:
        if self.sid:
            await self.client.delete(f"/sessions/{self.sid}")
