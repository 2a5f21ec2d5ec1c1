"""A direct fill's trusted insertion (issue 31; js_bridge/fill.js): the text goes in as one trusted
input event into the field the bridge focused, and the bridge's guard says where it went."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..errors import PageUnresponsive
from .answers import Landed
from .bridge import Bridge
from .playwright import translate_playwright_errors


async def type_in(bridge: Bridge, text: str, timeout_ms: float,
                  expect: dict[str, Any] | None = None) -> tuple[Landed, PageUnresponsive | None]:
    """The text inserted with one trusted input event into the focused field; then the guard's answer,
    asked whatever happened, so a guard never outlives its text. With ``expect``, the expectation in
    that call: when it hung (the page's script stopped), the landed answer the bridge kept is asked
    for, and the hang handed on for the expect stage to meet as its own call's."""
    try:
        async with translate_playwright_errors():
            try:
                await asyncio.wait_for(bridge.page.keyboard.insert_text(text), timeout_ms / 1000)
            except asyncio.TimeoutError:
                raise PageUnresponsive(f"The text was sent and did not finish within {timeout_ms:.0f} ms") from None
    except BaseException:
        with contextlib.suppress(Exception):
            await bridge.typed()
        raise
    try:
        return await bridge.typed(expect), None
    except PageUnresponsive as error:
        if expect is None:
            raise
        kept = await bridge.typed()
        if kept.landed != "landed":
            raise
        return kept, error
