"""The command line, run as a real process against a real page."""

from __future__ import annotations

import json
import subprocess
import sys

from .server import FixtureServer


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pling_browser", *args], capture_output=True, text=True, timeout=120)


def test_model_prints_the_page_model(fixtures: FixtureServer) -> None:
    done = _cli("model", fixtures.url("demo/todos.html"), "--limit", "3")
    assert done.returncode == 0, done.stderr
    model = json.loads(done.stdout)
    assert model["page"]["id"] == "todos"
    assert len(model["records"]["task"]["items"]) == 3 and model["records"]["task"]["total"] == 14


def test_invoke_prints_a_receipt_and_exits_by_its_outcome(fixtures: FixtureServer) -> None:
    done = _cli("invoke", fixtures.url("demo/todos.html"), "add_todo", "--args", '{"text": "From the CLI"}')
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)["result"]
    assert receipt["ok"] is True and receipt["changed"]["records"]["task"]["added"] == ["t15"]
    failed = _cli("invoke", fixtures.url("demo/todos.html"), "add_todo", "--args", "{nope")
    assert failed.returncode == 1
    assert json.loads(failed.stdout)["result"]["error"]["code"] == "INVALID_ARGS"


def test_refused_url_is_a_clear_error(fixtures: FixtureServer) -> None:
    done = _cli("model", "file:///etc/passwd")
    assert done.returncode == 2
    assert json.loads(done.stderr)["error"]["code"] == "URL_REFUSED"


def test_serve_refuses_a_public_address_without_a_token() -> None:
    done = _cli("serve", "--host", "0.0.0.0", "--port", "1")
    assert done.returncode == 2 and "PLING_TOKEN" in done.stderr
