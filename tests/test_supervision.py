"""Killing the service process (SIGKILL, no chance to clean up) leaves neither its Playwright driver
nor its Chromium behind: they exit when their pipes close. Only the PIDs under the process this test
started are looked at, and signalled if anything is left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from pling_browser import processes

from .browser_servers import free_port


def test_a_killed_service_leaves_no_driver_or_chromium() -> None:
    port = free_port()
    service = subprocess.Popen([sys.executable, "-m", "pling_browser", "serve", "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
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
        if service.poll() is None:
            os.killpg(service.pid, signal.SIGKILL)
            service.wait(10)
