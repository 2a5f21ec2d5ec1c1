"""The browser process, or the Playwright driver, killed mid-action: the invocation answers, the
sessions on that browser say they are lost, a new browser serves new sessions, and nothing is left
behind. Only PIDs this test's own service started are signalled."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pling_browser.core import processes

from .conftest import ServiceThread, problem, serving
from .server import FixtureServer


@pytest.fixture
def crashable() -> Iterator[ServiceThread]:
    with serving(action_timeout_ms=600_000) as svc:
        yield svc


def _zombies(pid: int) -> list[int]:
    return [child for child in processes.descendants(pid) if processes.state(child) == "Z"]


def _crash_and_recover(svc: ServiceThread, fixtures: FixtureServer, victim: str) -> None:
    controller = svc.app.state.runtime.controller
    with httpx.Client(base_url=svc.url, timeout=60) as client:
        open_url = fixtures.url("pages/crash.html")
        busy = client.post("/sessions", json={"url": open_url}).json()["session"]["id"]
        idle = client.post("/sessions", json={"url": open_url}).json()["session"]["id"]
        old_tree = controller.browser_pids()
        old_driver = controller.driver_pid
        assert old_tree and old_driver
        result: dict[str, Any] = {}

        def invoke() -> None:
            with httpx.Client(base_url=svc.url, timeout=60) as own:
                result["receipt"] = own.post(f"/sessions/{busy}/invoke", json={"action": "hang"}).json()["result"]
                result["at"] = time.monotonic()

        runner = threading.Thread(target=invoke)
        runner.start()
        # Wait until the action is running in the page (its run() counted itself), however loaded the machine.
        deadline = time.monotonic() + 60  # a ceiling for a loaded machine, not a measurement
        while time.monotonic() < deadline:
            state = client.get(f"/sessions/{busy}/model").json()["state"]
            if state["started"]["value"] >= 1:
                break
            time.sleep(0.05)
        assert state["started"]["value"] >= 1, state
        time.sleep(0.1)
        killed_at = time.monotonic()
        if victim == "browser":
            browser_main = [pid for pid in processes.children(old_driver) if pid in old_tree][0]
            os.kill(browser_main, signal.SIGKILL)
        else:
            os.kill(old_driver, signal.SIGKILL)
        runner.join(120)  # the action's own timeout is 10 minutes away (pages/crash.html): this answer is the crash's
        assert not runner.is_alive(), "the invocation was not answered when its browser died"
        answered_in = result["at"] - killed_at  # printed below, not asserted (timings: make bench)
        error = result["receipt"]["error"]
        assert error["code"] == "EXECUTION_FAILED" and error["started"] is True and error["outcome"] == "unknown"
        lost = client.get(f"/sessions/{idle}/model")
        assert lost.status_code == 410 and problem(lost)["code"] == "SESSION_LOST"
        # A new browser serves new sessions.
        started = time.monotonic()
        while True:
            fresh = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")})
            if fresh.status_code == 201 or time.monotonic() - started > 60:
                break
            time.sleep(0.2)
        recovered_in = time.monotonic() - started
        assert fresh.status_code == 201, fresh.text
        sid = fresh.json()["session"]["id"]
        assert client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": "after"}}).json()["result"]["ok"]
        # Nothing of the old browser is left: no orphans, no zombies.
        deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
        while time.monotonic() < deadline and any(processes.alive(pid) for pid in old_tree):
            time.sleep(0.1)
        assert not [pid for pid in old_tree if processes.alive(pid)]
        # A renderer that just exited (contexts are prepared ahead as sessions open, and Chromium replaces
        # its spare renderer) is a zombie until its zygote reaps it a moment later: left behind is a
        # zombie that stays.
        lingering = set(_zombies(os.getpid()))
        deadline = time.monotonic() + 30
        while lingering and time.monotonic() < deadline:
            time.sleep(0.1)
            lingering &= set(_zombies(os.getpid()))
        assert not lingering
        print(f"\n  {victim} killed: invocation answered in {answered_in * 1000:.0f} ms, "
              f"new session in {recovered_in:.2f} s, {len(old_tree)} old processes gone")


def test_browser_killed_mid_action(crashable: ServiceThread, fixtures: FixtureServer) -> None:
    _crash_and_recover(crashable, fixtures, "browser")


def test_driver_killed_mid_action(crashable: ServiceThread, fixtures: FixtureServer) -> None:
    _crash_and_recover(crashable, fixtures, "driver")


def test_a_crash_that_frees_every_slot_serves_a_queued_open(fixtures: FixtureServer) -> None:
    # One slot, held by a session; a second open waits in the queue for it. The browser dies: the
    # slot is free at once, so the queued open is served by the relaunched browser (before: it waited
    # for PLING_QUEUE_TIMEOUT and answered 503 QUEUE_TIMEOUT, though nothing was open any more).
    with serving(max_sessions=1, queue=1, queue_timeout_s=30.0) as svc:
        controller = svc.app.state.runtime.controller
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            holder = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")})
            assert holder.status_code == 201, holder.text
            result: dict[str, httpx.Response] = {}

            def open_queued() -> None:
                with httpx.Client(base_url=svc.url, timeout=60) as own:
                    result["open"] = own.post("/sessions", json={"url": fixtures.url("demo/todos.html")})

            waiting = threading.Thread(target=open_queued)
            waiting.start()
            deadline = time.monotonic() + 30
            while svc.app.state.runtime.sessions.waiting < 1 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert svc.app.state.runtime.sessions.waiting == 1
            driver = controller.driver_pid
            browser_main = [pid for pid in processes.children(driver) if pid in controller.browser_pids()][0]
            os.kill(browser_main, signal.SIGKILL)
            waiting.join(60)
            opened = result["open"]
            assert opened.status_code == 201, opened.text
            lost = client.get(f"/sessions/{holder.json()['session']['id']}/model")
            assert lost.status_code == 410 and problem(lost)["code"] == "SESSION_LOST"
            sid = opened.json()["session"]["id"]
            added = client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": "after"}})
            assert added.json()["result"]["ok"] is True


def _left(folder: os.PathLike[str]) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.startswith(("playwright-artifacts-", "playwright_chromiumdev")))


@pytest.mark.parametrize("victim", ["driver", "browser"])
def test_a_killed_driver_leaves_no_playwright_folder_behind(fixtures: FixtureServer, victim: str) -> None:
    # Chromium's own org.chromium.Chromium.* folders are not counted: a browser killed outright leaves
    # them (SECURITY.md, known gaps).
    # The service runs with a temp folder of its own (TMPDIR, which its driver inherits), so whatever
    # Playwright or the service makes there is this test's to count, however many services run beside it.
    # A short path: Chromium's profile holds a Unix socket, whose path may not pass 107 bytes.
    import shutil
    import tempfile

    from .spawn import kill_group, serve

    private = tempfile.mkdtemp(prefix="pling-tmp-")

    service, url = serve(env={"TMPDIR": private, "PLING_ALLOW_HOSTS": "127.0.0.1"})
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            assert client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).status_code == 201
            before = _left(private)
            assert [name for name in before if name.startswith("playwright-artifacts-")], before
            driver = [pid for pid in processes.descendants(service.pid) if "run-driver" in processes.cmdline(pid)][0]
            victims = [driver] if victim == "driver" else \
                [pid for pid in processes.children(driver) if "chrom" in processes.cmdline(pid)]
            assert len(victims) == 1, victims
            os.kill(victims[0], signal.SIGKILL)  # only a process of the service this test started
            deadline = time.monotonic() + 60
            while True:  # the service still answers: a new browser serves a new session
                fresh = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")})
                if fresh.status_code == 201 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert fresh.status_code == 201, fresh.text
            deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
            while set(before) & set(_left(private)) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not set(before) & set(_left(private)), (before, _left(private))
            sid = fresh.json()["session"]["id"]
            added = client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": "after"}})
            assert added.json()["result"]["ok"] is True
        # Stopped as a service is stopped, it removes the new browser's folders too.
        os.kill(service.pid, signal.SIGTERM)
        service.wait(30)
        assert _left(private) == []
    finally:
        kill_group(service)
        shutil.rmtree(private, ignore_errors=True)


@pytest.mark.parametrize("victim", ["browser", "driver"])
def test_the_first_open_after_a_death_not_yet_noticed_is_served(fixtures: FixtureServer, victim: str) -> None:
    # Contexts prepared ahead (core/warm.py) look usable until the service hears the browser or its
    # driver is gone. The kill and the open start in one turn of the service's loop, so the open comes
    # before the loss can be noticed, however fast the machine: it must not be handed a dead context.
    with serving(warm_contexts=2) as svc:
        controller = svc.app.state.runtime.controller
        deadline = time.monotonic() + 60
        while len(controller.warm) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(controller.warm) == 2
        url = fixtures.url("demo/todos.html")

        async def kill_then_open(runtime: Any) -> str:
            driver = controller.driver_pid
            pid = driver if victim == "driver" else \
                [pid for pid in processes.children(driver) if pid in controller.browser_pids()][0]
            os.kill(pid, signal.SIGKILL)  # only a process of the service this test started
            return (await runtime.open(url)).id

        sid = svc.in_service(kill_then_open, timeout=120)
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            added = client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": "first"}})
            assert added.json()["result"]["ok"] is True, added.text
