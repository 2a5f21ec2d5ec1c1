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


def test_a_repeated_toast_is_added_again_and_a_vanished_one_is_still_seen(pages: Pages) -> None:
    page = pages.open("pages/real/toast.html")
    first = page.invoke("save")
    assert first["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Saved"}], first["changed"]
    again = page.invoke("save")  # the first "Saved" is still on screen: a second one appears
    assert again["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Saved"}], again["changed"]
    assert "warning" not in again
    flash = page.invoke("flash")  # shown for 300 ms: gone by the after snapshot, seen by the watch
    assert {"kind": "info", "text": "Working…"} in flash["changed"]["feedback"]["added"], flash["changed"]
    dismissed = page.invoke("dismiss")
    assert dismissed["changed"]["feedback"]["removed"] == [{"kind": "info", "text": "Welcome back"}], dismissed["changed"]


def test_declared_gestures_press_hover_and_double_click(pages: Pages) -> None:
    page = pages.open("pages/real/gestures.html")
    search = page.invoke("search", {"value": "alpha"})
    assert search["ok"] is True and search["verified"] is True, search
    assert _state(page)["searched"] == "alpha"
    menu = page.invoke("show_menu")
    assert menu["ok"] is True and menu["verified"] is True, menu
    assert "fidelity" not in menu  # trusted input on the trigger itself, not synthetic events
    renamed = page.invoke("rename", {"title": "New title"})
    assert renamed["ok"] is True, renamed
    assert _state(page)["title"] == "New title"
    nickname = page.invoke("nickname", {"value": "Ada"})
    assert nickname["ok"] is True and nickname["verified"] is True, nickname  # onchange only: the fill ends with change
    click = page.invoke("click_only")
    assert click["ok"] is True and _state(page)["clicks"] == 1 and _state(page)["dblclicks"] == 0


def test_effects_that_land_after_a_debounce_or_a_late_render_are_in_the_receipt(pages: Pages) -> None:
    page = pages.open("pages/real/debounce.html")
    title = page.invoke("set_title", {"value": "Minutes"})  # lands 60 ms after run() returned
    assert title["changed"]["state"]["changed"]["title"] == {"from": "Untitled", "to": "Minutes"}, title["changed"]
    assert "warning" not in title
    search = page.invoke("search", {"value": "ap"})  # the input handler is debounced by 60 ms
    assert search["changed"]["state"]["changed"]["query"] == {"from": "", "to": "ap"}, search["changed"]
    assert set(search["changed"]["records"]["result"]["removed"]) == {"banana", "blueberry", "cherry", "lemon", "mango"}
    save = page.invoke("save")  # fetch answered after 50 ms, then a 100 ms timer adds the entry
    assert save["changed"]["state"]["changed"]["saved"] == {"from": 0, "to": 1}, save["changed"]
    assert save["changed"]["records"]["entry"]["added"] == ["e1"]


def test_react_controlled_input_flow_and_a_portal_dialog(pages: Pages) -> None:
    page = pages.open("pages/real/react.html")
    added = page.invoke("add", {"text": "Eggs"})
    assert added["ok"] is True, added
    assert [step["action"] for step in added["steps"]] == ["item_text", "add_item"]
    assert added["changed"]["records"] == {"item": {
        "added": ["i3"], "removed": [], "updated": [], "reordered": False,
        "omitted": {"added": 0, "removed": 0, "updated": 0}, "total": {"from": 2, "to": 3}}}
    assert {"kind": "success", "text": "Added Eggs"} in added["changed"]["feedback"]["added"]
    # The dialog is a portal into document.body; its button is declared only while it is open.
    asked = page.invoke("remove@i1")
    assert asked["ok"] is True and asked["verified"] is True, asked
    assert "confirm_remove" in asked["changed"]["actions"]["added"]
    # confirm_remove is danger: nobody can confirm it in this service, so nothing runs.
    denied = page.invoke("confirm_remove")
    assert denied["error"]["code"] == "PERMISSION_DENIED" and denied["error"]["started"] is False, denied
    kept = page.invoke("cancel_remove")
    assert kept["ok"] is True, kept
    assert kept["changed"]["records"] == {}
    assert {"confirm_remove", "cancel_remove"} <= set(kept["changed"]["actions"]["removed"])
    assert [item["id"] for item in page.model()["records"]["item"]["items"]] == ["i1", "i2", "i3"]


def test_vue_lazy_model_and_a_transition_group(pages: Pages) -> None:
    page = pages.open("pages/real/vue.html")
    typed = page.invoke("title", {"value": "Call mum"})
    assert typed["ok"] is True, typed
    # v-model.lazy commits on change only: the fill ends as typing does, with change.
    assert typed["changed"]["state"]["changed"]["committed"] == {"from": "", "to": "Call mum"}, typed["changed"]
    added = page.invoke("add")
    assert added["changed"]["records"]["note"]["added"] == ["n3"], added["changed"]
    # The removed row stays in the DOM for its 300 ms leave transition; the record is gone at once.
    removed = page.invoke("remove@n1")
    assert removed["ok"] is True and removed["verified"] is True, removed
    assert removed["changed"]["records"]["note"]["removed"] == ["n1"]
    assert _state(page)["count"] == 2


def test_a_click_whose_handler_outlasts_the_timeout_started(pages: Pages) -> None:
    page = pages.open("pages/receipts/slow_click.html")
    receipt = page.invoke("save_slowly")
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "EXECUTION_FAILED" and error["started"] is True and error["outcome"] == "unknown", error
    assert _state(page)["clicks"] == 1
