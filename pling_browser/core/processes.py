"""The processes this service started, read from /proc: the Playwright driver and the Chromium tree
under it. Used to supervise them (and by tests to count them); only PIDs found under our own process
are ever signalled, and only the profile folders named on their command lines (and the artifacts
folders this process made for its browsers) are ever removed."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import stat
import tempfile
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


def _children_files() -> bool:
    """Whether this kernel lists each task's children in /proc (CONFIG_PROC_CHILDREN, on in Debian's)."""
    return (PROC / "self" / "task" / str(os.getpid()) / "children").exists()


CHILDREN_FILES = _children_files()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``: read from its threads' ``children`` files, which touches
    only this process (scanning every process's stat took ~9 ms per level on a machine running a few
    browsers, and /healthz walks a browser's tree); a scan of /proc where the kernel has no such files."""
    if not CHILDREN_FILES:
        return _parents().get(pid, [])
    out: list[int] = []
    folder = f"/proc/{pid}/task/"  # plain strings: pathlib cost more than the reads themselves
    try:
        tasks = os.listdir(folder)
    except OSError:
        return out
    for task in tasks:
        try:
            with open(f"{folder}{task}/children", "rb") as file:
                out.extend(int(kid) for kid in file.read().split())
        except OSError:  # the thread ended meanwhile
            continue
    return out


def _parents() -> dict[int, list[int]]:
    """Every process's children, from one scan of /proc."""
    out: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                out.setdefault(stat[0], []).append(int(entry.name))
    return out


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``: its children, theirs, and so on (without children files, from one
    scan of /proc for the whole tree)."""
    kids_of = children if CHILDREN_FILES else _parents().get
    found, frontier = [], [pid]
    while frontier:
        kids = [kid for parent in frontier for kid in kids_of(parent) or []]
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


PROFILE_PREFIX = "playwright_chromiumdev_profile-"


def profile_folders(pids: list[int]) -> list[str]:
    """The temporary profile folders Playwright made for these browser processes (read from their
    command lines, so only ours), to remove when a killed driver cannot."""
    found: list[str] = []
    for pid in pids:
        for arg in cmdline(pid).split(" "):
            folder = arg.partition("=")[2]
            if arg.startswith("--user-data-dir=") and os.path.basename(folder).startswith(PROFILE_PREFIX) \
                    and os.path.dirname(folder) == tempfile.gettempdir() and folder not in found:
                found.append(folder)
    return found


ARTIFACTS_PREFIX = "playwright-artifacts-"


def artifacts_folder() -> str:
    """A folder for a browser's artifacts (Playwright's `artifactsDir`: downloads, traces in progress),
    made by this process. Playwright's own would be its driver's to remove, and a killed driver leaves
    it behind; this one is reaped with the browser (the caller lists it beside its profile folders).
    Its name holds this process's id: if this process is killed (nothing then removes the folder), the
    next service to start finds it by that id and removes it (`left_by_the_dead`)."""
    return tempfile.mkdtemp(prefix=f"{ARTIFACTS_PREFIX}pling{os.getpid()}-")


def left_by_the_dead() -> list[str]:
    """Artifacts folders made by a service process that is gone (killed before it could remove them):
    only folders of this user, named as `artifacts_folder` names them, whose process no longer runs."""
    root, uid = tempfile.gettempdir(), os.getuid()
    named = re.compile(rf"^{ARTIFACTS_PREFIX}pling(\d+)-")
    found = []
    for name in os.listdir(root):
        match = named.match(name)
        if match is None or alive(int(match.group(1))):
            continue
        path = os.path.join(root, name)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == uid:
            found.append(path)
    return found


async def reap(pids: list[int], folders: list[str]) -> None:
    """Kill what is left of a browser and, once its processes are gone (a dying one may still write),
    remove its profile folders."""
    kill(pids)
    for _ in range(40):
        if not any(alive(pid) for pid in pids):
            break
        await asyncio.sleep(0.05)
    for folder in folders:
        for _ in range(3):
            shutil.rmtree(folder, ignore_errors=True)
            if not os.path.exists(folder):
                break
            await asyncio.sleep(0.1)
