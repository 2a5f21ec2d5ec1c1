"""Tabs (SPEC: tabs in the HTTP API): a page an action opens in a new tab is reported with a stable
tab id, kept by the session, used through `tab` and closed; a popup flood is bounded to 8 tabs."""

from __future__ import annotations

import time

import pytest

from ..apps import SsrApp
from ..conftest import problem
from .conftest import Opener


@pytest.fixture
def app() -> SsrApp:  # the tab cases need the model on time only
    with SsrApp() as running:
        yield running


def test_a_blank_target_link_opens_a_tab_the_agent_uses_and_closes(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    client = tab.client
    receipt = tab.invoke("open_help")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["tabs"] == {"opened": [{"id": "t2", "url": app.url("/help")}], "closed": []}
    assert "page" not in receipt["changed"]  # the list stayed where it was, in t1

    listing = client.get(f"/sessions/{tab.id}/tabs").json()
    assert listing == {"active": "t1", "tabs": [
        {"id": "t1", "url": app.url("/tasks"), "active": True},
        {"id": "t2", "url": app.url("/help"), "active": False, "opener": "t1"}]}
    # The model of either tab, the active one by default; the model says which tab it is.
    assert tab.model()["tab"] == "t1" and tab.model()["page"]["id"] == "tasks"
    help_model = tab.model(tab="t2")
    assert help_model["tab"] == "t2" and help_model["page"]["id"] == "help"
    assert help_model["records"]["article"]["ids"] == ["adding", "deleting"]

    # Invoke on t2 without activating it, then make it the active tab.
    read = tab.invoke("close", tab="t1")
    assert read["ok"] is False and read["error"]["code"] == "ACTION_NOT_FOUND"  # t1 is the list
    activated = client.post(f"/sessions/{tab.id}/tabs/t2", json={"active": True}).json()
    assert activated["active"] == "t2" and tab.model()["page"]["id"] == "help"
    assert client.get(f"/sessions/{tab.id}/screenshot", params={"tab": "t1"}).headers["content-type"] == "image/png"

    # Closing the active tab activates the one active before it, and says so.
    closed = client.delete(f"/sessions/{tab.id}/tabs/t2")
    assert closed.status_code == 200, closed.text
    assert closed.json()["closed"] == "t2" and closed.json()["activated"] == "t1" and closed.json()["active"] == "t1"
    assert tab.model()["page"]["id"] == "tasks"
    missing = client.get(f"/sessions/{tab.id}/model", params={"tab": "t2"})
    assert missing.status_code == 404 and problem(missing)["code"] == "TAB_NOT_FOUND"
    assert client.delete(f"/sessions/{tab.id}/tabs/t1").status_code == 400  # the last tab: close the session

    # Tab ids are never reused.
    again = tab.invoke("open_help")
    assert again["changed"]["tabs"]["opened"][0]["id"] == "t3"


def test_a_page_closing_its_own_tab_is_reported(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    assert tab.invoke("open_help")["changed"]["tabs"]["opened"][0]["id"] == "t2"
    receipt = tab.invoke("close", tab="t2")  # the help page's window.close()
    assert receipt["action"]["id"] == "close"
    listing = tab.client.get(f"/sessions/{tab.id}/tabs").json()
    assert [t["id"] for t in listing["tabs"]] == ["t1"] and listing["active"] == "t1"
    assert tab.model()["page"]["id"] == "tasks"


def test_a_popup_flood_is_bounded_to_eight_tabs(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    assert tab.invoke("open_popups")["ok"] is True
    receipt = tab.invoke("flood")  # 20 x window.open
    assert receipt["ok"] is True, receipt
    opened = [t["id"] for t in receipt["changed"]["tabs"]["opened"]]
    assert opened and len(opened) <= 7 and len(set(opened)) == len(opened)
    assert all(c["reason"] == "the session keeps at most 8 tabs" for c in receipt["changed"]["tabs"]["closed"])
    # Every popup is adopted or closed as it arrives: the session ends with exactly 8 tabs.
    deadline = time.monotonic() + 20
    while True:
        tabs = tab.client.get(f"/sessions/{tab.id}/tabs").json()["tabs"]
        if len(tabs) == 8 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert [t["id"] for t in tabs][:1] == ["t1"] and len(tabs) == 8
    assert tab.model()["page"]["id"] == "popups"  # the active tab stays the one the agent used
