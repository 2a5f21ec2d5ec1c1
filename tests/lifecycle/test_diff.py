"""Stage 8, evidence: what changed between the before and after snapshots, keyed on business ids,
bounded, with sensitive values only as references."""

from __future__ import annotations

import json
import re

from ..conftest import Pages

PAGE = "pages/lifecycle/evidence.html"
SECRET = re.compile(r"^<secret>[^<>]+</secret>$")


def state(page) -> dict:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def test_a_toast_shown_for_80_ms_is_in_the_receipt(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("save_draft")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Draft saved"}]
    assert receipt["changed"]["observed"] is True
    assert "warning" not in receipt
    # It was gone before run() returned.
    assert page.model()["feedback"] == []


def test_a_write_with_no_observable_change_warns(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("touch")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["observed"] is False
    assert "nothing" in receipt["warning"]


def test_a_read_with_no_observable_change_does_not_warn(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("look")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["observed"] is False
    assert "warning" not in receipt


def test_updated_records_and_state_name_the_field_with_from_and_to(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_priority@n1", {"priority": "high"})
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    records = receipt["changed"]["records"]["note"]
    assert records["updated"] == [{"id": "n1", "changes": {"priority": {"from": "low", "to": "high"}}}]
    assert records["added"] == [] and records["removed"] == [] and records["reordered"] is False
    assert receipt["changed"]["state"]["changed"] == {"high_count": {"from": 1, "to": 2}}
    assert "warning" not in receipt


def test_a_sensitive_field_changed_by_an_action_leaves_only_as_references(pages: Pages) -> None:
    page = pages.open(PAGE)
    first = json.dumps(page.first_model)
    assert "KEY-ORIGINAL" not in first and "TOKEN-BEFORE" not in first
    receipt = page.invoke("rotate_key@n1")
    assert receipt["ok"] is True, receipt
    text = json.dumps(receipt)
    for value in ("KEY-ORIGINAL", "KEY-ROTATED", "7731", "99ZZ", "TOKEN-BEFORE", "TOKEN-AFTER", "884422", "117733"):
        assert value not in text, value

    [update] = receipt["changed"]["records"]["note"]["updated"]
    assert update["id"] == "n1" and set(update["changes"]) == {"api_key"}
    change = update["changes"]["api_key"]
    assert SECRET.match(change["from"]) and SECRET.match(change["to"]) and change["from"] != change["to"]

    state_changes = receipt["changed"]["state"]["changed"]
    assert state_changes["rotations"] == {"from": 0, "to": 1}
    token = state_changes["session_token"]
    assert SECRET.match(token["from"]) and SECRET.match(token["to"]) and token["from"] != token["to"]
    # The references are the ones the model shows now.
    model = page.model()
    assert model["records"]["note"]["items"][0]["fields"]["api_key"] == change["to"]
    assert model["state"]["session_token"]["value"] == token["to"]
    assert "KEY-ROTATED" not in json.dumps(model)


def test_evidence_false_gives_no_changed(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_priority@n2", {"priority": "low"}, evidence=False)
    assert receipt["ok"] is True, receipt
    assert "changed" not in receipt
    # It still ran, and its expectation was still checked.
    assert receipt["verified"] is True
    assert state(page)["high_count"] == 0


CHANGES = "pages/lifecycle/changes.html"


def test_an_action_that_changes_what_else_is_available_says_so(pages: Pages) -> None:
    page = pages.open(CHANGES)
    receipt = page.invoke("submit")
    assert receipt["ok"] is True, receipt
    # Each action whose availability changed, from and to (a reason where the page gives one, else false).
    assert receipt["changed"]["actions"]["availability"] == {
        "submit": {"from": True, "to": "Already submitted"},
        "edit": {"from": True, "to": False},
        "withdraw": {"from": "Not submitted", "to": True},
    }
    assert receipt["changed"]["actions"]["added"] == [] and receipt["changed"]["actions"]["removed"] == []
    assert receipt["changed"]["observed"] is True
    # The next action reads the new availability.
    assert page.invoke("submit")["error"]["code"] == "ACTION_UNAVAILABLE"


def test_feedback_the_action_took_away_is_removed(pages: Pages) -> None:
    page = pages.open(CHANGES)
    assert page.first_model["feedback"] == [{"kind": "warning", "text": "Unsaved changes"}]
    receipt = page.invoke("save")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["feedback"]["removed"] == [{"kind": "warning", "text": "Unsaved changes"}]
    assert receipt["changed"]["feedback"]["added"] == []
    assert receipt["changed"]["observed"] is True and "warning" not in receipt


def test_feedback_from_a_source_declared_during_the_action_is_watched(pages: Pages) -> None:
    # The page declares no feedback until run() does, and its message never touches the DOM: the
    # watch's timer (started only while a source is declared) is what sees it.
    page = pages.open("pages/lifecycle/late_feedback.html")
    receipt = page.invoke("announce")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["feedback"]["added"] == [{"kind": "info", "text": "Announced"}], receipt["changed"]
    assert page.model()["feedback"] == []
