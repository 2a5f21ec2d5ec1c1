"""The lifecycle tests of the stages that work on the page, rerun against a remote endpoint (a Playwright
browser server): each part of tests/lifecycle in a pytest of its own with PLING_TEST_BROWSER_ENDPOINT set.

The parts are units of their own for `make test` (tests/schedule.py): the longest files run beside the
rest on the other worker instead of one rerun of three minutes after everything else."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .spawn import BrowserServer

ROOT = Path(__file__).resolve().parent.parent
LIFECYCLE = ROOT / "tests" / "lifecycle"
# Not rerun remotely: test_runner (the code's shape, no browser), test_decode and test_validate (args
# refused or completed in the service before the page is touched; the pages they open are opened as in
# every other file). Every other file of tests/lifecycle, new ones too, runs against the remote browser.
NOT_REMOTE = ("test_runner.py", "test_decode.py", "test_validate.py")
# Two parts of about the same length: the two longest files, and every other file ("rest"). Each part
# is a pytest with a service of its own (seconds of start-up), so no more parts than that.
LONG = (("test_confirm.py", "test_widget_gestures.py"),)


def parts() -> dict[str, tuple[str, ...]]:
    """Each part by its name: the files of LONG, then "rest"."""
    named = {name for part in LONG for name in part}
    rest = sorted(path.name for path in LIFECYCLE.glob("test_*.py") if path.name not in named | set(NOT_REMOTE))
    return {**{"+".join(name[5:-3] for name in part): part for part in LONG}, "rest": tuple(rest)}


@pytest.fixture(scope="module")
def remote() -> Iterator[BrowserServer]:
    server = BrowserServer().start()
    try:
        yield server
    finally:
        server.stop()


def test_the_parts_are_the_lifecycle_files_each_once() -> None:
    every = sorted(path.name for path in LIFECYCLE.glob("test_*.py"))
    named = [name for part in parts().values() for name in part]
    assert sorted(named + list(NOT_REMOTE)) == every  # a file renamed in LONG or NOT_REMOTE fails here


@pytest.mark.parametrize("files", [pytest.param(files, id=name) for name, files in parts().items()])
def test_lifecycle_passes_against_a_remote_endpoint(remote: BrowserServer, files: tuple[str, ...]) -> None:
    env = {**os.environ, "PLING_TEST_BROWSER_ENDPOINT": remote.url}
    # No fuzzing here: the plugins of hypothesis and schemathesis are not loaded (seconds of start-up each run).
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
               "-p", "no:schemathesis", *(f"tests/lifecycle/{name}" for name in files)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
    print(f"\n  {', '.join(files)} against a remote endpoint: " + done.stdout.strip().splitlines()[-1])
