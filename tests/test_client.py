"""The Python client against the running service: typed receipts, problems as exceptions."""

from __future__ import annotations

import pytest

from pling_browser import Client, Receipt
from pling_browser.errors import NavigationRefused, SessionLost

from .conftest import ServiceThread
from .server import FixtureServer


def test_client_round_trip(service: ServiceThread, fixtures: FixtureServer) -> None:
    with Client(service.url) as pling:
        page = pling.open(fixtures.url("demo/todos.html"))
        assert page.model.records["task"].total == 14
        receipt = page.invoke("add_todo", {"text": "Typed"}, idempotency_key="client-1")
        assert isinstance(receipt, Receipt) and receipt.ok and receipt.changed is not None
        assert receipt.changed.records["task"].added == ["t15"]
        assert page.invoke("add_todo", {"text": "Typed"}, idempotency_key="client-1") == receipt
        assert page.read_model(limit=1).records["task"].total == 15
        failed = page.invoke("remove@nope")
        assert not failed.ok and failed.error is not None and failed.error["code"] == "ACTION_NOT_FOUND"
        tool = page.call_tool("toggle", {"record": "t2"})
        assert tool.ok and tool.action.id == "toggle@t2"
        assert [entry["receipt"]["action"]["id"] for entry in page.receipts()] == ["add_todo", "remove@nope", "toggle@t2"]
        assert page.screenshot()[:4] == b"\x89PNG"
        page.close()
        with pytest.raises(SessionLost):
            page.invoke("add_todo", {"text": "gone"})
        with pytest.raises(NavigationRefused) as refused:
            pling.open("file:///etc/passwd")
        assert refused.value.hint


def test_a_page_session_is_a_context_manager_that_closes_it(service: ServiceThread, fixtures: FixtureServer) -> None:
    with Client(service.url) as pling:
        with pling.open(fixtures.url("demo/todos.html")) as page:
            assert page.id in [s.id for s in pling.sessions()]
            assert page.invoke("toggle@t2").ok
        assert page.id not in [s.id for s in pling.sessions()]
        page.close()  # closing again is harmless
