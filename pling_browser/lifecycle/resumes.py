"""Where a failed flow waits to be resumed: its kept state, in memory, used once, expiring. The flow
(lifecycle/flow.py) saves it when a step fails; ``lifecycle.resume`` hands the kept results back to the
runner in place of the stages they came from."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from pydantic import JsonValue

from ..errors import ResumeRepeatsStep
from ..models import ActionDecl, ApprovedBy, RecordRef

RESUME_TTL_S = 600


@dataclass(frozen=True)
class FlowState:
    """What a resume handle continues: the flow's arguments, clearance and declaration as they were
    when a step failed, and the steps that ran."""

    session: str
    ref: str
    args: dict[str, JsonValue]
    secret_values: tuple[str, ...]
    next_step: int
    ledger: tuple[dict[str, JsonValue], ...]
    approved: str | None
    confirmed: bool
    step_started: bool = False  # the failed step started: its effect may have landed
    approved_by: ApprovedBy | None = None
    decl: ActionDecl | None = None  # the flow as declared when it failed
    record: RecordRef | None = None
    failed_ref: str = ""  # the failed step's action
    expires: float = field(default_factory=lambda: time.time() + RESUME_TTL_S)


class Resumes:
    def __init__(self) -> None:
        self._states: dict[str, FlowState] = {}

    def save(self, state: FlowState) -> str:
        now = time.time()
        for handle in [h for h, s in self._states.items() if s.expires < now]:
            del self._states[handle]
        handle = "r_" + secrets.token_urlsafe(12)
        self._states[handle] = state
        return handle

    def claim(self, session: str, handle: str, repeat_started_step: bool = False) -> FlowState | None:
        """The state to continue (used once), or None. A failed step that started is not run again
        unless asked: ``ResumeRepeatsStep`` names it, and the handle stays valid."""
        state = self._states.get(handle)
        if state is None or state.session != session:
            return None
        if state.expires < time.time():
            del self._states[handle]
            return None
        if state.step_started and not repeat_started_step:
            step = state.next_step + 1
            raise ResumeRepeatsStep(
                f"Step {step} ({state.failed_ref}) started before it failed: its effect may have landed, so resume "
                f"does not run it again unless asked (repeat_started_step: true)", step=step, action=state.failed_ref)
        del self._states[handle]
        return state
