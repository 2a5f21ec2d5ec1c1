"""Receipt truth on pages built as applications are (fixtures/pages/real/): targets in closed shadow
roots and same-origin frames, disabled controls, two record types whose ids coincide. Each test
asserts the exact outcome and what the page observed."""

from __future__ import annotations

from typing import Any

from ..conftest import Pages


def _state(page: Any) -> dict[str, Any]:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def test_a_button_and_a_field_behind_a_closed_shadow_root(pages: Pages) -> None:
    page = pages.open("pages/real/shadow.html")
    receipt = page.invoke("increment_closed")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["state"]["changed"]["closed_clicks"] == {"from": 0, "to": 1}
    receipt = page.invoke("name_closed", {"value": "Ada"})
    assert receipt["ok"] is True, receipt
    # Names are committed on `change`: a fill ends as a person's typing does.
    assert receipt["changed"]["state"]["changed"]["closed_name"] == {"from": "", "to": "Ada"}
    assert _state(page)["open_clicks"] == 0


def test_a_button_and_a_field_in_an_open_shadow_root(pages: Pages) -> None:
    page = pages.open("pages/real/shadow.html")
    assert page.invoke("increment_open")["changed"]["state"]["changed"]["open_clicks"] == {"from": 0, "to": 1}
    receipt = page.invoke("name_open", {"value": "Grace"})
    assert receipt["changed"]["state"]["changed"]["open_name"] == {"from": "", "to": "Grace"}, receipt


def test_a_button_and_a_field_in_a_same_origin_iframe(pages: Pages) -> None:
    page = pages.open("pages/real/iframe.html")
    receipt = page.invoke("frame_press")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["state"]["changed"]["frame_clicks"] == {"from": 0, "to": 1}
    receipt = page.invoke("frame_name", {"value": "Linus"})
    assert receipt["ok"] is True, receipt
    assert _state(page)["frame_name"] == "Linus"
    missing = page.invoke("frame_missing")
    assert missing["ok"] is False and missing["error"]["code"] == "ACTION_UNAVAILABLE"
    assert missing["error"]["started"] is False


def test_disabled_controls_are_unavailable_before_anything_runs(pages: Pages) -> None:
    page = pages.open("pages/real/disabled.html")
    reasons = {
        "press_disabled": "is disabled",
        "press_aria": "is aria-disabled",
        "press_fieldset": "is disabled",
        "type_fieldset": "is disabled",
        "press_inert": "inert",
        "type_disabled": "is disabled",
        "press_toggle": "is disabled",
    }
    for action, words in reasons.items():
        args = {"value": "x"} if action.startswith("type_") else None
        receipt = page.invoke(action, args)
        assert receipt["ok"] is False, (action, receipt)
        error = receipt["error"]
        assert error["code"] == "ACTION_UNAVAILABLE" and error["started"] is False, (action, error)
        assert words in error["reason"], (action, error["reason"])
    state = _state(page)
    assert state["total"] == 0 and state["typed"] == [], state
    assert page.invoke("unlock")["ok"] is True
    assert page.invoke("press_toggle")["ok"] is True
    assert page.invoke("press_enabled")["ok"] is True
    assert _state(page)["total"] == 2


def test_two_record_types_whose_ids_coincide_are_diffed_apart(pages: Pages) -> None:
    page = pages.open("pages/real/two_types.html")
    receipt = page.invoke("remove_order@2")
    assert receipt["ok"] is True, receipt
    records = receipt["changed"]["records"]
    assert set(records) == {"order"}, records
    assert records["order"]["removed"] == ["2"] and records["order"]["total"] == {"from": 3, "to": 2}
    assert "remove_order@2" in receipt["changed"]["actions"]["removed"]
    assert "remove_customer@2" not in receipt["changed"]["actions"]["removed"]
    receipt = page.invoke("rename_customer@2", {"name": "Grace Hopper"})
    records = receipt["changed"]["records"]
    assert set(records) == {"customer"}, records
    assert records["customer"]["updated"] == [{"id": "2", "changes": {"label": {"from": "Grace", "to": "Grace Hopper"}}}]
    receipt = page.invoke("remove_row@1")
    assert receipt["ok"] is True and receipt["changed"]["records"]["order"]["removed"] == ["1"], receipt
