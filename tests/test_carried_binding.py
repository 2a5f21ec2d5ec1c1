"""The controller's binding (navigate.js) in a session's first document when no context was prepared
ahead (PLING_WARM_CONTEXTS=0, a pool taken empty, a profile's session): a page must not get hold of it
and rewrite the before snapshot its document carries out as it leaves, so that a navigating action's
receipt says a record changed that no page showed."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .conftest import Pages, ServiceThread, serving
from .server import FixtureServer


@pytest.fixture(scope="module")
def cold_service() -> Iterator[ServiceThread]:
    with serving(warm_contexts=0) as svc:
        yield svc


@pytest.fixture
def cold(cold_service: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=cold_service.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def test_a_first_document_cannot_rewrite_the_snapshot_it_carries_out(cold: Pages) -> None:
    page = cold.open("pages/lifecycle/carried_stolen_a.html")
    receipt = page.invoke("next")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["page"]["to"]["url"].endswith("carried_stolen_b.html"), receipt["changed"]
    # Both documents show x and y: nothing changed among the records.
    assert "book" not in receipt["changed"]["records"], receipt["changed"]["records"]


def test_a_tabs_first_document_cannot_rewrite_the_snapshot_it_carries_out(cold: Pages) -> None:
    # A tab's first document has loaded before the session adopts it (core/tabs.py): its bridge is
    # attached after its scripts ran, whatever the pool holds.
    page = cold.open("pages/lifecycle/carried_stolen_opener.html")
    opened = page.invoke("open_shelf")
    assert opened["ok"] is True, opened
    (tab,) = opened["changed"]["tabs"]["opened"]
    switched = page.client.post(f"/sessions/{page.id}/tabs/{tab['id']}", json={"active": True})
    assert switched.status_code == 200, switched.text
    receipt = page.invoke("next")
    assert receipt["ok"] is True, receipt
    # The binding came after the tab's scripts ran: no snapshot leaves through it, and the receipt says
    # what changed is not known rather than what the page wrote ({added: [y], removed: [forged]}).
    assert "book" not in receipt.get("changed", {}).get("records", {}), receipt
    assert "what changed is not known" in receipt["warning"], receipt
