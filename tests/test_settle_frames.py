"""Settling counts only frames that rendered. On a loaded machine a frame can come later than the
bridge's 20 ms wait for it; a wait that ran out used to count as a frame, so three of them "settled"
the page before its own queued frame callbacks ran, and the receipt missed what they changed.

Frames are stopped here for real, without touching the page: the browser's GPU process (which
produces every frame) is paused with SIGSTOP while the renderer keeps running its timers, and
resumed a second later. Chromium's own process, so it needs a browser this test launched."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import httpx
import psutil
import pytest

from .conftest import FixtureServer, Pages, serving

pytestmark = pytest.mark.skipif(bool(os.environ.get("PLING_TEST_BROWSER_ENDPOINT")),
                                reason="pauses the GPU process of a browser this process launched")


def gpu_processes() -> set[int]:
    """The GPU processes of the Chromiums this test process started (through Playwright's driver)."""
    found = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if "--type=gpu-process" in child.cmdline():
                found.add(child.pid)
        except psutil.Error:
            continue
    return found


@pytest.fixture
def own_service() -> Iterator[tuple[httpx.Client, set[int]]]:
    before = gpu_processes()
    # A settle cap far beyond the pause: the receipt must wait for the frames, not give up.
    with serving(settle_cap_ms=30_000) as svc, httpx.Client(base_url=svc.url, timeout=60) as client:
        yield client, before


def test_a_frame_that_comes_late_is_waited_for(own_service: tuple[httpx.Client, set[int]],
                                               fixtures: FixtureServer) -> None:
    client, before = own_service
    pages = Pages(client, fixtures)
    try:
        page = pages.open("pages/lifecycle/deferred.html")
        ours = gpu_processes() - before
        assert len(ours) == 1, f"expected one GPU process of this test's browser, found {ours}"
        gpu = ours.pop()
        resumed = threading.Event()

        def resume() -> None:
            os.kill(gpu, signal.SIGCONT)
            resumed.set()

        os.kill(gpu, signal.SIGSTOP)
        timer = threading.Timer(1.0, resume)
        timer.start()
        try:
            # bump_next_frame's run() bumps its counter two animation frames later.
            receipt = page.invoke("bump_next_frame")
        finally:
            timer.cancel()
            os.kill(gpu, signal.SIGCONT)
        assert resumed.is_set(), "the receipt came back while no frame could render: it cannot have waited for one"
        assert receipt["ok"] is True, receipt
        assert receipt["changed"]["state"]["changed"] == {"framed": {"from": 0, "to": 1}}, receipt["changed"]
        assert "warning" not in receipt, receipt
    finally:
        pages.close_all()
