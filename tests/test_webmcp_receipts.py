"""Receipts on a WebMCP-only page (no pling declarations): what a tool did to the address is reported as
on pling pages (changed.page), an address changed within the document (pushState) included, and a write
gets no 'nothing it declares changed' warning, as there is nothing declared to observe."""

from __future__ import annotations

from .conftest import Pages, ServiceThread
from .webmcp_fixtures import mode_independent, where  # noqa: F401


@mode_independent  # the receipt is the lifecycle's; registering in each document is tested in both
def test_a_tools_url_changes_and_navigations_are_reported(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open("pages/webmcp/route.html")
    shown = page.invoke("show_item", {"item": "x1"})  # history.pushState within the document
    assert shown["ok"] is True and "warning" not in shown
    assert shown["changed"]["page"]["from"]["url"].endswith("/webmcp/route.html")
    assert shown["changed"]["page"]["to"]["url"].endswith("/webmcp/route.html?item=x1")

    noted = page.invoke("note")  # stays put: no page change, and no warning on a page with nothing to observe
    assert noted["ok"] is True and "page" not in noted["changed"] and "warning" not in noted

    left = page.invoke("open_next")  # a navigation to a document with tools of its own
    assert left["ok"] is True and left["changed"]["page"]["to"]["url"].endswith("/webmcp/route_next.html")
    assert left["changed"]["actions"]["added"] == ["go_back"]
    assert sorted(left["changed"]["actions"]["removed"]) == ["note", "open_next", "open_plain", "show_item"]

    back = page.invoke("go_back")
    assert back["changed"]["page"]["from"]["url"].endswith("/route_next.html")
    plain = page.invoke("open_plain")  # a document that declares nothing: reported, and said so
    assert plain["ok"] is True and plain["changed"]["page"]["to"]["title"] == "No tools here"
    assert "declared nothing" in plain["warning"]
