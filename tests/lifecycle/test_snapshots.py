"""Record snapshots (issue 31): the before snapshot keeps each record as a bounded copy and the diff
compares them value by value. Each test here fails for a snapshot that is not taken afresh at the
action's start, or that keeps the page's own objects instead of copies, or that tells a record
removed and added again from one updated."""

from __future__ import annotations

import time

import pytest

from ..conftest import Pages

PAGE = "pages/lifecycle/snapshots.html"


def label(page, rid: str) -> str:
    return next(r["label"] for r in page.model()["records"]["card"]["items"] if r["id"] == rid)


def test_a_record_the_page_changed_between_actions_is_in_neither_receipt(pages: Pages) -> None:
    page = pages.open(PAGE)
    first = page.invoke("rename_later@c1")
    assert first["ok"] is True, first
    assert "card" not in first["changed"]["records"], first["changed"]
    deadline = time.monotonic() + 30  # a cap, not a measurement: the page's own timer is 600 ms
    while label(page, "c1") != "Renamed by the page":
        assert time.monotonic() < deadline, "the page never renamed c1"
        time.sleep(0.05)
    second = page.invoke("grow@c2")
    assert second["ok"] is True, second
    assert second["changed"]["records"]["card"]["updated"] == [{"id": "c2", "changes": {"size": {"from": 2, "to": 3}}}]


def test_a_record_changed_without_evidence_is_not_in_the_next_receipt(pages: Pages) -> None:
    page = pages.open(PAGE)
    first = page.invoke("grow@c3")
    assert first["changed"]["records"]["card"]["updated"] == [{"id": "c3", "changes": {"size": {"from": 3, "to": 4}}}]
    quiet = page.invoke("rename_quietly@c1", {"title": "Quiet"}, evidence=False)
    assert quiet["ok"] is True and "changed" not in quiet, quiet
    receipt = page.invoke("grow@c2")
    assert receipt["changed"]["records"]["card"]["updated"] == [{"id": "c2", "changes": {"size": {"from": 2, "to": 3}}}]
    again = page.invoke("rename_quietly@c1", {"title": "Loud"})
    assert again["changed"]["records"]["card"]["updated"] == [{"id": "c1", "changes": {"label": {"from": "Quiet", "to": "Loud"}}}]


def test_a_record_removed_and_added_again_with_the_same_id_is_updated(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("replace@c2")
    assert receipt["ok"] is True, receipt
    change = receipt["changed"]["records"]["card"]
    assert change["added"] == [] and change["removed"] == [] and change["reordered"] is False, change
    assert change["updated"] == [{"id": "c2", "changes": {"label": {"from": "Second", "to": "Replacement"},
                                                          "tags": {"from": ["b"], "to": ["new"]},
                                                          "size": {"from": 2, "to": 9}}}]
    assert change["total"] == {"from": 3, "to": 3}


def test_a_record_replaced_by_an_identical_copy_did_not_change(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("copy@c1")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"] == {} and receipt["changed"]["observed"] is False, receipt["changed"]


def test_a_nested_field_changed_in_place_is_seen(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("tag@c1")
    assert receipt["changed"]["records"]["card"]["updated"] == [
        {"id": "c1", "changes": {"tags": {"from": ["a"], "to": ["a", "tagged"]}}}]
    second = page.invoke("tag@c3")
    assert second["changed"]["records"]["card"]["updated"] == [
        {"id": "c3", "changes": {"tags": {"from": [], "to": ["tagged"]}}}]


def test_the_same_fields_in_another_order_are_no_change(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("reverse_keys")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"] == {}, receipt["changed"]


def test_ids_named_like_object_properties_are_added_across_documents(pages: Pages) -> None:
    # The carried snapshot arrives parsed from JSON; an id such as "constructor" must not find
    # Object.prototype's property there (it was taken for a record the document before had shown).
    page = pages.open("pages/lifecycle/carried_a.html")
    receipt = page.invoke("next")
    assert receipt["ok"] is True, receipt
    change = receipt["changed"]["records"]["book"]
    assert change["added"] == ["constructor", "toString"] and change["removed"] == [] and change["updated"] == [], change
    assert receipt["changed"]["page"]["to"]["url"].endswith("carried_b.html")


@pytest.mark.parametrize("patch", ["none", "object", "array", "chain"])
def test_a_toJSON_the_page_put_on_a_prototype_does_not_forge_the_carried_snapshot(pages: Pages, patch: str) -> None:
    # The leaving document writes its before snapshot with JSON.stringify only while no prototype it
    # would consult has a toJSON (bound.js plainJSON); a page's toJSON would have forged it: every
    # array [] (x and z both "added", y not removed), or the whole snapshot {} (no snapshot at all).
    page = pages.open(f"pages/lifecycle/carried_patched_a.html?patch={patch}")
    receipt = page.invoke("next")
    assert receipt["ok"] is True, receipt
    change = receipt["changed"]["records"]["book"]
    assert change["added"] == ["z"] and change["removed"] == ["y"] and change["updated"] == [], change
    assert change["total"] == {"from": 2, "to": 2}, change
    assert receipt["changed"]["page"]["to"]["url"].endswith("carried_patched_b.html")


def test_a_field_that_appears_on_a_moved_record_is_updated(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("note_and_move@c1")
    assert receipt["ok"] is True, receipt
    change = receipt["changed"]["records"]["card"]
    assert change["reordered"] is True and change["added"] == [] and change["removed"] == [], change
    assert change["updated"] == [{"id": "c1", "changes": {"note": {"from": None, "to": "noted"}}}], change


def test_a_field_shown_as_null_where_it_was_absent_did_not_change(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("null_note@c2")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"] == {}, receipt["changed"]
    grown = page.invoke("grow@c2")
    assert grown["changed"]["records"]["card"]["updated"] == [{"id": "c2", "changes": {"size": {"from": 2, "to": 3}}}]
