"""Playwright traces of single invocations (`trace: true` on invoke): the context records screenshots
and DOM snapshots while the action runs, and the zip opens in Playwright's trace viewer
(`playwright show-trace FILE`). A trace records the page as it is, so the runtime refuses one in a
session whose pages were given restored secrets."""

from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PlingError
from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

__all__ = ["start", "stop", "path_of", "begin", "end"]


async def start(context: "BrowserContext", title: str) -> None:
    async with translate_playwright_errors():
        await context.tracing.start(screenshots=True, snapshots=True, title=title[:200])


async def stop(context: "BrowserContext", path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    async with translate_playwright_errors():
        await context.tracing.stop(path=str(path))


log = logging.getLogger("pling_browser.tracing")


def path_of(data_dir: Path, sid: str, tid: str) -> Path:
    return data_dir / "traces" / sid / f"{tid}.zip"


async def begin(session: Any, action: str, data_dir: Path) -> Path | None:
    """Start recording the session's context; the path the trace will be written to, or None."""
    try:
        await start(session.context, action)
    except PlingError as error:
        log.warning("no trace for %.200s on session %s: %s", action, session.id, error.message)
        return None
    return path_of(data_dir, session.id, "t_" + secrets.token_urlsafe(9))


async def end(session: Any, path: Path) -> Path | None:
    try:
        await stop(session.context, path)
    except PlingError as error:
        log.warning("the trace on session %s could not be written: %s", session.id, error.message)
        return None
    return path
