"""Stage 4, confirm: a gate before side effects, not authentication. ``read`` never asks; ``write``
asks when the page declares ``confirm: true`` or the operator lists it in PLING_ASK; ``danger`` always
asks. The operator may raise a page's risk (PLING_RISK), never lower it. PLING_APPROVE (risks or
action ids) approves without asking; otherwise the confirmation channel asks a person, and with no
channel the answer is deny. A handoff is never confirmed: the person does it.

A flow is confirmed once, up front, at the highest risk of its steps resolvable now
(``flow_risk``); each step is then measured against that clearance (``confirm_step``) and asks again
only when it is riskier, or declares ``confirm: true`` under a clearance no person gave."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import PageUnresponsive, PermissionDenied, SessionLost
from ..models import ActionDecl
from .context import Invocation
from .plan import plan
from .receipt import scrub

if TYPE_CHECKING:
    from ..config import Settings

RISK_ORDER = {"read": 0, "write": 1, "danger": 2}


def operator_risk(decl: ActionDecl, settings: "Settings") -> ActionDecl:
    """The declaration with the operator's PLING_RISK applied, here in the controller: a risk raised
    by the operator holds whatever the page (or a new document) says about itself. Raise only."""
    risks = dict(settings.risks)
    raised = risks.get(decl.id) or risks.get("*")
    if raised and RISK_ORDER.get(raised, -1) > RISK_ORDER[decl.risk]:
        return decl.model_copy(update={"risk": raised})
    return decl


def needs_confirmation(risk: str, declared_confirm: bool, ask: tuple[str, ...], action_id: str) -> bool:
    if risk == "danger":
        return True
    return risk == "write" and (declared_confirm or "write" in ask or action_id in ask)


def approved_by_policy(approve: tuple[str, ...], risk: str, action_id: str, ref: str) -> str | None:
    for entry in approve:
        if entry in (risk, action_id, ref):
            return entry
    return None


def confirmation_request(inv: Invocation) -> dict[str, Any]:
    assert inv.decl is not None
    return scrub({
        "action": inv.ref,
        "description": inv.decl.description,
        "risk": inv.decl.risk,
        "record": {"id": inv.record.id, "type": inv.record.type, "label": inv.record.label} if inv.record else None,
        "args": inv.args,
        "expect": inv.decl.expect.description if inv.decl.expect else None,
    }, inv.masked_values())


async def flow_risk(inv: Invocation) -> tuple[str, bool, list[str]]:
    """The highest risk resolvable now: the flow's own and that of every step declared already. A
    step the page cannot describe because it is stuck (or gone) ends the resolution with that error."""
    assert inv.decl is not None
    risk, confirm_flag, seen = inv.decl.risk, inv.decl.confirm, []
    for step in plan(inv):
        try:
            answer = await inv.session.bridge.describe(step.ref)
        except (PageUnresponsive, SessionLost):
            raise  # a stuck or lost page fails the flow once, here, not once per step
        except Exception:
            continue  # declared only later (a dialog's button): asked for when reached, if riskier
        step_decl = operator_risk(answer.action, inv.settings)
        step_risk = step_decl.risk
        seen.append(f"{step.ref}: {step_risk}")
        confirm_flag = confirm_flag or step_decl.confirm
        if RISK_ORDER[step_risk] > RISK_ORDER[risk]:
            risk = step_risk
    return risk, confirm_flag, seen


async def confirm(inv: Invocation) -> None:
    assert inv.decl is not None
    decl = inv.decl
    if decl.kind == "handoff":
        inv.note("a handoff is never confirmed: the person does it")
        return
    risk, declared_confirm = decl.risk, decl.confirm
    if decl.kind == "flow":
        risk, declared_confirm, seen = await flow_risk(inv)
        inv.note(f"flow risk {risk} (steps resolvable now: {', '.join(seen) or 'none'})")
    if not needs_confirmation(risk, declared_confirm, inv.settings.ask, decl.id):
        inv.note(f"confirmation not needed ({risk})")
        inv.approved = risk if risk != "danger" else None
        return
    policy = approved_by_policy(inv.settings.approve, risk, decl.id, inv.ref)
    if policy:
        inv.note(f"approved by the operator's policy (PLING_APPROVE={policy})")
        inv.approved, inv.confirmed = risk, True
        return
    if inv.confirmer is None:
        raise PermissionDenied(
            f"{inv.ref} is a {risk} action and needs a person's confirmation; no confirmation channel is configured",
            denied_by="policy: no confirmation channel (PLING_CONFIRM=none) and PLING_APPROVE does not approve it",
            risk=risk)
    approved, who = await inv.confirmer.ask(inv, {**confirmation_request(inv), "risk": risk})
    if not approved:
        raise PermissionDenied(f"{inv.ref} was not confirmed ({who})", denied_by=who, risk=risk)
    inv.approved, inv.confirmed = risk, True
    inv.note(f"confirmed by {who}")


async def confirm_step(flow: Invocation, step: Invocation) -> None:
    """A flow step's confirm stage: covered by the flow's clearance unless riskier; a step confirmed
    now raises the flow's clearance for the steps after it."""
    assert step.decl is not None
    decl = step.decl
    if decl.kind == "handoff":
        step.note("a handoff is never confirmed: the person does it")
        return
    if not needs_confirmation(decl.risk, decl.confirm, flow.settings.ask, decl.id):
        return
    covered = flow.approved is not None and RISK_ORDER[decl.risk] <= RISK_ORDER[flow.approved]
    # An action the operator named in PLING_ASK is asked for wherever it runs, a flow's step too.
    named = decl.id in flow.settings.ask
    if covered and not named and (flow.confirmed or not decl.confirm):
        step.note(f"covered by the flow's confirmation ({flow.approved})")
        return
    policy = approved_by_policy(flow.settings.approve, decl.risk, decl.id, step.ref)
    if policy:
        step.note(f"approved by the operator's policy (PLING_APPROVE={policy})")
    elif flow.confirmer is None:
        raise PermissionDenied(f"Step {step.ref} is a {decl.risk} action, riskier than what was approved, and no "
                               "confirmation channel is configured",
                               denied_by="policy: no confirmation channel and PLING_APPROVE does not approve it",
                               risk=decl.risk)
    else:
        approved, who = await flow.confirmer.ask(step, {**confirmation_request(step), "flow": flow.ref})
        if not approved:
            raise PermissionDenied(f"Step {step.ref} was not confirmed ({who})", denied_by=who, risk=decl.risk)
        step.note(f"confirmed by {who}")
    if flow.approved is None or RISK_ORDER[decl.risk] >= RISK_ORDER[flow.approved]:
        flow.approved, flow.confirmed = decl.risk, True
