"""The MCP server, driven by the official SDK's own client against the running service."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .conftest import ServiceThread
from .server import FixtureServer


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_mcp_client_opens_reads_and_invokes(service: ServiceThread, fixtures: FixtureServer, client: httpx.Client) -> None:
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            names = {tool.name for tool in (await mcp.list_tools()).tools}
            assert {"open_page", "read_model", "invoke", "resume", "close_page"} <= names
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("demo/todos.html")})
            assert not opened.is_error, opened
            sid = opened.structured_content["session"]["id"]
            model = (await mcp.call_tool("read_model", {"session": sid, "limit": 2})).structured_content
            receipt = (await mcp.call_tool("invoke", {"session": sid, "action": "toggle@t4"})).structured_content
            bad = (await mcp.call_tool("invoke", {"session": sid, "action": "nope"})).structured_content
            return {"sid": sid, "model": model, "receipt": receipt, "bad": bad}

    out = _run(conversation())
    assert out["model"]["page"]["id"] == "todos" and len(out["model"]["records"]["task"]["items"]) == 2
    assert out["receipt"]["ok"] is True
    assert out["receipt"]["changed"]["records"]["updated"][0]["id"] == "t4"
    assert out["bad"]["ok"] is False and out["bad"]["error"]["code"] == "ACTION_NOT_FOUND"
    # The same session is visible through the REST API.
    info = client.get(f"/sessions/{out['sid']}")
    assert info.status_code == 200 and info.json()["invocations"] == 2
    client.delete(f"/sessions/{out['sid']}")


def test_mcp_rejects_a_foreign_host_header(service: ServiceThread) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    answer = httpx.post(f"{service.url}/mcp", json=body, headers={"Host": "evil.example:80",
                                                                 "Accept": "application/json, text/event-stream"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "FORBIDDEN"
