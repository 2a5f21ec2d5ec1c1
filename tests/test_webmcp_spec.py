"""WebMCP of the current specification, the same page twice: in Chromium with its own WebMCP on (the
service's default, `--enable-features=WebMCP`: the bridge wraps the browser's document.modelContext), and
with it off (PLING_BROWSER_WEBMCP=0: the bridge's own document.modelContext, the shim). What Pling does
with a tool it knows (forms, annotations, budgets) is the same in both and runs once
(tests/webmcp_fixtures.py). The legacy navigator.modelContext is tests/test_webmcp.py's notes page."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .conftest import FixtureServer, Pages, ServiceThread, serving
from .webmcp_fixtures import mode_independent, where  # noqa: F401


def _native(svc: ServiceThread, sid: str) -> Any:
    """What the browser itself says: does the page have its own WebMCP, and which tools it lists."""
    async def look(runtime: Any) -> Any:
        page = runtime.sessions.get(sid).page
        native = await page.evaluate("() => Object.prototype.toString.call(document.modelContext)")
        tools = await asyncio.wait_for(page.webmcp.tools(), 10) if native == "[object ModelContext]" else None
        return native, sorted(t["name"] for t in tools) if tools is not None else None
    return svc.in_service(look)


def test_the_current_specification(where: tuple[ServiceThread, Pages]) -> None:
    svc, pages = where
    page = pages.open("pages/webmcp/spec.html")
    actions = {a["id"]: a for a in page.first_model["actions"]}
    assert set(actions) == {"say_magic_word", "close_door", "read_reviews", "self_check"}
    magic = actions["say_magic_word"]
    assert magic["title"] == "Say the magic word" and magic["risk"] == "write"
    assert len(magic["description"]) == 3000 and magic["description"].endswith(" END")  # kept whole
    reviews = actions["read_reviews"]["description"]
    assert reviews.startswith("Follow the signature") and reviews.endswith("…(+1000 chars)")  # the omission said
    assert actions["read_reviews"]["risk"] == "read"

    check = page.invoke("self_check")["data"]
    assert check["outcome"] == {"magic": "resolved", "duplicate": "rejected InvalidStateError", "aborted": "rejected gone"}
    assert check["tools"] == ["close_door", "read_reviews", "say_magic_word", "self_check"]
    assert check["title"] == "Say the magic word" and check["eventTarget"] is True
    assert check["ran"] == {"content": [{"type": "text", "text": "The door hums"}]}
    assert check["seen"]["toolchange"] >= 1 and check["seen"]["ontoolchange"] >= 1

    untrusted = page.invoke("read_reviews")
    assert untrusted["ok"] is True and "untrustedContentHint" in untrusted["warning"]
    assert "untrustedContentHint" not in (page.invoke("say_magic_word", {"word": "please"}).get("warning") or "")

    seen_before = page.invoke("self_check")["data"]["seen"]["toolchange"]
    assert page.invoke("close_door")["ok"] is True  # aborts the signal say_magic_word was registered with
    assert "say_magic_word" not in {a["id"] for a in page.model()["actions"]}
    assert page.invoke("say_magic_word", {"word": "please"})["error"]["code"] == "ACTION_NOT_FOUND"
    after = page.invoke("self_check")["data"]
    assert "say_magic_word" not in after["tools"] and after["seen"]["toolchange"] > seen_before

    native, listed = _native(svc, page.id)
    if svc.app.state.runtime.settings.browser_webmcp:
        # The browser's own object is the page's: the browser lists the page's tools, not hidden by a shim.
        assert native == "[object ModelContext]" and listed == ["close_door", "read_reviews", "self_check"]
    else:
        assert listed is None


@mode_independent  # the bridge reads the forms itself, whichever WebMCP there is
def test_declarative_forms_and_an_imperative_tool(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open("pages/webmcp/bistro.html")
    actions = {a["id"]: a for a in page.first_model["actions"]}
    assert set(actions) == {"book_table", "search_menu", "page_state"}
    book = actions["book_table"]
    assert book["description"] == "Book a table at the bistro" and book["risk"] == "write"
    assert book["params"] == {"type": "object", "required": ["name", "guests"], "properties": {
        "name": {"type": "string", "description": "Who the table is for"},
        "guests": {"type": "number", "minimum": 1, "maximum": 8, "description": "Guests"},
        "time": {"type": "string", "enum": ["19:00", "20:00"], "description": "When"},
        "terrace": {"type": "boolean", "description": "On the terrace"}}}

    assert page.invoke("book_table", {"name": "Ada", "guests": 9})["error"]["code"] == "INVALID_PARAMS"
    booked = page.invoke("book_table", {"name": "Ada", "guests": 2, "time": "20:00", "terrace": True})
    assert booked["ok"] is True and booked["data"] == {"booked": "Ada, 2 at 20:00, terrace"}  # respondWith's answer

    filled = page.invoke("search_menu", {"q": "soup"})  # no toolautosubmit: filled, left for a person to submit
    assert filled["ok"] is True and filled["data"]["submitted"] is False
    state = page.invoke("page_state")["data"]
    assert state == {"bookings": ["Ada, 2 at 20:00, terrace"], "searched": 0, "q": "soup"}


@mode_independent
def test_annotations_become_risk_and_the_export_claims_only_them(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open("pages/webmcp/shop.html")
    risks = {a["id"]: a["risk"] for a in page.first_model["actions"]}
    assert risks == {"buy": "danger", "basket": "read", "add_tea": "write"}
    # consequentialHint: a person must confirm, and none is there (PLING_CONFIRM=none): nothing is bought.
    assert page.invoke("buy")["error"]["code"] == "PERMISSION_DENIED"
    assert page.invoke("basket")["data"]["orders"] == 0

    answer = pages.client.get(f"/sessions/{page.id}/tools", params={"format": "mcp"})
    tools = {t["name"]: t for t in answer.json()["tools"]}
    assert tools["buy"]["title"] == "Buy the basket" and tools["basket"]["title"] == "Show the basket"
    assert tools["buy"]["annotations"] == {"readOnlyHint": False, "destructiveHint": True}
    assert tools["basket"]["annotations"] == {"readOnlyHint": True}
    assert tools["add_tea"]["annotations"] == {"readOnlyHint": False}  # no destructive or open-world claim


@mode_independent  # the budget is the lifecycle's (entry.webmcp), whichever WebMCP registered the tool
def test_webmcp_tools_get_the_browsers_budget(where: tuple[ServiceThread, Pages]) -> None:
    # The test services give a page's actions 3 s (action_timeout_ms) and no PLING_ACTION_TIMEOUT.
    _svc, pages = where
    page = pages.open("pages/webmcp/slow.html")
    assert page.invoke("slow_report")["data"] == "report"  # a WebMCP tool: the browser's 30 s
    assert "did not finish" in page.invoke("slow_pling")["error"]["message"]  # a page's action: 3 s
    assert "did not finish" in page.invoke("slow_but_bounded")["error"]["message"]  # its own timeoutMs


def test_the_operators_action_timeout_bounds_webmcp_tools(fixtures: FixtureServer) -> None:
    with serving(action_timeout_s=2.0) as svc:  # PLING_ACTION_TIMEOUT=2
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            pages = Pages(client, fixtures)
            page = pages.open("pages/webmcp/slow.html")
            assert "did not finish within 2000 ms" in page.invoke("slow_report")["error"]["message"]
            pages.close_all()


@mode_independent  # a declarative form and a signal's abort, tested in both above
def test_a_webmcp_demo_written_elsewhere(where: tuple[ServiceThread, Pages]) -> None:
    # GoogleChromeLabs/webmcp-tools demos/doors, vendored unchanged (fixtures/pages/webmcp/doors/README.md).
    _svc, pages = where
    page = pages.open("pages/webmcp/doors/index.html")
    assert {a["id"] for a in page.first_model["actions"]} == {"openDoor1", "openDoor2", "openDoor3"}
    opened = page.invoke("openDoor3")  # a declarative form with toolautosubmit: it navigates to magic.html
    assert opened["ok"] is True and opened["changed"]["actions"]["added"] == ["castLight"]
    cast = page.invoke("castLight")  # aborts the signal castLight was registered with, declares a form
    assert cast["ok"] is True and cast["data"] == "The owl blinks at the sudden light!"
    assert {a["id"] for a in page.model()["actions"]} == {"returnToHallway"}
    assert page.invoke("castLight")["error"]["code"] == "ACTION_NOT_FOUND"
    back = page.invoke("returnToHallway")
    assert back["ok"] is True and sorted(back["changed"]["actions"]["added"]) == ["openDoor1", "openDoor2", "openDoor3"]


def test_a_12_s_tool_finishes_under_the_default_budgets(fixtures: FixtureServer) -> None:
    # The service's defaults (no PLING_ACTION_TIMEOUT; a page's actions 10 s): a WebMCP tool gets 30 s,
    # so the 12 s tool answers its result instead of failing at 10 s with its effect landing afterwards.
    with serving(action_timeout_ms=10_000) as svc:
        with httpx.Client(base_url=svc.url, timeout=90) as client:
            pages = Pages(client, fixtures)
            page = pages.open("pages/webmcp/twelve.html")
            done = page.invoke("export_report")
            assert done["ok"] is True and done["data"] == "report", done
            assert page.invoke("report_state")["data"] == "report"
            pages.close_all()
