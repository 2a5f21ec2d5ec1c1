"""The state of one invocation as it moves through the stages, and ``stage()``: the one place that
times a stage, logs it and attaches the stage name (and whether the write path started) to errors."""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import ExecutionFailed, InvocationError, PlingError
from ..telemetry import stage_span

if TYPE_CHECKING:
    from ..config import Settings
    from ..callers import Caller
    from ..models import ActionDecl, ApprovedBy, Changed, RecordRef
    from ..core.sessions import Session

log = logging.getLogger("pling_browser.lifecycle")

# A WebMCP tool's budget when neither it nor the operator (PLING_ACTION_TIMEOUT) says otherwise: the
# browser's own default for a tool call (Playwright's 30 s), not the 10 s of a page's declared actions.
WEBMCP_TIMEOUT_MS = 30_000.0


@dataclass
class Invocation:
    """One invocation on its way through ``runner.LIFECYCLE``. The first block is the request; each
    later field names the one stage that writes it (every other stage only reads it). ``warnings``,
    ``log`` and ``timings_ms`` are append-only: any stage adds to them. A resume fills ``args``,
    ``secret_values``, ``approved`` and ``confirmed`` from the flow's kept state instead of decode,
    validate and confirm."""

    # The request, as the caller made it.
    session: "Session"
    ref: str
    raw_args: Any
    settings: "Settings"
    evidence: bool = True  # take the before snapshot and diff (flow steps run without)
    confirmer: Any = None  # the confirmation channel (runtime/confirmations.py), or None: deny
    pending_requests: Any = None  # pending requests, where a handoff waits for the person
    resumes: Any = None  # where a failed flow keeps its resume state
    operator_secrets: dict[str, str] | None = None
    caller: "Caller | None" = None  # who invokes (PLING_TOKENS): its limits hold, a grant is for it
    # resolve: the declaration and, for a family, the record it acts on; for an action a child frame
    # declares, that frame's origin (resolve also puts ``session`` on the frame's bridge then).
    decl: "ActionDecl | None" = None
    record: "RecordRef | None" = None
    frame: str | None = None
    # decode: the arguments as an object, references restored (validate then adds declared defaults:
    # the one field two stages write, the second only completing it).
    args: dict[str, Any] = field(default_factory=dict)
    # decode: the restored secret values, so nothing written later repeats them.
    secret_values: list[str] = field(default_factory=list)
    # confirm: the highest risk cleared at the start (a flow's steps are measured against it and
    # raise it as a person confirms a riskier step), and whether a policy or a person cleared it.
    approved: str | None = None
    confirmed: bool = False
    approved_by: "ApprovedBy | None" = None  # who approved: a person, a person's grant, or a policy
    # reveal: how the target is operated, how faithfully, the mark that finds it, what to type, and
    # whether the bridge took the before snapshot (its last call, after every pre-check).
    control: str | None = None
    fidelity: str = "high"
    target_mark: str | None = None
    target_where: str = "document"
    gesture: Any = None  # core.answers.Gesture: the declared gesture, None for the control's own
    drop: str | None = None  # a drag's destination, marked
    drop_id: str | None = None  # the record that destination belongs to
    aim: Any = None  # core.answers.Aim: where the direct path clicks (core/gestures.py), or why not
    diffed: Any = None  # core.answers.Diffed: the after snapshot the expect call took as the page settled
    after_unreadable: bool = False  # that call hung reading the page: the after snapshot is not asked again
    fill_value: Any = None
    evidence_begun: bool = False
    doc: str | None = None  # the bridge id of the document the action starts in
    # execute: the write path started; a function's result; a flow's ledger.
    started: bool = False
    data: Any = None
    data_omitted: dict[str, int] | None = None
    steps: list[dict[str, Any]] | None = None
    refused_mark: int = 0  # the egress proxy's refusal count when the write path started
    tabs_mark: int | None = None  # the session's tab log position when the write path started
    opens_mark: int = 0  # the windows the page had asked to open by then
    # execute, then expect: the document started a cross-document navigation; navigation (navigation.py):
    # the action's document was replaced (``navigated``) by the one ``page_to`` names, followed once.
    leaving: bool = False
    followed: bool = False
    navigated: bool = False
    # expect: the declared expectation held (None: none declared, or not reached).
    verified: bool | None = None
    # diff: what changed, keyed on business ids.
    changed: "Changed | None" = None
    # the runner: the error that ended the run.
    error: InvocationError | None = None
    warnings: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

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

    def note(self, line: str) -> None:
        self.log.append(line)

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
            self.timings_ms[name] = round((time.perf_counter() - started) * 1000, 2)
