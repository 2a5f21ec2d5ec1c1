"""The command line against a real page: its commands in this process (tests/command_line.py, `main`
as `python -m pling_browser` runs it), and `serve` as a real process, signalled and stopped."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from . import command_line, patient
from .server import FixtureServer


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return command_line.run(*args)


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


# ---- --version, help with defaults, a clean stop, .env (issue 30) ------------------------------------


def test_version_and_help_with_defaults() -> None:
    from pling_browser import __version__

    version = _cli("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"pling-browser {__version__}"
    serve = _cli("serve", "--help")
    assert serve.returncode == 0
    text = " ".join(serve.stdout.split())
    assert "--host HOST the address to listen on" in text and "(default: 127.0.0.1)" in text
    assert "--port PORT the port to listen on (default: 8000)" in text
    for command in ("model", "invoke", "check", "record", "draft", "run"):
        shown = _cli(command, "--help")
        assert shown.returncode == 0 and "usage: pling-browser " + command in shown.stdout
        options = [line for line in shown.stdout.splitlines() if line.strip().startswith("--") and "help" not in line]
        assert all(len(line.split()) > 1 for line in options), (command, options)  # every option says something


def _free_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def _serve(tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    """A real `pling-browser serve` in tmp_path, in a process group of its own, once it answers /healthz."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLING_")}
    env["PLING_DATA_DIR"] = str(tmp_path / "data")
    service = subprocess.Popen([sys.executable, "-m", "pling_browser", "serve", "--port", str(port)], cwd=tmp_path,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and service.poll() is None:
        try:
            if patient.get(f"{url}/healthz", timeout=10).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    return service, url


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGINT to the group"])
def test_serve_stops_cleanly_on_a_signal(how: str, tmp_path: Path) -> None:
    """A real `pling-browser serve`, with a session open, signalled as a terminal's Ctrl-C (the whole
    process group: the browser's driver gets it too), as `kill -INT`, or as systemd/docker stop it. It
    reads PLING_TOKEN from the .env of its working directory."""
    (tmp_path / ".env").write_text("PLING_TOKEN=from-dotenv-0123\n")
    service, url = _serve(tmp_path)
    try:
        assert patient.get(f"{url}/sessions", timeout=30).status_code == 401  # the .env's token is required
        auth = {"Authorization": "Bearer from-dotenv-0123"}
        opened = patient.post(f"{url}/sessions", json={}, headers=auth, timeout=120)
        assert opened.status_code == 201, opened.text
        signal_number = signal.SIGTERM if how == "SIGTERM" else signal.SIGINT
        if how.endswith("group"):
            os.killpg(service.pid, signal_number)
        else:
            service.send_signal(signal_number)
        _, err = service.communicate(timeout=120)
    finally:
        if service.poll() is None:
            service.kill()
            service.communicate()
    assert service.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "Future exception" not in err, err[-2000:]
    bad = [line for line in err.splitlines() if " ERROR " in line or " WARNING " in line or line.startswith(("ERROR", "WARNING"))]
    assert not bad, bad
    assert "stopped: 1 session(s) closed, the browser closed" in err, err[-2000:]


def test_a_driver_that_dies_first_leaves_no_unread_error(tmp_path: Path) -> None:
    """A terminal's Ctrl-C reaches the browser's driver too, and it may die before the service stops it:
    Playwright's reader then records "connection closed" where only its start-up looks, and asyncio
    would print "Future exception was never retrieved" (seen in CI). Here the driver is killed outright,
    the service opens a session on a new one, and stops as asked."""
    from pling_browser.core import processes

    service, url = _serve(tmp_path)
    try:
        assert patient.post(f"{url}/sessions", json={}, timeout=120).status_code == 201
        drivers = [pid for pid in processes.descendants(service.pid) if "run-driver" in processes.cmdline(pid)]
        assert len(drivers) == 1, drivers
        os.kill(drivers[0], signal.SIGKILL)  # only the driver of the service this test started
        deadline = time.monotonic() + 60
        while True:  # a new driver serves the next session
            fresh = patient.post(f"{url}/sessions", json={}, timeout=120)
            if fresh.status_code == 201 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert fresh.status_code == 201, fresh.text
        service.send_signal(signal.SIGTERM)
        _, err = service.communicate(timeout=120)
    finally:
        if service.poll() is None:
            service.kill()
            service.communicate()
    assert service.returncode == 0, err[-2000:]
    assert "Future exception" not in err and "Traceback" not in err, err[-3000:]


def test_a_dotenv_in_the_working_directory_is_read_under_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pling_browser.config import Settings

    (tmp_path / ".env").write_text("PLING_MAX_SESSIONS=3\nPLING_APPROVE=remove\n# a comment\nPLING_CONFIRM_TIMEOUT=7\n")
    for name in ("PLING_MAX_SESSIONS", "PLING_APPROVE", "PLING_CONFIRM_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PLING_CONFIRM_TIMEOUT", "9")  # the environment wins over the file
    settings = Settings.from_env()
    assert settings.max_sessions == 3 and settings.approve == ("remove",) and settings.confirm_timeout_s == 9
    assert Settings.from_env({}).max_sessions != 3  # a mapping given in place of the environment reads no file
