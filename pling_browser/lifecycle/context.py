"""The state of one invocation as it moves through the stages, and ``stage()``: the one place that
times a stage, logs it and attaches the stage name (and whether the write path started) to errors."""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import ExecutionFailed, InvocationError, PlingError

if TYPE_CHECKING:
    from ..config import Settings
    from ..models import ActionDecl, Changed, RecordRef
    from ..core.sessions import Session

log = logging.getLogger("pling_browser.lifecycle")


@dataclass
class Invocation:
    session: "Session"
    ref: str
    raw_args: Any
    settings: "Settings"
    evidence: bool = True
    confirmer: Any = None
    gates: Any = None
    resumes: Any = None
    operator_secrets: dict[str, str] | None = None
    # Filled in by the stages, in order.
    decl: "ActionDecl | None" = None
    record: "RecordRef | None" = None
    args: dict[str, Any] = field(default_factory=dict)
    secret_values: list[str] = field(default_factory=list)
    control: str | None = None
    fidelity: str = "high"
    fill_value: Any = None
    target_mark: str | None = None
    started: bool = False
    evidence_begun: bool = False
    verified: bool | None = None
    approved: str | None = None  # the highest risk cleared at the start (a flow's steps are measured against it)
    confirmed: bool = False  # whether that clearance came from a policy or a person
    steps: list[dict[str, Any]] | None = None
    data: Any = None
    data_omitted: dict[str, int] | None = None
    changed: "Changed | None" = None
    error: InvocationError | None = None
    warnings: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def action_timeout_ms(self) -> float:
        return (self.decl.timeoutMs if self.decl and self.decl.timeoutMs else None) or self.settings.action_timeout_ms

    @property
    def expect_timeout_ms(self) -> float:
        declared = self.decl.expect.timeoutMs if self.decl and self.decl.expect else None
        return declared or self.settings.expect_timeout_ms

    def note(self, line: str) -> None:
        self.log.append(line)

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
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
