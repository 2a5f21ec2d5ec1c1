"""Memory of a process tree, read from /proc: RSS (VmRSS of /proc/PID/status) and PSS (smaps_rollup,
which shares pages out among the processes that map them, so a tree's PSS sum does not count shared
libraries and Chromium's shared memory several times over as its RSS sum does). CPU time is read with psutil."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import psutil

from pling_browser.core import processes


def tree(pid: int) -> list[int]:
    """pid and all its descendants."""
    return [pid, *processes.descendants(pid)]


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _pss_kb(pid: int) -> tuple[int, int]:
    """PSS and the part of it that is file-backed (Pss_File: the executable and libraries, whose pages
    are shared with every process on the machine that maps the same files, other browsers included)."""
    pss = pss_file = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Pss_File:"):
                    pss_file = int(line.split()[1])
    except OSError:
        pass
    return pss, pss_file


@dataclass
class TreeMemory:
    processes: int = 0
    rss_kb: int = 0
    pss_kb: int = 0
    pss_file_kb: int = 0
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def rss_mb(self) -> float:
        return self.rss_kb / 1024

    @property
    def pss_mb(self) -> float:
        return self.pss_kb / 1024

    @property
    def pss_file_mb(self) -> float:
        return self.pss_file_kb / 1024

    def as_json(self) -> dict[str, object]:
        return {"processes": self.processes, "rss_mb": round(self.rss_mb, 1), "pss_mb": round(self.pss_mb, 1),
                "pss_file_mb": round(self.pss_file_mb, 1),
                "by_kind": {k: {"processes": v["processes"], "rss_mb": round(v["rss_kb"] / 1024, 1),
                                "pss_mb": round(v["pss_kb"] / 1024, 1)} for k, v in self.by_kind.items()}}


def _kind(pid: int, root: int) -> str:
    if pid == root:
        return "service"
    comm = _comm(pid).lower()
    if "chrom" in comm or comm.startswith("headless"):
        return "chromium"
    if comm.startswith("node"):
        return "driver"
    return "other"


def measure(root: int) -> TreeMemory:
    out = TreeMemory()
    for pid in tree(root):
        rss, (pss, pss_file) = _rss_kb(pid), _pss_kb(pid)
        if rss == 0 and pss == 0:
            continue
        kind = _kind(pid, root)
        slot = out.by_kind.setdefault(kind, {"processes": 0, "rss_kb": 0, "pss_kb": 0})
        slot["processes"] += 1
        slot["rss_kb"] += rss
        slot["pss_kb"] += pss
        out.processes += 1
        out.rss_kb += rss
        out.pss_kb += pss
        out.pss_file_kb += pss_file
    return out




def _chromium_type(pid: int) -> str:
    """A Chromium process's --type (renderer, gpu-process, utility, zygote), 'browser' without one.
    Chromium rewrites its children's titles, so their arguments come as one string in /proc/PID/cmdline."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().replace(b"\0", b" ").decode(errors="replace").split()
    except OSError:
        return "?"
    return next((w[len("--type="):] for w in words if w.startswith("--type=")), "browser")


def _cpu_ms(process: psutil.Process) -> float | None:
    try:
        times = process.cpu_times()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None
    return (times.user + times.system) * 1000


def cpu_reader(root: int, skip: tuple[int, ...] = (), own: bool = True) -> Callable[[], dict[str, float]]:
    """A reader of the CPU time (user + system, psutil) so far of the tree's processes as they are now, in
    ms, by kind; Chromium's by process type ('chromium renderer', 'chromium gpu-process', …). The tree is
    walked once, here, so reading costs the processes read nothing but psutil's calls. `skip`: roots of
    subtrees left out (the bench's own tree holds the service's); `own=False` leaves the root out."""
    left_out = {pid for top in skip for pid in tree(top)}
    kinds: list[tuple[psutil.Process, str]] = []
    for pid in tree(root):
        if pid in left_out or (pid == root and not own):
            continue
        kind = _kind(pid, root)
        try:
            kinds.append((psutil.Process(pid), f"chromium {_chromium_type(pid)}" if kind == "chromium" else kind))
        except psutil.NoSuchProcess:
            continue

    def read() -> dict[str, float]:
        out: dict[str, float] = {}
        for process, kind in kinds:
            used = _cpu_ms(process)
            if used is not None:
                out[kind] = out.get(kind, 0.0) + used
        return out
    return read
