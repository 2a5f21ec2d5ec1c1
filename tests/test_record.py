"""A session's receipts become a scenario file (GET /sessions/{sid}/scenario) that `pling-browser run`
replays: green on the same page, red with a readable JUnit failure when the page breaks. An id the
runtime created during the session is followed by position, not written literally."""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx

from . import command_line
from .conftest import Pages
from .server import FixtureServer


def _run(suite: Path, report: Path) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "PLING_APPROVE", "PLING_BASE_URL")}
    return command_line.run("run", str(suite), "--junit", str(report), env=environ)


def test_a_recorded_session_replays_green_and_goes_red_when_the_page_breaks(
        client: httpx.Client, pages: Pages, fixtures: FixtureServer, tmp_path: Path) -> None:
    page = pages.open("pages/receipts/notes.html")
    added = page.invoke("add", {"text": "Call mum"})
    new_id = added["changed"]["records"]["note"]["added"][0]
    assert page.invoke(f"star@{new_id}")["ok"] is True
    assert page.invoke("remove@n1")["ok"] is True
    assert page.invoke("star@nope")["ok"] is False  # a failure is left out of the recording

    answer = client.get(f"/sessions/{page.id}/scenario", params={"name": "notes"})
    assert answer.status_code == 200, answer.text
    scenario = answer.json()
    steps = scenario["scenarios"][0]["steps"]
    assert [step["invoke"] for step in steps] == ["add", "star@{step1.added.0}", "remove@n1"]
    assert steps[0]["args"] == {"text": "Call mum"}
    assert steps[0]["expect"] == {"type": "note", "added": 1, "feedback": "Added Call mum", "warning": False}
    assert steps[1]["expect"]["updated"] == ["{step1.added.0}"] and steps[1]["expect"]["state"] == {"starred": 1}
    assert steps[2]["expect"]["removed"] == ["n1"]

    suite = tmp_path / "notes.json"
    suite.write_text(json.dumps(scenario))
    green = _run(suite, tmp_path / "green.xml")
    assert green.returncode == 0, green.stdout + green.stderr
    assert "1 passed" in green.stdout

    scenario["url"] = fixtures.url("pages/receipts/notes.html?broken")
    suite.write_text(json.dumps(scenario))
    red = _run(suite, tmp_path / "red.xml")
    assert red.returncode == 1, red.stdout + red.stderr
    [case] = list(ET.parse(tmp_path / "red.xml").getroot().iter("testcase"))
    failure = case.find("failure")
    assert failure is not None
    assert (failure.get("message") or "").startswith("step 2 star@{step1.added.0}: expected no warning"), failure.get("message")
    assert 'expected records updated ["n3"], got []' in (failure.text or "")
    assert "expected state starred = 1, got 0" in (failure.text or "")


def test_the_record_command_writes_a_demo_scenario_that_replays(fixtures: FixtureServer, tmp_path: Path) -> None:
    """`pling-browser record URL STEP…` on the demo: the scenario replays green; on a copy of the demo
    whose toggle does nothing it goes red, naming the step and what the receipt showed instead."""
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "PLING_APPROVE", "PLING_BASE_URL")}
    demo = fixtures.url("demo/todos.html")
    scenario_file = tmp_path / "demo.json"
    recorded = command_line.run(
        "record", demo, 'add_todo {"text": "Buy milk"}', "toggle@{step1.added.0}", "remove@t9", "toggle@nope",
        "-o", str(scenario_file), "--name", "demo", env={**environ, "PLING_APPROVE": "remove"})
    assert recorded.returncode == 1, recorded.stdout + recorded.stderr  # the failed step says so in the exit code
    assert "step 4 toggle@nope failed (ACTION_NOT_FOUND" in recorded.stderr
    scenario = json.loads(scenario_file.read_text())
    assert scenario["url"] == demo and scenario["approve"] == ["remove"]
    steps = scenario["scenarios"][0]["steps"]
    assert [s["invoke"] for s in steps] == ["add_todo", "toggle@{step1.added.0}", "remove@t9"]
    assert steps[0]["expect"]["added"] == 1 and steps[0]["args"] == {"text": "Buy milk"}
    assert steps[1]["expect"]["updated"] == ["{step1.added.0}"] and steps[2]["expect"]["removed"] == ["t9"]

    green = _run(scenario_file, tmp_path / "green.xml")
    assert green.returncode == 0, green.stdout + green.stderr

    # A broken copy of the demo, served from another folder: toggling changes nothing.
    page = (Path(__file__).resolve().parent.parent / "fixtures" / "demo" / "todos.html").read_text()
    broken = page.replace('<script src="/pling.js">', f'<script src="{fixtures.origin}/pling.js">')
    broken = broken.replace("  t.done = !t.done;\n", "", 1)
    assert broken.count("/pling.js") == 1 and "t.done = !t.done" not in broken.split("function removeTodo")[0]
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "todos.html").write_text(broken)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        scenario["url"] = f"http://127.0.0.1:{server.server_port}/todos.html"
        scenario_file.write_text(json.dumps(scenario))
        red = _run(scenario_file, tmp_path / "red.xml")
    finally:
        server.shutdown()
        server.server_close()
    assert red.returncode == 1, red.stdout + red.stderr
    [case] = list(ET.parse(tmp_path / "red.xml").getroot().iter("testcase"))
    failure = case.find("failure")
    assert failure is not None
    assert (failure.get("message") or "").startswith("step 2 toggle@{step1.added.0}:"), failure.get("message")
    assert "expected records updated" in (failure.text or ""), failure.text
