"""Playwright traces of single invocations (`trace: true` on invoke): the context records screenshots
and DOM snapshots while the action runs, and the zip opens in Playwright's trace viewer
(`playwright show-trace FILE`). A trace records the page as it is, so the runtime refuses one in a
session whose pages were given restored secrets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

__all__ = ["start", "stop"]


async def start(context: "BrowserContext", title: str) -> None:
    async with translate_playwright_errors():
        await context.tracing.start(screenshots=True, snapshots=True, title=title[:200])


async def stop(context: "BrowserContext", path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    async with translate_playwright_errors():
        await context.tracing.stop(path=str(path))
