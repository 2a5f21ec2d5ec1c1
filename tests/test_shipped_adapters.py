"""The adapters shipped in adapters/ on the real apps they are for: the TodoMVC React build (vendored
in fixtures/apps/todomvc-react, which never loads Pling) and Datasette (PyPI, server-rendered). Each
model passes `check`, and receipts show the business change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pling_browser.ci.check import check

from .conftest import Pages, ServiceThread, serving
from .datasette_app import DatasetteApp
from .server import FixtureServer

SHIPPED = Path(__file__).resolve().parent.parent / "adapters"
TODOMVC = "/apps/todomvc-react/index.html"


@pytest.fixture(scope="module")
def shipped() -> Iterator[ServiceThread]:
    # remove and clear_completed are danger actions: approved here, as an operator would for a demo.
    with serving(adapters=str(SHIPPED), approve=("danger",)) as svc:
        yield svc


@pytest.fixture
def spages(shipped: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=shipped.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


@pytest.fixture(scope="module")
def datasette() -> Iterator[DatasetteApp]:
    app = DatasetteApp().start()
    yield app
    app.stop()


def _records(receipt: dict[str, Any], kind: str) -> dict[str, Any]:
    assert receipt["ok"], receipt
    assert kind in receipt["changed"]["records"], receipt
    return receipt["changed"]["records"][kind]


def test_todomvc_receipts_for_add_toggle_remove(spages: Pages) -> None:
    page = spages.open(TODOMVC)
    model = page.model()
    assert model["page"]["adapter"] == ["todomvc-react.js"] and model["problems"] == []
    assert model["records"] == {} or model["records"]["todo"]["ids"] == []

    first = _records(page.invoke("add_todo", {"title": "Buy milk"}), "todo")
    second = _records(page.invoke("add_todo", {"title": "Call Ada"}), "todo")
    assert len(first["added"]) == 1 and len(second["added"]) == 1
    milk, ada = first["added"][0], second["added"][0]
    assert milk != ada and len(milk) == 21  # the app's own nanoid, not a position
    model = page.model()
    assert model["records"]["todo"]["ids"] == [milk, ada]
    assert model["state"]["items_left"]["value"] == 2

    toggled = page.invoke(f"toggle@{milk}")
    assert _records(toggled, "todo")["updated"] == [{"id": milk, "changes": {"completed": {"from": False, "to": True}}}]
    assert toggled["changed"]["state"]["changed"]["items_left"] == {"from": 2, "to": 1}
    assert {i["id"]: i["fields"]["completed"] for i in page.model()["records"]["todo"]["items"]} == {milk: True, ada: False}

    removed = _records(page.invoke(f"remove@{ada}"), "todo")
    assert removed["removed"] == [ada] and removed["added"] == [] and removed["total"] == {"from": 2, "to": 1}
    cleared = _records(page.invoke("clear_completed"), "todo")
    assert cleared["removed"] == [milk]
    unavailable = page.invoke("clear_completed")
    assert unavailable["error"]["code"] == "ACTION_UNAVAILABLE" and unavailable["error"]["reason"] == "No todo is completed"


def test_todomvc_model_passes_check(shipped: ServiceThread, fixtures: FixtureServer) -> None:
    findings = shipped.in_service(lambda runtime: check(runtime, fixtures.url(TODOMVC), adapter="todomvc-react.js"), 120)
    assert findings == []


def test_datasette_model_and_a_navigating_receipt(spages: Pages, datasette: DatasetteApp) -> None:
    answer = spages.client.post("/sessions", json={"url": datasette.url("/library/books")})
    assert answer.status_code == 201, answer.text
    spages.opened.append(answer.json()["session"]["id"])
    from .conftest import PageSession

    page = PageSession(spages.client, answer.json()["session"]["id"], answer.json()["model"])
    model = page.model()
    assert model["page"]["adapter"] == ["datasette.js"] and model["problems"] == []
    assert model["page"]["id"] == "datasette-table"
    assert model["records"]["books"]["ids"] == ["1", "2", "3"]
    assert model["records"]["books"]["items"][1] == {"id": "2", "label": "Emma", "region": "rows",
                                                     "fields": {"title": "Emma", "author": "Jane Austen", "year": "1815"}}
    assert model["state"]["row_count"]["value"] == 3

    # The filter form is submitted (a GET): the service follows the new document and diffs across it.
    filtered = page.invoke("filter", {"column": "author", "op": "contains", "value": "Austen"})
    assert filtered["ok"], filtered
    assert "author__contains=Austen" in filtered["changed"]["page"]["to"]["url"]  # Datasette redirected the form
    assert filtered["changed"]["records"]["books"]["removed"] == ["1", "3"]
    assert filtered["changed"]["state"]["changed"]["row_count"] == {"from": 3, "to": 1}

    opened = page.invoke("open@2")
    assert opened["ok"], opened
    assert opened["changed"]["page"]["to"]["id"] == "datasette-row"
    assert opened["changed"]["page"]["to"]["url"].endswith("/library/books/2")
    assert page.model()["state"]["row"]["value"] == {"id": "2", "title": "Emma", "author": "Jane Austen", "year": "1815"}


def test_datasette_model_passes_check(shipped: ServiceThread, datasette: DatasetteApp) -> None:
    url = datasette.url("/library/books")
    assert shipped.in_service(lambda runtime: check(runtime, url, adapter="datasette.js"), 120) == []
