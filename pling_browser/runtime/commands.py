"""Commands: what a caller asks the runtime to run, typed. REST, MCP, the CLI and a page's exported
tools each build one and hand it to ``Runtime.run``, which takes every command through the same
pipeline (``runtime/pipeline.py``):

    idempotency (the fingerprint, computed once) → turn (the session's lock) → lifecycle
    → store (the receipt, through the session's way out) → publish (metrics, the receipt event)

``request()`` is what the caller asked: the fingerprint hashes it with the session, and the store keeps
it beside the receipt (a session's scenario file is read back from it, ci/record.py). Who asks, the
question whether they are still there and their trace context travel with the command, outside the
request: a retry from another connection is the same request."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..agents.tools import NAME_LIMIT
from ..callers import OPERATOR, Caller, caller_key
from .turns import CallerCheck

if TYPE_CHECKING:
    from opentelemetry.context import Context

    from ..core.sessions import Session

__all__ = ["Command", "Invoke", "Resume", "CallTool", "AnyCommand"]


@dataclass(frozen=True, kw_only=True)
class Command:
    """What every command carries: the session it runs in, the caller's idempotency key (as sent), and
    what is not part of the request: the caller, whether they have gone, their trace context."""

    session: str
    key: str | None = None
    caller: Caller | None = field(default=None, compare=False)  # None: the service itself (the CLI, a page's call)
    gone: CallerCheck | None = field(default=None, compare=False, repr=False)
    parent: Context | None = field(default=None, compare=False, repr=False)

    def request(self) -> list[Any]:
        raise NotImplementedError

    def scoped_key(self) -> str | None:
        """The key in its caller's scope: two callers' keys never meet (SPEC)."""
        return caller_key(self.caller or OPERATOR, self.key)

    def fingerprint(self) -> str:
        """The request with its session, hashed: a key is its caller's across sessions, so the same key
        sent to another session is another request (422), never run again."""
        return hashlib.sha256(json.dumps([self.session, self.request()], sort_keys=True, default=str).encode()).hexdigest()


@dataclass(frozen=True, kw_only=True)
class Invoke(Command):
    """Run one declared action (ACTION, or ACTION@RECORD). `via` names a caller inside the page (an
    exported tool); `within` is the invocation's session view when that call is made while one of the
    page's own actions runs: it runs in that invocation's turn, never waiting for its own."""

    action: str
    args: Any = None
    evidence: bool = True
    trace: bool = False
    tab: str | None = None
    via: str | None = None
    within: Session | None = field(default=None, compare=False, repr=False)

    def request(self) -> list[Any]:
        asked: dict[str, Any] = {"action": self.action, "args": self.args, "evidence": self.evidence,
                                 "trace": self.trace, "tab": self.tab}
        return ["invoke", {**asked, "via": self.via} if self.via else asked]


@dataclass(frozen=True, kw_only=True)
class Resume(Command):
    """Continue a failed flow from its failed step, with the handle of its STEP_FAILED receipt."""

    handle: str
    evidence: bool = True
    repeat_started_step: bool = False

    def request(self) -> list[Any]:
        return ["resume", self.handle]


@dataclass(frozen=True, kw_only=True)
class CallTool(Command):
    """One of the page's actions called as an agent tool, by its tool name (agents/tools.py); `limit` is
    the length tool names were cut to (MCP's page tools are shorter: their page tag comes first)."""

    name: str
    arguments: dict[str, Any] | str | None = None
    evidence: bool = True
    limit: int = NAME_LIMIT

    def request(self) -> list[Any]:
        return ["tool", self.name, {"arguments": self.arguments, "evidence": self.evidence}]


AnyCommand = Invoke | Resume | CallTool
