"""Stage 1, resolve: the action and, for a family, the record are found in the page as it is now,
by business id; what is not there is ACTION_NOT_FOUND with what is."""

from __future__ import annotations

from ..conftest import Pages

PAGE = "pages/lifecycle/resolve.html"
START = ["k7", "m2", "a9", "q4", "z1"]


def ids(page) -> list[str]:
    return page.model()["records"]["fruit"]["ids"]


def assert_not_found(receipt: dict) -> dict:
    assert receipt["ok"] is False
    error = receipt["error"]
    assert error["code"] == "ACTION_NOT_FOUND"
    assert error["stage"] == "resolve" and error["started"] is False
    assert "changed" not in receipt
    return error


def test_unknown_action_lists_what_is_available(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_not_found(page.invoke("frobnicate"))
    assert "frobnicate" in error["message"]
    available = error["available"]
    assert "reverse" in available and "sort_by_name" in available
    # A family is offered once, with the record it needs, never once per row.
    assert "remove@{fruit}" in available
    assert not any(name.startswith("remove@k") for name in available)
    assert ids(page) == START


def test_family_without_record_is_not_found(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_not_found(page.invoke("remove"))
    assert "fruit" in error["message"] and "ACTION@RECORD" in error["message"]
    assert "remove@{fruit}" in error["available"]
    assert ids(page) == START


def test_unknown_record_id_is_not_found(pages: Pages) -> None:
    page = pages.open(PAGE)
    # "row-0" is a DOM id and "0" a position: neither is a business id.
    for ref in ("remove@nope", "remove@row-0", "remove@0"):
        error = assert_not_found(page.invoke(ref))
        assert error["available"], ref
    assert ids(page) == START


def test_family_resolves_by_business_id_after_the_list_is_reordered(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("reverse")
    assert receipt["ok"] is True, receipt
    records = receipt["changed"]["records"]["fruit"]
    assert records["reordered"] is True
    assert records["added"] == [] and records["removed"] == [] and records["updated"] == []
    assert receipt["changed"]["state"]["changed"]["order"] == {"from": ",".join(START), "to": ",".join(reversed(START))}
    assert ids(page) == list(reversed(START))

    # k7 was first and is now last; the row at its old position now holds z1.
    receipt = page.invoke("remove@k7")
    assert receipt["ok"] is True, receipt
    assert receipt["action"]["id"] == "remove@k7"
    assert receipt["changed"]["records"]["fruit"]["removed"] == ["k7"]
    assert receipt["changed"]["records"]["fruit"]["reordered"] is False
    assert receipt["changed"]["records"]["fruit"]["total"] == {"from": 5, "to": 4}
    assert "remove@k7" in receipt["changed"]["actions"]["removed"]
    assert ids(page) == ["z1", "q4", "a9", "m2"]
    labels = {item["id"]: item["label"] for item in page.model()["records"]["fruit"]["items"]}
    assert "Kiwi" not in labels.values() and labels["z1"] == "Zucchini"


def test_family_resolves_by_business_id_after_a_sort(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("sort_by_name")
    assert receipt["ok"] is True and receipt["changed"]["records"]["fruit"]["reordered"] is True
    assert ids(page) == ["a9", "k7", "m2", "q4", "z1"]
    # m2 sat at index 1 before the sort and sits at index 2 now: the old index 1 holds k7.
    receipt = page.invoke("remove@m2")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"]["fruit"]["removed"] == ["m2"]
    assert ids(page) == ["a9", "k7", "q4", "z1"]
