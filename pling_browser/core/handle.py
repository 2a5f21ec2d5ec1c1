"""A session's page as the layers above core see it: a small typed face over Playwright (STYLE 17, as
playwright-python keeps its ``_impl`` behind a few public classes). runtime/, lifecycle/, ci/ and
server/ hold a ``PageHandle`` (``Session.handle``), never a Playwright page: its address, title and
viewport; a screenshot with what must not be seen masked; the console's screencast and the person's
input; a script evaluated in a world of its own; the page's dialogs routed to a person; the sign-in its
context holds. Every call's Playwright errors come out translated (core/playwright.py), and every
call into the page is bounded in time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from ..errors import BadRequest, PageUnresponsive, PlingError
from . import dialogs, profiles
from .bridge import Bridge
from .outbound import Outbound
from .playwright import translate_playwright_errors, unknown_key

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Locator, Page

__all__ = ["PageHandle", "Screencast", "DEFAULT_VIEWPORT"]

DEFAULT_VIEWPORT = {"width": 1280, "height": 800}
# What a masked screenshot always hides: fields the bridge marked as holding a restored value, and
# password fields; text showing a masked value is added per session.
_MASKED_SELECTORS = ("[data-pling-masked]", "input[type=password]")
_WORLD = "pling-isolated"


class PageHandle:
    """One page of a session (the active tab's, or the tab ``Session.on_tab`` named)."""

    def __init__(self, page: Page, bridge: Bridge, outbound: Outbound) -> None:
        self._page = page
        self._bridge = bridge
        self._outbound = outbound
        self._world: int | None = None  # the isolated world of ``evaluate`` (its execution context)

    # ---- what the page is now ----------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The page's address ("" when it cannot be had). Unmasked: callers mask what they show."""
        try:
            return str(self._page.url)
        except Exception:  # a closed page still has a last URL in practice; never fail a reading
            return ""

    def is_closed(self) -> bool:
        return self._page.is_closed()

    def viewport(self) -> dict[str, int]:
        """The viewport in CSS pixels (every session's context is 1280 × 800)."""
        size = self._page.viewport_size
        return {"width": size["width"], "height": size["height"]} if size else dict(DEFAULT_VIEWPORT)

    async def title(self, timeout_s: float) -> str:
        async with translate_playwright_errors():
            return str(await asyncio.wait_for(self._page.title(), timeout_s))

    # ---- pictures ----------------------------------------------------------------------------------

    def _secret_text(self) -> Locator | None:
        """The elements whose text shows a masked value (in any of its forms), or None when the session
        masks nothing. Playwright's text engine runs in its own isolated world: the page cannot watch
        the pattern go by."""
        pattern = self._outbound.pattern()
        return None if pattern is None else self._page.get_by_text(pattern)

    async def secret_text_shown(self, timeout_s: float) -> int:
        """How many elements show a masked value as text now (0 when the session masks nothing)."""
        secret_text = self._secret_text()
        if secret_text is None:
            return 0
        async with translate_playwright_errors():
            return int(await asyncio.wait_for(secret_text.count(), timeout_s))

    async def screenshot(self, *, jpeg_quality: int | None = None, caret: Literal["hide", "initial"] = "hide",
                         timeout_ms: float = 10_000) -> bytes:
        """A PNG (a JPEG with ``jpeg_quality``) of the viewport, with the marked fields, password fields
        and every element whose text shows a masked value painted over. The caller marks the fields
        holding a restored value first (``Bridge.mark_protected``)."""
        async with translate_playwright_errors():
            mask = [self._page.locator(selector) for selector in _MASKED_SELECTORS]
            secret_text = self._secret_text()
            if secret_text is not None:
                mask.append(secret_text)
            if jpeg_quality is None:
                return await self._page.screenshot(type="png", timeout=timeout_ms, mask=mask, caret=caret)
            return await self._page.screenshot(type="jpeg", quality=jpeg_quality, mask=mask, caret=caret,
                                               timeout=timeout_ms)

    async def screencast(self, on_frame: Callable[[dict[str, Any]], None], quality: int) -> Screencast:
        """Chromium's screencast of this page, started: ``on_frame`` gets each frame (``data``: JPEG in
        base64, ``metadata``, ``sessionId`` to acknowledge)."""
        async with translate_playwright_errors():
            cdp = await asyncio.wait_for(self._page.context.new_cdp_session(self._page), 10)
        cast = Screencast(self, cdp, quality)
        cdp.on("Page.screencastFrame", on_frame)
        try:
            await cast.start()
        except BaseException:
            await cast.stop()
            raise
        return cast

    # ---- the person's input (the console's live view) ------------------------------------------------

    async def pointer(self, kind: Literal["down", "up", "move", "click", "wheel"], x: float, y: float, *,
                      button: Literal["left", "middle", "right"] = "left", clicks: int = 1,
                      dx: float = 0, dy: float = 0) -> None:
        """The person's pointer at a viewport point, as trusted input: moved there, then pressed,
        released, clicked or wheeled."""
        mouse = self._page.mouse
        async with translate_playwright_errors():
            await mouse.move(x, y)
            if kind == "down":
                await mouse.down(button=button, click_count=clicks)
            elif kind == "up":
                await mouse.up(button=button, click_count=clicks)
            elif kind == "click":
                await mouse.click(x, y, button=button, click_count=clicks)
            elif kind == "wheel":
                await mouse.wheel(dx, dy)

    async def press(self, key: str) -> None:
        """One key (``Enter``, ``Shift+Tab``…) as trusted input; a key name Playwright does not know is
        the person's mistake (BadRequest), not the page's."""
        try:
            async with translate_playwright_errors():
                await self._page.keyboard.press(key)
        except PlingError as error:
            if unknown_key(error):
                raise BadRequest(f"Unknown key {key!r}",
                                 issues=[{"path": "key", "problem": "not a key name Playwright knows"}]) from None
            raise

    async def type_text(self, text: str, *, paste: bool = False) -> None:
        """Text typed key by key, or at once as a paste inserts it."""
        keyboard = self._page.keyboard
        async with translate_playwright_errors():
            await (keyboard.insert_text(text) if paste else keyboard.type(text))

    # ---- scripts, dialogs, sign-in ------------------------------------------------------------------

    async def evaluate(self, function: str, arg: Any = None, timeout_s: float = 5) -> Any:
        """``function(arg)`` run in a world of its own in the page's main frame, its result as JSON
        data. The DOM is the page's; the globals and builtins are not, so the page can neither see nor
        patch what runs. Globals it sets stay for this handle's later calls in the same document."""
        async with translate_playwright_errors():
            return await asyncio.wait_for(self._evaluate(function, arg), timeout_s)

    async def _evaluate(self, function: str, arg: Any) -> Any:
        cdp = self._bridge.cdp
        if self._world is None:
            tree = await cdp.send("Page.getFrameTree")
            made = await cdp.send("Page.createIsolatedWorld", {"frameId": tree["frameTree"]["frame"]["id"],
                                                               "worldName": _WORLD})
            self._world = int(made["executionContextId"])
        answer = await cdp.send("Runtime.callFunctionOn", {
            "functionDeclaration": function, "executionContextId": self._world,
            "arguments": [{"value": arg}],
            "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = str((details.get("exception") or {}).get("description") or details.get("text") or "")
            raise PageUnresponsive(f"The script failed in the page: {text.splitlines()[0][:200] if text else '?'}")
        return (answer.get("result") or {}).get("value")

    def route_dialogs(self, ask: dialogs.AskPerson) -> None:
        """From now on this page's dialogs are asked of a person through ``ask`` (core/dialogs.py)."""
        dialogs.route(self._page, ask)

    def unroute_dialogs(self) -> None:
        """This page's dialogs are dismissed again."""
        dialogs.unroute(self._page)

    async def sign_in(self) -> dict[str, Any]:
        """What the page's context holds of a sign-in (core/profiles.py), this page's session storage first."""
        return await profiles.capture(self._page.context, self._page)


class Screencast:
    """Chromium's screencast of one page (``Page.startScreencast`` on a CDP session of its own): JPEG
    frames come only when the page repaints, and the next one only after the last was acknowledged."""

    def __init__(self, handle: PageHandle, cdp: CDPSession, quality: int) -> None:
        self._handle = handle
        self._cdp: CDPSession | None = cdp
        self._quality = quality

    async def start(self) -> None:
        if self._cdp is None:
            return
        size = self._handle.viewport()
        async with translate_playwright_errors():
            await asyncio.wait_for(self._cdp.send("Page.startScreencast", {
                "format": "jpeg", "quality": self._quality, "maxWidth": size["width"], "maxHeight": size["height"]}), 5)

    async def restart(self) -> None:
        """A fresh first frame (Chromium sends one when a screencast starts); best effort."""
        if self._cdp is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._cdp.send("Page.stopScreencast"), 5)
            await self.start()

    async def ack(self, frame: dict[str, Any]) -> None:
        """The frame was shown (or dropped): Chromium may send the next one."""
        if self._cdp is not None:
            async with translate_playwright_errors():
                await self._cdp.send("Page.screencastFrameAck", {"sessionId": frame["sessionId"]})

    async def stop(self) -> None:
        cdp, self._cdp = self._cdp, None
        if cdp is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(cdp.send("Page.stopScreencast"), 3)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(cdp.detach(), 3)
