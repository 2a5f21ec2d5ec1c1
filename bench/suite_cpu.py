"""Where the test suite's CPU goes, by test file and by process kind (issue 31; docs/testing.md).

A pytest plugin, loaded into every xdist worker with `-p`:

    SUITE_CPU_OUT=/tmp/cpu .venv/bin/python -m pytest -n 2 --dist loadfile -p bench.suite_cpu
    .venv/bin/python -m bench.suite_cpu /tmp/cpu

Each worker appends one JSON line per test file to `$SUITE_CPU_OUT.<pid>`: the file's wall time and the
CPU (user+sys) of every process of the worker's tree while the file ran, by kind: the worker itself
(the tests, the in-thread services, Playwright's Python side), Chromium's browser, renderer and GPU
processes, Playwright's node drivers, and the Python subprocesses the tests start (`-m pling_browser
serve`, `-m bench.service`, `-m pytest`…). A sampler thread reads the tree every SAMPLE_S, so a process
that lives at least that long is counted by its last reading even when something outside the tree
reaps it (a browser whose driver was killed; `/usr/bin/time` misses those), and one that lives less
than SAMPLE_S may be missed. The sampler's own CPU is reported as `sampler` (about 3% of the suite's)."""

from __future__ import annotations

import collections
import glob
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

SAMPLE_S = 0.5
CHROMIUM_TYPES = ("renderer", "gpu-process", "utility", "zygote")


def kind(process: psutil.Process) -> str:
    """A process's kind, from its command line."""
    try:
        command, name = process.cmdline(), process.name()
    except psutil.Error:
        return "gone"
    line = " ".join(command)
    if "chrom" in name:
        found = [t for t in CHROMIUM_TYPES if f"--type={t}" in line]
        return "chromium-" + (found[0] if found else "browser" if "--type=" not in line else "other")
    if name == "node":
        return "node"
    if "python" in name:
        words = command[1:3]
        return "python " + " ".join(words) if words[:1] == ["-m"] else "python other"
    return "other " + name


class Tree:
    """The CPU seen of each process below this one (by pid and start time), refreshed by a thread."""

    def __init__(self) -> None:
        self.me = psutil.Process()
        self.seen: dict[tuple[int, float], list[Any]] = {}  # key -> [kind, CPU at the last reading]
        self.lock = threading.Lock()
        self.sampler_id: int | None = None

    def sample(self) -> None:
        for process in self.me.children(recursive=True):
            try:
                key, times = (process.pid, process.create_time()), process.cpu_times()
            except psutil.Error:
                continue
            with self.lock:
                entry = self.seen.setdefault(key, [kind(process), 0.0])
                entry[1] = times.user + times.system

    def readings(self) -> dict[tuple[int, float], float]:
        self.sample()
        with self.lock:
            return {key: entry[1] for key, entry in self.seen.items()}

    def own(self) -> tuple[float, float]:
        """This process's CPU, and its sampler thread's."""
        times = self.me.cpu_times()
        sampler = sum(t.user_time + t.system_time for t in self.me.threads() if t.id == self.sampler_id)
        return times.user + times.system, sampler

    def run(self) -> None:
        self.sampler_id = threading.get_native_id()
        while True:
            try:
                self.sample()
            except Exception:  # noqa: BLE001 - a process gone mid-read; the next reading has the rest
                pass
            time.sleep(SAMPLE_S)


class FileCpu:
    """Opens a file's count at its first test, closes it at the next file's first test or at the end."""

    def __init__(self, out: str) -> None:
        self.out = f"{out}.{os.getpid()}"
        self.tree = Tree()
        threading.Thread(target=self.tree.run, name="suite-cpu", daemon=True).start()
        self.current: dict[str, Any] = {}

    def begin(self, file: str) -> None:
        own, sampler = self.tree.own()
        self.current = {"file": file, "tests": 0, "t0": time.monotonic(), "own": own, "sampler": sampler,
                        "before": self.tree.readings()}

    def end(self) -> None:
        if not self.current:
            return
        now = self.tree.readings()
        own, sampler = self.tree.own()
        by_kind: collections.Counter[str] = collections.Counter()
        for key, cpu in now.items():
            by_kind[self.tree.seen[key][0]] += cpu - self.current["before"].get(key, 0.0)
        by_kind["sampler"] = sampler - self.current["sampler"]
        by_kind["worker"] = own - self.current["own"] - by_kind["sampler"]
        record = {"file": self.current["file"], "tests": self.current["tests"],
                  "wall": round(time.monotonic() - self.current["t0"], 2), "cpu": round(sum(by_kind.values()), 2),
                  "kinds": {k: round(v, 2) for k, v in by_kind.most_common() if v >= 0.01}}
        with open(self.out, "a", encoding="utf-8") as file:
            file.write(json.dumps(record) + "\n")
        self.current = {}

    @pytest.hookimpl(tryfirst=True)  # before pytest's own runs the test
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> None:
        file = item.nodeid.split("::", 1)[0]
        if self.current.get("file") != file:
            self.end()
            self.begin(file)
        self.current["tests"] += 1

    def pytest_sessionfinish(self) -> None:
        self.end()


def pytest_configure(config: Any) -> None:
    config.pluginmanager.register(FileCpu(os.environ.get("SUITE_CPU_OUT", "suite-cpu")), "suite-cpu-files")


def table(prefix: str, top: int = 30) -> str:
    """The files' records of every worker: totals by kind, then the files with the most CPU."""
    records = [json.loads(line) for path in glob.glob(prefix + ".*")
               for line in Path(path).read_text(encoding="utf-8").splitlines()]
    kinds: collections.Counter[str] = collections.Counter()
    for record in records:
        kinds.update(record["kinds"])
    lines = [f"{len(records)} files, {sum(r['tests'] for r in records)} tests, wall summed over files "
             f"{sum(r['wall'] for r in records):.0f} s, CPU {sum(r['cpu'] for r in records):.0f} s",
             "by kind: " + ", ".join(f"{k} {v:.0f}" for k, v in kinds.most_common())]
    for r in sorted(records, key=lambda r: -r["cpu"])[:top]:
        parts = " ".join(f"{k} {v:.1f}" for k, v in list(r["kinds"].items())[:5])
        lines.append(f"{r['file']:48} {r['tests']:4} wall {r['wall']:6.1f} CPU {r['cpu']:6.1f}  {parts}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30))
