"""Pydantic models of what crosses the boundaries: the page model the bridge reads, the receipt an
invocation answers (the HTTP API's bodies are in bodies.py). The bridge's JSON is validated into these once;
the lifecycle works on them, never on raw dicts from the page."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    model_serializer,
)

from .errors import INVOCATION_CODES
from .pages import PageChange, RefusedAddress, TabsChange

Risk = Literal["read", "write", "danger"]
Fidelity = Literal["high", "auto", "low"]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---- the page model -------------------------------------------------------------------------


class PageInfo(_Data):
    id: str | None
    name: str | None
    url: str
    title: str
    adapter: list[str] | None = Field(default=None, description="The operator's adapter files (PLING_ADAPTERS) "
                                      "that declared this document's model, in the order they ran.")


class RegionRecords(_Data):
    shown: int
    total: int


class Region(_Data):
    id: str
    name: str | None = None
    purpose: str | None = None
    role: str | None = None
    parent: str | None = None
    actions: int = 0
    records: RegionRecords | None = None
    more: Any = None
    frame: str | None = Field(default=None, description="The origin of the child frame that declared it (absent: the page itself).")


class ActionInfo(_Data):
    id: str
    title: str | None = None
    description: str | None = None
    region: str | None = None
    risk: Risk = "write"
    kind: Literal["action", "flow", "handoff"] = "action"
    record: str | None = None
    params: dict[str, Any] | None = None
    confirm: bool = False
    steps: list[str] | None = None
    available: bool
    reason: str | None = None
    frame: str | None = Field(default=None, description="The origin of the child frame that declared it (absent: the page itself).")


class RecordItem(_Data):
    id: str
    label: Any = None
    region: str | None = None
    fields: dict[str, Any] = Field(default_factory=dict)
    unavailable: dict[str, str | None] | None = None


class RecordOmitted(_Data):
    ids: int
    items: int


class RecordSet(_Data):
    total: int
    ids: list[str]
    items: list[RecordItem]
    omitted: RecordOmitted
    offset: int | None = None
    frame: str | None = Field(default=None, description="The origin of the child frame that declared it (absent: the page itself).")


class StateEntry(_Data):
    value: Any = None
    description: str | None = None
    frame: str | None = Field(default=None, description="The origin of the child frame that declared it (absent: the page itself).")


class FeedbackEntry(_Data):
    kind: Literal["error", "warning", "info", "success"]
    text: str
    frame: str | None = Field(default=None, description="The origin of the child frame that declared it (absent: the page itself).")


class Problem(_Data):
    where: str
    problem: str


class OmittedFrame(_Data):
    """A child frame whose declarations are not in the model, and why (its origin is not allowed, it
    went away or did not answer in time)."""

    origin: str
    reason: str
    url: str = ""


class FrameInfo(_Data):
    """A child frame whose declarations are in the model (each marked ``frame: ORIGIN``)."""

    origin: str
    url: str
    id: str | None = None
    name: str | None = None
    adapter: list[str] | None = None


class ModelOmitted(_Data):
    regions: int = 0
    actions: int = 0
    state: int = 0
    chars: int = 0
    items: int = 0
    keys: int = 0
    depth: int = 0
    frames: list[OmittedFrame] = Field(default_factory=list, description="Child frames whose declarations are not "
                                       "read, each with its origin and the reason.")


class PageModel(_Data):
    """The bounded capability model of one page, as an agent reads it."""

    page: PageInfo
    regions: list[Region]
    actions: list[ActionInfo]
    records: dict[str, RecordSet]
    state: dict[str, StateEntry]
    feedback: list[FeedbackEntry]
    omitted: ModelOmitted
    problems: list[Problem]
    frames: list[FrameInfo] = Field(default_factory=list, description="Child frames whose declarations are in this "
                                    "model (a frame of another origin declares in its own document).")
    tab: str | None = Field(default=None, description="The session's tab this model is of (`t1`, `t2`…).")


# ---- what an invocation resolved to -------------------------------------------------------------


class ExpectDecl(_Data):
    description: str | None = None
    timeoutMs: float | None = None


class StepDecl(_Data):
    action: str
    args: Any = None


class ActionDecl(_Data):
    """An action's declaration as the lifecycle sees it (functions stay in the page)."""

    id: str
    kind: Literal["action", "flow", "handoff"]
    description: str | None
    region: str | None
    record: str | None
    risk: Risk
    confirm: bool
    params: Any
    timeoutMs: float | None
    expect: ExpectDecl | None
    steps: list[StepDecl] | None
    untrusted: bool = False  # WebMCP's untrustedContentHint: the result is page-supplied content
    webmcp: bool = False  # registered through WebMCP (document.modelContext), not window.pling
    observes: bool = True  # the page declares records, state or feedback (else no diff can show an effect)


class RecordRef(_Data):
    id: str
    type: str
    label: Any = None


# ---- the receipt ----------------------------------------------------------------------------------

# Parts of the receipt kept as plain JSON at run time (a value may be null, and every key the page or
# the error adds is kept), typed in the OpenAPI document so generated clients know their shape.
_CHANGE = {"type": "object", "properties": {"from": {}, "to": {}}, "required": ["from", "to"]}
RecordUpdate = Annotated[dict[str, Any], WithJsonSchema({
    "type": "object", "title": "RecordUpdate",
    "properties": {"id": {"type": "string"},
                   "changes": {"type": "object", "additionalProperties": _CHANGE,
                               "description": "field (or `label`) -> {from, to}"}},
    "required": ["id", "changes"]})]
_INVOCATION_PROBLEM: dict[str, Any] = {
    "type": "object", "title": "InvocationProblem", "additionalProperties": True,
    "description": "Why an invocation failed; each code adds its details (see the README's error table).",
    "properties": {"code": {"type": "string", "enum": sorted(INVOCATION_CODES)},
                   "stage": {"type": ["string", "null"]},
                   "started": {"type": ["boolean", "null"],
                               "description": "Whether the page's write path may have run."},
                   "message": {"type": "string"}, "hint": {"type": "string"}},
    "required": ["code", "message"]}


class InvocationProblem(BaseModel):
    """Why an invocation failed: typed members for what every code has, and the code's own details
    (`issues`, `available`, `reason`, `steps`, `resume` …) as extra members, read as attributes
    (`error.issues`) or with `error.details`. Serialized whole: `started: null` (a handoff) stays."""

    model_config = ConfigDict(extra="allow")
    code: str
    message: str
    stage: str | None = None
    started: bool | None = None
    hint: str | None = None

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        return dict(_INVOCATION_PROBLEM)  # the documented shape: the codes it may carry, details left open

    @property
    def details(self) -> dict[str, Any]:
        """The code's own details (everything but code, message, stage, started and hint)."""
        return dict(self.__pydantic_extra__ or {})

    @model_serializer(mode="wrap")
    def _whole(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # The runtime's JSON as it was: members equal to null are information here (started: null is
        # "not known"), so exclude_none on the receipt must not drop them. Order: the error's own.
        out: dict[str, Any] = handler(self)
        whole = {"code": self.code, "stage": self.stage, "started": self.started, "message": self.message}
        if self.hint is not None:
            whole["hint"] = self.hint
        for key, value in (self.__pydantic_extra__ or {}).items():
            whole[key] = out.get(key, value)
        return {key: out.get(key, value) for key, value in whole.items()}


StepEntry = Annotated[dict[str, Any], WithJsonSchema({
    "type": "object", "title": "StepEntry", "additionalProperties": True,
    "description": "One step of a flow's ledger.",
    "properties": {"step": {"type": "integer"}, "action": {"type": "string"}, "ok": {"type": "boolean"},
                   "outcome": {"type": "string"}, "started": {"type": "boolean"},
                   "fidelity": {"type": "string"}, "data": {}, "error": {"type": "object"}},
    "required": ["step", "action", "ok"]})]


class RecordsChange(_Data):
    """What changed in the records of one type (``Changed.records`` is keyed by type)."""

    added: list[str]
    removed: list[str]
    updated: list[RecordUpdate]
    reordered: bool
    omitted: dict[str, int]
    total: dict[str, int]  # {"from": n, "to": m}: this type's active records before and after


class RecordsInView(_Data):
    """One record type's change when the action led to another page (another ``pling.page`` id, across
    documents or an SPA route) that declares the type too. Leaving a view is not a deletion: ``entered``
    are ids the new page shows that the old one did not, ``left`` the reverse; neither says a record was
    created or deleted (the expectation says whether the business change happened)."""

    entered: list[str]
    left: list[str]
    updated: list[RecordUpdate]
    omitted: dict[str, int]
    total: dict[str, int]  # {"from": n, "to": m}: shown by the old page, by the new one


class RecordsDeclared(_Data):
    """A record type only one of the two pages declares: not diffed (``before``: only the page the
    action left; ``after``: only the new one, whose model lists its records)."""

    declared: Literal["before", "after"]


class ActionsChange(_Data):
    added: list[str]
    removed: list[str]
    availability: dict[str, dict[str, Any]] = Field(default_factory=dict)
    omitted: dict[str, int]


class StateChange(_Data):
    changed: dict[str, dict[str, Any]]
    omitted: int | None = None
    # Another page: state keys only one of the two pages declares, not diffed (which page declares each).
    declared: dict[str, Literal["before", "after"]] | None = None


class FeedbackChange(_Data):
    added: list[FeedbackEntry]
    removed: list[FeedbackEntry]
    omitted: dict[str, int]


class Changed(_Data):
    """What the after snapshot shows that the before snapshot did not, keyed on business ids."""

    observed: bool
    # By record type; unchanged types left out. The same page: RecordsChange; another page (the action
    # led to another pling.page id): RecordsInView for a type both declare, RecordsDeclared for the rest.
    records: dict[str, RecordsChange | RecordsInView | RecordsDeclared] = Field(default_factory=dict)
    actions: ActionsChange
    state: StateChange
    feedback: FeedbackChange
    page: PageChange | None = None  # the action left the document, or an SPA route declared another page
    refused: list[RefusedAddress] | None = None  # addresses the egress policy refused during the action
    tabs: TabsChange | None = None  # tabs the action opened or closed


class ActionSummary(_Data):
    id: str
    description: str | None = None
    frame: str | None = Field(default=None, description="The origin of the child frame the action ran in (absent: the page itself).")


class ApprovedBy(_Data):
    """Who let a confirmed action run: a person who answered, a grant a person made, or the operator's
    policy (PLING_APPROVE)."""

    caller: str = Field(description="The caller who answered or granted (`operator` for PLING_TOKEN and policies).")
    via: Literal["person", "grant", "policy"]
    at: float = Field(description="When (seconds since the epoch): the answer, or the call a grant covered.")
    until: float | None = Field(default=None, description="A grant: when it ends.")
    policy: str | None = Field(default=None, description="A policy: the PLING_APPROVE entry that approved it.")


class Receipt(_Data):
    """The bounded answer to one invocation: what ran, what was verified, what changed."""

    ok: bool
    action: ActionSummary
    expect: str | None = None
    verified: bool | None = None
    changed: Changed | None = None
    fidelity: Fidelity | None = None
    warning: str | None = None
    data: Any = None
    data_omitted: dict[str, int] | None = None
    steps: list[StepEntry] | None = None
    error: InvocationProblem | None = None
    log: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    trace: str | None = Field(default=None, description="Where the Playwright trace of this invocation is served")
    caller: str | None = Field(default=None, description="The PLING_TOKENS caller that invoked it (absent for PLING_TOKEN's operator).")
    approved_by: ApprovedBy | None = Field(default=None, description="Who approved a confirmed action (absent when "
                                           "none was needed or it was denied).")
    # The log and warnings as codes with their parameters (lifecycle/codes.py), for the receipt store;
    # never serialized: the receipt an agent reads says them in words (`log`, `warning`).
    _coded: dict[str, Any] | None = PrivateAttr(default=None)

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)

    def with_codes(self, coded: dict[str, Any]) -> Receipt:
        self._coded = coded
        return self

    @property
    def coded(self) -> dict[str, Any] | None:
        """``{"log": [{"code", …params}], "warnings": […]}``, as the lifecycle wrote them."""
        return self._coded


# What a brief answer leaves out of a receipt (`detail: "brief"`): the call log and the stage timings,
# 30-60% of a receipt's bytes. The receipt log keeps the whole receipt.
BRIEF_LEAVES_OUT = ("log", "timings_ms")


def answered(receipt: dict[str, Any], detail: str) -> dict[str, Any]:
    """The receipt as the caller asked for it: whole (`full`), or without its log and timings (`brief`)."""
    if detail != "brief":
        return receipt
    return {key: value for key, value in receipt.items() if key not in BRIEF_LEAVES_OUT}
