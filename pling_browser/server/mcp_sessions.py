"""MCP session ids bound to the caller that began them (SPEC, "Who may do what").

The MCP SDK hands a client an ``Mcp-Session-Id`` when it initializes, and any request carrying that id
reaches that MCP session, whoever sends it. This middleware, inside ``AccessGuard`` (which has already
named the caller), remembers which caller the id was given to, and answers a request that carries it
under another caller's token as the SDK answers an unknown id: 404. Without ``PLING_TOKEN`` or
``PLING_TOKENS`` there is one caller, and nothing to bind."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from ..callers import OPERATOR
from ..errors import NotFound

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

HEADER = b"mcp-session-id"
KEPT = 10_000  # ids remembered (the oldest forgotten first; the SDK ends idle sessions long before)


class McpSessionOwners:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.owners: OrderedDict[str, str] = OrderedDict()  # Mcp-Session-Id -> the caller's name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not (path == "/mcp" or path.startswith("/mcp/")):
            await self.app(scope, receive, send)
            return
        caller = scope.get("state", {}).get("caller", OPERATOR).name
        sent = next((value.decode("latin-1") for key, value in scope.get("headers", []) if key.lower() == HEADER), None)
        if sent is not None and self.owners.get(sent, caller) != caller:
            raise NotFound("No MCP session with this id for this caller",
                           hint="Initialize an MCP session of your own (an id is bound to the token that began it).")

        async def noted(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                given = next((value.decode("latin-1") for key, value in message.get("headers", [])
                              if key.lower() == HEADER), None)
                if given is not None and given not in self.owners:
                    self.owners[given] = caller
                    while len(self.owners) > KEPT:
                        self.owners.popitem(last=False)
            await send(message)

        await self.app(scope, receive, noted)
