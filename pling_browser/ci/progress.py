"""Progress for long runs (``check``, ``run``): a live line on a terminal, plain lines in CI.

Live mode (the stream is a TTY, ``CI`` is not set to a true value and ``TERM`` is not ``dumb``):
``status()`` rewrites one line in place (``\\r`` and an erase-line code) with the seconds spent
on the current item, ticking while the run waits on a page. Plain mode: ``status()`` prints
nothing, so a CI log only holds the permanent lines written with ``line()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import time
from collections.abc import AsyncIterator
from typing import IO

__all__ = ["Progress", "is_live"]

_ERASE = "\r\x1b[2K"


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def is_live(stream: IO[str]) -> bool:
    """Whether a live line suits this stream: a terminal, and not a CI job or a dumb terminal."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    return tty and not _ci() and os.environ.get("TERM", "") != "dumb"


class Progress:
    def __init__(self, stream: IO[str] | None = None, *, live: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.live = is_live(self.stream) if live is None else live
        self._text = ""
        self._since = time.monotonic()
        self._shown = False

    def status(self, text: str) -> None:
        """The transient line: what is happening now (live mode only)."""
        self._text = text
        self._since = time.monotonic()
        self._draw()

    def line(self, text: str = "") -> None:
        """A permanent line, in both modes (the live line is redrawn under it)."""
        if self.live and self._shown:
            self.stream.write(_ERASE)
        self.stream.write(text + "\n")
        self._shown = False
        self._draw()

    def clear(self) -> None:
        self._text = ""
        if self.live and self._shown:
            self.stream.write(_ERASE)
            self.stream.flush()
        self._shown = False

    @contextlib.asynccontextmanager
    async def ticking(self, every_s: float = 0.25) -> AsyncIterator[Progress]:
        """While the block runs, redraw the live line so its seconds count up; clear it at the end."""
        task = asyncio.create_task(self._tick(every_s)) if self.live else None
        try:
            yield self
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            self.clear()

    async def _tick(self, every_s: float) -> None:
        while True:
            await asyncio.sleep(every_s)
            self._draw()

    def _draw(self) -> None:
        if not self.live or not self._text:
            self.stream.flush()
            return
        elapsed = time.monotonic() - self._since
        text = f"{self._text} · {elapsed:.1f} s"
        width = max(20, shutil.get_terminal_size((100, 24)).columns - 1)
        if len(text) > width:
            text = text[: width - 1] + "…"
        self.stream.write(_ERASE + text)
        self.stream.flush()
        self._shown = True
