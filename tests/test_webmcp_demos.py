"""WebMCP pages written elsewhere and first tried after the WebMCP work was done: three demos of
GoogleChromeLabs/webmcp-tools, vendored unchanged (fixtures/pages/webmcp/chromelabs/README.md).
pizza-maker with the browser's WebMCP and with the shim (its polyfill steps aside for whichever
`document.modelContext` there is); ticket-booking's tools are the current API's registerTool, which
tests/test_webmcp_spec.py runs in both, and order-tracking's are declarative forms, which the bridge reads
itself in both: they run with the browser's WebMCP. What they showed is in docs/webmcp.md."""

from __future__ import annotations

from .conftest import Pages, ServiceThread
from .webmcp_fixtures import mode_independent, where  # noqa: F401

DEMOS = "pages/webmcp/chromelabs/"
# ticket-booking links Tailwind and fonts on the internet; resolving those names takes seconds here.
SLOW_LOAD = {"timeout_ms": 30_000}


def test_pizza_maker(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open(DEMOS + "pizza-maker/index.html", **SLOW_LOAD)
    # Registered with exposedTo (localhost and https origins), behind the demo's own polyfill, which
    # steps aside where document.modelContext exists (the browser's, or the shim).
    assert {a["id"] for a in page.first_model["actions"]} == {
        "set_pizza_size", "set_pizza_style", "toggle_layer", "add_topping", "remove_topping", "manage_pizza", "share_pizza"}
    assert page.invoke("set_pizza_size", {"number_of_persons": 5})["data"] == "Set pizza size to Large for 5 people."
    assert page.invoke("set_pizza_style", {"style": "Pesto"})["data"] == "Changed pizza style to Pesto"
    wrong = page.invoke("set_pizza_style", {"style": "Hawaii"})  # the tool's enum, checked before it runs
    assert wrong["error"]["code"] == "INVALID_PARAMS" and wrong["error"]["started"] is False


@mode_independent
def test_ticket_booking(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open(DEMOS + "ticket-booking/index.html", **SLOW_LOAD)
    assert {a["id"] for a in page.first_model["actions"]} == {"update_location", "query_content", "select_showtime"}
    moved = page.invoke("update_location", {"city": "London"})  # pushState: reported as the page change
    assert moved["data"] == {"status": "success", "message": "Location updated to London"}
    assert moved["changed"]["page"]["to"]["url"].endswith("index.html?city=London")
    found = page.invoke("query_content", {"genre": "Action"})["data"]
    assert found["status"] == "success" and found["results"][0]["title"] == "Vengeance"
    # The demo's own schema says time matches ^[1-12]:… (a character class: one digit, 1 or 2), so the
    # showtimes it lists ("10:00 AM") are refused before the tool runs: Pling holds a page to its schema.
    refused = page.invoke("select_showtime", {"movie_id": "101", "date": found["results"][0]["showtimes"][0]["date"],
                                              "time": "10:00 AM"})
    assert refused["error"]["code"] == "INVALID_PARAMS" and refused["error"]["issues"][0]["path"] == "time"


@mode_independent
def test_order_tracking(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open(DEMOS + "order-tracking/index.html", **SLOW_LOAD)
    status = {a["id"]: a for a in page.first_model["actions"]}["get_order_status"]
    assert status["params"]["properties"]["timeframe"]["enum"] == [
        "today", "yesterday", "last_7_days", "last_30_days", "last_6_months"]
    looked = page.invoke("get_order_status", {"timeframe": "last_6_months"})  # toolautosubmit: a GET navigation
    assert looked["ok"] is True and looked["changed"]["page"]["to"]["url"].endswith("history.html?timeframe=last_6_months")
    assert looked["changed"]["actions"]["added"] == ["initiate_return"]
    ret = {a["id"]: a for a in page.model()["actions"]}["initiate_return"]
    # The required select's placeholder option (value "") is not offered as an answer.
    assert ret["params"]["properties"]["reason"]["enum"] == ["defective", "wrong_size", "changed_mind"]
    assert page.invoke("initiate_return", {"order_id": "ORD123", "reason": ""})["error"]["code"] == "INVALID_PARAMS"
    done = page.invoke("initiate_return", {"order_id": "ORD123", "reason": "wrong_size"})
    assert done["ok"] is True and done["changed"]["page"]["to"]["url"].endswith("result.html?order_id=ORD123&reason=wrong_size")
