"""Stage 4, confirm: `read` never asks, `write` asks when it declares `confirm: true`, `danger`
always asks. The test service approves `remove`, `clear_done` and `approved_danger` by policy and
has no confirmation channel, so every other action that asks is denied, and nothing runs."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import Pages, serving
from ..server import FixtureServer

PAGE = "pages/lifecycle/confirm.html"
# The stuck page's tests wait for bridge calls that never answer: each waits its budget (5 s at least)
# and then the grace (bridge_grace_s) before the service stops the script. Their own services take the
# grace tests/test_hostile.py's endless loops take (1 s, not the test services' 3 s): the same calls
# time out, each 2 s sooner.
STUCK_GRACE_S = 1.0


def state(page) -> dict:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def assert_denied(receipt: dict, ref: str) -> dict:
    assert receipt["ok"] is False, receipt
    assert receipt["action"]["id"] == ref
    error = receipt["error"]
    assert error["code"] == "PERMISSION_DENIED"
    assert error["stage"] == "confirm" and error["started"] is False
    assert isinstance(error.get("denied_by"), str) and error["denied_by"]
    assert "changed" not in receipt and "data" not in receipt
    return error


def test_unapproved_danger_function_action_is_denied_and_nothing_runs(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_denied(page.invoke("wipe_all"), "wipe_all")
    assert error["risk"] == "danger"
    after = state(page)
    assert after["ran"] == [] and after["doc_count"] == 3
    assert [item["id"] for item in page.model()["records"]["doc"]["items"]] == ["d1", "d2", "d3"]


def test_unapproved_danger_element_action_is_denied_and_the_button_is_not_pressed(pages: Pages) -> None:
    page = pages.open(PAGE)
    assert_denied(page.invoke("nuke"), "nuke")
    after = state(page)
    assert after["nuke_clicks"] == 0 and after["doc_count"] == 3


def test_a_read_action_never_asks(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("count_docs")
    assert receipt["ok"] is True, receipt
    assert receipt["data"] == {"count": 3}
    # Even a read that declares `confirm: true` is not asked about.
    receipt = page.invoke("peek")
    assert receipt["ok"] is True, receipt
    assert receipt["data"] == {"titles": ["Lease", "Invoice 42", "Tax return"]}
    assert state(page)["ran"] == ["count_docs", "peek"]


def test_a_write_that_declares_confirm_is_denied(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_denied(page.invoke("publish"), "publish")
    assert error["risk"] == "write"
    after = state(page)
    assert after["ran"] == [] and after["published"] is False
    # A plain write, without `confirm`, is not asked about.
    receipt = page.invoke("rename_vault")
    assert receipt["ok"] is True, receipt
    assert state(page)["ran"] == ["rename_vault"]


def test_approved_danger_actions_run(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("approved_danger")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"]["doc"]["removed"] == ["d3"]
    # Approved by action id, for every member of the family.
    receipt = page.invoke("remove@d1")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["records"]["doc"]["removed"] == ["d1"]
    after = state(page)
    assert after["ran"] == ["approved_danger", "remove@d1"] and after["doc_count"] == 1


def test_a_stuck_page_lives_on_when_an_mcp_client_watches_its_tools(fixtures: FixtureServer) -> None:
    # Once an MCP client listed tools, each receipt makes the service read the page's model again for
    # list_changed. On this page that read loops for ever: the watcher stops waiting after a few seconds
    # but lets the read run to the bridge's budget, which stops the script, so the page answers again
    # (before: the cancelled read left the loop running and the page never answered; CI, ci3). A
    # service of its own, so that no other test shares the watcher this one starts.
    import asyncio

    from mcp import Client

    with serving(bridge_grace_s=STUCK_GRACE_S) as own, httpx.Client(base_url=own.url, timeout=60) as client:

        async def list_tools() -> None:
            async with Client(f"{own.url}/mcp") as mcp:
                await mcp.list_tools()

        asyncio.run(list_tools())
        pages = Pages(client, fixtures)
        try:
            page = pages.open("pages/flows/stuck.html")

            def in_page(script: str) -> Any:
                return own.in_service(lambda runtime: runtime.sessions.get(page.id).page.evaluate(script), 60)

            in_page("window.arm()")
            receipt = page.invoke("touch_all")
            assert receipt["ok"] is False and receipt["error"]["cause"] == "PAGE_UNRESPONSIVE", receipt
            assert in_page("window.entered()") >= 1  # answered: the page's script was stopped
            in_page("window.disarm()")
            assert page.invoke("touch@a")["ok"] is True
        finally:
            pages.close_all()


def test_a_flow_on_a_stuck_page_fails_once_not_once_per_step(fixtures: FixtureServer) -> None:
    # Each step of touch_all is a family action whose records hang when read: the first step that
    # cannot be described ends the flow's risk resolution, and the invocation, with nothing started
    # (before: every step waited the full bridge budget, then reveal waited once more). A service of its
    # own: where an MCP client listed tools (another test, on the shared service), each receipt makes
    # the service read the model again, a second entry into the loop that is not the invocation's.
    with serving(bridge_grace_s=STUCK_GRACE_S) as own, httpx.Client(base_url=own.url, timeout=60) as client:
        pages = Pages(client, fixtures)
        try:
            page = pages.open("pages/flows/stuck.html")

            def in_page(script: str) -> Any:
                return own.in_service(lambda runtime: runtime.sessions.get(page.id).page.evaluate(script))

            in_page("window.arm()")
            receipt = page.invoke("touch_all")
            entered = in_page("window.entered()")
            in_page("window.disarm()")
        finally:
            pages.close_all()
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert (error["code"], error["stage"], error["started"], error["cause"]) == (
        "EXECUTION_FAILED", "confirm", False, "PAGE_UNRESPONSIVE")
    assert entered == 1
    assert "steps" not in error and "changed" not in receipt
