"""The MCP server at /mcp (streamable HTTP, the official SDK): tools to open a page, read its model,
invoke an action and resume a flow, answering structured content. The same runtime serves the REST
API, so sessions opened here are visible there and the other way round."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from ..runtime import Runtime

INSTRUCTIONS = (
    "Operate a web page through the capability model it declares. open_page, then read_model to see its "
    "actions, records, regions and state; invoke runs one action and answers a receipt saying what ran, "
    "what was verified and what changed. Never guess: if a receipt says ok=false, read error.hint."
)


def create_mcp(runtime: "Runtime") -> "MCPServer":
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from .. import __version__

    server = MCPServer(name="pling-browser", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, open_world_hint=True), structured_output=True)
    async def open_page(url: str | None = None) -> dict[str, Any]:
        """Open a page in a new browser session; answers the session and the page's model. Without a
        url, the service's own demo todo app."""
        session = await runtime.open(url or f"{runtime.own_origin}/demo/todos.html")
        return {"session": session.info().model_dump(), "model": json.loads(await runtime.model_json(session))}

    @server.tool(annotations=ToolAnnotations(read_only_hint=True), structured_output=True)
    async def read_model(session: str, offset: int = 0, limit: int = 50, record_type: str | None = None) -> dict[str, Any]:
        """The bounded model of the session's page: actions (with availability and reasons), records
        (ids, and fields for the window offset..offset+limit), regions, state, feedback."""
        window: dict[str, Any] = {"offset": max(0, offset), "limit": max(0, min(limit, 1000))}
        if record_type:
            window["type"] = record_type
        return json.loads(await runtime.model_json(runtime.sessions.get(session), window))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True), structured_output=True)
    async def invoke(session: str, action: str, args: dict[str, Any] | None = None,
                     idempotency_key: str | None = None) -> dict[str, Any]:
        """Run one declared action (ACTION, or ACTION@RECORD for a family) and answer its receipt."""
        return await runtime.once(session, idempotency_key, ["invoke", {"action": action, "args": args, "evidence": True}],
                                  lambda s: runtime.invoke(s, action, args))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True), structured_output=True)
    async def resume(session: str, handle: str) -> dict[str, Any]:
        """Continue a failed flow from its failed step, with the `resume` handle of its STEP_FAILED receipt."""
        return await runtime.once(session, None, ["resume", handle], lambda s: runtime.resume(s, handle))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, idempotent_hint=True), structured_output=True)
    async def close_page(session: str) -> dict[str, Any]:
        """Close a session and its browser context."""
        await runtime.close(session)
        return {"closed": session}

    return server
