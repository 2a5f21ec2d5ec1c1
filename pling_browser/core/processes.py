"""The processes this service started, read from /proc: the Playwright driver and the Chromium tree
under it. Used to supervise them (and by tests to count them); only PIDs found under our own process
are ever signalled."""

from __future__ import annotations

import os
import signal
from pathlib import Path

PROC = Path("/proc")


TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command (which may hold spaces and parentheses):
    [0] state, [1] parent pid, … [11] utime, [12] stime; None when the process is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_bytes().decode(errors="replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter), or None when the process is gone."""
    fields = stat_fields(pid)
    return (int(fields[1]), fields[0]) if fields else None


def cpu_ms(pid: int) -> float | None:
    """CPU time (user + system) the process has used so far, in ms."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) * TICK_S * 1000 if fields else None


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
