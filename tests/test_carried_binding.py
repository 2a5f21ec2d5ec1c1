"""A navigating action's evidence: the before snapshot a leaving document carries out through the
controller's binding (navigate.js), and the diff the next document makes against it. Neither document
may have the receipt say a record or a state changed that no page showed: the leaving one by taking the
binding (it reaches a document that loaded before the bridge was attached after that document's
scripts ran: a session's first document when no context was prepared ahead, a tab's first document),
the next one by what it puts on Object.prototype for the parsed snapshot to read, or by handing its
bridge a snapshot of its own making (the bridge's entry point answers the page's calls too)."""

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


def test_the_next_document_cannot_say_what_the_last_one_showed(cold: Pages) -> None:
    # The carried snapshot arrives in the next document parsed from JSON; a name the last document
    # never showed must not be read from the next document's Object.prototype.
    page = cold.open("pages/lifecycle/carried_proto_a.html")
    receipt = page.invoke("next")
    assert receipt["ok"] is True, receipt
    changed = receipt["changed"]
    assert changed["page"]["to"]["url"].endswith("carried_proto_b.html"), changed
    assert changed["state"]["changed"] == {"balance": {"from": None, "to": 5}}, changed["state"]
    assert "pay" in changed["actions"]["added"] and "pay" not in changed["actions"]["availability"], changed["actions"]


def test_the_next_document_cannot_hand_its_bridge_a_snapshot_of_its_own(pages: Pages) -> None:
    # The bridge's entry point answers the page too: the last document learnt its id (whoami), and the
    # next one calls hold under that id with a before snapshot of its making, again and again.
    page = pages.open("pages/lifecycle/carried_hold_a.html")
    receipt = page.invoke("next")
    assert receipt["ok"] is True, receipt
    changed = receipt["changed"]
    assert changed["page"]["to"]["url"].endswith("carried_hold_b.html"), changed
    assert "book" not in changed["records"], changed["records"]
