"""The person's input in the live view (``POST /console/sessions/{sid}/input``): pointer, wheel and
keys reach the page as trusted input, through Playwright's mouse and keyboard. Playwright's errors
are translated at the one boundary (``core/playwright.py``); this module never catches them."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...core.playwright import translate_playwright_errors
from ...errors import BadRequest, PageUnresponsive, PlingError

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


async def _perform(session: "Session", gesture: PersonInput) -> None:
    page = session.page
    size = page.viewport_size or {"width": 1280, "height": 800}
    x = min(max(gesture.x, 0.0), size["width"] - 1.0)
    y = min(max(gesture.y, 0.0), size["height"] - 1.0)
    mouse, keyboard = page.mouse, page.keyboard
    kind = gesture.type
    if kind in ("down", "up", "move", "click", "wheel"):
        await mouse.move(x, y)
    if kind == "down":
        await mouse.down(button=gesture.button, click_count=gesture.clicks)
    elif kind == "up":
        await mouse.up(button=gesture.button, click_count=gesture.clicks)
    elif kind == "click":
        await mouse.click(x, y, button=gesture.button, click_count=gesture.clicks)
    elif kind == "wheel":
        await mouse.wheel(gesture.dx, gesture.dy)
    elif kind == "key":
        if not gesture.key:
            raise BadRequest("A key gesture needs `key`", issues=[{"path": "key", "problem": "missing"}])
        await keyboard.press(gesture.key)
    elif kind in ("text", "paste"):
        if not gesture.text:
            raise BadRequest(f"A {kind} gesture needs `text`", issues=[{"path": "text", "problem": "missing"}])
        if kind == "text":
            await keyboard.type(gesture.text)
        else:
            await keyboard.insert_text(gesture.text)


async def person_input(session: "Session", gesture: PersonInput) -> None:
    """Play one gesture into the session's page."""
    try:
        async with translate_playwright_errors():
            await asyncio.wait_for(_perform(session, gesture), INPUT_S)
    except asyncio.TimeoutError:
        raise PageUnresponsive(f"The page did not take the input within {INPUT_S:g} s") from None
    except BadRequest:
        raise
    except PlingError as error:
        # Playwright names a key it does not know in its error text: the person's mistake, not the page's.
        if gesture.type == "key" and "Unknown key" in str(error.__cause__ or error):
            raise BadRequest(f"Unknown key {gesture.key!r}",
                             issues=[{"path": "key", "problem": "not a key name Playwright knows"}]) from None
        raise
    session.touch()
