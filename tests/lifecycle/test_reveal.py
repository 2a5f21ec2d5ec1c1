"""Stage 5, reveal: declared availability first (with the page's reason), then the target: a row
that is not rendered is revealed by the declared `reveal`; a target that stays hidden is
ACTION_UNAVAILABLE and nothing ran."""

from __future__ import annotations

from pling_browser.lifecycle import LogEvent

from ..conftest import Pages

PAGE = "pages/lifecycle/reveal.html"


def state(page) -> dict:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def assert_unavailable(receipt: dict) -> dict:
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "ACTION_UNAVAILABLE"
    assert error["stage"] == "reveal" and error["started"] is False
    assert "changed" not in receipt
    return error


def test_declared_unavailability_answers_the_pages_reason(pages: Pages) -> None:
    page = pages.open(PAGE)
    checkout = next(a for a in page.first_model["actions"] if a["id"] == "checkout")
    assert checkout["available"] is False and checkout["reason"] == "The cart is empty"
    error = assert_unavailable(page.invoke("checkout"))
    assert error["reason"] == "The cart is empty"
    assert "The cart is empty" in error["message"]
    # Available once the page says so.
    assert page.invoke("add_to_cart")["ok"] is True
    receipt = page.invoke("checkout")
    assert receipt["ok"] is True and receipt["data"] == {"paid": True}
    assert state(page)["cart"] == 0


def test_a_row_of_a_virtualised_list_is_revealed_by_the_records_reveal(pages: Pages) -> None:
    page = pages.open(PAGE)
    before = state(page)
    assert before["rendered"] == "r1..r20"      # r500 is not in the DOM
    assert page.first_model["records"]["item"]["total"] == 1000

    receipt = page.invoke("remove@r500")
    assert receipt["ok"] is True, receipt
    assert receipt["verified"] is True
    said = [entry["text"] for entry in page.codes().events(LogEvent.BRIDGE)]  # the bridge's own narration
    assert any(text.startswith("called reveal(") for text in said), said
    records = receipt["changed"]["records"]["item"]
    assert records["removed"] == ["r500"] and records["total"] == {"from": 1000, "to": 999}
    assert records["added"] == [] and records["updated"] == []

    after = state(page)
    assert after["reveals"] == ["records:r500"]
    assert after["rendered"] != "r1..r20"
    model = page.model(ids="r499,r500,r501")
    assert [item["id"] for item in model["records"]["item"]["items"]] == ["r499", "r501"]
    assert model["records"]["item"]["total"] == 999


def test_the_actions_own_reveal_wins_over_the_records_one(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("star@r700")
    assert receipt["ok"] is True, receipt
    said = [entry["text"] for entry in page.codes().events(LogEvent.BRIDGE)]  # the bridge's own narration
    assert any(text.startswith("called reveal(") for text in said), said
    assert receipt["changed"]["records"]["item"]["updated"] == [{"id": "r700", "changes": {"starred": {"from": False, "to": True}}}]
    assert state(page)["reveals"] == ["action:r700"]


def test_a_rendered_row_needs_no_reveal(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("remove@r3")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"]["item"]["removed"] == ["r3"]
    assert state(page)["reveals"] == []


def test_a_target_that_stays_hidden_is_unavailable_and_nothing_runs(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_unavailable(page.invoke("open_drawer"))
    assert "hidden" in error["reason"] and "reveal" in error["reason"]
    after = state(page)
    assert after["reveals"] == ["drawer"]          # reveal was tried
    assert after["drawer_clicks"] == 0             # and nothing was pressed
