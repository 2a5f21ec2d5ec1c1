"""Pling through its HTTP API, as an agent calls it: one httpx client, timings around whole requests."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Call:
    ms: float
    bytes: int
    status: int
    body: Any

    @property
    def result(self) -> dict[str, Any]:
        return self.body.get("result", {}) if isinstance(self.body, dict) else {}


class PlingApi:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    def agent(self) -> PlingApi:
        """A client of its own to the same service, as each agent has: one httpx pool shared by 64
        callers costs its bookkeeping 5-6 ms of the bench's CPU per request (0.8-0.9 ms with a pool
        each), taken from the same 2 cores as the service's. Close it with `aclose()`."""
        return PlingApi(httpx.AsyncClient(base_url=self.client.base_url, timeout=self.client.timeout,
                                          headers=self.client.headers))

    async def aclose(self) -> None:
        await self.client.aclose()

    async def open(self, url: str) -> tuple[str, Call]:
        start = time.perf_counter()
        answer = await self.client.post("/sessions", json={"url": url})
        ms = (time.perf_counter() - start) * 1000
        if answer.status_code != 201:
            raise RuntimeError(f"POST /sessions answered {answer.status_code}: {answer.text[:300]}")
        body = answer.json()
        return body["session"]["id"], Call(ms, len(answer.content), answer.status_code, body)

    async def model(self, sid: str, **params: Any) -> Call:
        start = time.perf_counter()
        answer = await self.client.get(f"/sessions/{sid}/model", params=params)
        ms = (time.perf_counter() - start) * 1000
        return Call(ms, len(answer.content), answer.status_code, answer.json() if answer.status_code == 200 else None)

    async def invoke(self, sid: str, action: str, args: Any = None, *, evidence: bool = True) -> Call:
        body: dict[str, Any] = {"action": action, "evidence": evidence}
        if args is not None:
            body["args"] = args
        start = time.perf_counter()
        answer = await self.client.post(f"/sessions/{sid}/invoke", json=body)
        ms = (time.perf_counter() - start) * 1000
        try:
            parsed = answer.json()
        except ValueError:
            parsed = None
        return Call(ms, len(answer.content), answer.status_code, parsed)

    async def close(self, sid: str) -> None:
        await self.client.delete(f"/sessions/{sid}")
