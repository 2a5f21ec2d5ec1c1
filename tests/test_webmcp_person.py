"""WebMCP tools that need a person, through the real HTTP API with a test playing the person
(PLING_CONFIRM=http): `client.requestUserInteraction(cb)` and its page dialogs, and a consequential
tool (annotations.consequentialHint). They run with the browser's own WebMCP only: Pling calls a tool
itself in both WebMCPs (with its own client), and the gates are the lifecycle's; an export called
through each WebMCP's executeTool is tests/test_webmcp_export.py's, in both."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from pling_browser.lifecycle import LogEvent

from .conftest import FixtureServer, Pages, PageSession, ServiceThread, serving
from .webmcp_fixtures import in_page, mode_independent, where  # noqa: F401


@pytest.fixture(scope="module")
def person_service() -> Iterator[ServiceThread]:
    with serving(confirm="http", confirm_timeout_s=60.0) as svc:
        yield svc


@pytest.fixture
def person_pages(person_service: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=person_service.url, timeout=120) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


class Invocation(threading.Thread):
    """An agent's invoke, waiting in its own thread while the test plays the person."""

    def __init__(self, page: PageSession, action: str, args: Any = None) -> None:
        super().__init__(daemon=True)
        self.page, self.action, self.args = page, action, args
        self.receipt: dict[str, Any] | None = None

    def run(self) -> None:
        self.receipt = self.page.invoke(self.action, self.args)

    def result(self) -> dict[str, Any]:
        self.join(90)
        assert self.receipt is not None, "the invocation did not answer"
        return self.receipt


def person_sees(page: PageSession, wanted: Callable[[dict[str, Any]], bool], seen: set[str]) -> dict[str, Any]:
    """The next pending request of the session that `wanted` picks (not one answered before)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for pending in page.client.get(f"/sessions/{page.id}/pending").json()["pending"]:
            if pending["id"] not in seen and wanted(pending):
                seen.add(pending["id"])
                return pending
        time.sleep(0.1)
    raise AssertionError("no such request reached the person")


def answer(page: PageSession, pending: dict[str, Any], approve: bool) -> None:
    reply = page.client.post(f"/sessions/{page.id}/confirmations/{pending['id']}", json={"approve": approve})
    assert reply.status_code == 200, reply.text


def is_interaction(p: dict[str, Any]) -> bool:
    return "interaction" in p


def is_dialog(p: dict[str, Any]) -> bool:
    return "dialog" in p


def test_request_user_interaction_and_its_dialog_are_answered_by_the_person(person_pages: Pages) -> None:
    page = person_pages.open("pages/webmcp/interact.html")
    seen: set[str] = set()
    call = Invocation(page, "buy_product", {"product_id": "p1"})
    call.start()
    asked = person_sees(page, is_interaction, seen)
    assert asked["kind"] == "confirmation" and asked["action"] == "buy_product" and asked["args"] == {"product_id": "p1"}
    answer(page, asked, True)
    dialog = person_sees(page, is_dialog, seen)  # the page's confirm() is shown to the person, not dismissed
    assert dialog["dialog"]["type"] == "confirm" and dialog["dialog"]["message"] == "Buy product p1?"
    answer(page, dialog, True)
    receipt = call.result()
    assert receipt["ok"] is True and receipt["data"] == "Bought p1", receipt
    asked = page.codes().events(LogEvent.INTERACTION_ANSWERED)
    assert [e["approved"] for e in asked] == [True] and asked[0]["by"].startswith("a person"), asked
    assert page.invoke("purchases")["data"] == {"bought": ["p1"], "callbacks": 1}

    # The person says Cancel in the page's dialog: the page's confirm() answers false.
    call = Invocation(page, "buy_product", {"product_id": "p2"})
    call.start()
    answer(page, person_sees(page, is_interaction, seen), True)
    answer(page, person_sees(page, is_dialog, seen), False)
    refused = call.result()
    assert refused["error"]["code"] == "EXECUTION_FAILED" and "Purchase cancelled by user" in refused["error"]["message"]
    assert page.invoke("purchases")["data"] == {"bought": ["p1"], "callbacks": 2}


def test_a_person_who_denies_the_interaction_is_never_asked_in_the_page(person_pages: Pages) -> None:
    page = person_pages.open("pages/webmcp/interact.html")
    seen: set[str] = set()
    call = Invocation(page, "buy_product", {"product_id": "p3"})
    call.start()
    answer(page, person_sees(page, is_interaction, seen), False)
    denied = call.result()
    assert denied["error"]["code"] == "EXECUTION_FAILED" and "NotAllowedError" in denied["error"]["message"]
    assert page.invoke("purchases")["data"] == {"bought": [], "callbacks": 0}  # the callback never ran


@mode_independent
def test_with_no_confirmation_channel_the_interaction_is_denied(where: tuple[ServiceThread, Pages]) -> None:
    # The default test services: PLING_CONFIRM=none. Nobody answers for the person, and nothing is automatic.
    _svc, pages = where
    page = pages.open("pages/webmcp/interact.html")
    denied = page.invoke("buy_product", {"product_id": "p4"})
    assert denied["error"]["code"] == "EXECUTION_FAILED" and "NotAllowedError" in denied["error"]["message"]
    assert "no confirmation channel" in denied["error"]["message"]
    assert page.invoke("purchases")["data"] == {"bought": [], "callbacks": 0}


def test_a_consequential_tool_waits_for_a_person(person_pages: Pages) -> None:
    page = person_pages.open("pages/webmcp/shop.html")
    seen: set[str] = set()
    call = Invocation(page, "buy")
    call.start()
    asked = person_sees(page, lambda p: p["action"] == "buy", seen)
    assert asked["risk"] == "danger" and asked["description"] == "Pay for the basket with the saved card"
    answer(page, asked, False)
    denied = call.result()
    assert denied["error"]["code"] == "PERMISSION_DENIED" and denied["error"]["started"] is False
    assert page.invoke("basket")["data"]["orders"] == 0

    call = Invocation(page, "buy")
    call.start()
    answer(page, person_sees(page, lambda p: p["action"] == "buy", seen), True)
    bought = call.result()
    assert bought["ok"] is True and bought["data"] == {"orders": 1}
    assert page.invoke("basket")["data"]["orders"] == 1


def test_a_webmcp_agent_calling_a_danger_export_waits_for_the_person(person_service: ServiceThread,
                                                                     person_pages: Pages) -> None:
    # Pling's own danger action, exported to the browser's WebMCP and called by an in-page agent (as
    # Playwright MCP would call it): the same gate as an invocation, a person decides.
    page = person_pages.open("pages/webmcp/mixed.html")
    seen: set[str] = set()
    answers: list[Any] = []

    def agent_calls() -> None:
        answers.append(in_page(person_service, page.id, "() => inPageCall('delete_note', {record: 'n1'})"))

    for approve in (False, True):
        caller = threading.Thread(target=agent_calls, daemon=True)
        caller.start()
        asked = person_sees(page, lambda p: p["action"] == "delete_note@n1", seen)
        assert asked["risk"] == "danger" and asked["record"]["id"] == "n1"
        answer(page, asked, approve)
        caller.join(60)
    denied, deleted = (a["ok"] for a in answers)
    assert denied["error"]["code"] == "PERMISSION_DENIED" and denied["error"]["started"] is False
    assert deleted["ok"] is True and deleted["changed"]["records"]["note"]["removed"] == ["n1"]
    assert page.model()["records"]["note"]["ids"] == []
