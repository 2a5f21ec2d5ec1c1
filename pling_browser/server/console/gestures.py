"""The person's input in the live view (``POST /console/sessions/{sid}/input``): pointer, wheel and
keys reach the page as trusted input, through the session's page handle (core/handle.py: Playwright's
mouse and keyboard, their errors translated there)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...errors import BadRequest, PageUnresponsive

if TYPE_CHECKING:
    from ...core.sessions import Session

INPUT_S = 5.0


class PersonInput(BaseModel):
    """One gesture of the person in the live view, in the page's CSS pixels (1280 × 800 viewport)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["down", "up", "move", "click", "wheel", "key", "text", "paste"]
    x: float = Field(0, ge=-10_000, le=10_000)
    y: float = Field(0, ge=-10_000, le=10_000)
    button: Literal["left", "middle", "right"] = "left"
    clicks: int = Field(1, ge=1, le=3)
    dx: float = Field(0, ge=-10_000, le=10_000)
    dy: float = Field(0, ge=-10_000, le=10_000)
    key: str | None = Field(None, min_length=1, max_length=64)
    text: str | None = Field(None, min_length=1, max_length=2_000)


async def _perform(session: Session, gesture: PersonInput) -> None:
    page = session.handle
    size = page.viewport()
    x = min(max(gesture.x, 0.0), size["width"] - 1.0)
    y = min(max(gesture.y, 0.0), size["height"] - 1.0)
    kind = gesture.type
    if kind in ("down", "up", "move", "click", "wheel"):
        await page.pointer(kind, x, y, button=gesture.button, clicks=gesture.clicks, dx=gesture.dx, dy=gesture.dy)
    elif kind == "key":
        if not gesture.key:
            raise BadRequest("A key gesture needs `key`", issues=[{"path": "key", "problem": "missing"}])
        await page.press(gesture.key)  # a key name Playwright does not know: BadRequest
    elif kind in ("text", "paste"):
        if not gesture.text:
            raise BadRequest(f"A {kind} gesture needs `text`", issues=[{"path": "text", "problem": "missing"}])
        await page.type_text(gesture.text, paste=kind == "paste")


async def person_input(session: Session, gesture: PersonInput) -> None:
    """Play one gesture into the session's page."""
    try:
        await asyncio.wait_for(_perform(session, gesture), INPUT_S)
    except asyncio.TimeoutError:
        raise PageUnresponsive(f"The page did not take the input within {INPUT_S:g} s") from None
    session.touch()
