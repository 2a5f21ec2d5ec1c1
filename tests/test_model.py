"""The page model of the demo, read through the HTTP API from a real Chromium."""

from __future__ import annotations

import json

from .conftest import Pages


def test_demo_model_has_its_declarations(pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    model = page.first_model
    assert model["page"]["id"] == "todos" and model["page"]["name"] == "Task list"
    assert [r["id"] for r in model["regions"]] == ["toolbar", "list", "footer"]
    regions = {r["id"]: r for r in model["regions"]}
    assert regions["list"]["records"] == {"shown": 14, "total": 14}
    assert regions["list"]["purpose"] == "Tasks matching the filter"

    tasks = model["records"]["task"]
    assert tasks["total"] == 14 and tasks["ids"][:3] == ["t1", "t2", "t3"]
    assert tasks["omitted"] == {"ids": 0, "items": 0}
    first = tasks["items"][0]
    assert first["id"] == "t1" and first["label"] == "Buy milk" and first["region"] == "list"
    assert first["fields"]["done"] is False and "due" in first["fields"]

    assert model["state"]["filter"] == {"value": "all", "description": "Which tasks are shown"}
    assert model["state"]["open_count"]["value"] == 11

    actions = {a["id"]: a for a in model["actions"]}
    # Families appear once, with the record type they act on, never once per row.
    assert actions["remove"]["record"] == "task" and actions["remove"]["risk"] == "danger"
    assert not any("@" in a["id"] for a in model["actions"])
    assert actions["add_todo"]["params"]["required"] == ["text"]
    # Unavailable is not absent: the reason is there.
    assert actions["save_edit"]["available"] is False and actions["save_edit"]["reason"] == "No task is being edited"
    assert actions["add_todo"]["available"] is True and "reason" not in actions["add_todo"]


def test_sensitive_fields_leave_the_page_only_as_references(pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    text = json.dumps(page.model())
    assert "@example" not in text
    owner = page.model()["records"]["task"]["items"][0]["fields"]["owner_email"]
    assert owner.startswith("<secret>") and owner.endswith("</secret>")
    # Stable while the page lives: the same reference on the next read.
    assert page.model()["records"]["task"]["items"][0]["fields"]["owner_email"] == owner


def test_record_window_is_chosen_by_query_parameters(pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    model = page.model(offset=10, limit=2)
    tasks = model["records"]["task"]
    assert [item["id"] for item in tasks["items"]] == ["t11", "t12"]
    assert tasks["offset"] == 10 and tasks["omitted"]["items"] == 12 and len(tasks["ids"]) == 14
    chosen = page.model(ids="t3,t14,nope")["records"]["task"]["items"]
    assert [item["id"] for item in chosen] == ["t3", "t14"]
