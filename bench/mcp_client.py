"""A minimal MCP client over stdio (newline-delimited JSON-RPC 2.0), so what is timed for Playwright
MCP is its own work and one pipe round trip, not a client library's."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any


class McpError(Exception):
    pass


class McpStdio:
    def __init__(self, command: list[str], *, cwd: str | None = None, env: dict[str, str] | None = None,
                 stderr_path: str | None = None) -> None:
        self.command = command
        self.cwd = cwd
        self.env = env
        self.stderr_path = stderr_path
        self.process: asyncio.subprocess.Process | None = None
        self._next = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._stderr: Any = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    async def start(self, timeout: float = 60) -> dict[str, Any]:
        self._stderr = open(self.stderr_path, "ab") if self.stderr_path else asyncio.subprocess.DEVNULL
        self.process = await asyncio.create_subprocess_exec(
            *self.command, cwd=self.cwd, env={**os.environ, **(self.env or {})},
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self._stderr,
            limit=64 * 1024 * 1024)
        self._reader = asyncio.create_task(self._read())
        info = await self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pling-bench", "version": "1"}}, timeout=timeout)
        await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return info

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        await self.process.stdin.drain()

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while True:
            line = await self.process.stdout.readline()
            if not line:
                break
            try:
                message = json.loads(line)
            except ValueError:
                continue
            future = self._waiting.pop(message.get("id"), None) if "id" in message else None
            if future is not None and not future.done():
                future.set_result(message)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(McpError("the MCP server exited"))

    async def request(self, method: str, params: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        answer = await asyncio.wait_for(future, timeout)
        if "error" in answer:
            raise McpError(json.dumps(answer["error"])[:500])
        return answer["result"]

    async def call(self, tool: str, arguments: dict[str, Any], timeout: float = 60) -> tuple[dict[str, Any], int]:
        """The tool's result and the bytes of its text content (what an agent reads)."""
        result = await self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)
        text = "".join(part.get("text", "") for part in result.get("content", []) if part.get("type") == "text")
        if result.get("isError"):
            raise McpError(f"{tool} failed: {text[:500]}")
        return result, len(text.encode())

    async def close(self) -> None:
        if self.process is None:
            return
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            await asyncio.wait_for(self.process.wait(), 5)
        except (asyncio.TimeoutError, ProcessLookupError, BrokenPipeError, ConnectionResetError):
            pass
        if self.process.returncode is None:
            try:
                self.process.terminate()
                await asyncio.wait_for(self.process.wait(), 5)
            except (asyncio.TimeoutError, ProcessLookupError):
                self.process.kill()
                await self.process.wait()
        if self._reader is not None:
            self._reader.cancel()
        if self._stderr not in (None, asyncio.subprocess.DEVNULL):
            self._stderr.close()


def text_of(result: dict[str, Any]) -> str:
    return "".join(part.get("text", "") for part in result.get("content", []) if part.get("type") == "text")
