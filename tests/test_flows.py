"""Composite flows: steps against the page as it is at each step, one diff, a ledger, and resume."""

from __future__ import annotations

import httpx

from pling_browser.lifecycle import LogEvent

from .conftest import Pages, problem

ORDERS = "pages/flows/orders.html"


def test_a_later_step_exists_only_after_an_earlier_one(pages: Pages) -> None:
    page = pages.open(ORDERS)
    actions = {a["id"] for a in page.first_model["actions"]}
    assert "place" not in actions and "set_qty" not in actions  # the dialog is closed
    receipt = page.invoke("order", {"qty": 3})
    assert receipt["ok"] is True, receipt
    assert [s["action"] for s in receipt["steps"]] == ["new_order", "set_qty", "place"]
    assert all(s["outcome"] == "done" for s in receipt["steps"])
    # One diff for the whole flow: the new order, keyed on its business id.
    assert receipt["changed"]["records"]["order"]["added"] == ["o2"]
    assert page.model()["records"]["order"]["items"][-1]["fields"] == {"qty": 3}
    assert len(page.codes().events(LogEvent.FLOW_RAN)) == 1


def test_a_riskier_step_asks_again_and_a_denial_is_step_failed(pages: Pages) -> None:
    page = pages.open(ORDERS)
    receipt = page.invoke("purge_all")
    error = receipt["error"]
    assert receipt["ok"] is False and error["code"] == "STEP_FAILED" and error["started"] is True
    assert error["step"] == 2 and error["step_error"]["code"] == "PERMISSION_DENIED"
    assert [(s["action"], s["ok"]) for s in error["steps"]] == [("new_order", True), ("purge", False)]
    assert "not undone" in error["message"] and error["resume"].startswith("r_")
    # The first step's effect is visible (the dialog opened: its actions exist), the purge never ran.
    model = page.model()
    assert model["records"]["order"]["total"] == 1
    assert "purge" in {a["id"] for a in model["actions"]}


def test_resume_continues_from_the_failed_step_once(pages: Pages, client: httpx.Client) -> None:
    page = pages.open(ORDERS)
    failed = page.invoke("publish")
    error = failed["error"]
    assert error["code"] == "STEP_FAILED" and error["step_error"]["code"] == "ACTION_UNAVAILABLE"
    assert error["step_error"]["reason"] == "The draft needs a review first"
    assert page.model()["state"]["saves"]["value"] == 1
    assert page.invoke("review")["ok"] is True
    resumed = client.post(f"/sessions/{page.id}/resume", json={"handle": error["resume"]})
    assert resumed.status_code == 200, resumed.text
    receipt = resumed.json()["result"]
    assert receipt["ok"] is True, receipt
    assert [s["action"] for s in receipt["steps"]] == ["save_draft", "publish_draft"]
    state = page.model()["state"]
    assert state["saves"]["value"] == 1 and state["published"]["value"] is True  # not saved twice
    again = client.post(f"/sessions/{page.id}/resume", json={"handle": error["resume"]})
    assert again.status_code == 404 and problem(again)["code"] == "RESUME_NOT_FOUND"


def test_the_demo_rename_flow(pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    receipt = page.invoke("rename@t3", {"text": "Renamed by a flow"})
    assert receipt["ok"] is True, receipt
    assert [s["action"] for s in receipt["steps"]] == ["edit@t3", "edit_text", "save_edit"]
    updated = receipt["changed"]["records"]["task"]["updated"]
    assert updated == [{"id": "t3", "changes": {"label": {"from": updated[0]["changes"]["label"]["from"], "to": "Renamed by a flow"}}}]
    invalid = page.invoke("rename@t3", {"text": ""})
    assert invalid["error"]["code"] == "INVALID_PARAMS"
