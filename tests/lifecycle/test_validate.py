"""Stage 3, validate: args against the declared JSON Schema, defaults applied; one issue per field,
with path and problem, and never the value that was passed."""

from __future__ import annotations

import json

from ..conftest import Pages

PAGE = "pages/lifecycle/params.html"


def runs(page) -> int:
    return page.model()["state"]["runs"]["value"]


def assert_invalid_params(receipt: dict) -> list[dict]:
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "INVALID_PARAMS"
    assert error["stage"] == "validate" and error["started"] is False
    assert "data" not in receipt and "changed" not in receipt
    for issue in error["issues"]:
        assert set(issue) == {"path", "problem"} and issue["problem"], issue
    return error["issues"]


def test_one_issue_per_field_with_path_and_problem(pages: Pages) -> None:
    page = pages.open(PAGE)
    issues = assert_invalid_params(page.invoke("echo", {"count": 0, "mode": "medium", "code": "abc"}))
    by_path = {issue["path"]: issue["problem"] for issue in issues}
    assert len(issues) == 4 and len(by_path) == 4, issues
    assert by_path["name"] == "is required"
    assert "at least 1" in by_path["count"]
    assert "fast" in by_path["mode"] and "slow" in by_path["mode"]
    assert "pattern" in by_path["code"]
    assert runs(page) == 0


def test_nested_paths_name_the_item(pages: Pages) -> None:
    page = pages.open(PAGE)
    issues = assert_invalid_params(page.invoke("echo", {"name": "Ada", "tags": ["ok", 7]}))
    assert [issue["path"] for issue in issues] == ["tags/1"]
    assert "string" in issues[0]["problem"]


def test_defaults_are_filled_in_before_the_page_runs(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("echo", {"name": "Ada"})
    assert receipt["ok"] is True, receipt
    # The page's run() answers the args it got: the declared defaults were applied.
    assert receipt["data"] == {"name": "Ada", "count": 3, "mode": "fast"}
    # A value given wins over the default.
    assert page.invoke("echo", {"name": "Ada", "count": 7})["data"]["count"] == 7
    assert runs(page) == 2


def test_an_extra_property_is_refused(pages: Pages) -> None:
    page = pages.open(PAGE)
    issues = assert_invalid_params(page.invoke("echo", {"name": "Ada", "colour": "red"}))
    assert issues == [{"path": "colour", "problem": "is not a parameter of this action"}]
    assert runs(page) == 0


def test_every_extra_property_gets_its_own_issue(pages: Pages) -> None:
    page = pages.open(PAGE)
    issues = assert_invalid_params(page.invoke("echo", {"name": "Ada", "colour": "red", "size": "XL"}))
    assert sorted(issue["path"] for issue in issues) == ["colour", "size"], issues
    assert all(issue["problem"] == "is not a parameter of this action" for issue in issues)
    assert runs(page) == 0


def test_issues_never_repeat_the_value_passed(pages: Pages) -> None:
    page = pages.open(PAGE)
    marker = "PLUGH-7731-XYZZY"
    receipt = page.invoke("echo", {
        "name": marker * 10,            # too long
        "count": marker,                # wrong type
        "mode": marker,                 # not in the enum
        "code": marker,                 # does not match the pattern
        "tags": [marker, marker, marker, marker],  # too many items
    })
    issues = assert_invalid_params(receipt)
    assert {issue["path"] for issue in issues} == {"name", "count", "mode", "code", "tags"}
    text = json.dumps(receipt)
    assert marker not in text
    assert "PLUGH" not in text and "XYZZY" not in text
    assert runs(page) == 0
