"""A session's receipts become a scenario file (GET /sessions/{sid}/scenario) that `pling-browser run`
replays: green on the same page, red with a readable JUnit failure when the page breaks. An id the
runtime created during the session is followed by position, not written literally."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx

from .conftest import Pages
from .server import FixtureServer


def _run(suite: Path, report: Path) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "PLING_APPROVE", "PLING_BASE_URL")}
    return subprocess.run([sys.executable, "-m", "pling_browser", "run", str(suite), "--junit", str(report)],
                          capture_output=True, text=True, timeout=120, env=environ)


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
