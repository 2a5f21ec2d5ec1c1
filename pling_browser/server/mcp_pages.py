"""The MCP page tools: each open session's declared actions as MCP tools of their own, and the
`notifications/tools/list_changed` announcements when they change (mcp.py puts them beside the fixed
tools; the naming and annotation rules are in its docstring and docs/agents.md).

An agent (PLING_TOKENS) lists and calls only the page tools of sessions it opened; a person and the
operator see every session's (SPEC: a session belongs to the caller that opened it)."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from mcp.server.context import ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from mcp.types import Tool as MCPTool
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..agents.tools import NAME_LIMIT, specs
from ..callers import OPERATOR, Caller
from ..errors import PlingError, ServiceError, SessionNotFound, ToolNotFound
from ..runtime.commands import CallTool

if TYPE_CHECKING:
    from ..core.sessions import Session
    from ..runtime import Runtime

log = logging.getLogger("pling_browser.mcp")

# The caller of the tool call being handled (AccessGuard put it on the HTTP request): its receipts
# name it, its idempotency keys are its own, and it sees only its own sessions, as over REST.
_CALLER: contextvars.ContextVar[Caller] = contextvars.ContextVar("pling_mcp_caller", default=OPERATOR)
MODEL_WAIT_S = 5.0  # how long listing waits for one page's model before it answers that page's last tools
WATCHER_STOP_S = 5.0  # how long the service's shutdown waits for the page tools' watcher to stop
LEGACY_CONNECTIONS = 256  # handshake-era connections remembered for list_changed (most recent first)

def _quiet(task: asyncio.Future[Any]) -> None:
    """A shielded model read nobody waits for any more: its outcome read, so nothing is logged as lost."""
    if not task.cancelled():
        task.exception()


def agent_name() -> str | None:
    """The agent whose sessions alone the current call sees; None for a person or the operator."""
    caller = _CALLER.get()
    return caller.name if caller.owns_its_sessions else None


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def result(structured: dict[str, Any]) -> CallToolResult:
    """The structured content and the same JSON as text. A receipt with `ok: false` is an `isError` result
    (frameworks that look only at `isError` must not count it a success), its text carrying the error's
    code, message and hint as REST's receipt does, and the receipt stays the structured content."""
    failed = structured.get("ok") is False and isinstance(structured.get("error"), dict)
    return CallToolResult(content=[TextContent(type="text", text=compact(structured))], structured_content=structured,
                          is_error=failed)


class PageTools:
    """Each open session's actions as MCP tools, and the announcements when they change."""

    def __init__(self, runtime: Runtime, bus: InMemorySubscriptionBus) -> None:
        self.runtime = runtime
        self.bus = bus
        self.receipt_schema: dict[str, Any] | None = None
        self._tags: dict[str, str] = {}  # session id -> page tag
        self._count = 0
        self._listed: dict[str, tuple[str, list[MCPTool]]] = {}  # session id -> (fingerprint, tools)
        self._legacy: OrderedDict[str, Any] = OrderedDict()  # Mcp-Session-Id -> its latest ServerSession
        self.active = False  # set by the first MCP request: REST-only services never compute page tools
        self._watcher: asyncio.Task[None] | None = None
        self._running = False

    # -- naming --

    def tag(self, sid: str) -> str:
        if sid not in self._tags:
            self._count += 1
            self._tags[sid] = f"p{self._count}"
        return self._tags[sid]

    @staticmethod
    def limit(tag: str) -> int:
        return NAME_LIMIT - len(tag) - 1  # `TAG_NAME` stays a valid OpenAI tool name

    def owner(self, name: str) -> str | None:
        """The session id whose page tool `name` is, or None."""
        tag, sep, _ = name.partition("_")
        if not sep:
            return None
        for sid, known in self._tags.items():
            if known == tag:
                return sid
        return None

    # -- listing --

    async def _build(self, session: Session) -> list[MCPTool]:
        model = await self.runtime.model(session)
        tag = self.tag(session.id)
        where = f"[page {tag}: {model.page.name or model.page.title or model.page.url}; session {session.id}] "
        out = []
        for spec in specs(model, self.limit(tag)):
            hints = spec.annotations
            annotations = ToolAnnotations(title=spec.title, read_only_hint=hints.get("readOnlyHint"),
                                          destructive_hint=hints.get("destructiveHint"))
            out.append(MCPTool(name=f"{tag}_{spec.name}", title=spec.title, description=where + spec.description,
                               input_schema=spec.schema, output_schema=self.receipt_schema, annotations=annotations))
        return out

    @staticmethod
    def _fingerprint(tools: list[MCPTool]) -> str:
        text = compact([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools])
        return hashlib.sha256(text.encode()).hexdigest()

    async def refresh(self, sid: str) -> bool:
        """Recompute one session's tools; True when they differ from what was last listed."""
        try:
            session = self.runtime.sessions.get(sid)
        except ServiceError:
            return self._listed.pop(sid, None) is not None
        # Shielded: past MODEL_WAIT_S the listing goes on without this page, but the read itself runs to
        # the bridge's own budget, which stops a page script that never returns (an endless loop in a
        # records getter); cancelled here, it would leave the page stuck for every later call.
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns a read that finishes in the turn
        # its awaiter is cancelled and drops the cancellation (the watcher then watched on, and the
        # service's shutdown awaited it for ever).
        build = asyncio.ensure_future(self._build(session))
        try:
            async with asyncio.timeout(MODEL_WAIT_S):
                tools = await asyncio.shield(build)
        except TimeoutError:
            build.add_done_callback(_quiet)
            return False
        except PlingError:
            return False
        fingerprint = self._fingerprint(tools)
        before = self._listed.get(sid)
        self._listed[sid] = (fingerprint, tools)
        return before is None or before[0] != fingerprint

    async def tools(self) -> list[MCPTool]:
        self.active = True
        self._start()
        everyone = self.runtime.sessions.list()
        await asyncio.gather(*(self.refresh(s.id) for s in everyone))
        for sid in set(self._listed) - {s.id for s in everyone}:
            del self._listed[sid]
        agent = agent_name()
        return [tool for s in everyone if agent is None or s.owner == agent for tool in self._listed.get(s.id, ("", []))[1]]

    # -- calling --

    async def call(self, name: str, arguments: dict[str, Any] | str | None) -> CallToolResult:
        sid = self.owner(name)
        assert sid is not None
        caller = _CALLER.get()
        try:
            session = self.runtime.session(sid, caller)
        except SessionNotFound:  # another agent's page: its tools are not this caller's to know of
            raise ToolNotFound(f"No tool {name[:80]!r}") from None
        tool, limit = name.partition("_")[2], self.limit(self.tag(sid))
        try:  # JSON text that is not an object answers a receipt, as for invoke
            receipt = await self.runtime.run(CallTool(session=sid, caller=caller, name=tool, arguments=arguments,
                                                      limit=limit))
        except ToolNotFound:
            names = [t.name for t in await self._build(session)]
            raise ToolNotFound(f"No tool {name[:80]!r} on page {self.tag(sid)} now", available=names) from None
        return result(receipt)

    # -- announcing --

    def remember(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Keep a handshake-era connection's session, to reach its standalone stream later."""
        self.active = True
        self._start()
        try:
            if ctx.session.protocol_version in MODERN_PROTOCOL_VERSIONS:
                return  # 2026-07-28 clients hear list_changed on their subscriptions/listen stream
            headers = getattr(ctx.request, "headers", None)
            key = headers.get("mcp-session-id") if headers is not None else None
        except Exception:  # an SDK detail changed: page tools still work, only this announcement is lost
            log.debug("could not note the MCP connection", exc_info=True)
            return
        if key:
            self._legacy[key] = ctx.session
            self._legacy.move_to_end(key)
            while len(self._legacy) > LEGACY_CONNECTIONS:
                self._legacy.popitem(last=False)

    async def announce(self) -> None:
        await self.bus.publish(ToolsListChanged())
        for key, session in list(self._legacy.items()):
            try:
                await session.send_tool_list_changed()
            except Exception:  # a connection that went away: forget it
                self._legacy.pop(key, None)

    async def watch(self) -> None:
        async for event in self.runtime.events.watch():
            if not self._running:
                return  # stopping: ends here too, should a cancellation have been lost
            if not self.active or event.get("kind") not in ("session", "closed", "receipt"):
                continue
            try:
                if await self.refresh(str(event.get("session"))):
                    await self.announce()
            except Exception:  # the watcher must outlive one page's trouble
                log.debug("page tools refresh failed", exc_info=True)

    def _start(self) -> None:
        # Started by the first MCP request: a service nobody reaches over MCP watches nothing.
        if self._watcher is None and self._running:
            self._watcher = asyncio.create_task(self.watch())

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self._running = True
        try:
            yield
        finally:
            self._running = False
            watcher, self._watcher = self._watcher, None
            if watcher is not None:
                watcher.cancel()
                # Bounded: a watcher that lost its cancellation must not hold the service's shutdown.
                await asyncio.wait([watcher], timeout=WATCHER_STOP_S)
                if watcher.done():
                    _quiet(watcher)
                else:
                    log.warning("the MCP page tools' watcher did not stop within %g s; the service stops without it",
                                WATCHER_STOP_S)
