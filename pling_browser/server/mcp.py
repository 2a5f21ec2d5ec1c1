"""The MCP server at /mcp (streamable HTTP, the official SDK 2.x).

Tools: `open_page`, `read_model`, `invoke`, `resume`, `close_page` and `list_profiles`, each typed by an
`outputSchema` derived from the pydantic models (`SessionOpened`, `ModelView`: the whole or the brief model, `Receipt`,
`SessionClosed`, `ProfileList`), answering the structured content and the same JSON as compact text. A
receipt with `ok: false` is an `isError` result whose structured content is the receipt. A failure of
the call itself is the SDK's `ToolError` whose text is the problem details REST answers (RFC 9457:
`type`, `title`, `status`, `detail`, `code`, `hint`, …), logged at INFO; only a bug in the service is an
ERROR with a traceback. `arguments` may be an object or JSON text of one, on every tool.

Page tools (mcp_pages.py): every open session's declared actions are tools of their own, named
`P_TOOL` (`p1_add_todo`, `p1_remove`): `P` is a short page tag given to a session the first time MCP
lists it (`p1`, `p2`, … never reused while the service runs) and `TOOL` the action's tool name (see
agents/tools.py for the mangling). A family is one tool with a `record` parameter. Annotations
follow the declared risk: `readOnlyHint` for read, `destructiveHint` for danger, and no claim for
write (MCP's defaults then say "may be destructive"). When a session's tools change (opened, closed,
or an invocation changed its actions, records or availability) the server sends
`notifications/tools/list_changed`: on `subscriptions/listen` streams (protocol 2026-07-28) and on
the standalone stream of each handshake-era connection, and `tools.listChanged` is advertised on every
protocol version. The same runtime serves REST, so sessions opened there have page tools here too. An
agent (PLING_TOKENS) reaches only the sessions it opened, here as over REST: another agent's session is
SESSION_NOT_FOUND, its page tools are neither listed nor called (server/mcp_sessions.py binds an MCP
session id to the caller that began it)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

from mcp.server import NotificationOptions
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.types import CallToolResult, ToolAnnotations
from mcp.types import Tool as MCPTool
from pydantic import Field, ValidationError

from ..bodies import MODEL_DETAIL, PROFILE_NAME, ModelDetail, ProfileList, SessionClosed, SessionOpened
from ..brief import ModelView
from ..callers import OPERATOR
from ..core.outbound import NOTHING, Outbound
from ..errors import BadRequest, InvalidArgs, PlingError, ToolNotFound
from ..lifecycle.decode import parse_args
from ..models import Receipt
from ..plain import malformed
from ..runtime.commands import Invoke, Resume
from .mcp_pages import _CALLER, PageTools, compact, result

if TYPE_CHECKING:
    from ..runtime import Runtime

log = logging.getLogger("pling_browser.mcp")

INSTRUCTIONS = (
    "Operate a web page through the capability model it declares. open_page, then read_model to see its "
    "actions, records, regions and state; invoke runs one action and answers a receipt saying what ran, "
    "what was verified and what changed. Once a page is open its actions are also tools of their own, "
    "named after the page's tag (p1_add_todo). Never guess: if a receipt says ok=false, read error.hint."
)
FIXED = ("open_page", "read_model", "invoke", "resume", "close_page", "list_profiles")


def problem(error: PlingError) -> dict[str, Any]:
    """The problem details REST answers for the same error."""
    from .problems import problem_body

    return problem_body(error)


class Problem(ToolError):
    """A Pling error (or its problem details) as the SDK's ToolError: its text is the JSON problem, through
    `outbound`, the way out of the session the call is about (core/outbound.py)."""

    def __init__(self, error: PlingError | dict[str, Any], outbound: Outbound = NOTHING) -> None:
        self.problem = outbound.data(problem(error) if isinstance(error, PlingError) else error)
        super().__init__(compact(self.problem))


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


TEXT_ARGUMENTS = "io.pling/arguments-text"  # where TextArguments carries text past the SDK's checks


class TextArguments:
    """`tools/call` whose `arguments` is the JSON text a model returns (OpenAI's function calls carry text),
    not the object MCP asks for. The SDK checks params against the protocol before any handler, so this
    server middleware (its own extension point, which runs before that check) moves the text into the
    request's `_meta` and leaves `{}`; the call handler puts it back. A page tool then answers text that is
    not a JSON object with an INVALID_ARGS receipt, as invoke does; a fixed tool with a problem."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        params = ctx.params
        if ctx.method == "tools/call" and isinstance(params, Mapping) and isinstance(params.get("arguments"), str):
            meta = params.get("_meta")
            meta = {**meta, TEXT_ARGUMENTS: params["arguments"]} if isinstance(meta, Mapping) else {TEXT_ARGUMENTS: params["arguments"]}
            ctx = replace(ctx, params={**params, "arguments": {}, "_meta": meta})
        return await call_next(ctx)


def _caller_of(ctx: ServerRequestContext[Any, Any]) -> Any:
    """The caller AccessGuard named on the HTTP request behind an MCP request."""
    state = getattr(getattr(ctx, "request", None), "state", None)
    return getattr(state, "caller", OPERATOR)


class PlingMCP(MCPServer):
    """MCPServer with page tools next to the fixed ones, and Pling errors as JSON problems."""

    def __init__(self, runtime: Runtime, **options: Any) -> None:
        bus = InMemorySubscriptionBus()
        self.pages = PageTools(runtime, bus)
        super().__init__(subscriptions=bus, middleware=[TextArguments()], **options)
        # Page tools come and go, and list_changed says so: advertised to handshake-era clients through
        # the SDK's own NotificationOptions (2026-07-28 clients learn it from subscriptions/listen, which
        # the bus serves). The streamable HTTP manager asks the low-level server for its initialization
        # options without any, so they are made the default here.
        lowlevel = self._lowlevel_server
        make = lowlevel.create_initialization_options

        def with_tools_changed(notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any) -> Any:
            return make(notification_options or NotificationOptions(tools_changed=True), *args, **kwargs)

        lowlevel.create_initialization_options = with_tools_changed  # type: ignore[method-assign]

    # The SDK's request handlers, to note each request's connection first (for list_changed on the
    # standalone stream of handshake-era connections; those requests do not pass through middleware).
    async def _handle_list_tools(self, ctx: ServerRequestContext[Any], params: Any) -> Any:
        self.pages.remember(ctx)
        token = _CALLER.set(_caller_of(ctx))  # an agent lists only its own sessions' page tools
        try:
            return await super()._handle_list_tools(ctx, params)
        finally:
            _CALLER.reset(token)

    async def _handle_call_tool(self, ctx: ServerRequestContext[Any], params: Any) -> Any:
        self.pages.remember(ctx)
        token = _CALLER.set(_caller_of(ctx))
        text = (params.meta or {}).get(TEXT_ARGUMENTS) if hasattr(params, "meta") else None
        if isinstance(text, str):  # back from where TextArguments kept it (not validated again: it is text)
            params = params.model_copy(update={"arguments": text})
        try:
            return await super()._handle_call_tool(ctx, params)
        finally:
            _CALLER.reset(token)

    async def list_tools(self) -> list[MCPTool]:
        fixed = await super().list_tools()
        if self.pages.receipt_schema is None:
            self.pages.receipt_schema = next(t.output_schema for t in fixed if t.name == "invoke")
        return [*fixed, *await self.pages.tools()]

    @staticmethod
    def _refuse_malformed(name: str, arguments: dict[str, Any] | str) -> None:
        found = malformed(arguments, "arguments")
        if found:  # as REST answers 400: nothing runs, and the refusal is logged
            log.info("refused the MCP tool call %.80s: %s", name, found)
            raise BadRequest(f"The tool's arguments cannot be taken: {found}")

    def _outbound(self, name: str, arguments: dict[str, Any] | str) -> Outbound:
        """The way out of the session a call is about: a page tool's, or the one a fixed tool names."""
        sid = self.pages.owner(name) if name not in FIXED else None
        named = arguments.get("session") if isinstance(arguments, dict) else None
        return self.pages.runtime.sessions.outbound(sid or (named if isinstance(named, str) else None))

    async def call_tool(self, name: str, arguments: dict[str, Any] | str, context: Any = None) -> Any:
        try:
            return await self._call_tool(name, arguments, context)
        except Problem as found:  # a problem leaves masked with the values of the session it is about
            raise Problem(found.problem, self._outbound(name, arguments)) from found.__cause__

    async def _call_tool(self, name: str, arguments: dict[str, Any] | str, context: Any = None) -> Any:
        try:
            self._refuse_malformed(name, arguments)
            if name not in FIXED and self.pages.owner(name) is not None:
                if self.pages.receipt_schema is None:
                    await self.list_tools()
                return await self.pages.call(name, arguments)
            if self._tool_manager.get_tool(name) is None:
                raise ToolNotFound(f"No tool {name[:80]!r}", available=[*FIXED, "(page tools: see tools/list)"])
            if not isinstance(arguments, dict):
                try:
                    arguments = parse_args(arguments)
                except InvalidArgs as error:
                    raise BadRequest(f"The tool's arguments are not valid: {error.message}") from None
                self._refuse_malformed(name, arguments)  # what the text decoded to, checked as an object is
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


def create_mcp(runtime: Runtime) -> PlingMCP:
    from .. import __version__

    server = PlingMCP(runtime, name="pling-browser", version=__version__, instructions=INSTRUCTIONS,
                      log_level="WARNING")
    _page_tools(server, runtime)  # registered in FIXED's order
    _action_tools(server, runtime)
    _service_tools(server, runtime)
    return server


async def _guard(work: Any) -> CallToolResult:
    try:
        return result(await work)
    except PlingError as error:
        raise Problem(error) from error


def _page_tools(server: PlingMCP, runtime: Runtime) -> None:
    """open_page and read_model."""

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, open_world_hint=True))
    async def open_page(url: str | None = None,
                        profile: Annotated[str | None, Field(pattern=PROFILE_NAME)] = None,
                        detail: Annotated[ModelDetail, Field(description=MODEL_DETAIL)] = "full",
                        ) -> Annotated[CallToolResult, SessionOpened]:
        """Open a page in a new browser session; answers the session and the page's model (`detail:
        "brief"`: ids, labels, actions and state values only). Without a url, the service's own demo todo
        app; with a profile (a saved sign-in), signed in as it was saved. The page's actions then appear
        as tools (p1_…)."""

        async def work() -> dict[str, Any]:
            session = await runtime.open(url or f"{runtime.own_origin}/demo/todos.html", profile=profile,
                                         caller=_CALLER.get())
            return {"session": (await session.current_info()).model_dump(mode="json"),
                    "model": json.loads(await runtime.model_json(session, detail=detail))}

        return await _guard(work())

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def read_model(session: str, offset: Annotated[int, Field(ge=0)] = 0,
                         limit: Annotated[int, Field(ge=0, le=1000)] = 50, type: str | None = None,
                         ids: list[str] | None = None,
                         detail: Annotated[ModelDetail, Field(description=MODEL_DETAIL)] = "full",
                         ) -> Annotated[CallToolResult, ModelView]:
        """The bounded model of the session's page: actions (with availability and reasons), records
        (ids, and fields for the window offset..offset+limit, of every type or of `type` only, or for
        exactly `ids`), regions, state, feedback. The same window as GET /sessions/{sid}/model;
        `detail: "brief"` leaves out descriptions, regions and empty counts."""
        from ..runtime import model_window

        async def work() -> dict[str, Any]:
            return json.loads(await runtime.model_json(runtime.session(session, _CALLER.get()),
                                                       model_window(offset, limit, type, ids), detail=detail))

        return await _guard(work())


def _action_tools(server: PlingMCP, runtime: Runtime) -> None:
    """invoke and resume: commands the runtime runs (runtime/commands.py)."""

    @server.tool(annotations=ToolAnnotations(read_only_hint=False))
    async def invoke(session: str, action: str, args: dict[str, Any] | str | None = None,
                     idempotency_key: str | None = None) -> Annotated[CallToolResult, Receipt]:
        """Run one declared action (ACTION, or ACTION@RECORD for a family) and answer its receipt. Its
        risk is the action's own (see the page tools' annotations)."""
        caller = _CALLER.get()
        runtime.session(session, caller)  # another agent's session is not found
        return await _guard(runtime.run(Invoke(session=session, key=idempotency_key, caller=caller, action=action,
                                               args=args)))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False))
    async def resume(session: str, handle: str) -> Annotated[CallToolResult, Receipt]:
        """Continue a failed flow from its failed step, with the `resume` handle of its STEP_FAILED receipt."""
        caller = _CALLER.get()
        runtime.session(session, caller)
        return await _guard(runtime.run(Resume(session=session, caller=caller, handle=handle)))


def _service_tools(server: PlingMCP, runtime: Runtime) -> None:
    """list_profiles and close_page."""

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def list_profiles() -> Annotated[CallToolResult, ProfileList]:
        """The saved profiles (sign-ins a person saved): names and when each was saved, never their
        contents. Pass a name to open_page as `profile` to open a page signed in as it was saved."""

        async def work() -> dict[str, Any]:
            return ProfileList(profiles=runtime.profiles.list()).model_dump(mode="json")

        return await _guard(work())

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, idempotent_hint=True))
    async def close_page(session: str) -> Annotated[CallToolResult, SessionClosed]:
        """Close a session and its browser context."""

        async def work() -> dict[str, Any]:
            runtime.session(session, _CALLER.get())
            await runtime.close(session)
            return {"closed": session}

        return await _guard(work())
