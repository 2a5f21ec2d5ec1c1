"""Bounds of the page model (issue 2, "What must be shown"): an empty page, a 10,000-record page and
values far too big for a model, read through the HTTP API from a real Chromium. Sizes are measured
on the bytes the service sends."""

from __future__ import annotations

import json
from typing import Any

from .conftest import Pages, PageSession

MAX_MODEL_BYTES = 256 * 1024


def raw_model(page: PageSession, **params: Any) -> tuple[bytes, dict[str, Any]]:
    """The model as the service sent it: its bytes and the parsed JSON."""
    answer = page.client.get(f"/sessions/{page.id}/model", params=params)
    assert answer.status_code == 200, answer.text
    return answer.content, answer.json()


def order_id(n: int) -> str:
    return f"order-2024-{n:06d}"


def test_a_page_without_declarations_answers_an_empty_model(pages: Pages) -> None:
    page = pages.open("pages/model/empty.html")
    expected = {
        "page": {"id": None, "name": None, "url": pages.fixtures.url("pages/model/empty.html"), "title": "Nothing declared"},
        "regions": [], "actions": [], "records": {}, "state": {}, "feedback": [],
        "omitted": {"regions": 0, "actions": 0, "state": 0, "chars": 0, "items": 0, "keys": 0, "depth": 0,
                    "frames": []},  # child frames not read, each with its reason (none here)
        "frames": [],  # child frames whose declarations are in the model (none here)
        "problems": [],
        "tab": "t1",  # the model says which of the session's tabs it describes
    }
    assert page.first_model == expected
    assert page.model() == expected
    # A window on a page without records is still an empty model, not an error.
    assert page.model(type="task", ids="t1,t2", limit=5) == expected


def test_ten_thousand_records_answer_a_bounded_model(pages: Pages) -> None:
    page = pages.open("pages/model/ten_thousand.html")
    body, model = raw_model(page)
    assert len(body) <= MAX_MODEL_BYTES
    orders = model["records"]["order"]
    assert orders["total"] == 10000
    # Ids for as much of the active set as the id budget allows, in order; the rest is counted.
    shown_ids = orders["ids"]
    assert 0 < len(shown_ids) < 10000
    assert shown_ids == [order_id(n) for n in range(1, len(shown_ids) + 1)]
    assert len(shown_ids) + orders["omitted"]["ids"] == orders["total"]
    # Fields for the default window of 50, the rest counted.
    items = orders["items"]
    assert [item["id"] for item in items] == [order_id(n) for n in range(1, 51)]
    assert len(items) + orders["omitted"]["items"] == orders["total"]
    assert orders["omitted"]["items"] == 9950 and "offset" not in orders
    first = items[0]
    assert first["label"] == "Order order-2024-000001" and first["region"] == "orders"
    assert set(first["fields"]) == {"customer", "amount", "status", "note"}
    assert first["fields"]["customer"] == "Customer 1" and first["fields"]["status"] == "open"
    # The family is one action, never one per record; availability per record only where it is false.
    assert [a["id"] for a in model["actions"]] == ["cancel"]
    assert model["actions"][0]["record"] == "order" and model["actions"][0]["available"] is True
    assert items[2]["unavailable"] == {"cancel": "The order has shipped"}
    assert "unavailable" not in items[0]
    assert model["regions"][0]["records"] == {"shown": 50, "total": 10000}
    assert model["state"]["count"]["value"] == 10000
    assert model["problems"] == []
    # The first model (answered with the session) is the same bounded model.
    assert page.first_model == model


def test_ten_thousand_records_windows_reach_every_record(pages: Pages) -> None:
    page = pages.open("pages/model/ten_thousand.html")
    orders = page.model(offset=9990, limit=50)["records"]["order"]
    assert [item["id"] for item in orders["items"]] == [order_id(n) for n in range(9991, 10001)]
    assert orders["offset"] == 9990 and orders["omitted"]["items"] == 9990
    assert len(orders["ids"]) + orders["omitted"]["ids"] == 10000
    # A record past the shown ids is still reachable by its business id.
    assert orders["omitted"]["ids"] > 0 and order_id(9999) not in orders["ids"]
    chosen = page.model(ids=f"{order_id(9999)},{order_id(1)},order-2024-999999")["records"]["order"]
    assert [item["id"] for item in chosen["items"]] == [order_id(9999), order_id(1)]
    assert chosen["omitted"]["items"] == 9998


def test_a_window_too_big_for_the_budget_is_cut_and_counted(pages: Pages) -> None:
    page = pages.open("pages/model/ten_thousand.html")
    body, model = raw_model(page, limit=1000)
    assert len(body) <= MAX_MODEL_BYTES
    orders = model["records"]["order"]
    assert 0 < len(orders["items"]) < 1000
    assert len(orders["items"]) + orders["omitted"]["items"] == 10000
    assert len(orders["ids"]) + orders["omitted"]["ids"] == 10000
    assert [item["id"] for item in orders["items"]] == [order_id(n) for n in range(1, len(orders["items"]) + 1)]
    assert model["regions"][0]["records"] == {"shown": len(orders["items"]), "total": 10000}
    assert any(p["where"] == "model" and "larger than" in p["problem"] for p in model["problems"])


def test_the_byte_budget_counts_bytes_not_characters(pages: Pages) -> None:
    # Each id is 80 euro signs (3 bytes each in UTF-8) and an order number.
    page = pages.open("pages/model/ten_thousand.html?wide=1")
    body, model = raw_model(page)
    assert len(body) <= MAX_MODEL_BYTES
    orders = model["records"]["order"]
    assert orders["total"] == 10000 and orders["omitted"]["ids"] > 0
    assert len(orders["ids"]) + orders["omitted"]["ids"] == 10000
    assert orders["ids"][0] == "€" * 80 + order_id(1)
    assert len(orders["items"]) == 50


def test_big_values_are_cut_and_the_cut_is_counted(pages: Pages) -> None:
    page = pages.open("pages/model/big_values.html")
    body, model = raw_model(page)
    assert len(body) < 8_000
    fields = model["records"]["blob"]["items"][0]["fields"]
    state = model["state"]

    # A 10 MB string: cut, and the marker says how much was left out.
    for text in (fields["text"], state["text"]["value"]):
        assert text == "x" * 200 + "…(+9999800 chars)"
    # An object 20 levels deep: cut at the depth limit; the marker says what the cut level held.
    deep = fields["deep"]
    assert deep["level"] == 1 and deep["next"]["next"]["level"] == 3
    assert deep["next"]["next"]["next"] == "{…2 keys}"
    assert state["deep"]["value"]["next"]["next"]["next"]["next"] == "{…2 keys}"
    # An array of 100,000 items: the first 20 and a count of the rest.
    for many in (fields["many"], state["many"]["value"]):
        assert many == list(range(20)) + ["…(+99980 items)"]
    assert fields["small"] == "fine"

    # The model's own counters add up every cut: one of each in the record and one in state.
    assert model["omitted"] == {"regions": 0, "actions": 0, "state": 0,
                                "chars": 2 * 9_999_800, "items": 2 * 99_980, "keys": 0, "depth": 2,
                                "frames": []}
    assert model["problems"] == []


def test_values_within_every_per_level_limit_are_still_bounded(pages: Pages) -> None:
    # 30 keys × 30 keys × 30 keys × 20 strings of 200 characters: within each per-level limit, over
    # 100 MB as JSON, in 60 record rows, 150 state entries and a region's more().
    page = pages.open("pages/model/big_wide.html")
    body, model = raw_model(page)
    assert len(body) <= MAX_MODEL_BYTES
    assert model["omitted"]["keys"] > 0
    rows = model["records"]["row"]
    assert len(rows["items"]) + rows["omitted"]["items"] == 60
    assert len(rows["ids"]) + rows["omitted"]["ids"] == 60
    for item in rows["items"]:
        assert len(json.dumps(item, ensure_ascii=False)) < 12_000
    assert len(model["state"]) + model["omitted"]["state"] == 150
    for entry in model["state"].values():
        assert len(json.dumps(entry, ensure_ascii=False)) < 6_000
    assert len(json.dumps(model["regions"][0]["more"], ensure_ascii=False)) < 6_000
    # The action survives the cuts: an agent can still act.
    assert [a["id"] for a in model["actions"]] == ["recalc"]
    assert any(p["where"] == "model" and "larger than" in p["problem"] for p in model["problems"])
