"""The processes this service started, read from /proc: the Playwright driver and the Chromium tree
under it. Used to supervise them (and by tests to count them); only PIDs found under our own process
are ever signalled."""

from __future__ import annotations

import os
import signal
from pathlib import Path

PROC = Path("/proc")


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter), or None when the process is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return int(fields[1]), fields[0]


def children(pid: int) -> list[int]:
    out = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] == pid:
                out.append(int(entry.name))
    return out


def descendants(pid: int) -> list[int]:
    found, frontier = [], [pid]
    while frontier:
        kids = [kid for parent in frontier for kid in children(parent)]
        found.extend(kids)
        frontier = kids
    return found


def cmdline(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def state(pid: int) -> str | None:
    stat = _stat(pid)
    return stat[1] if stat else None


def alive(pid: int) -> bool:
    return state(pid) not in (None, "Z", "X")


def kill(pids: list[int]) -> int:
    killed = 0
    for pid in pids:
        if alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    return killed
