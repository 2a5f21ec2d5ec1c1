"""Hostile pages (issue 2, "What must be shown"): each answers a bounded model that states what went
wrong in `problems`, and the service keeps serving. Real pages in a real Chromium, read over HTTP."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import Pages, PageSession

MAX_MODEL_BYTES = 256 * 1024
SECRET = re.compile(r"^<secret>[a-z0-9]+</secret>$")


def raw_model(page: PageSession, **params: Any) -> tuple[bytes, dict[str, Any]]:
    answer = page.client.get(f"/sessions/{page.id}/model", params=params)
    assert answer.status_code == 200, answer.text
    return answer.content, answer.json()


def bounded_and_still_serving(page: PageSession) -> dict[str, Any]:
    """Reads the model twice (the page is not broken by being read) and checks the service is well."""
    body, model = raw_model(page)
    assert len(body) <= MAX_MODEL_BYTES
    assert raw_model(page)[1] == model
    health = page.client.get("/healthz")
    assert health.status_code == 200 and health.json()["ok"] is True
    return model


def problems_of(model: dict[str, Any], where: str) -> list[str]:
    return [p["problem"] for p in model["problems"] if p["where"] == where]


def test_throwing_getters_are_shown_as_errors_and_stated(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_getters.html")
    model = bounded_and_still_serving(page)
    items = {item["id"]: item for item in model["records"]["item"]["items"]}
    # In fields: the throwing getter becomes a marker, its neighbours are read.
    assert items["i1"]["fields"] == {"name": "First", "price": "<error: Error: price getter exploded>",
                                     "nested": {"inner": "<error: RangeError: inner getter exploded>", "ok": 1}}
    # In label: only the record whose label throws is marked.
    assert [items[i]["label"] for i in ("i1", "i2", "i3")] == ["First", "<error: Error: label exploded for i2>", "Third"]
    assert model["records"]["widget"]["items"][0]["fields"] == {"!error": "fields() threw: TypeError: fields exploded"}
    assert model["records"]["gizmo"]["items"][0]["label"] == "<error: Error: record label getter exploded>"
    # In a records declaration: the throwing property is ignored and said; the rest is declared.
    gadget = model["records"]["gadget"]
    assert gadget["ids"] == ["x1"] and gadget["items"][0]["label"] == "Gadget"
    assert any("label" in p and "decl getter exploded" in p for p in problems_of(model, "declaration"))
    # In a state get: no value, a stated problem; the other state entries are read.
    assert model["state"]["broken"] == {"value": None, "description": "A state whose get throws"}
    assert problems_of(model, "state broken") == ["get() threw: Error: state getter exploded"]
    assert model["state"]["holder"]["value"] == {"ok": True, "bad": "<error: Error: state value getter exploded>"}
    assert model["state"]["fine"]["value"] == "still here"
    # Every value that could not be read is counted.
    values = problems_of(model, "values")
    assert len(values) == 1 and values[0].startswith("11 values could not be read")
    assert [a["id"] for a in model["actions"]] == ["ping"]


def test_cyclic_values_are_marked_and_stated(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_cycles.html")
    model = bounded_and_still_serving(page)
    fields = model["records"]["node"]["items"][0]["fields"]
    assert fields["loop"] == {"name": "loop", "self": "<cycle>"}
    assert fields["ring"] == [1, 2, "<cycle>"]
    assert fields["a"] == {"name": "a", "b": {"name": "b", "a": "<cycle>"}}
    # The same object twice is not a cycle: both copies are shown.
    assert fields["twice"] == [{"note": "shared, not cyclic"}, {"note": "shared, not cyclic"}]
    assert model["state"]["graph"]["value"] == {"name": "a", "b": {"name": "b", "a": "<cycle>"}}
    assert model["state"]["ring"]["value"] == [1, 2, "<cycle>"]
    assert [p for p in problems_of(model, "values") if "<cycle>" in p] == [
        "5 values refer back to an object that contains them; each is shown as <cycle>"]


def test_lists_that_throw_or_answer_garbage_are_stated(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_lists.html")
    model = bounded_and_still_serving(page)
    records = model["records"]
    for broken in ("throws", "text", "nothing", "object", "numbers"):
        assert records[broken] == {"total": 0, "ids": [], "items": [], "omitted": {"ids": 0, "items": 0}}, broken
    assert problems_of(model, "records throws") == ["list() threw: Error: list exploded"]
    assert problems_of(model, "records text") == ["list() returned string, expected an array"]
    assert problems_of(model, "records nothing") == ["list() returned null, expected an array"]
    assert problems_of(model, "records object") == ["list() returned object, expected an array"]
    numbers = problems_of(model, "records numbers")
    assert len(numbers) == 1 and numbers[0].startswith("3 records without a usable id")
    holes = problems_of(model, "records holes")
    assert len(holes) == 1 and holes[0].startswith("4 records without a usable id") and "reading .id threw" in holes[0]
    assert records["holes"]["ids"] == ["kept"]
    # A broken type does not take the others down.
    assert records["good"]["ids"] == ["g1", "g2"] and records["good"]["items"][1]["label"] == "Good two"
    assert model["regions"][0]["records"] == {"shown": 2, "total": 2}
    poke = model["actions"][0]
    assert poke["id"] == "poke" and poke["available"] is False and poke["reason"]


def test_ids_are_kept_exactly_and_bad_ones_skipped_and_counted(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_ids.html")
    model = bounded_and_still_serving(page)
    odd = ["tab\there", "line\nbreak", "nul\u0000byte", "esc\u001b[31mred", "bell\u0007", "del\u007f",
           "sep\u2028arator", 'quote"back\\slash', " padded ", "ünïcødé-✓"]
    things = model["records"]["thing"]
    # Control characters and all: business ids, exactly as the page gave them, in the page's order.
    assert things["ids"] == odd + ["k" * 256, "dup"]
    assert [item["id"] for item in things["items"]] == things["ids"]
    assert [item["fields"]["n"] for item in things["items"]] == list(range(10)) + [100, 104]
    assert things["total"] == 12 and things["omitted"] == {"ids": 0, "items": 0}
    # Over-long ids (257 and 100,000 characters) and repeats: skipped, and counted.
    assert problems_of(model, "records thing") == [
        "2 records with an id longer than 256 characters were skipped",
        "2 records repeated an id already seen and were skipped",
    ]
    assert "x" * 257 not in json.dumps(model)
    # An id with a control character can be asked for as it is.
    chosen = page.model(ids="tab\there,esc\u001b[31mred")["records"]["thing"]["items"]
    assert [item["id"] for item in chosen] == ["tab\there", "esc\u001b[31mred"]


PATCHES = ["map", "push", "iterator", "stringify", "parse", "keys", "toJSON", "then"]


@pytest.fixture(scope="module")
def unpatched_model(client: Any, fixtures: Any) -> dict[str, Any]:
    answer = client.post("/sessions", json={"url": fixtures.url("pages/model/hostile_builtins.html?patch=none")})
    assert answer.status_code == 201, answer.text
    client.delete(f"/sessions/{answer.json()['session']['id']}")
    return answer.json()["model"]


def test_the_unpatched_catalogue_model_is_right(unpatched_model: dict[str, Any]) -> None:
    # The reference the patched pages are compared with.
    model = unpatched_model
    assert model["page"]["id"] == "catalogue" and model["problems"] == []
    books = model["records"]["book"]
    assert books["ids"] == ["978-0-14-044913-6", "978-0-19-953556-9", "978-0-14-118776-1"]
    assert books["items"][0]["fields"] == {"year": 1866, "tags": ["novel", "russian"], "stock": {"shelf": 3, "store": 1}}
    assert books["items"][2]["unavailable"] == {"borrow": "Not on the shelf"}
    assert [a["id"] for a in model["actions"]] == ["borrow", "search"]
    assert model["actions"][1]["params"]["required"] == ["q"]
    assert model["state"]["counts"]["value"] == {"books": 3, "nested": [1, [2, [3]]]}
    assert model["feedback"] == [{"kind": "info", "text": "Catalogue loaded"}]


@pytest.mark.parametrize("patch", PATCHES + [",".join(PATCHES)], ids=PATCHES + ["all"])
def test_builtins_patched_after_the_bridge_do_not_change_the_model(
        pages: Pages, unpatched_model: dict[str, Any], patch: str) -> None:
    page = pages.open(f"pages/model/hostile_builtins.html?patch={patch}")
    model = bounded_and_still_serving(page)
    assert "hijacked" not in json.dumps(model)
    expected = dict(unpatched_model, page=dict(unpatched_model["page"], url=model["page"]["url"]))
    assert model == expected
    assert page.first_model == expected
    # The window options still reach the bridge as sent.
    assert [i["id"] for i in page.model(offset=1, limit=1)["records"]["book"]["items"]] == ["978-0-19-953556-9"]


def test_prototype_pollution_neither_appears_in_nor_changes_the_model(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_pollution.html")
    body, model = raw_model(page)
    assert b"hacked" not in body and b"999999" not in body
    assert "hacked" not in json.dumps(page.first_model)
    notes = model["records"]["note"]
    # Object.prototype.limit/offset/type/ids are not the window: the default one is used.
    assert [item["id"] for item in notes["items"]] == [f"note-{n}" for n in range(1, 51)]
    assert [item["id"] for item in page.first_model["records"]["note"]["items"]] == [f"note-{n}" for n in range(1, 51)]
    assert "offset" not in notes and notes["omitted"] == {"ids": 0, "items": 70}
    assert len(page.model(limit=10)["records"]["note"]["items"]) == 10
    assert all("unavailable" not in item for item in notes["items"])
    assert model["regions"] == [{"id": "list", "name": "Notes", "purpose": None, "role": "list", "parent": None,
                                 "actions": 1, "records": {"shown": 50, "total": 120}, "more": None}]
    assert {a["id"]: a["available"] for a in model["actions"]} == {"archive": True, "refresh": True}
    assert model["state"] == {"count": {"value": {"notes": 120}, "description": "How many notes"}}
    # An unknown feedback kind is shown as info, whatever Object.prototype says.
    assert model["feedback"] == [{"kind": "info", "text": "A message of an unknown kind"}, {"kind": "success", "text": "Saved"}]
    assert model["problems"] == []
    bounded_and_still_serving(page)


def test_a_replaced_window_pling_does_not_change_what_was_declared(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_replaced.html")
    model = bounded_and_still_serving(page)
    assert model["page"]["id"] == "board"
    assert list(model["records"]) == ["card"] and model["records"]["card"]["ids"] == ["c1"]
    assert [a["id"] for a in model["actions"]] == ["add_card"]
    assert model["state"]["mode"]["value"] == "real"
    assert "ghost" not in json.dumps(model).lower()
    assert any("window.pling" in p and "replaced" in p for p in problems_of(model, "page"))


def test_a_frozen_window_pling_still_declares(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_frozen.html")
    model = bounded_and_still_serving(page)
    assert model["page"]["id"] == "house"
    assert model["records"]["room"]["ids"] == ["r1", "r2"]
    assert model["records"]["room"]["items"][0]["fields"] == {"lamps": 2}
    assert [a["id"] for a in model["actions"]] == ["lights_off"]
    assert model["state"]["overwrite"]["value"] == "refused"
    assert model["problems"] == []


def test_a_region_whose_more_throws_is_stated(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_more.html")
    model = bounded_and_still_serving(page)
    regions = {r["id"]: r for r in model["regions"]}
    assert list(regions) == ["broken", "huge", "normal", "done"]
    assert regions["broken"]["more"] is None
    assert problems_of(model, "region broken") == ["more() threw: Error: more exploded"]
    assert regions["normal"]["more"] == {"count": 3, "hint": "Scroll for more"}
    assert regions["done"]["more"] is None
    huge = regions["huge"]["more"]
    assert huge["count"] == 5 and huge["hint"].endswith("…(+49800 chars)") and huge["extra"][-1] == "…(+4980 items)"
    assert model["omitted"]["chars"] == 49800 and model["omitted"]["items"] == 4980


def test_malformed_declarations_are_refused_and_stated(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_malformed.html")
    model = bounded_and_still_serving(page)
    # Nothing threw at the page: every call answered a remover.
    attempts = model["state"]["attempts"]["value"]
    assert len(attempts) == 11 and all(a.endswith(":function") for a in attempts)
    assert [a["id"] for a in model["actions"]] == ["good"]
    assert model["records"] == {} and model["regions"] == [] and list(model["state"]) == ["attempts"]
    stated = [(p["where"], p["problem"]) for p in model["problems"]]
    assert ("action", 'an action needs an id: a non-empty string without "@"') in stated   # no id
    assert ("records orphan", "records need list(): a function returning the active set") in stated
    assert ("action inert", "an action needs run() or target()") in stated
    assert ("region", 'a region needs an id: a non-empty string without "@"') in stated
    assert ("state nothing", "state needs get(): a function returning the value") in stated
    assert ("flow empty_flow", "a flow needs steps: a non-empty array") in stated
    assert ("feedback", "feedback takes a function returning [{kind, text}]") in stated
    assert ("records", 'records need a type: a non-empty string without "@"') in stated       # null
    # no id, "bad@id" and 42: three refused actions
    assert stated.count(("action", 'an action needs an id: a non-empty string without "@"')) == 3


def test_sensitive_values_never_appear_in_any_model(pages: Pages) -> None:
    page = pages.open("pages/model/hostile_sensitive.html")
    reads = [json.dumps(page.first_model, ensure_ascii=False).encode()]
    for params in ({}, {"ids": "p2,p1"}, {"type": "person", "offset": 1, "limit": 1}, {"limit": 1000}):
        body, _ = raw_model(page, **params)
        reads.append(body)
    for body in reads:
        assert b"SECRET-" not in body and b"4111" not in body and b"4242" not in body and b"zzzz" not in body
    model = bounded_and_still_serving(page)
    for item in model["records"]["person"]["items"]:
        fields = item["fields"]
        for name in ("name", "card", "pin", "profile"):
            assert SECRET.match(fields[name]), (name, fields[name])
        assert fields["city"] in ("Lyon", "Oslo")
        # No label() is declared and `name` is sensitive: the default label must not use it.
        assert item["label"] is None
    assert SECRET.match(model["state"]["token"]["value"]) and SECRET.match(model["state"]["wallet"]["value"])
    assert model["state"]["city"]["value"] == "Lyon"
    # References are distinct per value and stable across reads.
    p1, p2 = (item["fields"] for item in model["records"]["person"]["items"])
    assert p1["card"] != p2["card"] and p1["card"] != p1["name"]
    assert page.model()["records"]["person"]["items"][0]["fields"]["card"] == p1["card"]
    assert model["problems"] == []
