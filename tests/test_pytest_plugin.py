"""The pytest plugin from a team's own test project: pytest runs in a subprocess on a temporary folder
that only has a test file; the `pling` fixture comes from the installed entry point."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx

from .conftest import ServiceThread
from .server import FixtureServer

PROJECT_TESTS = '''
import os

from pling_browser import Receipt


def test_add_a_task(pling):
    page = pling.open(os.environ["DEMO_URL"])
    assert page.model.records["task"].total == 14
    receipt = page.invoke("add_todo", {"text": "From a test project"})
    assert isinstance(receipt, Receipt)
    assert receipt.ok, receipt.error
    assert receipt.changed.records["task"].added == ["t15"]
    assert receipt.changed.state.changed["open_count"] == {"from": 11, "to": 12}
    with open(os.environ["SESSION_FILE"], "w") as out:
        out.write(page.id)


def test_delete_without_approval(pling):
    receipt = pling.open(os.environ["DEMO_URL"]).invoke("remove@t1")
    assert receipt.ok, receipt.error.code
'''


INNER_PLUGINS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:schemathesis")


def _pytest(folder: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("PLING_URL", "PLING_APPROVE", "PLING_TOKEN", "PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    # A hang guard, not a speed check: the inner run starts a service and a browser of its own. A team's
    # project has the pling plugin, not this checkout's fuzzers: hypothesis's and schemathesis's plugins
    # are not loaded (about 1.2 s of CPU each run).
    return subprocess.run([sys.executable, "-m", "pytest", "-q", *INNER_PLUGINS, *args], cwd=folder,
                          capture_output=True, text=True, timeout=300, env={**environ, **env})


def _outcomes(report: Path) -> dict[str, str]:
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        failure = case.find("failure")
        out[case.get("name", "")] = "passed" if failure is None else "failed: " + (failure.get("message") or "")
    return out


def test_the_fixture_with_its_own_service(fixtures: FixtureServer, tmp_path: Path) -> None:
    (tmp_path / "test_todos.py").write_text(PROJECT_TESTS)
    done = _pytest(tmp_path, "--junitxml=report.xml",
                   env={"DEMO_URL": fixtures.url("demo/todos.html"), "SESSION_FILE": str(tmp_path / "sid")})
    assert done.returncode == 1, done.stdout + done.stderr
    outcomes = _outcomes(tmp_path / "report.xml")
    assert outcomes["test_add_a_task"] == "passed", done.stdout
    assert outcomes["test_delete_without_approval"].startswith("failed: AssertionError: PERMISSION_DENIED"), done.stdout


def test_the_fixture_against_a_running_service(service: ServiceThread, client: httpx.Client,
                                               fixtures: FixtureServer, tmp_path: Path) -> None:
    (tmp_path / "test_todos.py").write_text(PROJECT_TESTS)
    done = _pytest(tmp_path, "--pling-url", service.url, "-k", "add_a_task",
                   env={"DEMO_URL": fixtures.url("demo/todos.html"), "SESSION_FILE": str(tmp_path / "sid")})
    assert done.returncode == 0, done.stdout + done.stderr
    sid = (tmp_path / "sid").read_text()
    # The invocation went to this service (its receipt log has it), and the fixture closed the session.
    logged = client.get(f"/sessions/{sid}/receipts").json()["receipts"]
    assert [entry["receipt"]["action"]["id"] for entry in logged] == ["add_todo"]
    assert sid not in [session["id"] for session in client.get("/sessions").json()]


def test_the_plugin_does_nothing_unless_used(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text('''
import sys

def test_nothing_loaded(request):
    assert request.config.pluginmanager.hasplugin("pling_browser")
    heavy = [name for name in ("playwright", "uvicorn", "fastapi", "httpx", "pling_browser.client") if name in sys.modules]
    assert heavy == []
''')
    done = _pytest(tmp_path, env={})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
