"""Grants against approval fatigue (SPEC, "Grants"): a person approving a confirmation may also approve
later calls of the same action (``scope: "action"``, this very ``ACTION@RECORD``) or of its family
(``scope: "family"``, any record) for ``for_s`` seconds. A grant is kept on its session, so it never
covers another session, and it covers a later call only when all of these hold:

- the same caller invokes it (the person approved that caller's request, not anyone's);
- it has not ended;
- the page still declares the action as the person saw it (description, params schema, record type:
  ``shape``), arguments aside, since a grant is for the action and not one call;
- it is no riskier than what the person approved.

Caller limits are checked before a grant is looked at (lifecycle/confirm.py), so a grant never widens
them; an operator's PLING_ASK still asks for the actions it names."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ..models import ActionDecl
    from .context import Invocation

__all__ = ["Grant", "shape", "covering", "make"]

RISK_ORDER = {"read": 0, "write": 1, "danger": 2}
KEPT = 100  # grants a session keeps (the oldest go first)


@dataclass(frozen=True)
class Grant:
    caller: str | None  # the invoking caller it approves (None: the unnamed operator)
    scope: Literal["action", "family"]
    action: str  # the action's id (a family's id)
    ref: str  # the very ACTION@RECORD (scope "action")
    risk: str
    shape: str
    by: str  # who granted it
    at: float
    until: float

    def covers(self, inv: "Invocation", risk: str, now: float) -> bool:
        assert inv.decl is not None
        return (now < self.until and _caller(inv) == self.caller
                and (inv.ref == self.ref if self.scope == "action" else inv.decl.id == self.action)
                and RISK_ORDER.get(risk, 3) <= RISK_ORDER[self.risk] and shape(inv.decl) == self.shape)


def _caller(inv: "Invocation") -> str | None:
    return inv.caller.name if inv.caller is not None else None


def shape(decl: "ActionDecl") -> str:
    """The declaration as a person sees it, arguments and risk aside (risk is compared by order)."""
    seen: dict[str, Any] = {"kind": decl.kind, "description": decl.description, "params": decl.params,
                            "record": decl.record, "steps": [step.model_dump() for step in decl.steps or ()]}
    return hashlib.sha256(json.dumps(seen, sort_keys=True, default=str).encode()).hexdigest()[:32]


def covering(inv: "Invocation", risk: str) -> Grant | None:
    """The grant in this invocation's session that covers it now, if one does (ended ones are dropped)."""
    grants: list[Grant] = inv.session.grants
    now = time.time()
    grants[:] = [grant for grant in grants if grant.until > now]
    return next((grant for grant in grants if grant.covers(inv, risk, now)), None)


def make(inv: "Invocation", risk: str, scope: Literal["action", "family"], for_s: float, by: str) -> Grant:
    """A grant for what the person just approved, kept on the session."""
    assert inv.decl is not None
    now = time.time()
    grant = Grant(caller=_caller(inv), scope=scope, action=inv.decl.id, ref=inv.ref, risk=risk, shape=shape(inv.decl),
                  by=by, at=now, until=now + for_s)
    grants: list[Grant] = inv.session.grants
    grants.append(grant)
    del grants[:-KEPT]
    return grant
