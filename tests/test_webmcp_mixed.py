"""A page that declares itself twice (pling declarations and WebMCP tools), and the WebMCP events a
tool run fires (toolactivated, toolcancel, the execute's signal) and exposedTo's check, the events with
the browser's WebMCP and with the shim (each fires them at its own object)."""

from __future__ import annotations

from .conftest import Pages, ServiceThread
from .webmcp_fixtures import mode_independent, where  # noqa: F401


@mode_independent  # the diff and the warning are the lifecycle's, whichever WebMCP registered the tool
def test_a_mixed_page_runs_both_kinds_with_one_diff(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open("pages/webmcp/mixed.html")
    risks = {a["id"]: a["risk"] for a in page.first_model["actions"]}
    assert risks == {"add_note": "write", "count_notes": "read", "delete_note": "danger",
                     "summarize": "read", "rename_note": "write", "ask_agent": "read"}
    added = page.invoke("add_note", {"text": "Call mum"})  # a pling action
    assert added["changed"]["records"]["note"]["added"] == ["n2"]
    # A WebMCP tool writing records the page declared through pling: the same keyed diff, no warning.
    renamed = page.invoke("rename_note", {"id": "n1", "text": "Buy rye bread"})
    assert renamed["ok"] is True and renamed["data"] == "renamed" and "warning" not in renamed
    assert renamed["changed"]["records"]["note"]["updated"] == [
        {"id": "n1", "changes": {"label": {"from": "Buy bread", "to": "Buy rye bread"},
                                 "text": {"from": "Buy bread", "to": "Buy rye bread"}}}]
    # A WebMCP write that changes nothing declared, on a page that declares records: warned.
    unchanged = page.invoke("rename_note", {"id": "n1", "text": "Buy rye bread"})
    assert "nothing" in unchanged["warning"].lower()
    assert page.invoke("summarize")["data"] == "Buy rye bread; Call mum"
    failed = page.invoke("rename_note", {"id": "n9", "text": "x"})
    assert failed["error"]["code"] == "EXECUTION_FAILED" and "No note n9" in failed["error"]["message"]


def test_toolactivated_toolcancel_and_the_tools_signal(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open("pages/webmcp/events.html")
    assert {a["id"] for a in page.first_model["actions"]} == {"quick", "stuck", "partner", "events"}
    assert page.invoke("quick")["data"] == "done"
    stuck = page.invoke("stuck")  # its own timeoutMs (500): Pling gives up, aborts its signal, fires toolcancel
    assert stuck["error"]["code"] == "EXECUTION_FAILED" and "500 ms" in stuck["error"]["message"]
    heard = page.invoke("events")["data"]
    assert heard["log"] == ["activated quick", "activated stuck", "aborted stuck", "cancel stuck", "activated events"]
    # exposedTo: a potentially trustworthy origin is accepted, plain http is a SecurityError (and no action).
    assert heard["exposure"] == {"partner": "resolved", "plain_http": "SecurityError"}
