"""Composite flows: one tool to the agent, one business operation to the user, several declared
actions to the page. Steps run in order against the page as it is at each step, through the same
resolve, decode, validate, reveal, execute and expect stages as any action; none bypasses a
declaration. A flow is not a transaction: a failed step leaves the earlier steps done, and the
receipt says so and hands back a ``resume`` handle that continues from the failed step."""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvocationError, PermissionDenied, StepFailed
from .confirm import approved_by_policy, confirmation_request, needs_confirmation
from .context import Invocation
from .decode import decode, restore_references
from .execute import execute
from .expect import expect
from .resolve import resolve
from .reveal import reveal
from .validate import validate

RISK_ORDER = {"read": 0, "write": 1, "danger": 2}
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
RESUME_TTL_S = 600


@dataclass
class Step:
    ref: str
    args: Any


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
    expires: float = field(default_factory=lambda: time.time() + RESUME_TTL_S)


class Resumes:
    def __init__(self) -> None:
        self._states: dict[str, FlowState] = {}

    def keep(self, state: FlowState) -> str:
        now = time.time()
        for handle in [h for h, s in self._states.items() if s.expires < now]:
            del self._states[handle]
        handle = "r_" + secrets.token_urlsafe(12)
        self._states[handle] = state
        return handle

    def take(self, session: str, handle: str) -> FlowState | None:
        state = self._states.get(handle)
        if state is None or state.session != session:
            return None
        del self._states[handle]
        return state if state.expires >= time.time() else None


def _fill(template: Any, values: dict[str, Any]) -> Any:
    """`{name}` placeholders from the flow's arguments (and `{record}`); a string that is exactly one
    placeholder takes the value with its type."""
    if isinstance(template, str):
        whole = PLACEHOLDER.fullmatch(template)
        if whole and whole.group(1) in values:
            return values[whole.group(1)]
        return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)
    if isinstance(template, dict):
        return {key: _fill(value, values) for key, value in template.items()}
    if isinstance(template, list):
        return [_fill(value, values) for value in template]
    return template


def plan(inv: Invocation) -> list[Step]:
    assert inv.decl is not None and inv.decl.steps is not None
    values = dict(inv.args)
    if inv.record is not None:
        values["record"] = inv.record.id
    return [Step(ref=str(_fill(step.action, values)), args=_fill(step.args, values) or {}) for step in inv.decl.steps]


async def flow_risk(inv: Invocation) -> tuple[str, bool, list[str]]:
    """The highest risk resolvable now: the flow's own and that of every step declared already."""
    assert inv.decl is not None
    risk, confirm_flag, seen = inv.decl.risk, inv.decl.confirm, []
    for step in plan(inv):
        try:
            answer = await inv.session.bridge.describe(step.ref)
        except Exception:
            continue  # declared only later (a dialog's button): asked for when reached, if riskier
        step_risk = answer["action"]["risk"]
        seen.append(f"{step.ref}: {step_risk}")
        confirm_flag = confirm_flag or bool(answer["action"]["confirm"])
        if RISK_ORDER[step_risk] > RISK_ORDER[risk]:
            risk = step_risk
    return risk, confirm_flag, seen


async def _confirm_step(inv: Invocation, child: Invocation) -> None:
    assert child.decl is not None
    decl = child.decl
    if decl.kind == "handoff":
        child.note("a handoff is never confirmed: the person does it")
        return
    if not needs_confirmation(decl.risk, decl.confirm, inv.settings.ask, decl.id):
        return
    covered = inv.approved is not None and RISK_ORDER[decl.risk] <= RISK_ORDER[inv.approved]
    if covered and (inv.confirmed or not decl.confirm):
        child.note(f"covered by the flow's confirmation ({inv.approved})")
        return
    policy = approved_by_policy(inv.settings.approve, decl.risk, decl.id, child.ref)
    if policy:
        child.note(f"approved by the operator's policy (PLING_APPROVE={policy})")
    elif inv.confirmer is None:
        raise PermissionDenied(f"Step {child.ref} is a {decl.risk} action, riskier than what was approved, and no "
                               "confirmation channel is configured",
                               denied_by="policy: no confirmation channel and PLING_APPROVE does not approve it",
                               risk=decl.risk)
    else:
        approved, who = await inv.confirmer.ask(child, {**confirmation_request(child), "flow": inv.ref})
        if not approved:
            raise PermissionDenied(f"Step {child.ref} was not confirmed ({who})", denied_by=who, risk=decl.risk)
        child.note(f"confirmed by {who}")
    if inv.approved is None or RISK_ORDER[decl.risk] >= RISK_ORDER[inv.approved]:
        inv.approved, inv.confirmed = decl.risk, True


async def _run_step(inv: Invocation, step: Step) -> Invocation:
    child = Invocation(session=inv.session, ref=step.ref, raw_args=step.args, settings=inv.settings, evidence=False,
                       confirmer=inv.confirmer, gates=inv.gates, operator_secrets=inv.operator_secrets)
    try:
        with child.stage("resolve"):
            await resolve(child)
        with child.stage("decode"):
            decode(child)
            await restore_references(child, inv.operator_secrets)
        with child.stage("validate"):
            validate(child)
        with child.stage("confirm"):
            await _confirm_step(inv, child)
        with child.stage("reveal"):
            await reveal(child)
        with child.stage("execute"):
            await execute(child)
        with child.stage("expect"):
            await expect(child)
    except InvocationError as error:
        child.error = error
    return child


async def run_flow(inv: Invocation, start: int = 0, ledger: list[dict[str, Any]] | None = None) -> None:
    """Run the steps from `start`; raise StepFailed with the ledger and a resume handle on failure."""
    steps = plan(inv)
    ledger = list(ledger or [])
    inv.started = True
    for index in range(start, len(steps)):
        child = await _run_step(inv, steps[index])
        entry: dict[str, Any] = {"step": index + 1, "action": child.ref, "ok": child.error is None}
        if child.fidelity != "high" and child.started:
            entry["fidelity"] = child.fidelity
        inv.warnings.extend(child.warnings)
        if child.data is not None:
            entry["data"] = child.data
        if child.error is not None:
            entry["error"] = child.error.to_dict()
            ledger.append(entry)
            for later in range(index + 1, len(steps)):
                ledger.append({"step": later + 1, "action": steps[later].ref, "ok": False, "outcome": "not run"})
            handle = None
            if inv.resumes is not None:
                handle = inv.resumes.keep(FlowState(session=inv.session.id, ref=inv.ref, args=inv.args,
                                                    secret_values=inv.secret_values, next_step=index,
                                                    ledger=ledger[:index], approved=inv.approved,
                                                    confirmed=inv.confirmed))
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
    inv.steps = ledger
    inv.note(f"flow ran {len(steps) - start} step(s); a flow is not a transaction: steps are not undone on failure")
