"""Pling's model served back: every action a page declares through `pling` is a tool of the browser's
WebMCP (the browser's own, or the shim), with readOnlyHint / consequentialHint from its risk, never
imported back as a WebMCP action; calling one runs the pling action through the controller's lifecycle."""

from __future__ import annotations

from .conftest import Pages, ServiceThread
from .webmcp_fixtures import browser_call, browser_tools, in_page, where  # noqa: F401

PLING_ACTIONS = {"add_note", "count_notes", "delete_note"}
WEBMCP_TOOLS = {"summarize", "rename_note", "ask_agent"}


def test_pling_actions_are_tools_of_the_browsers_webmcp(where: tuple[ServiceThread, Pages]) -> None:
    svc, pages = where
    page = pages.open("pages/webmcp/mixed.html")
    # Not imported back: the model has each action once, the page's WebMCP tools beside its pling actions.
    assert {a["id"] for a in page.first_model["actions"]} == PLING_ACTIONS | WEBMCP_TOOLS
    assert len(page.first_model["actions"]) == 6

    seen = page.invoke("ask_agent")["data"]["seen"]  # an in-page agent's getTools()
    assert set(seen) == PLING_ACTIONS | WEBMCP_TOOLS
    assert seen["count_notes"] == {"readOnly": True, "consequential": False}
    assert seen["delete_note"] == {"readOnly": False, "consequential": True}
    assert seen["add_note"] == {"readOnly": False, "consequential": False}

    listed = browser_tools(svc, page.id)
    if svc.app.state.runtime.settings.browser_webmcp:
        tools = {t["name"]: t for t in listed}  # the browser itself, through Playwright's page.webmcp
        assert set(tools) == PLING_ACTIONS | WEBMCP_TOOLS
        assert tools["delete_note"]["annotations"] == {"consequential": True}
        assert tools["delete_note"]["inputSchema"]["required"] == ["record"]
        assert tools["add_note"]["inputSchema"]["required"] == ["text"]
    else:
        assert listed is None


def test_calling_an_export_runs_the_pling_action_through_the_lifecycle(where: tuple[ServiceThread, Pages]) -> None:
    svc, pages = where
    page = pages.open("pages/webmcp/mixed.html")
    added = in_page(svc, page.id, "() => inPageCall('add_note', {text: 'Call mum'})")["ok"]
    assert added["ok"] is True and added["data"] == {"id": "n2"}
    assert added["changed"]["records"]["note"]["added"] == ["n2"]  # a receipt, as for any invocation
    assert page.model()["state"]["count"]["value"] == 2
    # Validation before anything runs.
    invalid = in_page(svc, page.id, "() => inPageCall('add_note', {text: ''})")["ok"]  # the receipt, failed
    assert invalid["ok"] is False and invalid["error"]["code"] == "INVALID_PARAMS" and invalid["error"]["started"] is False
    # A danger action needs a person; the test service has none (PLING_CONFIRM=none): denied, nothing ran.
    denied = in_page(svc, page.id, "() => inPageCall('delete_note', {record: 'n1'})")["ok"]
    assert denied["error"]["code"] == "PERMISSION_DENIED" and denied["action"]["id"] == "delete_note@n1"
    assert page.model()["records"]["note"]["ids"] == ["n1", "n2"]
    # The call is in the session's receipt log like any other.
    logged = pages.client.get(f"/sessions/{page.id}/scenario")
    assert logged.status_code == 200 and "add_note" in logged.text

    if svc.app.state.runtime.settings.browser_webmcp:  # Playwright's own call, as Playwright MCP makes it
        counted = browser_call(svc, page.id, "count_notes", {})
        assert counted["ok"] is True and counted["data"] == 2
