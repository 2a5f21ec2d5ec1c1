"""The documents and tabs an action leaves or opens (SPEC: "Actions that leave the document", tabs in
the HTTP API): ``changed.page``, ``changed.refused`` and ``changed.tabs`` of a receipt, and the bodies
of the tabs routes. Part of the vocabulary: imports nothing of ours."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PageRef(_Data):
    """A document as the receipt names it: its declared page id (None: it declared none), URL, title."""

    id: str | None = None
    url: str = ""
    title: str = ""


class PageChange(_Data):
    """``changed.page``: the action left one document (or SPA route) for another."""

    from_: PageRef = Field(alias="from", serialization_alias="from")
    to: PageRef

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)


class RefusedAddress(_Data):
    """``changed.refused``: an address the egress policy refused while the action ran."""

    target: str
    reason: str


class TabRef(_Data):
    """A tab in ``changed.tabs``: its stable id, its URL, and why it closed (closed tabs)."""

    id: str
    url: str = ""
    reason: str | None = None


class TabsChange(_Data):
    """``changed.tabs``: pages the action opened in new tabs, and tabs that closed (a flood past 8 too)."""

    opened: list[TabRef] = Field(default_factory=list)
    closed: list[TabRef] = Field(default_factory=list)


class TabInfo(BaseModel):
    id: str = Field(description="Stable within the session, never reused: t1 is the page the session opened.")
    url: str
    active: bool
    opener: str | None = Field(default=None, description="The tab whose page opened this one.")


class TabsAnswer(BaseModel):
    tabs: list[TabInfo]
    active: str
    closed: str | None = Field(default=None, description="DELETE: the tab closed.")
    activated: str | None = Field(default=None, description="DELETE of the active tab: the tab active now (the one active before it).")


class TabUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    active: bool = Field(description="true: make this tab the active one.")
