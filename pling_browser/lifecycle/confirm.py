"""Stage 4, confirm: a gate before side effects, not authentication. First the caller's own limits
(PLING_TOKENS ``risks``, ``actions``, ``hosts``): outside them, PERMISSION_DENIED with ``denied_by:
"caller policy"`` whatever else would approve. Then ``read`` never asks; ``write`` asks when the page
declares ``confirm: true`` or the operator lists it in PLING_ASK; ``danger`` always asks. The operator
may raise a page's risk (PLING_RISK), never lower it. PLING_APPROVE (risks or action ids) approves
without asking; then a person's grant (lifecycle/grants.py); otherwise the confirmation channel asks a
person, and with no channel the answer is deny. A handoff is never confirmed: the person does it.

An approval is for what the person was shown: the request carries a ``fingerprint`` of the declaration
(description, risk, params schema, record, a flow's steps) and the arguments, and once the person
approves, the action is described again; if the page changed any of it, the approval does not apply
and the person is asked again about what the page declares now.

A flow is confirmed once, up front, at the highest risk of its steps resolvable now
(``flow_risk``); each step is then measured against that clearance (``confirm_step``) and asks again
only when it is riskier, or declares ``confirm: true`` under a clearance no person gave."""

from __future__ import annotations

import hashlib
import json
import time
from typing import TYPE_CHECKING, Any

from pydantic import JsonValue

from ..errors import PageUnresponsive, PermissionDenied, SessionLost
from ..models import ActionDecl, ApprovedBy, RecordRef
from ..plain import visible
from . import grants
from .codes import LogEvent
from .context import Invocation, PersonAnswer
from .grants import Subject
from .plan import plan
from .results import Clearance, Cleared

if TYPE_CHECKING:
    from ..config import Settings

RISK_ORDER = {"read": 0, "write": 1, "danger": 2}
ASKS = 3  # how often a person is asked again about an action the page keeps changing


def operator_risk(decl: ActionDecl, settings: Settings) -> ActionDecl:
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


def approved_by_policy(approve: tuple[str, ...], risk: str, action_id: str, ref: str,
                       frame: str | None = None) -> str | None:
    """The PLING_APPROVE entry that approves this action, or None. An action id (or ref) names the page's
    own action: a child frame of another origin that declares the same id is not approved by it (the
    operator named their app's action, not a third party's), only by an entry naming its risk."""
    named = () if frame is not None else (action_id, ref)
    for entry in approve:
        if entry == risk or entry in named:
            return entry
    return None


def subject(inv: Invocation, decl: ActionDecl, record: RecordRef | None) -> Subject:
    caller = inv.request.caller
    return Subject(ref=inv.ref, decl=decl, record=record, caller=caller.name if caller is not None else None,
                   frame=inv.frame)


def confirmation_request(inv: Invocation, about: Subject) -> dict[str, JsonValue]:
    """What a person is asked about, masked (never a restored value), before it is made visible."""
    decl, record = about.decl, about.record
    shown: dict[str, JsonValue] = inv.outbound.data({
        "action": inv.ref,
        "description": decl.description,
        "risk": decl.risk,
        "record": {"id": record.id, "type": record.type, "label": record.label} if record else None,
        "args": inv.args,
        "params": decl.params,
        "steps": [step.action for step in decl.steps] if decl.steps else None,
        "expect": decl.expect.description if decl.expect else None,
        # A child frame's action says so: the person reads whose it is, never as the page's own.
        **({"frame": about.frame} if about.frame is not None else {}),
    })
    return shown


def fingerprint(request: dict[str, Any]) -> str:
    """The request as shown, hashed (what a later description of the action is compared with)."""
    return hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()[:32]


def by_caller(inv: Invocation, risk: str, action_id: str) -> None:
    """The caller's own limits (PLING_TOKENS), before anything else: nothing approves past them."""
    caller = inv.request.caller
    if caller is None:
        return
    url = inv.session.handle.url  # "" for a page that is gone: it has no document to act on
    refused = caller.refuses(risk, action_id, inv.ref, url)
    if refused:
        raise PermissionDenied(f"{inv.ref} was refused: {refused}", denied_by="caller policy", risk=risk,
                               hint="Nothing ran. The operator sets what this caller may do (PLING_TOKENS).")


async def flow_risk(inv: Invocation, about: Subject) -> tuple[str, bool, list[JsonValue]]:
    """The highest risk resolvable now: the flow's own and that of every step declared already. A
    step the page cannot describe because it is stuck (or gone) ends the resolution with that error."""
    risk, confirm_flag = about.decl.risk, about.decl.confirm
    seen: list[JsonValue] = []
    for step in plan(about.decl, inv.args, about.record):
        try:
            answer = await inv.session.bridge.describe(step.ref)
        except (PageUnresponsive, SessionLost):
            raise  # a stuck or lost page fails the flow once, here, not once per step
        except Exception:
            continue  # declared only later (a dialog's button): asked for when reached, if riskier
        step_decl = operator_risk(answer.action, inv.settings)
        step_risk = step_decl.risk
        seen.append([step.ref, step_risk])
        confirm_flag = confirm_flag or step_decl.confirm
        if RISK_ORDER[step_risk] > RISK_ORDER[risk]:
            risk = step_risk
    return risk, confirm_flag, seen


async def _clearance(inv: Invocation, about: Subject) -> tuple[str, bool]:
    """The risk this invocation is cleared at and whether its page asks for a confirmation."""
    if about.decl.kind != "flow":
        return about.decl.risk, about.decl.confirm
    risk, declared_confirm, seen = await flow_risk(inv, about)
    inv.note(LogEvent.FLOW_RISK, risk=risk, steps=seen)
    return risk, declared_confirm


async def _described_again(inv: Invocation) -> Subject | None:
    """The action as the page declares it now; None when the page no longer declares it."""
    _same_frame(inv)
    try:
        answer = await inv.session.bridge.describe(inv.ref)
    except (PageUnresponsive, SessionLost):
        raise
    except Exception:
        return None
    return subject(inv, operator_risk(answer.action, inv.settings), answer.record)


def _same_frame(inv: Invocation) -> None:
    """PERMISSION_DENIED when the child frame that declared the action now holds a document of another
    origin: its bridge answers from whatever document the frame holds, and the person approved the
    action of the origin they were shown."""
    now = getattr(inv.session.bridge, "origin", inv.frame)  # a child frame's bridge says its document's origin
    if inv.frame is not None and now != inv.frame:
        raise PermissionDenied(f"{inv.ref} was approved for the frame of {inv.frame}, which now holds a document of "
                               f"{now or 'no origin'}", denied_by="the frame went to another origin while the person "
                               "was asked", hint="Nothing ran. Invoke it again to be asked about what the frame declares now.")


def _changed(before: dict[str, Any], after: dict[str, Any]) -> list[JsonValue]:
    return [key for key in before if before[key] != after.get(key)]


async def confirm(inv: Invocation) -> Cleared:
    assert inv.decl is not None
    about = subject(inv, inv.decl, inv.record)
    if about.decl.kind == "handoff":
        inv.note(LogEvent.HANDOFF_NOT_CONFIRMED)
        return Cleared()
    again = False  # the action as the page declared it after a person's answer is what runs
    for _ in range(ASKS):
        decl = about.decl
        risk, declared_confirm = await _clearance(inv, about)
        by_caller(inv, risk, decl.id)
        if not needs_confirmation(risk, declared_confirm, inv.settings.ask, decl.id):
            inv.note(LogEvent.CONFIRMATION_NOT_NEEDED, risk=risk)
            return _cleared(Clearance(approved=risk if risk != "danger" else None), again, about)
        if _approved_without_asking(inv, about, risk):
            return _cleared(Clearance(approved=risk, confirmed=True), again, about)
        if inv.request.confirmer is None:
            raise PermissionDenied(
                f"{inv.ref} is a {risk} action and needs a person's confirmation; no confirmation channel is configured",
                denied_by="policy: no confirmation channel (PLING_CONFIRM=none) and PLING_APPROVE does not approve it",
                risk=risk)
        shown = {**confirmation_request(inv, about), "risk": risk}
        answer = await _ask(inv, inv, shown, risk)
        described = await _described_again(inv)
        if described is None:
            raise PermissionDenied(f"{inv.ref} was approved, but the page no longer declares it as it was shown",
                                   denied_by="the page withdrew the action while the person was asked", risk=risk)
        about, again = described, True
        now = {**confirmation_request(inv, about), "risk": (await _clearance(inv, about))[0]}
        if fingerprint(now) == fingerprint(shown):
            _approved_by_person(inv, about, risk, answer)
            return _cleared(Clearance(approved=risk, confirmed=True), again, about)
        inv.note(LogEvent.CHANGED_WHILE_ASKED, changed=_changed(shown, now))
    raise PermissionDenied(f"{inv.ref} was not run: the page changed it each time the person was asked",
                           denied_by="the page changed the action while the person was asked", risk=about.decl.risk)


def _cleared(clearance: Clearance, again: bool, about: Subject) -> Cleared:
    if not again:
        return Cleared(clearance=clearance)
    return Cleared(clearance=clearance, described_again=True, decl=about.decl, record=about.record)


def _approved_without_asking(inv: Invocation, about: Subject, risk: str) -> bool:
    """PLING_APPROVE, then a person's grant (never for an action named in PLING_ASK); True (and who
    approved kept) when one approves."""
    policy = approved_by_policy(inv.settings.approve, risk, about.decl.id, inv.ref, about.frame)
    if policy:
        inv.note(LogEvent.APPROVED_BY_POLICY, entry=policy)
        inv.journal.approved(ApprovedBy(caller="operator", via="policy", at=time.time(), policy=f"PLING_APPROVE={policy}"))
        return True
    if about.decl.id in inv.settings.ask:
        return False  # the operator asks for it every time: a person's earlier grant does not answer now
    grant = grants.covering(inv.session.grants, about, risk)
    if grant is None:
        return False
    inv.note(LogEvent.APPROVED_BY_GRANT, by=grant.by, scope=grant.scope,
             what=grant.ref if grant.scope == "action" else grant.action, until=grant.until)
    inv.journal.approved(ApprovedBy(caller=grant.by, via="grant", at=time.time(), until=grant.until))
    return True


async def _ask(inv: Invocation, asking: Invocation, shown: dict[str, JsonValue], risk: str) -> PersonAnswer:
    """Ask a person about `shown` (made visible: no invisible or direction-changing character); the
    answer when approved, else PERMISSION_DENIED naming who denied."""
    assert inv.request.confirmer is not None
    request = {**visible(shown), "fingerprint": fingerprint(shown)}
    approved, who, answer = await inv.request.confirmer.ask(asking, request)
    if not approved or answer is None:
        details: dict[str, Any] = {"answered_by": answer.by} if answer is not None else {}
        raise PermissionDenied(f"{asking.ref} was not confirmed ({who})", denied_by=who, risk=risk, **details)
    return answer


def _approved_by_person(asking: Invocation, about: Subject, risk: str, answer: PersonAnswer) -> None:
    """`asking` (the invocation, or a flow's step) approved by a person: who approved is kept, and the
    grant the person made with the answer."""
    asking.note(LogEvent.CONFIRMED_BY_PERSON, by=answer.by)
    asking.journal.approved(ApprovedBy(caller=answer.by, via="person", at=answer.at))
    if answer.grant:
        grant = grants.make(asking.session.grants, about, risk, answer.grant["scope"], float(answer.grant["for_s"]),
                            answer.by)
        asking.note(LogEvent.GRANTED, by=answer.by, scope=grant.scope, for_s=answer.grant["for_s"])


async def confirm_step(flow: Invocation, clearance: Clearance, step: Invocation) -> Cleared:
    """A flow step's confirm stage: inside the caller's limits; covered by the flow's clearance unless
    riskier; a step confirmed now raises the flow's clearance for the steps after it (the clearance
    the step's result carries)."""
    assert step.decl is not None
    decl = step.decl
    if decl.kind == "handoff":
        step.note(LogEvent.HANDOFF_NOT_CONFIRMED)
        return Cleared(clearance=clearance)
    by_caller(step, decl.risk, decl.id)
    if not needs_confirmation(decl.risk, decl.confirm, flow.settings.ask, decl.id):
        return Cleared(clearance=clearance)
    covered = clearance.approved is not None and RISK_ORDER[decl.risk] <= RISK_ORDER[clearance.approved]
    # An action the operator named in PLING_ASK is asked for wherever it runs, a flow's step too.
    named = decl.id in flow.settings.ask
    if covered and not named and (clearance.confirmed or not decl.confirm):
        step.note(LogEvent.COVERED_BY_FLOW, approved=clearance.approved)
        return Cleared(clearance=clearance)
    about, again = subject(step, decl, step.record), False
    if _approved_without_asking(step, about, decl.risk):
        pass
    elif flow.request.confirmer is None:
        raise PermissionDenied(f"Step {step.ref} is a {decl.risk} action, riskier than what was approved, and no "
                               "confirmation channel is configured",
                               denied_by="policy: no confirmation channel and PLING_APPROVE does not approve it",
                               risk=decl.risk)
    else:
        shown = {**confirmation_request(step, about), "flow": flow.ref}
        answer = await _ask(flow, step, shown, decl.risk)
        described = await _described_again(step)
        if described is None or fingerprint({**confirmation_request(step, described), "flow": flow.ref}) != \
                fingerprint(shown):
            raise PermissionDenied(f"Step {step.ref} was approved, but the page changed it while the person was asked",
                                   denied_by="the page changed the action while the person was asked", risk=decl.risk)
        about, again = described, True
        _approved_by_person(step, about, decl.risk, answer)
    return _cleared(clearance.raised(decl.risk, RISK_ORDER), again, about)
