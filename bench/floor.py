"""The floor: the same operations with bare Playwright on the same page, in the same Chromium build
with the same flags as the service (``chromium_args()``, ``find_chromium``), no evidence, no HTTP."""

from __future__ import annotations

import os
import time
from typing import Any

from pling_browser.config import find_chromium
from pling_browser.core.browsers import chromium_args

# The cheapest plain selector for the button measured here: Playwright evaluates selectors in the page
# on every attempt of an action, and on 10,000 rows '#list li[data-id="t9"] button.destroy' costs
# some 30 ms more per click than this child combinator (or than Pling's own one-time mark attribute).
T9_DELETE = 'li[data-id="t9"] > button.destroy'
NEW_FIELD = '#new > input[name="text"]'
# "Until the page rendered the result": the next animation frame, then a task after it (the frame's
# rendering is done once a task queued from its callback runs).
RENDERED = "() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))"
ADD_RENDERED = ("text => { const id = addItem(text).id; "
                "return new Promise(done => requestAnimationFrame(() => setTimeout(() => done(id), 0))); }")


def chromium_executable() -> str | None:
    # As the service resolves it (Settings.from_env): PLING_CHROMIUM, else the system's Chromium.
    return find_chromium(os.environ.get("PLING_CHROMIUM") or None)


class FloorBrowser:
    def __init__(self) -> None:
        self._playwright: Any = None
        self.browser: Any = None

    async def start(self) -> FloorBrowser:
        from playwright.async_api import async_playwright

        self._playwright = await async_playwright().start()
        options: dict[str, Any] = {"headless": True, "args": chromium_args()}
        executable = chromium_executable()
        if executable:
            options["executable_path"] = executable
        self.browser = await self._playwright.chromium.launch(**options)
        return self

    async def open(self, url: str) -> FloorPage:
        # The context as the service makes it (controller.new_context), less the bridge's init script:
        # the bench page loads the bridge itself, so both sides run the same page code.
        context = await self.browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=False,
                                                 service_workers="block")
        page = await context.new_page()
        await page.goto(url, wait_until="load")
        floor_page = FloorPage(context, page)
        await floor_page.settle()
        return floor_page

    async def stop(self) -> None:
        if self.browser is not None:
            await self.browser.close()
        if self._playwright is not None:
            await self._playwright.stop()


class FloorPage:
    def __init__(self, context: Any, page: Any) -> None:
        self.context = context
        self.page = page

    async def settle(self) -> None:
        """Let the page render a frame (not timed), so that layout owed by the untimed work before is
        not paid inside the next timed operation; Pling's invocations end settled in the same way."""
        await self.page.evaluate(RENDERED)

    async def reset(self) -> dict[str, int]:
        answer = await self.page.evaluate("() => reset()")
        await self.settle()
        return answer

    async def click_t9(self) -> tuple[float, float]:
        """A trusted click on t9's delete button, timed twice in one go: until Playwright's click returns
        (bare) and until the page rendered the result (an animation frame and a task after it: what a
        receipt waits for too). t9 is put back afterwards (not timed). Answers (bare, rendered)."""
        start = time.perf_counter()
        await self.page.locator(T9_DELETE).click()
        bare = (time.perf_counter() - start) * 1000
        await self.page.evaluate(RENDERED)
        rendered = (time.perf_counter() - start) * 1000
        if (await self.reset())["restored"] != 1:
            raise RuntimeError("the floor's click did not delete t9")
        return bare, rendered

    async def click_t9_navigating(self) -> float:
        """On the server-rendered list: the same trusted click, which posts the form; timed until the new
        document (the 303's list) has loaded and rendered a frame and a task. The caller puts t9 back."""
        start = time.perf_counter()
        async with self.page.expect_navigation(wait_until="load"):
            await self.page.locator(T9_DELETE).click()
        await self.page.evaluate(RENDERED)
        return (time.perf_counter() - start) * 1000

    async def reload(self) -> None:
        await self.page.reload(wait_until="load")
        await self.settle()

    async def add(self, text: str) -> float:
        """addItem(text) and, in the same evaluate, an animation frame and a task: until the page rendered."""
        start = time.perf_counter()
        await self.page.evaluate(ADD_RENDERED, text)
        ms = (time.perf_counter() - start) * 1000
        await self.reset()
        return ms

    async def add_bare(self, text: str) -> float:
        """addItem(text) alone, answered as soon as the script returns (issue 7's floor)."""
        start = time.perf_counter()
        await self.page.evaluate("text => addItem(text).id", text)
        ms = (time.perf_counter() - start) * 1000
        await self.reset()
        return ms

    async def fill(self, text: str) -> float:
        """A trusted fill of the new-item field (Playwright's locator.fill: actionability, then the value),
        then an animation frame and a task: until the page rendered it."""
        start = time.perf_counter()
        await self.page.locator(NEW_FIELD).fill(text)
        await self.page.evaluate(RENDERED)
        return (time.perf_counter() - start) * 1000

    async def read(self) -> float:
        start = time.perf_counter()
        await self.page.evaluate("() => summary()")
        return (time.perf_counter() - start) * 1000

    async def close(self) -> None:
        await self.context.close()
