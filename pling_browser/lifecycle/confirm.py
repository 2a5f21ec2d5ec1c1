"""Stage 4, confirm: a gate before side effects, not authentication. ``read`` never asks; ``write``
asks when the page declares ``confirm: true`` or the operator lists it in PLING_ASK; ``danger`` always
asks. The operator may raise a page's risk (PLING_RISK), never lower it. PLING_APPROVE (risks or
action ids) approves without asking; otherwise the confirmation channel asks a person, and with no
channel the answer is deny. A handoff is never confirmed: the person does it."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import PermissionDenied
from .context import Invocation
from .receipt import scrub


class Confirmer(Protocol):
    """A confirmation channel: answers whether a person approved, and who."""

    async def ask(self, inv: Invocation, request: dict[str, Any]) -> tuple[bool, str]: ...


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
    return {
        "action": inv.ref,
        "description": inv.decl.description,
        "risk": inv.decl.risk,
        "record": {"id": inv.record.id, "type": inv.record.type, "label": inv.record.label} if inv.record else None,
        "args": scrub(inv.args, inv.secret_values),
        "expect": inv.decl.expect.description if inv.decl.expect else None,
    }


async def confirm(inv: Invocation) -> None:
    assert inv.decl is not None
    decl = inv.decl
    if decl.kind == "handoff":
        inv.note("a handoff is never confirmed: the person does it")
        return
    risk, declared_confirm = decl.risk, decl.confirm
    if decl.kind == "flow":
        from .flow import flow_risk

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
