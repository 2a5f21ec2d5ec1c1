"""Killing the service process (SIGKILL, no chance to clean up) leaves neither its Playwright driver
nor its Chromium behind: they exit when their pipes close. Only the PIDs under the process this test
started are looked at, and signalled if anything is left. The one folder nobody is left to remove (the
artifacts folder the service made for its browser) is removed by the next service to start."""

from __future__ import annotations

import os
import signal
import time

from pling_browser.core import processes

from . import patient
from .server import FixtureServer
from .spawn import kill_group, serve


def test_a_killed_service_leaves_no_driver_or_chromium() -> None:
    service, url = serve()
    try:
        assert patient.post(f"{url}/sessions", json={}, timeout=60).status_code == 201
        tree = processes.descendants(service.pid)
        assert any("run-driver" in processes.cmdline(pid) for pid in tree)
        assert sum("chrom" in processes.cmdline(pid) for pid in tree) >= 2
        os.kill(service.pid, signal.SIGKILL)
        service.wait(10)
        killed_at = time.monotonic()
        while time.monotonic() - killed_at < 30 and any(processes.alive(pid) for pid in tree):
            time.sleep(0.1)
        left = [pid for pid in tree if processes.alive(pid)]
        print(f"\n  service killed: its {len(tree)} processes gone in {time.monotonic() - killed_at:.2f} s")
        assert not left, [processes.cmdline(pid)[:80] for pid in left]
    finally:
        kill_group(service)


def test_what_a_killed_service_left_in_tmp_goes_when_the_next_one_starts(fixtures: FixtureServer) -> None:
    # A TMPDIR of the test's own (short: Chromium's profile holds a Unix socket, whose path is bounded),
    # so what is counted there is only what these services made.
    import shutil
    import tempfile

    private = tempfile.mkdtemp(prefix="pling-tmp-")
    env = {"TMPDIR": private, "PLING_ALLOW_HOSTS": "127.0.0.1"}

    def left() -> list[str]:
        return sorted(name for name in os.listdir(private) if name.startswith(("playwright", "org.chromium")))

    service, url = serve(env=env)
    try:
        assert patient.post(f"{url}/sessions", json={"url": fixtures.url("demo/todos.html")}, timeout=60).status_code == 201
        tree = processes.descendants(service.pid)
        os.kill(service.pid, signal.SIGKILL)
        service.wait(10)
        deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
        while time.monotonic() < deadline and any(processes.alive(pid) for pid in tree):
            time.sleep(0.1)
        stale = [name for name in left() if name.startswith(f"playwright-artifacts-pling{service.pid}-")]
        assert len(stale) == 1, left()  # its driver removed the rest as it exited; this was the service's
        again, _ = serve(env=env)
        try:
            assert stale[0] not in left(), left()
        finally:
            kill_group(again)
    finally:
        kill_group(service)
        shutil.rmtree(private, ignore_errors=True)
