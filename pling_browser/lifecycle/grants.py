"""Grants against approval fatigue (SPEC, "Grants"): a person approving a confirmation may also approve
later calls of the same action (``scope: "action"``, this very ``ACTION@RECORD``) or of its family
(``scope: "family"``, any record) for ``for_s`` seconds. A grant is kept on its session, so it never
covers another session, and it covers a later call only when all of these hold:

- the same caller invokes it (the person approved that caller's request, not anyone's);
- it has not ended;
- the page still declares the action as the person saw it (description, params schema, record type:
  ``shape``), arguments aside, since a grant is for the action and not one call;
- it is no riskier than what the person approved;
- the same document declares it: the page itself, or a child frame of the same origin (a grant for a
  frame's action is not one for the page's action of that id, nor the other way round).

Caller limits are checked before a grant is looked at (lifecycle/confirm.py), so a grant never widens
them; an operator's PLING_ASK still asks for the actions it names."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

if TYPE_CHECKING:
    from ..models import ActionDecl, RecordRef

__all__ = ["Grant", "Subject", "shape", "covering", "make"]

RISK_ORDER = {"read": 0, "write": 1, "danger": 2}
KEPT = 100  # grants a session keeps (the oldest go first)


class Asked(TypedDict):
    """The grant a person makes with an approval (SPEC: ``{"scope": "action"|"family", "for_s": N}``)."""

    scope: Literal["action", "family"]
    for_s: float


@dataclass(frozen=True)
class Subject:
    """What is approved: the action as the page declares it at this moment, and who invokes it."""

    ref: str  # the very ACTION@RECORD
    decl: ActionDecl
    record: RecordRef | None
    caller: str | None  # the invoking caller's name (None: the unnamed operator)
    frame: str | None = None  # the origin of the child frame that declares it (None: the page itself)


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
    frame: str | None = None  # the origin of the child frame whose action it approves (None: the page's)

    def covers(self, subject: Subject, risk: str, now: float) -> bool:
        return (now < self.until and subject.caller == self.caller and subject.frame == self.frame
                and (subject.ref == self.ref if self.scope == "action" else subject.decl.id == self.action)
                and RISK_ORDER.get(risk, 3) <= RISK_ORDER[self.risk] and shape(subject.decl) == self.shape)


def shape(decl: ActionDecl) -> str:
    """The declaration as a person sees it, arguments and risk aside (risk is compared by order)."""
    seen: dict[str, Any] = {"kind": decl.kind, "description": decl.description, "params": decl.params,
                            "record": decl.record, "steps": [step.model_dump() for step in decl.steps or ()]}
    return hashlib.sha256(json.dumps(seen, sort_keys=True, default=str).encode()).hexdigest()[:32]


def covering(grants: list[Grant], subject: Subject, risk: str) -> Grant | None:
    """The grant of a session (its ``grants``) that covers the subject now, if one does (ended ones are
    dropped)."""
    now = time.time()
    grants[:] = [grant for grant in grants if grant.until > now]
    return next((grant for grant in grants if grant.covers(subject, risk, now)), None)


def make(grants: list[Grant], subject: Subject, risk: str, scope: Literal["action", "family"], for_s: float,
         by: str) -> Grant:
    """A grant for what the person just approved, kept in the session's ``grants``."""
    now = time.time()
    grant = Grant(caller=subject.caller, scope=scope, action=subject.decl.id, ref=subject.ref, risk=risk,
                  shape=shape(subject.decl), by=by, at=now, until=now + for_s, frame=subject.frame)
    grants.append(grant)
    del grants[:-KEPT]
    return grant
