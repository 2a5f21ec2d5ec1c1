"""Stage 6, execute: function actions call the page's run() (data bounded, errors as the page's
own text, a deadline); element actions operate the target with trusted input, and the receipt says
how faithfully (no `fidelity` key when high)."""

from __future__ import annotations

import json

from ..conftest import Pages

PAGE = "pages/lifecycle/execute.html"


def state(page) -> dict:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def assert_execution_failed(receipt: dict) -> dict:
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "EXECUTION_FAILED"
    assert error["stage"] == "execute" and error["started"] is True
    return error


def test_a_function_action_answers_its_data(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("add_numbers", {"a": 2, "b": 40})
    assert receipt["ok"] is True, receipt
    assert receipt["data"] == {"sum": 42, "operands": [2, 40]}
    assert "data_omitted" not in receipt and "fidelity" not in receipt and "warning" not in receipt


def test_a_throwing_run_is_execution_failed_with_the_pages_error(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_execution_failed(page.invoke("explode"))
    assert "Kaboom: the widget fell over" in error["message"]
    assert "Kaboom: the widget fell over" in error["page_error"]
    assert state(page)["calls"] == ["explode"]


def test_a_rejected_promise_is_execution_failed_with_the_pages_error(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_execution_failed(page.invoke("refuse"))
    assert "Payment service said no" in error["page_error"]
    assert "TypeError" in error["page_error"]


def test_a_run_that_never_finishes_fails_at_the_actions_deadline(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_execution_failed(page.invoke("stall"))
    assert "300 ms" in error["message"]
    assert error["outcome"] == "unknown"
    assert state(page)["calls"] == ["stall"]
    # The session is still usable afterwards.
    assert page.invoke("add_numbers", {"a": 1, "b": 1})["data"]["sum"] == 2


def test_a_huge_return_value_is_bounded_and_the_omission_counted(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("dump")
    assert receipt["ok"] is True, receipt
    assert len(json.dumps(receipt)) < 50_000
    data = receipt["data"]
    assert data["label"] == "big dump"
    assert data["text"].startswith("xxxx") and len(data["text"]) < 10_000
    assert len(data["items"]) < 1000 and data["items"][:3] == [0, 1, 2]
    omitted = receipt["data_omitted"]
    kept_items = sum(1 for item in data["items"] if isinstance(item, int))
    assert omitted["items"] == 100_000 - kept_items
    assert omitted["chars"] >= 5 * 1024 * 1024 - 10_000


def test_a_native_button_target_is_high_fidelity(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("press_native")
    assert receipt["ok"] is True, receipt
    assert "fidelity" not in receipt and "warning" not in receipt
    assert state(page)["clicks"] == {"native": 1, "container": 0, "fake": 0}


def test_a_container_with_one_button_is_auto_fidelity(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("press_container")
    assert receipt["ok"] is True, receipt
    assert receipt["fidelity"] == "auto"
    assert state(page)["clicks"] == {"native": 0, "container": 1, "fake": 0}


def test_a_div_with_onclick_is_low_fidelity_with_a_warning(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("press_fake")
    assert receipt["ok"] is True, receipt
    assert receipt["fidelity"] == "low"
    assert "synthetic" in receipt["warning"]
    assert state(page)["clicks"] == {"native": 0, "container": 0, "fake": 1}


def test_a_text_input_is_filled_from_value(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_name", {"value": "Grace Hopper"})
    assert receipt["ok"] is True, receipt
    assert "fidelity" not in receipt
    assert receipt["changed"]["state"]["changed"]["name"] == {"from": "", "to": "Grace Hopper"}
    assert state(page)["name"] == "Grace Hopper"


def test_a_text_input_is_filled_from_the_one_string_param(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_city", {"city": "Lisbon"})
    assert receipt["ok"] is True, receipt
    assert state(page)["city"] == "Lisbon"
    assert state(page)["name"] == ""


def test_a_checkbox_is_set_or_toggled(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("accept_terms", {"checked": True})
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["state"]["changed"]["agree"] == {"from": False, "to": True}
    assert state(page)["agree"] is True
    # Without `checked`, the checkbox is toggled.
    assert page.invoke("accept_terms")["ok"] is True
    assert state(page)["agree"] is False


def test_a_select_gets_the_option(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("choose_size", {"value": "L"})
    assert receipt["ok"] is True, receipt
    assert "fidelity" not in receipt
    assert receipt["changed"]["state"]["changed"]["size"] == {"from": "M", "to": "L"}
    assert state(page)["size"] == "L"


def test_an_action_with_run_and_target_operates_the_target(pages: Pages) -> None:
    page = pages.open("pages/lifecycle/both.html")
    receipt = page.invoke("press")
    assert receipt["ok"] is True and "fidelity" not in receipt
    assert receipt["changed"]["state"]["changed"]["via"] == {"from": None, "to": "trusted click"}


def test_a_checkbox_already_in_the_asked_state_stays_in_it(pages: Pages) -> None:
    # `checked` sets the state, it does not toggle: asking twice for true leaves it ticked.
    page = pages.open(PAGE)
    assert page.invoke("accept_terms", {"checked": True})["ok"] is True
    assert state(page)["agree"] is True
    receipt = page.invoke("accept_terms", {"checked": True})
    assert receipt["ok"] is True, receipt
    assert state(page)["agree"] is True
    assert receipt["changed"]["state"]["changed"] == {}
    # And from unticked, false stays false.
    fresh = pages.open(PAGE)
    receipt = fresh.invoke("accept_terms", {"checked": False})
    assert receipt["ok"] is True, receipt
    assert state(fresh)["agree"] is False and receipt["changed"]["state"]["changed"] == {}
