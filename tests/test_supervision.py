"""Killing the service process (SIGKILL, no chance to clean up) leaves neither its Playwright driver
nor its Chromium behind: they exit when their pipes close. Only the PIDs under the process this test
started are looked at, and signalled if anything is left."""

from __future__ import annotations

import os
import signal
import time

import httpx

from pling_browser.core import processes

from .spawn import kill_group, serve


def test_a_killed_service_leaves_no_driver_or_chromium() -> None:
    service, url = serve()
    try:
        assert httpx.post(f"{url}/sessions", json={}, timeout=60).status_code == 201
        tree = processes.descendants(service.pid)
        assert any("run-driver" in processes.cmdline(pid) for pid in tree)
        assert sum("chrom" in processes.cmdline(pid) for pid in tree) >= 2
        os.kill(service.pid, signal.SIGKILL)
        service.wait(10)
        killed_at = time.monotonic()
        while time.monotonic() - killed_at < 10 and any(processes.alive(pid) for pid in tree):
            time.sleep(0.1)
        left = [pid for pid in tree if processes.alive(pid)]
        print(f"\n  service killed: its {len(tree)} processes gone in {time.monotonic() - killed_at:.2f} s")
        assert not left, [processes.cmdline(pid)[:80] for pid in left]
    finally:
        kill_group(service)
