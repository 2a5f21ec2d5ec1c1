"""The brief model (`detail: "brief"` on opening a session and on model reads): what an agent acts on,
without what only explains it, so a small page costs no more bytes than an accessibility snapshot of it.

Kept: the page's id, url and title; every action (id, record, params, and only what differs from the
common case: a risk other than write, a flow or handoff, confirm, unavailable with its reason); per
record type its total, the window's items (id, label, fields when there are any, per-item
unavailability), every id only when the items are not all of them, the window's offset and what was left
out; each state key's value (a child frame's keys named with its origin); feedback; regions only where `more()` says something is not shown; what
bounding cut (non-zero counts, frames not read) and the page's declaration problems, when any.
Left out: descriptions and titles, regions otherwise, per-item regions, empty lists and zero counts,
frames read, adapters. Invariant 5 holds: every omission that could change a decision is still counted."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from .models import FeedbackEntry, PageModel, Problem, RecordOmitted

BRIEF = "brief"


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BriefPage(_Data):
    id: str | None
    url: str
    title: str


class BriefRegion(_Data):
    """A region is in the brief model only when its `more()` says something is not shown."""

    id: str
    more: Any
    frame: str | None = Field(default=None, description="The origin of the child frame that declared it (absent: "
                              "the page itself).")


class BriefAction(_Data):
    id: str
    record: str | None = Field(default=None, description="A family: its instances are `ID@RECORD`.")
    kind: Literal["flow", "handoff"] | None = Field(default=None, description="Absent: a plain action.")
    params: dict[str, Any] | None = None
    risk: Literal["read", "danger"] | None = Field(default=None, description="Absent: `write`.")
    confirm: Literal[True] | None = None
    available: Literal[False] | None = Field(default=None, description="Absent: available now.")
    reason: str | None = None
    frame: str | None = None


class BriefItem(_Data):
    id: str
    label: Any = None
    fields: dict[str, Any] | None = Field(default=None, description="Absent when the record type declares none.")
    unavailable: dict[str, str | None] | None = None


class BriefRecords(_Data):
    total: int
    items: list[BriefItem]
    ids: list[str] | None = Field(default=None, description="Every id, as in the whole model; absent when the "
                                  "items are all the records.")
    offset: int | None = None
    omitted: RecordOmitted | None = Field(default=None, description="Absent when nothing was left out.")
    frame: str | None = None


class BriefModel(_Data):
    """The model without what an agent needs only to explain it: ids, labels (and fields), actions with
    their params and availability, state values and feedback; no regions (but those with more to show),
    descriptions, per-item regions or empty counts. `GET /sessions/{sid}/model` reads the whole model."""

    detail: Literal["brief"]
    tab: str | None = None
    page: BriefPage
    regions: list[BriefRegion] | None = Field(default=None, description="Only regions whose `more()` says more.")
    actions: list[BriefAction]
    records: dict[str, BriefRecords]
    state: dict[str, Any] = Field(description="Each state key's value (descriptions are in the whole model).")
    state_frames: dict[str, str] | None = Field(default=None, description="The origin of the child frame that "
                                                "declared a state key, by key; absent when every key is the page's own.")
    feedback: list[FeedbackEntry]
    omitted: dict[str, Any] | None = Field(default=None, description="The whole model's `omitted`, its non-zero "
                                           "counts only; absent when nothing was cut.")
    problems: list[Problem] | None = Field(default=None, description="Absent when there are none.")


def _either_model(schema: dict[str, Any]) -> None:
    # MCP wants an outputSchema that is an object with properties: the keys both forms have, typed
    # loosely here and exactly by the anyOf beside them.
    schema["type"] = "object"
    schema["properties"] = {"page": {"type": "object"}, "actions": {"type": "array"},
                            "records": {"type": "object"}, "state": {"type": "object"},
                            "feedback": {"type": "array"}, "detail": {"const": "brief"}}
    schema["required"] = ["page", "actions", "records", "state", "feedback"]


class ModelView(RootModel[PageModel | BriefModel]):
    """A model read: the whole model, or its brief form (MCP's read_model answers either, one schema)."""

    model_config = ConfigDict(json_schema_extra=_either_model)


def _action(action: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": action["id"]}
    for key in ("record", "params", "frame"):
        if action.get(key) is not None:
            out[key] = action[key]
    if action.get("kind", "action") != "action":
        out["kind"] = action["kind"]
    if action.get("risk", "write") != "write":
        out["risk"] = action["risk"]
    if action.get("confirm"):
        out["confirm"] = True
    if not action.get("available", True):
        out["available"] = False
        out["reason"] = action.get("reason")
    return out


def _item(item: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": item["id"], "label": item.get("label")}
    if item.get("fields"):
        out["fields"] = item["fields"]
    if item.get("unavailable"):
        out["unavailable"] = item["unavailable"]
    return out


def _records(records: dict[str, Any]) -> dict[str, Any]:
    items = [_item(item) for item in records.get("items", [])]
    out: dict[str, Any] = {"total": records["total"], "items": items}
    omitted = records.get("omitted") or {}
    if len(items) < records["total"] or any(omitted.values()):
        out["ids"] = records.get("ids", [])
    for key in ("offset", "frame"):
        if records.get(key) is not None:
            out[key] = records[key]
    if any(omitted.values()):
        out["omitted"] = omitted
    return out


def brief(model: dict[str, Any]) -> dict[str, Any]:
    """The brief model of a whole model (PageModel's JSON shape) as BriefModel's JSON shape."""
    page = model["page"]
    out: dict[str, Any] = {"detail": BRIEF}
    if model.get("tab") is not None:
        out["tab"] = model["tab"]
    out["page"] = {"id": page.get("id"), "url": page["url"], "title": page["title"]}
    more = [{"id": r["id"], "more": r["more"], **({"frame": r["frame"]} if r.get("frame") is not None else {})}
            for r in model.get("regions", []) if r.get("more") is not None]
    if more:
        out["regions"] = more
    out["actions"] = [_action(action) for action in model.get("actions", [])]
    out["records"] = {kind: _records(records) for kind, records in model.get("records", {}).items()}
    out["state"] = {key: entry.get("value") for key, entry in model.get("state", {}).items()}
    # A frame's state is marked as in the whole model: a value alone would read as the page's own.
    framed = {key: entry["frame"] for key, entry in model.get("state", {}).items() if entry.get("frame") is not None}
    if framed:
        out["state_frames"] = framed
    out["feedback"] = model.get("feedback", [])
    omitted = {key: value for key, value in (model.get("omitted") or {}).items() if value}
    if omitted:
        out["omitted"] = omitted
    if model.get("problems"):
        out["problems"] = model["problems"]
    return out
