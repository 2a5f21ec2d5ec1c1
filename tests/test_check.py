"""`check`: a well-declared page has no findings; a page breaking one invariant gets that finding.

The checks run on the test service's own runtime (real Chromium, pages from the fixture server);
the command line is run as a real process."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pling_browser.ci.check import CODES, Finding, check

from . import command_line
from .conftest import ServiceThread
from .server import FixtureServer

_CHECKED: dict[str, list[Finding]] = {}


def _check(service: ServiceThread, fixtures: FixtureServer, path: str) -> list[Finding]:
    """The findings of one page (each page is checked once per test run: two loads each time)."""
    if path not in _CHECKED:
        _CHECKED[path] = service.in_service(lambda runtime: check(runtime, fixtures.url(path)))
    return _CHECKED[path]


def test_a_well_declared_page_has_no_findings(service: ServiceThread, fixtures: FixtureServer) -> None:
    assert _check(service, fixtures, "pages/check/good.html") == []


def test_the_demo_has_no_findings(service: ServiceThread, fixtures: FixtureServer) -> None:
    # t1…t14 look like a sequence, but they are the app's ids (a counter that never reuses a number),
    # not positions: 1-based numbers with a prefix that names no place in the page are not flagged.
    assert _check(service, fixtures, "demo/todos.html") == []


BROKEN = {
    "unstable_ids": {("ID_UNSTABLE", "error", "records note")},
    "positional_ids": {("ID_POSITIONAL", "error", "records task"), ("ID_POSITIONAL", "error", "records line")},
    "dom_ids": {("ID_DOM_LIKE", "warning", "records task"), ("ID_ELEMENT", "warning", "records contact")},
    "no_descriptions": {("DESCRIPTION_MISSING", "error", "action refresh"), ("DESCRIPTION_MISSING", "error", "action reset"),
                        ("DESCRIPTION_MISSING", "error", "state count")},
    "per_row": {("ACTION_PER_ROW", "error", "actions cancel_*"), ("ACTION_PER_ROW", "error", "actions ship-*")},
    "no_reason": {("REASON_MISSING", "error", "action checkout"), ("REASON_MISSING", "error", "action book")},
    "bounds": {("DECLARATIONS_OMITTED", "error", "model"), ("VALUE_CUT", "warning", "records doc")},
    "bad_params": {("PARAMS_INVALID", "error", "action resize"), ("PARAMS_INVALID", "error", "action rename")},
    "unmarked_secrets": {("SENSITIVE_UNMARKED", "error", "records user"), ("SENSITIVE_UNMARKED", "warning", "records user"),
                         ("SENSITIVE_UNMARKED", "error", "state session_token")},
    "unstable_model": {("MODEL_UNSTABLE", "error", "state loaded_at")},
    "problems": {("PAGE_PROBLEM", "error", "action launch"), ("PAGE_PROBLEM", "error", "action orphan")},
    "nothing": {("NOTHING_DECLARED", "error", "page")},
}


@pytest.mark.parametrize("page", sorted(BROKEN))
def test_each_broken_invariant_has_its_finding(service: ServiceThread, fixtures: FixtureServer, page: str) -> None:
    findings = _check(service, fixtures, f"pages/check/{page}.html")
    assert {(f.code, f.severity, f.where) for f in findings} == BROKEN[page], [str(f) for f in findings]
    assert all(f.code in CODES and f.message for f in findings)
    # Errors come first, so the top of a CI log says what fails the run.
    severities = [f.severity for f in findings]
    assert severities == sorted(severities, key=lambda s: s != "error")


def test_messages_say_what_to_change(service: ServiceThread, fixtures: FixtureServer) -> None:
    per_row = {f.where: f.message for f in _check(service, fixtures, "pages/check/per_row.html")}
    assert "cancel_o1001" in per_row["actions cancel_*"] and "id: 'cancel', record: 'order'" in per_row["actions cancel_*"]
    secrets = [f for f in _check(service, fixtures, "pages/check/unmarked_secrets.html") if f.where == "records user"]
    fields = sorted(f.message.split(" is shown")[0] for f in secrets)
    # password and the nested apiKey are secrets, email is contact data; the masked card, the marked
    # ssn and the boolean has_password are not findings.
    assert fields == ["field email", "field password", "field profile.apiKey"]
    unstable = _check(service, fixtures, "pages/check/unstable_ids.html")[0]
    assert "3 of 3 ids differ" in unstable.message


def test_cli_exit_codes_json_and_junit(fixtures: FixtureServer, tmp_path: Path) -> None:
    report = tmp_path / "check.xml"
    # `pling-browser check` three times, in this process (tests/command_line.py): each launches its own Chromium.
    warned = command_line.run("check", fixtures.url("pages/check/dom_ids.html"))
    assert warned.returncode == 0, warned.stderr
    out = warned.stdout
    assert "warning ID_DOM_LIKE" in out and out.rstrip().splitlines()[-1].startswith("OK: 0 error(s), 2 warning(s)")

    strict = command_line.run("check", fixtures.url("pages/check/dom_ids.html"), "--strict")
    assert strict.returncode == 1 and "FAILED" in strict.stdout, strict.stderr

    failed = command_line.run("check", fixtures.url("pages/check/no_reason.html"), "--json", "--junit", str(report))
    assert failed.returncode == 1, failed.stderr
    answer = json.loads(failed.stdout)
    assert answer["ok"] is False and {f["code"] for f in answer["findings"]} == {"REASON_MISSING"}
    suite = ET.parse(report).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == str(len(CODES)) and suite.get("failures") == "1"
    failing = [case for case in suite.iter("testcase") if case.find("failure") is not None]
    assert [case.get("name", "").split(":")[0] for case in failing] == ["REASON_MISSING"]
    assert "action checkout" in (failing[0].find("failure").text or "")  # type: ignore[union-attr]


def test_two_loads_compare_json_types(service: ServiceThread, fixtures: FixtureServer) -> None:
    """A value that is `1` on one load and `true` on the next is unstable (Python's `==` calls them
    equal); `1` and `1.0` are one JSON number. The first load is a real model of good.html."""
    from pling_browser.ci.invariants import analyse

    async def load(runtime: Any) -> dict[str, Any]:
        session = await runtime.open(fixtures.url("pages/check/good.html"))
        try:
            return json.loads(await session.bridge.model({}))
        finally:
            await runtime.close(session.id)

    first = service.in_service(load)
    row = first["records"]["invoice"]["items"][0]
    assert analyse(first, copy.deepcopy(first)) == []

    def with_amount(value: Any) -> dict[str, Any]:
        changed = copy.deepcopy(first)
        [twin] = [r for r in changed["records"]["invoice"]["items"] if r["id"] == row["id"]]
        twin["fields"]["amount"] = value
        return changed

    one = with_amount(1)
    assert analyse(one, with_amount(1.0)) == []
    for other in (True, "1"):
        [finding] = analyse(one, with_amount(other))
        assert (finding.code, finding.where) == ("MODEL_UNSTABLE", "records invoice"), finding
        assert f"[{row['id']}].fields.amount: 1 then {json.dumps(other)}" in finding.message, finding.message
