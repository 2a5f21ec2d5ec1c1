"""Scenario files run as a real process over the demo: a passing file, a broken one with readable
JUnit XML, a malformed one refused before any browser starts, and the progress display."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pling_browser.ci.progress import Progress

from . import command_line
from .server import FixtureServer

SCENARIOS = Path(__file__).resolve().parent.parent / "fixtures" / "scenarios"


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "PLING_APPROVE", "PLING_BASE_URL")}
    return command_line.run("run", *args, env={**environ, **(env or {})})


def _cases(report: Path) -> dict[str, ET.Element]:
    root = ET.parse(report).getroot()
    return {case.get("name", ""): case for case in root.iter("testcase")}


def test_demo_scenarios_pass(fixtures: FixtureServer, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    done = _run(str(SCENARIOS / "todos.json"), "--base-url", fixtures.origin, "--junit", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    root = ET.parse(report).getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("6", "0", "0")
    cases = _cases(report)
    assert "a locked list refuses changes" in cases
    assert "✓ step 2 remove@t1 (delete refused)" in (cases["a locked list refuses changes"].findtext("system-out") or "")
    # Not a terminal: plain lines only, one per step and one per scenario.
    assert "\r" not in done.stdout and "\x1b" not in done.stdout
    assert done.stdout.count("PASS  [") == 6 and "    step 2 remove@t3: ok" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("6 passed, 0 failed, 0 errors")


def test_broken_scenarios_fail_with_readable_junit(fixtures: FixtureServer, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    done = _run(str(SCENARIOS / "todos_broken.json"), "--base-url", fixtures.origin, "--junit", str(report))
    assert done.returncode == 1, done.stdout + done.stderr
    suite = ET.parse(report).getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "Demo tasks (broken on purpose)"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "2", "1")
    cases = _cases(report)
    assert cases["filter the list"].find("failure") is None and cases["filter the list"].find("error") is None

    failure = cases["add a task"].find("failure")
    assert failure is not None
    assert failure.get("message") == 'step 1 add_todo: expected records added ["t99"], got ["t15"] (+1 more)'
    text = failure.text or ""
    assert "expected state open_count = 99, got 12" in text
    assert "- step 2 toggle@t15: skipped" in text
    receipt = json.loads(text.split("receipt of step 1 add_todo:\n", 1)[1])
    assert receipt["ok"] is True and receipt["changed"]["records"]["task"]["added"] == ["t15"]

    denied = cases["delete without approval"].find("failure")
    assert denied is not None and "expected ok, got PERMISSION_DENIED at confirm" in (denied.get("message") or "")

    unreachable = cases["a page that is not there"].find("error")
    assert unreachable is not None and (unreachable.get("message") or "").startswith("PAGE_UNREACHABLE")
    assert "1 passed, 2 failed, 1 errors" in done.stdout


def test_a_malformed_file_is_refused_before_anything_runs(tmp_path: Path) -> None:
    typo = tmp_path / "typo.json"
    typo.write_text(json.dumps({"url": "http://127.0.0.1:9/x.html", "scenarios": [
        {"name": "a", "steps": [{"invoke": "add_todo", "expect": {"stat": {"open_count": 1}}}]}]}))
    done = _run(str(typo))
    assert done.returncode == 2
    assert "scenarios[0].steps[0].expect: unknown key(s) 'stat'" in done.stderr

    relative = tmp_path / "relative.json"
    relative.write_text(json.dumps({"url": "demo/todos.html", "scenarios": [{"steps": [{"invoke": "lock"}]}]}))
    done = _run(str(relative))
    assert done.returncode == 2 and "is relative: pass --base-url" in done.stderr

    yaml_file = tmp_path / "suite.yaml"
    yaml_file.write_text("scenarios: []\n")
    done = _run(str(yaml_file))
    assert done.returncode == 2 and str(yaml_file) in done.stderr


def _drain(fd: int) -> str:
    """Everything the terminal has to read now (a pty hands output over in chunks)."""
    data = b""
    while select.select([fd], [], [], 0.3)[0]:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data.decode()


def _terminal() -> tuple[int, object]:
    main, child = pty.openpty()
    return main, os.fdopen(child, "w", encoding="utf-8")


def test_progress_is_a_live_line_on_a_terminal_and_plain_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    main, stream = _terminal()
    try:
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.setenv("TERM", "xterm")
        live = Progress(stream)  # type: ignore[arg-type]
        assert live.live
        live.status("[1/2] add a task")
        live.line("PASS  [1/2] add a task")
        live.clear()
        stream.flush()  # type: ignore[attr-defined]
        shown = _drain(main)
        assert shown.startswith("\r\x1b[2K[1/2] add a task · 0.0 s") and "\r\x1b[2KPASS  [1/2] add a task" in shown

        monkeypatch.setenv("CI", "true")
        plain = Progress(stream)  # type: ignore[arg-type]
        assert not plain.live
        plain.status("[2/2] never shown")
        plain.line("PASS  [2/2] shown")
        stream.flush()  # type: ignore[attr-defined]
        assert _drain(main) == "PASS  [2/2] shown\r\n"  # the terminal turns \n into \r\n
    finally:
        stream.close()  # type: ignore[attr-defined]
        os.close(main)


def test_run_on_a_terminal_draws_a_live_line(fixtures: FixtureServer, tmp_path: Path) -> None:
    suite = tmp_path / "one.json"
    suite.write_text(json.dumps({"name": "one", "url": fixtures.url("demo/todos.html"), "scenarios": [
        {"name": "lock the list", "steps": [{"invoke": "lock", "expect": {"state": {"locked": True}}}]}]}))
    main, child = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    process = subprocess.Popen([sys.executable, "-m", "pling_browser", "run", str(suite)], stdout=child, stderr=child,
                               env={**environ, "TERM": "xterm"})
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert process.wait(60) == 0, shown
    text = shown.decode()
    assert "\r\x1b[2K[1/1] lock the list · step 1 lock (1/1)" in text
    assert "PASS  [1/1] lock the list" in text and "    step 1 lock: ok" not in text  # steps only in the live line


def test_expectations_compare_json_types() -> None:
    from pling_browser.ci.scenarios import _contains, _same

    assert not _same(1, True) and not _same(0, False) and not _same(True, 1) and not _same("1", 1)
    assert _same(1, 1.0) and _same({"a": [1, None]}, {"a": [1, None]}) and not _same([1], [True])
    assert _contains({"n": 0}, {"n": 0, "x": 1}) and not _contains({"n": False}, {"n": 0})
    assert not _contains({"flags": [1]}, {"flags": [True]})
