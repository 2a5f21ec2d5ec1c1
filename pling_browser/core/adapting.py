"""Installing the operator's adapters (pling_browser/adapters.py) in a session's browser context.

Each adapter becomes one init script, added after the bridge's, so it runs in every document and
frame of every session, after a navigation too, and the page's own URL decides whether it runs.
Before the first context gets them, each adapter is compiled once in the browser
(``Runtime.compileScript``, which compiles without running): one that does not compile is installed
as a stub that reports the syntax error, with its line, in the model of every document it matches,
instead of breaking that document's other adapters or the bridge."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from ..adapters import PREFIX_LINES, Adapter, compile_check_source, init_script
from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

log = logging.getLogger("pling_browser.adapters")


class AdapterScripts:
    """The init scripts of the operator's adapters, compiled once, added to every new context."""

    def __init__(self, adapters: list[Adapter]) -> None:
        self.adapters = adapters
        self.syntax_errors: dict[str, str] = {}
        self._scripts: list[str] | None = None
        self._lock = asyncio.Lock()

    async def install(self, context: BrowserContext) -> None:
        if not self.adapters:
            return
        async with self._lock:
            if self._scripts is None:
                await self._compile(context)
                self._scripts = [init_script(a, self.syntax_errors.get(a.name)) for a in self.adapters]
        async with translate_playwright_errors():
            for script in self._scripts:
                await context.add_init_script(script)

    async def _compile(self, context: BrowserContext) -> None:
        """Compile every adapter in a blank page of ``context`` (before any adapter is added to it)."""
        page = await context.new_page()
        try:
            cdp = await context.new_cdp_session(page)
            await cdp.send("Runtime.enable")
            for adapter in self.adapters:
                answer = await asyncio.wait_for(cdp.send("Runtime.compileScript", {
                    "expression": compile_check_source(adapter), "sourceURL": f"pling-adapter/{adapter.name}",
                    "persistScript": False}), 10)
                details = answer.get("exceptionDetails")
                if details:
                    text = (details.get("exception") or {}).get("description") or details.get("text") or "SyntaxError"
                    line = int(details.get("lineNumber", 0)) + 1 - PREFIX_LINES  # CDP counts lines from 0
                    self.syntax_errors[adapter.name] = f"{str(text).splitlines()[0][:240]} (line {max(1, line)})"
                    log.warning("adapter %s does not compile: %s", adapter.name, self.syntax_errors[adapter.name])
        finally:
            with contextlib.suppress(Exception):
                await page.close()
