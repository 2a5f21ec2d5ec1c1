"""One invocation as it moves through the stages: the request (frozen, as the caller made it), each
stage's result as the runner keeps it (results.py), and the journal (journal.py) of what accumulates.
``stage()`` is the one place that times a stage and attaches the stage name (and whether the write
path started) to errors."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import JsonValue

from ..core.outbound import Outbound
from ..errors import ExecutionFailed, InvocationError, PlingError
from ..models import ActionDecl, ApprovedBy, Changed, Fidelity, RecordRef
from ..telemetry import stage_span
from .codes import LogEvent, ReceiptWarning
from .journal import Journal
from .navigation import DocumentTracker
from .results import Checked, Cleared, Compared, Decoded, Executed, Ready, Resolved, Validated

if TYPE_CHECKING:
    from ..callers import Caller
    from ..config import Settings
    from ..core.sessions import Session
    from .grants import Asked
    from .resumes import Resumes

log = logging.getLogger("pling_browser.lifecycle")

# A WebMCP tool's budget when neither it nor the operator (PLING_ACTION_TIMEOUT) says otherwise: the
# browser's own default for a tool call (Playwright's 30 s), not the 10 s of a page's declared actions.
WEBMCP_TIMEOUT_MS = 30_000.0


class PersonAnswer(Protocol):
    """A person's answer to a confirmation (runtime/confirmations.py ``Answer``)."""

    @property
    def by(self) -> str: ...
    @property
    def at(self) -> float: ...
    @property
    def grant(self) -> Asked | None: ...


class Confirmer(Protocol):
    """The confirmation channel (runtime/confirmations.py ``HttpConfirmer``): asks a person."""

    def ask(self, inv: Invocation, request: dict[str, JsonValue]) -> Awaitable[tuple[bool, str, PersonAnswer | None]]: ...


class Waiting(Protocol):
    """A request waiting for a person (runtime/confirmations.py ``Pending``)."""

    @property
    def id(self) -> str: ...


class PendingRequests(Protocol):
    """Where a handoff waits for the person (runtime/confirmations.py ``PendingRequests``)."""

    def open(self, kind: Literal["confirmation", "handoff"], session: str, request: dict[str, JsonValue],
             timeout_s: float) -> Waiting: ...

    def wait(self, pending: Waiting, also: asyncio.Future[bool] | None = None) -> Awaitable[tuple[str, JsonValue]]: ...


@dataclass(frozen=True)
class Request:
    """The invocation as the caller made it, and what the runtime lends it (the channels to a person,
    where a failed flow keeps its state, the operator's secrets)."""

    session: Session
    ref: str
    raw_args: object
    settings: Settings
    evidence: bool = True  # take the before snapshot and diff (flow steps run without)
    confirmer: Confirmer | None = None  # None: nobody can confirm, so deny
    pending_requests: PendingRequests | None = None
    resumes: Resumes | None = None
    operator_secrets: Mapping[str, str] | None = None
    caller: Caller | None = None  # who invokes (PLING_TOKENS): its limits hold, a grant is for it


Result = Resolved | Decoded | Validated | Cleared | Ready | Executed | Checked | Compared
_SLOTS: dict[type, str] = {Resolved: "resolved", Decoded: "decoded", Validated: "validated", Cleared: "cleared",
                           Ready: "ready", Executed: "executed", Checked: "checked", Compared: "compared"}


@dataclass(eq=False)
class Invocation:
    """One invocation on its way through ``runner.LIFECYCLE``: the request, then each stage's result,
    kept by the runner alone (``keep``) and read by the stages after it, the journal any stage
    appends to, and the tracker of the document the action runs in (navigation.py), which alone
    follows it when it leaves. The properties below read the request and the results; none writes."""

    request: Request
    journal: Journal = field(default_factory=Journal)
    document: DocumentTracker = field(default_factory=DocumentTracker)
    resolved: Resolved | None = None
    decoded: Decoded | None = None
    validated: Validated | None = None
    cleared: Cleared | None = None
    ready: Ready | None = None
    executed: Executed | None = None
    checked: Checked | None = None
    compared: Compared | None = None
    # the runner: the error that ended the run.
    error: InvocationError | None = None

    def keep(self, result: Result) -> None:
        """The runner's: a stage's result, kept once."""
        slot = _SLOTS[type(result)]
        assert getattr(self, slot) is None, f"{slot} is kept already"
        setattr(self, slot, result)

    # ---- the request ----
    @property
    def ref(self) -> str:
        return self.request.ref

    @property
    def settings(self) -> Settings:
        return self.request.settings

    @property
    def session(self) -> Session:
        """The session the action runs on: the frame's view of it when a child frame declares it."""
        return self.resolved.session if self.resolved is not None else self.request.session

    # ---- what the stages produced ----
    @property
    def decl(self) -> ActionDecl | None:
        """The declaration that runs: as confirmed when a person approved it, else as resolved."""
        if self.cleared is not None and self.cleared.described_again:
            return self.cleared.decl
        return self.resolved.decl if self.resolved is not None else None

    @property
    def record(self) -> RecordRef | None:
        if self.cleared is not None and self.cleared.described_again:
            return self.cleared.record
        return self.resolved.record if self.resolved is not None else None

    @property
    def frame(self) -> str | None:
        return self.resolved.frame if self.resolved is not None else None

    @property
    def args(self) -> dict[str, JsonValue]:
        if self.validated is not None:
            return self.validated.args
        return self.decoded.args if self.decoded is not None else {}

    @property
    def secret_values(self) -> tuple[str, ...]:
        return self.decoded.secret_values if self.decoded is not None else ()

    @property
    def control(self) -> str | None:
        return self.ready.control if self.ready is not None else None

    @property
    def fidelity(self) -> Fidelity:
        return self.ready.fidelity if self.ready is not None else "high"

    @property
    def doc(self) -> str | None:
        """The bridge id of the document the action starts in."""
        return self.ready.doc if self.ready is not None else None

    @property
    def evidence_begun(self) -> bool:
        return self.ready is not None and self.ready.evidence

    @property
    def approved_by(self) -> ApprovedBy | None:
        return self.journal.approved_by

    @property
    def started(self) -> bool:
        return self.journal.started

    @property
    def changed(self) -> Changed | None:
        return self.compared.changed if self.compared is not None else None

    # ---- the journal ----
    def note(self, code: LogEvent, /, **params: JsonValue) -> None:
        self.journal.note(code, **params)

    def warn(self, code: ReceiptWarning, /, **params: JsonValue) -> None:
        self.journal.warn(code, **params)

    @property
    def action_timeout_ms(self) -> float:
        if self.decl and self.decl.timeoutMs:
            return self.decl.timeoutMs
        if self.settings.action_timeout_s is not None:
            return self.settings.action_timeout_s * 1000
        if self.decl and self.decl.webmcp:
            return WEBMCP_TIMEOUT_MS
        return self.settings.action_timeout_ms

    @property
    def expect_timeout_ms(self) -> float:
        declared = self.decl.expect.timeoutMs if self.decl and self.decl.expect else None
        return declared or self.settings.expect_timeout_ms

    def masked_values(self) -> list[str]:
        """What a person's view of this invocation must not show: the values it restored, and those
        its session masks (the operator's secrets, values restored before)."""
        session_values = getattr(self.session, "masked_values", None)
        return [*self.secret_values, *(session_values() if session_values else ())]

    @property
    def outbound(self) -> Outbound:
        """The way out of what this invocation shows a person or writes in its receipt
        (core/outbound.py): it masks ``masked_values``."""
        return Outbound(self.masked_values)

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            with stage_span(name):
                yield
        except InvocationError as error:
            if error.stage is None:
                error.stage = name
            raise
        except PlingError as error:
            # A service-level problem (page stuck, session lost) met while invoking: the invocation
            # failed, and whether the write path ran is what we knew at that moment.
            raise ExecutionFailed(error.message, stage=name, started=self.started, cause=error.code,
                                  outcome="unknown" if self.started else "not started") from error
        except Exception as error:
            log.exception("unexpected error in stage %s", name)
            raise ExecutionFailed(f"Unexpected error in the {name} stage: {type(error).__name__}: {str(error)[:300]}",
                                  stage=name, started=self.started) from error
        finally:
            self.journal.timed(name, round((time.perf_counter() - started) * 1000, 2))
