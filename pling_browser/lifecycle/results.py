"""What each stage produced: a frozen result the stage returns and the runner keeps on the invocation
(``Invocation.keep``), for the stages after it to read. No stage writes another's result; a result is
never changed once kept (Playwright's ``server/dom.ts`` progress results; pydantic's validators return
values). A resume hands the kept results of a failed flow back in place of the stages that made them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import JsonValue

from ..core.answers import Aim, Expected, Gesture, Refusal, Revealed
from ..models import ActionDecl, Changed, Fidelity, RecordRef

if TYPE_CHECKING:
    from ..core.sessions import Session

__all__ = ["Resolved", "Decoded", "Validated", "Clearance", "Cleared", "Ready", "Marks", "Executed", "Checked",
           "Compared", "RESULTS"]


@dataclass(frozen=True)
class Resolved:
    """resolve: the declaration (the operator's PLING_RISK applied) and, for a family, its record. An
    action a child frame declares runs in that frame: ``session`` is then the frame's view of the
    session and ``frame`` its origin."""

    decl: ActionDecl
    record: RecordRef | None
    session: Session
    frame: str | None = None
    # A function action revealed in the describe call (revealed.js): the reveal stage's answer, used
    # when every pre-check in between passed without a person (reveal.py), else its snapshot dropped.
    revealed: Revealed | Refusal | None = None


@dataclass(frozen=True)
class Decoded:
    """decode: the arguments as an object, references restored, and the values restored (so nothing
    written later repeats them)."""

    args: dict[str, JsonValue]
    secret_values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Validated:
    """validate: the arguments checked against the declared params, with their declared defaults."""

    args: dict[str, JsonValue]


@dataclass(frozen=True)
class Clearance:
    """The highest risk cleared (a flow's steps are measured against it and raise it as a person
    confirms a riskier step) and whether a policy or a person cleared it."""

    approved: str | None = None
    confirmed: bool = False

    def raised(self, risk: str, order: dict[str, int]) -> Clearance:
        if self.approved is None or order[risk] >= order[self.approved]:
            return Clearance(approved=risk, confirmed=True)
        return self


@dataclass(frozen=True)
class Cleared:
    """confirm: the clearance, and the action as the page declared it once a person approved it (the
    page is asked again after the answer, and what it declares then is what runs: ``decl`` and
    ``record``, when ``described_again``)."""

    clearance: Clearance = field(default_factory=Clearance)
    described_again: bool = False
    decl: ActionDecl | None = None
    record: RecordRef | None = None


@dataclass(frozen=True)
class Ready:
    """reveal: how the target is operated (``control``), how faithfully, the mark that finds it and
    where it lives, the declared gesture, a drag's destination, where the direct path clicks, what to
    type; whether the bridge took the before snapshot (its last call, after every pre-check) and the
    document it took it in."""

    control: str
    fidelity: Fidelity = "high"
    evidence: bool = False
    doc: str | None = None
    mark: str | None = None
    where: str = "document"
    gesture: Gesture | None = None
    drop: str | None = None
    drop_id: str | None = None
    aim: Aim | None = None
    fill_value: JsonValue = None


@dataclass(frozen=True)
class Marks:
    """Where the session's counters stood when the write path started: the egress proxy's refusals,
    the tab log's position (None: the session keeps no tabs) and the windows the page had asked to
    open. What happened after them is the action's (``changed.refused``, ``changed.tabs``)."""

    refused: int = 0
    tabs: int | None = None
    opens: int = 0


@dataclass(frozen=True)
class Executed:
    """execute: a function's result (``has_data``: it returned one), a flow's ledger."""

    has_data: bool = False
    data: JsonValue = None
    data_omitted: dict[str, int] | None = None
    steps: tuple[dict[str, JsonValue], ...] | None = None
    # run() asked with its expectation in the same call (ran.js): the expect stage's first answer, as the
    # expect operation gives it (Expected, or its Refusal), or the error of that part hanging.
    expected: Expected | Refusal | Exception | None = None


@dataclass(frozen=True)
class Checked:
    """expect: the declared expectation held (True), could not be checked on the document the action
    led to (False), or none was declared (None)."""

    verified: bool | None = None


@dataclass(frozen=True)
class Compared:
    """diff: what changed, keyed on business ids."""

    changed: Changed


RESULTS = (Resolved, Decoded, Validated, Cleared, Ready, Executed, Checked, Compared)
