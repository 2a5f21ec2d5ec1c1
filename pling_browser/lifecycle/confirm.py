"""Stage 4, confirm: a gate before side effects, not authentication. ``read`` never asks; ``write``
asks when the page declares ``confirm: true``; ``danger`` always asks. The operator's policy
(PLING_APPROVE: risks or action ids) approves without asking; otherwise a confirmation channel asks a
person, and with no channel the answer is deny."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import PermissionDenied
from .context import Invocation


class Confirmer(Protocol):
    """A confirmation channel: answers whether a person approved, and who."""

    async def ask(self, inv: Invocation, request: dict[str, Any]) -> tuple[bool, str]: ...


def needs_confirmation(risk: str, declared_confirm: bool) -> bool:
    return risk == "danger" or (risk == "write" and declared_confirm)


def approved_by_policy(approve: tuple[str, ...], risk: str, action_id: str, ref: str) -> str | None:
    for entry in approve:
        if entry in (risk, action_id, ref):
            return entry
    return None


async def confirm(inv: Invocation) -> None:
    assert inv.decl is not None
    decl = inv.decl
    if not needs_confirmation(decl.risk, decl.confirm):
        inv.note(f"confirmation not needed ({decl.risk})")
        return
    policy = approved_by_policy(inv.settings.approve, decl.risk, decl.id, inv.ref)
    if policy:
        inv.note(f"approved by the operator's policy (PLING_APPROVE={policy})")
        return
    if inv.confirmer is None:
        raise PermissionDenied(
            f"{inv.ref} is a {decl.risk} action and needs a person's confirmation; no confirmation channel is configured",
            denied_by="policy: no confirmation channel (PLING_CONFIRM=none) and PLING_APPROVE does not approve it",
            risk=decl.risk)
    request = {"action": inv.ref, "description": decl.description, "risk": decl.risk,
               "record": inv.record.model_dump() if inv.record else None,
               "expect": decl.expect.description if decl.expect else None}
    approved, who = await inv.confirmer.ask(inv, request)
    if not approved:
        raise PermissionDenied(f"{inv.ref} was not confirmed: {who}", denied_by=who, risk=decl.risk)
    inv.note(f"confirmed by {who}")
