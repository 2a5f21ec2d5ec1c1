"""A direct fill's trusted insertion (issue 31; js_bridge/fill.js): the text goes in as one trusted
input event into the field the bridge focused, and the bridge's guard says where it went.

The insertion (CDP ``Input.insertText``, through the browser process) and the ``typed`` call (straight
to the renderer) are sent at once, so the fill costs one round trip less: the call waits in the page,
bounded, for the guard to see the insertion land. Either may reach the renderer first; when the
call's wait ran out first (``waiting``: the guard kept), it is asked again once the insertion has
answered, as when the two went one after the other."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ..errors import PageUnresponsive
from .answers import Landed
from .bridge import Bridge
from .playwright import translate_playwright_errors

# How long `typed` waits in the page for an insertion sent with it. It normally arrives within a few
# ms; past the bound (a loaded machine, or text that reached no element: no event comes at all) the
# call answers `waiting` and is asked again once the insertion has answered.
INSERTION_WAIT_MS = 250


async def _insert(bridge: Bridge, text: str, timeout_ms: float) -> None:
    async with translate_playwright_errors():
        try:
            await asyncio.wait_for(bridge.page.keyboard.insert_text(text), timeout_ms / 1000)
        except asyncio.TimeoutError:
            raise PageUnresponsive(f"The text was sent and did not finish within {timeout_ms:.0f} ms") from None


async def _outcome(sending: asyncio.Future[None]) -> BaseException | None:
    """The insertion once it has answered: None, or the error it raised."""
    try:
        await sending
    except Exception as error:
        return error
    return None


async def type_in(bridge: Bridge, text: str, timeout_ms: float,
                  expect: dict[str, Any] | None = None) -> tuple[Landed, PageUnresponsive | None]:
    """The text inserted with one trusted input event into the focused field and, sent with it, the
    guard's answer (with ``expect``, the expectation in that call). When that call hung (the page's
    script stopped), the landed answer the bridge kept is asked for, and the hang handed on for the
    expect stage to meet as its own call's. A guard never outlives its text: asked whatever happened."""
    sending = asyncio.ensure_future(_insert(bridge, text, timeout_ms))
    try:
        landed = await bridge.typed(expect, wait_ms=INSERTION_WAIT_MS)
    except PageUnresponsive as error:
        failed = await _outcome(sending)
        if expect is None:
            raise
        return await _kept(bridge, failed or error, error)
    except BaseException:
        with contextlib.suppress(BaseException):
            await sending
        raise
    failed = await _outcome(sending)
    if landed.landed == "waiting":
        return await _after_insertion(bridge, failed, expect)
    if failed is not None and landed.landed != "landed":
        raise failed  # the guard saw no text land: the insertion's own error is the answer
    return landed, None


async def _after_insertion(bridge: Bridge, failed: BaseException | None,
                           expect: dict[str, Any] | None) -> tuple[Landed, PageUnresponsive | None]:
    """The insertion has answered and the page had not seen it when `typed` stopped waiting: the guard
    asked again (the insertion failed: disarmed, and its error raised)."""
    if failed is not None:
        with contextlib.suppress(Exception):
            await bridge.typed()
        raise failed
    try:
        return await bridge.typed(expect), None
    except PageUnresponsive as error:
        if expect is None:
            raise
        return await _kept(bridge, error, error)


async def _kept(bridge: Bridge, failure: BaseException, hang: PageUnresponsive) -> tuple[Landed, PageUnresponsive]:
    """`typed` with its expectation hung: the landed answer the bridge kept, the hang handed on; when
    the text had not landed, ``failure`` (the insertion's error, else the hang) is the answer."""
    kept = await bridge.typed()
    if kept.landed != "landed":
        raise failure
    return kept, hang
