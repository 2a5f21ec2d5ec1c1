"""The agent's side of Playwright MCP: its tools over stdio (bench/mcp_client.py), snapshot and refs.
Every tool call is one step: the bytes of its text answer (what the agent reads) and its wall time."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..mcp_client import McpError, McpStdio, text_of
from .agent_pling import Step
from .snapshot import Node, parse


@dataclass
class McpAgent:
    mcp: McpStdio
    after_step: Callable[[Step], None] = lambda step: None
    steps: list[Step] = field(default_factory=list)
    # The informed variant: a snapshot after every action, as an agent takes to see what its action did
    # (Playwright MCP 0.0.83 answers an action with the code it ran and a link to a snapshot file).
    look_after: bool = False
    _seen: Node | None = None

    async def _act(self, tool: str, arguments: dict[str, Any]) -> bool:
        ok = (await self._call(tool, arguments))[1]
        if self.look_after:
            self._seen = None
            self._seen = await self.snapshot()
        return ok

    async def _call(self, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        start = time.perf_counter()
        result = await self.mcp.request("tools/call", {"name": tool, "arguments": arguments}, 60)
        text = text_of(result)
        ok = not result.get("isError")
        step = Step(tool, len(text.encode()), (time.perf_counter() - start) * 1000, ok)
        self.steps.append(step)
        self.after_step(step)
        return text, ok

    async def navigate(self, url: str) -> None:
        text, ok = await self._call("browser_navigate", {"url": url})
        if not ok:
            raise McpError(text[:300])

    async def snapshot(self) -> Node:
        if self._seen is not None:       # the look after the last action is still the page as it is
            seen, self._seen = self._seen, None
            return seen
        text, ok = await self._call("browser_snapshot", {})
        if not ok:
            raise McpError(text[:300])
        return parse(text)

    async def click(self, node: Node, what: str) -> bool:
        return (await self._act("browser_click", {"element": what, "target": node.ref}))

    async def type(self, node: Node, what: str, text: str) -> bool:
        return (await self._act("browser_type", {"element": what, "target": node.ref, "text": text}))

    async def fill(self, fields: list[tuple[Node, str, str, str]]) -> bool:
        """One browser_fill_form: (node, name, type, value) per field."""
        return (await self._act("browser_fill_form", {"fields": [
            {"name": name, "target": node.ref, "type": kind, "value": value} for node, name, kind, value in fields]}))

    async def select(self, node: Node, what: str, values: list[str]) -> bool:
        return (await self._act("browser_select_option", {"element": what, "target": node.ref, "values": values}))
