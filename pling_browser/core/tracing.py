"""Playwright traces of single invocations (`trace: true` on invoke): the context records DOM snapshots
(and, where nothing could need masking, screencast frames) while the action runs, and the zip opens in
Playwright's trace viewer (`playwright show-trace FILE`).

A trace never holds a restored value (SPEC). A trace records whatever the page and the driver see,
so the rule is decided where values move, not before the invocation:
- a session whose pages were given restored values earlier (or that was opened with a profile) is not
  traced at all: its pages hold them;
- a trace during which a value is about to be restored is stopped and thrown away *before* the value
  is read or sent (``discard``, called by the decode stage), and the invocation goes on untraced;
- a finished trace is read entry by entry for every value the session masks, in every form masking
  knows (``end``, through the session's ``Outbound``); one that holds any (a page showing an operator secret it was never sent) is deleted.
Screencast frames are pictures, which cannot be searched: where the session's masking has values
(operator secrets) the trace records no frames, only the DOM snapshots that are searched."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PlingError
from .outbound import Outbound
from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext

__all__ = ["Recording", "path_of", "begin", "discard", "end"]

log = logging.getLogger("pling_browser.tracing")


@dataclass
class Recording:
    """A trace being recorded for one invocation: where it goes, and why it was thrown away, if it was."""

    context: BrowserContext
    path: Path
    screencast: bool
    discarded: str | None = None


def path_of(data_dir: Path, sid: str, tid: str) -> Path:
    return data_dir / "traces" / sid / f"{tid}.zip"


async def begin(session: Any, action: str, data_dir: Path, screencast: bool) -> Recording | None:
    """Start recording the session's context; None when it cannot be (logged)."""
    try:
        async with translate_playwright_errors():
            await session.context.tracing.start(screenshots=screencast, snapshots=True, title=action[:200])
    except PlingError as error:
        log.warning("no trace for %.200s on session %s: %s", action, session.id, error.message)
        return None
    return Recording(session.context, path_of(data_dir, session.id, "t_" + secrets.token_urlsafe(9)), screencast)


async def discard(recording: Recording | None, reason: str) -> None:
    """Stop recording and keep nothing (Playwright's stop without a path drops what it recorded)."""
    if recording is None or recording.discarded is not None:
        return
    recording.discarded = reason
    try:
        async with translate_playwright_errors():
            await recording.context.tracing.stop()
    except PlingError as error:
        log.warning("a discarded trace could not be stopped cleanly: %s", error.message)


async def end(recording: Recording, outbound: Outbound) -> Path | None:
    """Stop recording and write the zip; None when it was discarded, could not be written, or holds a
    masked value (then it is deleted, and ``recording.discarded`` says why)."""
    if recording.discarded is not None:
        return None
    path = recording.path
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        async with translate_playwright_errors():
            await recording.context.tracing.stop(path=str(path))
    except PlingError as error:
        log.warning("a trace could not be written: %s", error.message)
        path.unlink(missing_ok=True)
        return None
    if outbound.holds(path):
        path.unlink(missing_ok=True)
        recording.discarded = "the page showed a masked value while it was recorded"
        return None
    return path
