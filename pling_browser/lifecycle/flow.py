"""Composite flows: one tool to the agent, one business operation to the user, several declared
actions to the page. Steps run in order against the page as it is at each step, through the same
runner (``runner.LIFECYCLE``) as any action; none bypasses a declaration. A flow is not a
transaction: a failed step leaves the earlier steps done, and the receipt says so and hands back a
``resume`` handle that continues from the failed step."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import ResumeRepeatsStep, StepFailed
from ..models import ActionDecl, ApprovedBy, RecordRef
from .confirm import confirm_step
from .context import Invocation
from .decode import decode
from .execute import execute
from .navigation import left
from .plan import Step, plan
from .runner import StageFn, run

RESUME_TTL_S = 600


@dataclass
class FlowState:
    """What a resume handle continues: kept in memory, used once, expires."""

    session: str
    ref: str
    args: dict[str, Any]
    secret_values: list[str]
    next_step: int
    ledger: list[dict[str, Any]]
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


async def execute_action_or_flow(inv: Invocation) -> None:
    """The execute stage of an invocation: a flow runs its steps; anything else, ``execute``."""
    await (run_flow(inv) if inv.control == "flow" else execute(inv))


def resumed_stages(state: FlowState) -> dict[str, StageFn | None]:
    """What a resume replaces: no decode, validate or confirm (the arguments and the clearance were
    kept with the state); the flow's declaration is the one kept too, since the document the failed
    step left may not declare the flow (SPEC: flows across documents), so the before snapshot is taken
    in that document as it is; execute continues from the failed step."""

    def kept_declaration(inv: Invocation) -> None:
        inv.decl, inv.record = state.decl, state.record
        inv.note(f"resuming {state.ref} as declared when it failed")

    async def begin(inv: Invocation) -> None:
        answer = await inv.session.bridge.begin(inv.evidence)
        inv.evidence_begun, inv.doc, inv.control = answer.evidence, answer.doc, "flow"

    async def continue_flow(inv: Invocation) -> None:
        await run_flow(inv, start=state.next_step, ledger=state.ledger)

    return {"resolve": kept_declaration, "decode": None, "validate": None, "confirm": None, "reveal": begin,
            "execute": continue_flow}


async def _run_step(inv: Invocation, step: Step) -> Invocation:
    # A step's arguments are the page's declaration, filled from the flow's arguments. References
    # the agent sent were restored when the flow's own arguments were decoded; any reference left
    # in a step's arguments is the page's own (written in its declaration) and is never resolved:
    # the step decodes without restoring and gets no operator secrets, only the values to mask.
    child = Invocation(session=inv.session, ref=step.ref, raw_args=step.args, settings=inv.settings, evidence=False,
                       confirmer=inv.confirmer, pending_requests=inv.pending_requests, operator_secrets=None,
                       secret_values=list(inv.secret_values), caller=inv.caller)

    async def confirm_against_flow(child: Invocation) -> None:
        await confirm_step(inv, child)

    await run(child, {"decode": decode, "confirm": confirm_against_flow})
    return child


async def run_flow(inv: Invocation, start: int = 0, ledger: list[dict[str, Any]] | None = None) -> None:
    """Run the steps from `start`; raise StepFailed with the ledger and a resume handle on failure."""
    steps = plan(inv)
    ledger = list(ledger or [])
    inv.started = True
    for index in range(start, len(steps)):
        child = await _run_step(inv, steps[index])
        entry: dict[str, Any] = {"step": index + 1, "action": child.ref, "ok": child.error is None,
                                 "started": child.started}
        if child.navigated:
            entry["navigated"] = True
        if child.fidelity != "high" and child.started:
            entry["fidelity"] = child.fidelity
        inv.warnings.extend(child.warnings)
        if child.data is not None:
            entry["data"] = child.data
        if child.error is not None:
            await left(inv)
            entry["error"] = child.error.to_dict()
            ledger.append(entry)
            for later in range(index + 1, len(steps)):
                ledger.append({"step": later + 1, "action": steps[later].ref, "ok": False, "outcome": "not run"})
            handle = None
            if inv.resumes is not None:
                handle = inv.resumes.save(FlowState(session=inv.session.id, ref=inv.ref, args=inv.args,
                                                    secret_values=inv.secret_values, next_step=index,
                                                    ledger=ledger[:index], approved=inv.approved,
                                                    confirmed=inv.confirmed, step_started=child.started,
                                                    approved_by=inv.approved_by,
                                                    failed_ref=child.ref, decl=inv.decl, record=inv.record))
            done = index - start
            raise StepFailed(
                f"Step {index + 1} of {len(steps)} ({child.ref}) failed: {child.error.message}. "
                + (f"The {done} step(s) before it ran and were not undone: a flow is not a transaction."
                   if index > 0 else "No earlier step ran."),
                steps=ledger, step=index + 1, step_error=child.error.to_dict(), resume=handle,
                resume_expires_s=RESUME_TTL_S if handle else None, started=index > 0 or bool(child.started))
        entry["outcome"] = "done"
        ledger.append(entry)
        inv.note(f"step {index + 1}/{len(steps)} {child.ref}: done")
    await left(inv)
    inv.steps = ledger
    inv.note(f"flow ran {len(steps) - start} step(s); a flow is not a transaction: steps are not undone on failure")
