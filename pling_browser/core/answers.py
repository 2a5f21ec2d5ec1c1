"""What the bridge answers, typed. Every operation of js_bridge/entry.js answers a JSON string tagged
``{"ok": true, …}`` or ``{"ok": false, "code": …}``; ``core/bridge.py`` validates it into one of the
models below, so the lifecycle stages read fields, never dict keys the page could have bent.

An answer that does not validate is not the page's fault and not the action's outcome: it is a bug
in the bridge or an answer the page forged (``BridgeBug``), logged as ours.
"""

from __future__ import annotations

import enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import ActionDecl, Changed, Fidelity, RecordRef
from ..pages import PageRef


class BridgeCode(str, enum.Enum):
    """Why the bridge said no (``{"ok": false, "code": …}``)."""

    # describe: the reference does not resolve now
    NOT_FOUND = "not_found"
    RECORD_REQUIRED = "record_required"
    NOT_A_FAMILY = "not_a_family"
    NO_RECORDS = "no_records"
    RECORD_NOT_FOUND = "record_not_found"
    # reveal, run, expect, handoff: the action went away, says no, threw or took too long
    GONE = "gone"
    UNAVAILABLE = "unavailable"
    THREW = "threw"
    TIMEOUT = "timeout"
    # expect: the expectation never held, or held and was rolled back once the page settled
    NEVER = "never"
    REVERTED = "reverted"
    # diff: there is no before snapshot (the document that held it was replaced)
    NO_SNAPSHOT = "no_snapshot"
    # known: the page no longer declares the action the controller named as it was (known.js): nothing ran
    STALE = "stale"
    # an exception escaped an operation, or an unknown operation: ours, never the page's
    BRIDGE_BUG = "bridge_bug"


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    ok: Literal[True] = True


class Settled(BaseModel):
    """How the page settled: ``settled`` false when the cap ran out with ``pending`` requests."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    settled: bool
    ms: float = 0
    pending: int = 0  # requests the action started, still unanswered
    timers: int = 0  # timers (at most 500 ms) it queued, still due
    # frames waited for; 0: the frame after the action had rendered, quiet, before settling began, or (a
    # read, known.js) the action changed nothing and queued nothing: there was nothing to render
    frames: int = 0


class Settling(_Answer):
    """settle: how the page settled."""

    settled: Settled


class Refusal(BaseModel):
    """``{"ok": false, …}``: the code and what the bridge says about it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    ok: Literal[False] = False
    code: BridgeCode
    reason: str | None = None  # unavailable: the page's reason
    error: str | None = None  # threw, timeout, never, reverted: what the page's function said
    available: list[str] = Field(default_factory=list)  # describe: the action ids declared now
    record: str | None = None  # describe: the record type the family acts on
    total: int | None = None  # describe: how many records of that type there are
    log: list[str] = Field(default_factory=list)  # reveal: what was tried before saying no
    polls: int | None = None  # expect
    ms: float | None = None  # expect: when it held (reverted) or how long it was polled (never)
    settled: Settled | None = None  # expect
    doc: str | None = None  # run, expect: the document that answered (navigate.js)
    leaving: bool = False  # run, expect: that document started to leave


class Described(_Answer):
    """describe: the declaration and, for a family, the record named."""

    action: ActionDecl
    record: RecordRef | None = None
    # Asked with `reveal` (revealed.js): for a function action, the reveal's answer from the same call,
    # Revealed or a Refusal as the reveal operation would have answered it.
    revealed: dict[str, Any] | None = None
    seq: int | None = None  # which declaration this is (an action asked again names it: known.js, reveal.js)
    doc: str | None = None  # the document that declares it (navigate.js)


Control = Literal["button", "link", "checkbox", "text", "select", "gesture", "synthetic", "function", "flow", "handoff"]


class Aim(BaseModel):
    """Where the direct path clicks (gesture.js): the centre of the target's first box, in view and
    hit-tested in the same call as reveal; or ``why`` it is not taken (Playwright's path runs)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    x: float | None = None
    y: float | None = None
    scrolled: bool = False
    checked: bool | None = None  # a checkbox's state before the click
    fill: bool = False  # a text field focused and its text selected for a direct fill (fill.js)
    why: str | None = None


class Chosen(_Answer):
    """choose: the select's option set directly as Playwright's select_option sets it (``chosen``), or
    ``why`` not (then Playwright's path runs)."""

    chosen: bool = False
    why: str | None = None


class Landed(_Answer):
    """landed: whether the direct click's events reached the target (``landed``), were swallowed by the
    guard because the first of them hit another element (``missed``: nothing of the page's ran), or
    reached no element of this document (``nowhere``, ``unarmed``). A direct fill's ``typed`` sent
    with its insertion answers ``waiting`` when the page had not seen the insertion within its wait
    (the guard kept; asked again once the insertion answered: core/fills.py)."""

    landed: Literal["landed", "missed", "nowhere", "unarmed", "waiting"]
    events: int = 0
    clicked: bool = False
    checked: bool | None = None  # a checkbox's state after the click
    doc: str | None = None  # the document that answered: another than the action's means the click navigated
    expected: dict[str, Any] | None = None  # a direct fill's expectation, asked with `typed` (fill.js)


class Point(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    x: float = Field(ge=0)
    y: float = Field(ge=0)


class Gesture(BaseModel):
    """A declared gesture as the bridge normalised it (js_bridge/registry.js has the grammar): one of
    ``act`` (the element itself; with ``at``, the pointer at that point of it), ``drag`` (onto another record's element; ``drop``: let go a quarter
    past its centre, the default, or at its ``centre``), or keys: ``type`` (the value keystroke by
    keystroke), ``press`` (a key, after the typing when there is any) and ``commit`` (how typing
    ends: ``blur``, ``enter`` or ``none``; unset: ``blur``)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    act: Literal["click", "dblclick", "focus", "hover"] | None = None
    press: str | None = Field(default=None, max_length=40, pattern=r"^[A-Za-z0-9+]+$")
    type: bool = False
    commit: Literal["blur", "enter", "none"] | None = None
    drag: str | None = Field(default=None, max_length=256)
    dragType: str | None = None
    drop: Literal["past", "centre"] | None = None  # where a drag lets go (None: 'past')
    at: Point | None = None  # a hover or click at this point of the element (px from its top left), not its centre

    def declared(self) -> str:
        """The declaration, written back as the page wrote it (a point as the invocation resolved it),
        for the receipt's log."""
        if self.act and self.at:
            return f"{{{self.act}: {{x: {self.at.x:g}, y: {self.at.y:g}}}}}"
        if self.act:
            return repr(self.act)
        if self.drag:
            record = f", record: {self.dragType!r}" if self.dragType else ""
            drop = f", drop: {self.drop!r}" if self.drop else ""
            return f"{{drag: {self.drag!r}{record}{drop}}}"
        parts = [part for part in ("type: true" if self.type else "", f"press: {self.press!r}" if self.press else "",
                                   f"commit: {self.commit!r}" if self.commit else "") if part]
        return "{" + ", ".join(parts) + "}"


class Revealed(_Answer):
    """reveal: the action is available and its target (if any) is visible and marked; with
    evidence on, the before snapshot was taken in the same call."""

    control: Control
    fidelity: Fidelity = "high"
    tag: str | None = None
    mark: str | None = None
    # where the marked target lives: this document (open shadow roots too), a same-origin frame, or
    # behind a closed shadow root (reached only through a handle on the element itself)
    where: Literal["document", "frame", "closed_shadow"] = "document"
    # the gesture the declaration names instead of the control's own (None: the control's own)
    gesture: Gesture | None = None
    drop: str | None = None  # a drag's destination, marked as the target is
    dropId: str | None = None  # the record it belongs to
    log: list[str] = Field(default_factory=list)
    evidence: bool = False
    doc: str | None = None  # the document's bridge id: another id later means the action left it
    aim: Aim | None = None  # asked for a button, link or checkbox in this document: the direct path


class Ran(_Answer):
    """run: the page's ``run()`` returned; ``data`` is its bounded result when it returned one."""

    has_data: bool = False
    data: Any = None
    omitted: dict[str, int] | None = None
    leaving: bool = False  # a cross-document navigation started (navigate.js)
    doc: str | None = None  # the document that answered
    # Asked with `expect` (ran.js): the expectation's answer from the same call, Expected or a Refusal
    # as the expect operation would have answered it; absent when run() failed or its document is leaving.
    expected: dict[str, Any] | None = None


class KnownAnswer(_Answer):
    """known (known.js): an action described before, revealed, run and checked in one call. ``revealed`` is
    the reveal's answer (Revealed or a Refusal); ``ran`` run's with its expectation (Ran or a Refusal),
    absent when the reveal refused (nothing ran)."""

    revealed: dict[str, Any]
    ran: dict[str, Any] | None = None


class Diffed(_Answer):
    """diff: what changed since the before snapshot, keyed on business ids."""

    changed: Changed


class Expected(_Answer):
    """expect: the expectation held (``declared``) or none was declared; then how the page settled."""

    declared: bool
    polls: int | None = None
    ms: float | None = None
    settled: Settled | None = None
    leaving: bool = False  # the document started to leave: the expectation is checked on the next one
    doc: str | None = None  # the document that answered
    diffed: Diffed | None = None  # asked with `diff`: the after snapshot, taken the moment the page settled


class Whoami(_Answer):
    """whoami: which document answers (its bridge id), what it declared, whether it is leaving."""

    doc: str
    page: PageRef
    ready: str = "complete"
    declared: bool = False
    leaving: bool = False


class Begun(_Answer):
    """begin: a resumed flow's before snapshot (evidence on) or start mark, in this document."""

    evidence: bool = False
    doc: str


class Adopted(_Answer):
    doc: str
    carry: bool = False
    trusted: bool = False  # the binding was taken as the document started, before any script of the page's


class Restored(_Answer):
    values: dict[str, str] = Field(default_factory=dict)


class Protected(_Answer):
    """protect: how many values this document now masks (at most 100)."""

    protected: int = 0


class Masked(_Answer):
    marked: int = 0


class HandoffState(_Answer):
    done: bool
    error: str | None = None


class Done(_Answer):
    """An operation that answers only that it was done (release, configure, synthetic, interaction, toolAnswer)."""


def ran_from(payload: dict[str, Any]) -> dict[str, Any]:
    """The run answer as JSON carries ``data`` only when there is some; say so explicitly."""
    return {**payload, "has_data": "data" in payload}


class Attribute(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    value: str = Field(max_length=200)
    css: str = Field(max_length=500)  # the locator a draft writes for it
    shown: int = 0  # how many shown elements the locator finds now (one: it names this control)


class Reached(_Answer):
    """pointedAt, focused, pointedAgain (demonstration.js): the control a person's input reached, what
    kind it is and what it holds; ``found`` false: no control there. Its role, accessible name (and
    how many shown elements share them) and stable attributes are read afterwards with the helpers
    every draft carries (``read_demonstrated``), so they are the draft's own view of it."""

    found: bool = False
    kind: Literal["click", "text", "select", "check", "other"] = "other"
    role: str | None = Field(default=None, max_length=40)
    name: str = Field(default="", max_length=200)
    tag: str = Field(default="", max_length=40)
    type: str | None = Field(default=None, max_length=40)
    sharing: int = 0
    attrs: dict[str, Attribute] = Field(default_factory=dict)
    sensitive: bool = False
    value: str | None = Field(default=None, max_length=4000)
    checked: bool | None = None
    options: list[str] = Field(default_factory=list, max_length=100)

