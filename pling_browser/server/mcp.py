"""The MCP server at /mcp (streamable HTTP, the official SDK 2.x).

Tools: `open_page`, `read_model`, `invoke`, `resume` and `close_page`, each typed by an
`outputSchema` derived from the pydantic models (`SessionOpened`, `PageModel`, `Receipt`,
`SessionClosed`), answering the structured content and the same JSON as compact text. A failure
is the SDK's `ToolError` whose text is the problem details REST answers (RFC 9457: `type`, `title`,
`status`, `detail`, `code`, `hint`, …), logged at INFO; only a bug in the service is an ERROR with a traceback.

Page tools: every open session's declared actions are tools of their own, named
`P_TOOL` (`p1_add_todo`, `p1_remove`): `P` is a short page tag given to a session the first time MCP
lists it (`p1`, `p2`, … never reused while the service runs) and `TOOL` the action's tool name (see
agents/tools.py for the mangling). A family is one tool with a `record` parameter. Annotations
follow the declared risk: `readOnlyHint` for read, `destructiveHint` for danger, and no claim for
write (MCP's defaults then say "may be destructive"). When a session's tools change (opened, closed,
or an invocation changed its actions, records or availability) the server sends
`notifications/tools/list_changed`: on `subscriptions/listen` streams (protocol 2026-07-28) and on
the standalone stream of each handshake-era connection. The same runtime serves REST, so sessions
opened there have page tools here too."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
from collections import OrderedDict
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any, AsyncIterator

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from mcp.types import Tool as MCPTool
from pydantic import Field, ValidationError

from ..agents.tools import NAME_LIMIT, resolve_call, specs
from ..callers import OPERATOR, Caller, caller_key, named
from ..errors import BadRequest, PlingError, ServiceError, ToolNotFound
from ..models import PageModel, Receipt
from ..plain import malformed
from ..bodies import PROFILE_NAME, SessionClosed, SessionOpened

if TYPE_CHECKING:
    from ..core.sessions import Session
    from ..runtime import Runtime

log = logging.getLogger("pling_browser.mcp")

INSTRUCTIONS = (
    "Operate a web page through the capability model it declares. open_page, then read_model to see its "
    "actions, records, regions and state; invoke runs one action and answers a receipt saying what ran, "
    "what was verified and what changed. Once a page is open its actions are also tools of their own, "
    "named after the page's tag (p1_add_todo). Never guess: if a receipt says ok=false, read error.hint."
)
FIXED = ("open_page", "read_model", "invoke", "resume", "close_page")
# The caller of the tool call being handled (AccessGuard put it on the HTTP request): its receipts
# name it and its idempotency keys are its own, as over REST.
_CALLER: contextvars.ContextVar[Caller] = contextvars.ContextVar("pling_mcp_caller", default=OPERATOR)
MODEL_WAIT_S = 5.0  # how long listing waits for one page's model before it answers that page's last tools
LEGACY_CONNECTIONS = 256  # handshake-era connections remembered for list_changed (most recent first)


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def problem(error: PlingError) -> dict[str, Any]:
    """The problem details REST answers for the same error."""
    from .problems import problem_body

    return problem_body(error)


class Problem(ToolError):
    """A Pling error as the SDK's ToolError: its text is the JSON problem."""

    def __init__(self, error: PlingError) -> None:
        self.problem = problem(error)
        super().__init__(compact(self.problem))


def _result(structured: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=compact(structured))], structured_content=structured)


def _problem_of(error: BaseException) -> Problem | None:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, Problem):
            return seen
        if isinstance(seen, PlingError):
            return Problem(seen)
        if isinstance(seen, ValidationError):
            issues = [{"path": "/".join(str(p) for p in e["loc"]), "problem": e["msg"]} for e in seen.errors()[:20]]
            return Problem(BadRequest("The tool's arguments are not valid", issues=issues))
        seen = seen.__cause__
    return None


class PageTools:
    """Each open session's actions as MCP tools, and the announcements when they change."""

    def __init__(self, runtime: "Runtime", bus: InMemorySubscriptionBus) -> None:
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

    async def _build(self, session: "Session") -> list[MCPTool]:
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
        try:
            tools = await asyncio.wait_for(self._build(session), MODEL_WAIT_S)
        except (PlingError, asyncio.TimeoutError):
            return False
        fingerprint = self._fingerprint(tools)
        before = self._listed.get(sid)
        self._listed[sid] = (fingerprint, tools)
        return before is None or before[0] != fingerprint

    async def tools(self) -> list[MCPTool]:
        self.active = True
        self._start()
        sessions = self.runtime.sessions.list()
        await asyncio.gather(*(self.refresh(s.id) for s in sessions))
        for sid in set(self._listed) - {s.id for s in sessions}:
            del self._listed[sid]
        return [tool for s in sessions for tool in self._listed.get(s.id, ("", []))[1]]

    # -- calling --

    async def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        sid = self.owner(name)
        assert sid is not None
        session = self.runtime.sessions.get(sid)
        model = await self.runtime.model(session)
        call = resolve_call(model, name.partition("_")[2], arguments, self.limit(self.tag(sid)))
        if call is None:
            names = [t.name for t in await self._build(session)]
            raise ToolNotFound(f"No tool {name[:80]!r} on page {self.tag(sid)} now", available=names)
        ref, args = call
        caller = _CALLER.get()

        async def work(s: "Session") -> Receipt:
            return named(await self.runtime.invoke(s, ref, args), caller)

        receipt = await self.runtime.run_keyed(sid, None, ["invoke", {"action": ref, "args": args, "evidence": True}], work)
        return _result(receipt)

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
            if self._watcher is not None:
                self._watcher.cancel()
                try:
                    await self._watcher
                except asyncio.CancelledError:
                    pass
                self._watcher = None


class PlingMCP(MCPServer):
    """MCPServer with page tools next to the fixed ones, and Pling errors as JSON problems."""

    def __init__(self, runtime: "Runtime", **options: Any) -> None:
        bus = InMemorySubscriptionBus()
        self.pages = PageTools(runtime, bus)
        super().__init__(subscriptions=bus, **options)

    # The SDK's request handlers, to note each request's connection first (for list_changed on the
    # standalone stream of handshake-era connections; those requests do not pass through middleware).
    async def _handle_list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> Any:
        self.pages.remember(ctx)
        return await super()._handle_list_tools(ctx, params)

    async def _handle_call_tool(self, ctx: ServerRequestContext[Any], params: Any) -> Any:
        self.pages.remember(ctx)
        state = getattr(getattr(ctx, "request", None), "state", None)
        token = _CALLER.set(getattr(state, "caller", OPERATOR))
        try:
            return await super()._handle_call_tool(ctx, params)
        finally:
            _CALLER.reset(token)

    async def list_tools(self) -> list[MCPTool]:
        fixed = await super().list_tools()
        if self.pages.receipt_schema is None:
            self.pages.receipt_schema = next(t.output_schema for t in fixed if t.name == "invoke")
        return [*fixed, *await self.pages.tools()]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            found = malformed(arguments, "arguments") or malformed(arguments.get("action"), "action", identifier=True)
            if found:  # as REST answers 400: nothing runs, and the refusal is logged
                log.info("refused the MCP tool call %.80s: %s", name, found)
                raise BadRequest(f"The tool's arguments cannot be taken: {found}")
            if name not in FIXED and self.pages.owner(name) is not None:
                if self.pages.receipt_schema is None:
                    await self.list_tools()
                return await self.pages.call(name, arguments)
            if self._tool_manager.get_tool(name) is None:
                raise ToolNotFound(f"No tool {name[:80]!r}", available=[*FIXED, "(page tools: see tools/list)"])
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as error:
            found = _problem_of(error.__cause__) if error.__cause__ is not None else None
            if found is None or not isinstance(error.__cause__, (Problem, PlingError)):
                raise
            raise found from error
        except ToolError as error:
            found = _problem_of(error)
            if found is None:
                raise
            raise found from None
        except PlingError as error:
            raise Problem(error) from None


def create_mcp(runtime: "Runtime") -> PlingMCP:
    from .. import __version__

    server = PlingMCP(runtime, name="pling-browser", version=__version__, instructions=INSTRUCTIONS,
                      log_level="WARNING")

    async def _guard(work: Any) -> CallToolResult:
        try:
            return _result(await work)
        except PlingError as error:
            raise Problem(error) from error

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, open_world_hint=True))
    async def open_page(url: str | None = None,
                        profile: Annotated[str | None, Field(pattern=PROFILE_NAME)] = None) -> Annotated[CallToolResult, SessionOpened]:
        """Open a page in a new browser session; answers the session and the page's model. Without a
        url, the service's own demo todo app; with a profile (a saved sign-in), signed in as it was
        saved. The page's actions then appear as tools (p1_…)."""

        async def work() -> dict[str, Any]:
            session = await runtime.open(url or f"{runtime.own_origin}/demo/todos.html", profile=profile)
            return {"session": (await session.current_info()).model_dump(mode="json"), "model": json.loads(await runtime.model_json(session))}

        return await _guard(work())

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def read_model(session: str, offset: Annotated[int, Field(ge=0)] = 0,
                         limit: Annotated[int, Field(ge=0, le=1000)] = 50, type: str | None = None,
                         ids: list[str] | None = None) -> Annotated[CallToolResult, PageModel]:
        """The bounded model of the session's page: actions (with availability and reasons), records
        (ids, and fields for the window offset..offset+limit, of every type or of `type` only, or for
        exactly `ids`), regions, state, feedback. The same window as GET /sessions/{sid}/model."""
        from ..runtime import model_window

        async def work() -> dict[str, Any]:
            return json.loads(await runtime.model_json(runtime.sessions.get(session), model_window(offset, limit, type, ids)))

        return await _guard(work())

    @server.tool(annotations=ToolAnnotations(read_only_hint=False))
    async def invoke(session: str, action: str, args: dict[str, Any] | str | None = None,
                     idempotency_key: str | None = None) -> Annotated[CallToolResult, Receipt]:
        """Run one declared action (ACTION, or ACTION@RECORD for a family) and answer its receipt. Its
        risk is the action's own (see the page tools' annotations)."""
        caller = _CALLER.get()

        async def work(s: "Session") -> Receipt:
            return named(await runtime.invoke(s, action, args), caller)

        return await _guard(runtime.run_keyed(session, caller_key(caller, idempotency_key),
                                         ["invoke", {"action": action, "args": args, "evidence": True}], work))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False))
    async def resume(session: str, handle: str) -> Annotated[CallToolResult, Receipt]:
        """Continue a failed flow from its failed step, with the `resume` handle of its STEP_FAILED receipt."""
        caller = _CALLER.get()

        async def work(s: "Session") -> Receipt:
            return named(await runtime.resume(s, handle), caller)

        return await _guard(runtime.run_keyed(session, None, ["resume", handle], work))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, idempotent_hint=True))
    async def close_page(session: str) -> Annotated[CallToolResult, SessionClosed]:
        """Close a session and its browser context."""

        async def work() -> dict[str, Any]:
            await runtime.close(session)
            return {"closed": session}

        return await _guard(work())

    return server
