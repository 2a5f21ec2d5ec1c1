"""core/processes.py's view of the process tree, on a real tree of processes: the children files the
kernel keeps per thread (what /healthz reads, cheaply) and the scan of /proc (where a kernel has none)
name the same descendants, grandchildren and a child started from another thread included."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pling_browser.core import processes

# A child that starts one grandchild from its main thread and one from a second thread, then waits. The
# second thread lives on: a thread that ends hands its children to the main thread, whose children file
# would then name them all.
TREE = """
import subprocess, sys, threading, time
kids = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])]
started = threading.Event()
def second():
    kids.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    started.set()
    time.sleep(60)
threading.Thread(target=second, daemon=True).start()
started.wait()
print(" ".join(str(kid.pid) for kid in kids), flush=True)
time.sleep(60)
"""


@pytest.fixture
def tree():
    child = subprocess.Popen([sys.executable, "-c", TREE], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        grandchildren = [int(pid) for pid in child.stdout.readline().split()]
        yield child.pid, grandchildren
    finally:
        processes.kill(processes.descendants(child.pid))
        child.kill()
        child.wait()
        child.stdout.close()


@pytest.mark.parametrize("children_files", [True, False], ids=["children-files", "proc-scan"])
def test_descendants_are_the_whole_tree(tree, monkeypatch, children_files):
    if children_files and not processes._children_files():
        pytest.skip("this kernel keeps no children files")
    monkeypatch.setattr(processes, "CHILDREN_FILES", children_files)
    child, grandchildren = tree
    assert len(grandchildren) == 2
    assert sorted(processes.children(child)) == sorted(grandchildren)
    assert child in processes.children(os.getpid())
    assert sorted(processes.descendants(child)) == sorted(grandchildren)
    assert child in processes.descendants(os.getpid())


def test_a_process_without_children_and_a_gone_one(tree):
    child, grandchildren = tree
    assert processes.children(grandchildren[0]) == []
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: /proc has no entry for it now
    assert processes.children(gone.pid) == []
    assert processes.descendants(gone.pid) == []


def test_two_controllers_starting_at_once_know_their_own_driver() -> None:
    """Two runtimes started at once in one process (an embedder's, the pytest plugin's services) each name
    the Playwright driver they started: its Chromium is below it, and the other's driver is not theirs.
    Taking whichever new `run-driver` child appeared, both named the same one."""
    import asyncio

    from pling_browser.config import Settings
    from pling_browser.core.browsers import Controller

    async def start_two() -> list[tuple[int | None, list[int]]]:
        controllers = [Controller(Settings.from_env()), Controller(Settings.from_env())]
        await asyncio.gather(*(controller.start() for controller in controllers))
        try:
            return [(controller.driver_pid, controller.browser_pids()) for controller in controllers]
        finally:
            await asyncio.gather(*(controller.stop() for controller in controllers))

    (first, first_browser), (second, second_browser) = asyncio.run(start_two())
    assert first is not None and second is not None and first != second
    assert first_browser and second_browser and not set(first_browser) & set(second_browser)
