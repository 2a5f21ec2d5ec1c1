"""How busy the machine was with work other than the bench's own, while the bench ran: a thread samples
/proc/stat (all CPU time) and the CPU time of the bench's process tree (this process, the service, its
driver and Chromium, Playwright MCP) every second; the difference is everyone else's. Measured figures
on a busy machine are slower and noisier, and the table says so."""

from __future__ import annotations

import os
import threading

from pling_browser.core import processes

from . import procmem

_TICK = 1 / processes.TICK_S


def busy_ms() -> float:
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) * 1000 / _TICK


def _own_ms(root: int) -> dict[int, float]:
    out = {}
    for pid in procmem.tree(root):
        used = processes.cpu_ms(pid)
        if used is not None:
            out[pid] = used
    return out


class CpuWatch:
    def __init__(self, interval_s: float = 1.0) -> None:
        self.interval_s = interval_s
        self.root = os.getpid()
        self.cpus = os.cpu_count() or 1
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.others_ms = 0.0
        self.own_ms = 0.0
        self.elapsed_ms = 0.0
        self.peak_others_share = 0.0

    def _run(self) -> None:
        import time

        busy, own, at = busy_ms(), _own_ms(self.root), time.monotonic()
        while not self._stop.wait(self.interval_s):
            busy2, own2, at2 = busy_ms(), _own_ms(self.root), time.monotonic()
            # Processes alive at both samples count their difference; new ones all their time so far.
            mine = sum(t - own.get(pid, 0.0) for pid, t in own2.items())
            others = max(0.0, (busy2 - busy) - mine)
            window = (at2 - at) * 1000
            self.others_ms += others
            self.own_ms += mine
            self.elapsed_ms += window
            if window > 0:
                self.peak_others_share = max(self.peak_others_share, others / (window * self.cpus))
            busy, own, at = busy2, own2, at2

    def __enter__(self) -> CpuWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def as_json(self) -> dict[str, float]:
        capacity = self.elapsed_ms * self.cpus
        return {
            "others_cpu_share": round(self.others_ms / capacity, 3) if capacity else 0.0,
            "others_cpu_share_peak": round(self.peak_others_share, 3),
            "bench_cpu_share": round(self.own_ms / capacity, 3) if capacity else 0.0,
        }
