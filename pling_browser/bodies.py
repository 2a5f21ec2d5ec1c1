"""The bodies of the HTTP API: requests, answers and problems, as FastAPI validates and documents
them (the page model and the receipt they carry are in models.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .brief import BriefModel
from .models import PageModel, Receipt, Risk
from .plain import malformed

# ---- HTTP bodies --------------------------------------------------------------------------------


class Checked(BaseModel):
    """A request body whose every string (and key) must be well-formed: a lone UTF-16 surrogate anywhere
    is a 400 before anything runs (plain.malformed). Control characters are taken: an action ref names
    a record by the id its page declared, whatever characters that holds (SPEC invariant 1)."""

    @model_validator(mode="after")
    def _wellformed(self) -> Checked:
        for name in type(self).model_fields:
            problem = malformed(getattr(self, name), name)
            if problem:
                raise ValueError(problem)
        return self


# How much of the receipt the answer carries; the receipt log keeps it whole either way.
Detail = Literal["full", "brief"]


def _detail() -> Any:
    return Field(default="full", description="`brief` answers the receipt without `log` and `timings_ms`; the "
                 "receipt log (GET /sessions/{sid}/receipts) keeps the whole receipt.")


# A profile's name: its file's name too, so no separator, no leading dot (no path traversal).
PROFILE_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"


# How much of the model an answer carries (pling_browser/brief.py says what brief leaves out).
ModelDetail = Literal["full", "brief"]
MODEL_DETAIL = ("`brief` answers the model with ids, labels, fields, actions (with params and availability), state "
                "values and feedback, without descriptions, regions or empty counts (every omission that could "
                "change a decision still counted); `full` (default) the whole model.")


class CreateSession(Checked):
    url: str | None = Field(default=None, description="The page to open; the service's own demo when omitted.")
    detail: ModelDetail = Field(default="full", description=MODEL_DETAIL)
    timeout_ms: int | None = Field(default=None, ge=100, le=120_000, description="Navigation timeout.")
    profile: str | None = Field(default=None, pattern=PROFILE_NAME, description=(
        "A saved profile (GET /profiles): the session opens with its sign-in (cookies, local and session "
        "storage, IndexedDB)."))


class SaveProfile(Checked):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=PROFILE_NAME, description="1-64 letters, digits, `_`, `.` or `-`, not starting with "
                      "`.`, `_` or `-`; saving again under a name replaces that profile.")


class ProfileInfo(BaseModel):
    """A saved profile as listed: its name and when it was saved, never its contents."""

    name: str
    saved: float = Field(description="When it was saved (seconds since the epoch).")


class ProfileList(BaseModel):
    profiles: list[ProfileInfo]


class ProfileDeleted(BaseModel):
    deleted: str = Field(description="The name of the profile that was deleted.")


class InvokeRequest(Checked):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(description="An action id, or ACTION@RECORD for a family.")
    args: Any = Field(default=None, description="A JSON object, or JSON text of one (anything else is INVALID_ARGS).")
    evidence: bool = Field(default=True, description="Take before/after snapshots and report `changed`.")
    detail: Detail = _detail()
    trace: bool = Field(default=False, description="Record a Playwright trace of this invocation. A trace never "
                        "holds a restored value: refused in a session whose pages were given one, discarded when "
                        "this invocation restores one; the receipt's warning says so.")
    tab: str | None = Field(default=None, description="The tab to act on (`t1`, `t2`…); default the active tab.")


class ToolTarget(BaseModel):
    action: str = Field(description="The action id, or the family id for ACTION@RECORD")
    record_param: str | None = Field(description="For a family: the argument that carries the record id")


class ToolList(BaseModel):
    """The page's actions as agent tools, in one API's shape, with the map from tool name to action."""

    format: Literal["openai", "openai-responses", "anthropic", "mcp"]
    tools: list[dict[str, Any]]
    names: dict[str, ToolTarget] = Field(description="tool name -> the action (or family) it invokes")


class ToolCall(Checked):
    model_config = ConfigDict(extra="forbid")
    arguments: dict[str, Any] | str = Field(default_factory=dict, description=(
        "The tool's arguments: an object, or the JSON text of one as a model returns it (text that is not "
        "a JSON object answers a receipt with INVALID_ARGS, as invoke's `args` does)."))
    evidence: bool = True
    detail: Detail = _detail()


class LoggedReceipt(BaseModel):
    seq: int
    created: float
    receipt: dict[str, Any]


class ReceiptLog(BaseModel):
    session: str
    receipts: list[LoggedReceipt]
    next: int


class ResumeRequest(Checked):
    model_config = ConfigDict(extra="forbid")
    handle: str
    evidence: bool = True
    detail: Detail = _detail()
    repeat_started_step: bool = Field(default=False, description=(
        "Run the failed step again although it started (its effect may have landed); without it, "
        "such a resume answers 409 STEP_STARTED naming the step."))


class GrantRequest(BaseModel):
    """With an approval: also approve later calls of the same action (`action`: this very ACTION@RECORD)
    or of its family (`family`: any record) in this session, for this caller, for `for_s` seconds, as
    long as the page declares it as the person saw it and no riskier (SECURITY.md, "What a grant means")."""

    model_config = ConfigDict(extra="forbid")
    scope: Literal["action", "family"]
    for_s: int = Field(ge=1, le=86_400, description="How long the grant lasts, in seconds (at most a day).")


class ConfirmationAnswer(Checked):
    model_config = ConfigDict(extra="forbid")
    approve: bool
    grant: GrantRequest | None = Field(default=None, description="Only with `approve: true`, on an action's "
                                       "confirmation (not a WebMCP tool's interaction or dialog).")


class HandoffAnswer(Checked):
    model_config = ConfigDict(extra="forbid")
    outcome: Literal["done", "cancel"]


class PendingDialog(BaseModel):
    type: str = Field(description="alert, confirm, prompt or beforeunload")
    message: str
    default: str = ""


class PendingRequest(BaseModel):
    id: str
    kind: Literal["confirmation", "handoff"]
    session: str
    action: str
    description: str | None = None
    risk: Risk | None = None
    region: str | None = None
    record: dict[str, Any] | None = None
    args: dict[str, Any] | None = None
    params: Any = None
    expect: str | None = None
    fingerprint: str | None = Field(default=None, description=(
        "What the person is shown (the declaration's description, risk, params schema and record, the "
        "frame that declares it, and the arguments), hashed: if the page changes any of it before the action runs, the approval does not "
        "apply and the person is asked again."))
    flow: str | None = Field(default=None, description="The flow a step belongs to, when a step asks.")
    frame: str | None = Field(default=None, description=(
        "The origin of the child frame that declares the action (absent: the page itself); a grant made "
        "with the answer covers that frame's action only."))
    interaction: str | None = Field(default=None, description=(
        "A WebMCP tool asks for the person (requestUserInteraction): approving lets its callback run; "
        "the dialogs it raises come as confirmations of their own."))
    dialog: PendingDialog | None = Field(default=None, description=(
        "A dialog the page raised while it interacts with the person: approve is OK, deny is Cancel."))
    created: float
    expires: float


class PendingList(BaseModel):
    pending: list[PendingRequest]


class SessionInfo(BaseModel):
    id: str
    url: str
    title: str
    created: float
    last_used: float
    invocations: int
    endpoint: str = Field(default="local", description="The browser endpoint the session lives on.")
    refused: list[dict[str, str]] = Field(default_factory=list, description="The last connections the page tried that the egress policy refused.")
    profile: str | None = Field(default=None, description="The saved profile the session was opened with (its name).")


class SessionOpened(BaseModel):
    session: SessionInfo
    model: PageModel | BriefModel


class SessionClosed(BaseModel):
    closed: str = Field(description="The id of the session that was closed.")


class ProblemDetails(BaseModel):
    """Every HTTP error (RFC 9457, `application/problem+json`): the request or the session, never an
    action (actions answer receipts). The error's details (`issues`, `available`, `retry_after`…) are
    members too."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(description="`/errors#CODE`, resolved against the request's URL: the page the service "
                      "serves about the code.", json_schema_extra={"format": "uri-reference"})
    title: str = Field(description="The code in words; the same every time the code occurs.")
    status: int = Field(description="The HTTP status, as in the answer.")
    detail: str = Field(description="What happened this time.")
    code: str = Field(description="The Pling error code (the README's table).")
    hint: str | None = Field(default=None, description="The next step.")


class InvokeAnswer(BaseModel):
    result: Receipt


class AdapterInfo(BaseModel):
    """One of the operator's adapters (PLING_ADAPTERS), as `GET /adapters` lists it (never its code)."""

    name: str = Field(description="The file name; what a model's `page.adapter` says.")
    title: str | None = Field(description="Its `@name`.")
    description: str | None = Field(description="Its `@description`.")
    matches: list[str] = Field(description="Its `@match` patterns (docs/adapters.md says how they match).")
    includes: list[str] = Field(description="Its `@include` patterns.")
    excludes: list[str] = Field(description="Its `@exclude` patterns.")
    run_at: str = Field(description="When it runs in a document: document-start, document-end or document-idle.")
    problems: list[str] = Field(description="What is wrong with it: a bad pattern, no @match, or (once a browser "
                                "compiled it) a syntax error.")


class AdapterList(BaseModel):
    adapters: list[AdapterInfo]
