"""The brief model (issue 31): `detail: "brief"` on POST /sessions, GET …/model and MCP's open_page and
read_model answers ids, labels (and fields), actions with their params and availability, state values
and feedback, and leaves out exactly what docs/model.md says: descriptions and titles, regions (but those
with more to show), per-item regions, empty lists and zero counts, frames read, adapters. The whole model
is unchanged, and its default. On a real page in Chromium (fixtures/pages/model/brief.html)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from pling_browser.brief import BriefModel
from pling_browser.models import PageModel

from .conftest import Pages, ServiceThread, problem
from .server import FixtureServer

PAGE = "pages/model/brief.html"
WHOLE_KEYS = {"tab", "page", "regions", "actions", "records", "state", "feedback", "omitted", "problems", "frames"}


def _compact(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def test_brief_leaves_out_what_it_says_and_keeps_the_rest(pages: Pages) -> None:
    whole = pages.open(PAGE)
    brief = pages.open(PAGE, detail="brief")
    full, short = whole.first_model, brief.first_model
    assert set(full) == WHOLE_KEYS and "detail" not in full  # the whole model is the default, unchanged
    assert whole.model(detail="full") == whole.model() == full

    assert short["detail"] == "brief" and short["tab"] == "t1"
    assert short["page"] == {"id": "brief", "url": full["page"]["url"], "title": "Brief"}  # no name, no adapter
    # Regions: only the one whose more() says something is not shown, with what it says.
    assert short["regions"] == [{"id": "list", "more": {"count": 40, "hint": "Scroll for older tasks"}}]
    # Every action (unavailable ones too), with params, and only what differs from the common case.
    assert short["actions"] == [
        {"id": "remove", "record": "task", "risk": "danger"},
        {"id": "add", "params": {"type": "object", "properties": {"text": {"type": "string", "minLength": 1}},
                                 "required": ["text"]}},
        {"id": "checkout", "confirm": True, "available": False, "reason": "The cart is empty"},
        {"id": "count", "risk": "read"},
        {"id": "add_twice", "kind": "flow", "params": {"type": "object", "properties": {"text": {"type": "string"}},
                                                       "required": ["text"]}},
    ]
    assert [a["id"] for a in full["actions"]] == [a["id"] for a in short["actions"]]
    tasks, tags = short["records"]["task"], short["records"]["tag"]
    # 60 tasks in a window of 50: every id, as in the whole model, and what the window left out.
    assert tasks["total"] == 60 and tasks["ids"] == full["records"]["task"]["ids"] and len(tasks["ids"]) == 60
    assert tasks["omitted"] == {"ids": 0, "items": 10}
    assert tasks["items"][:3] == [{"id": "t1", "label": "Task 1", "fields": {"done": True}},
                                  {"id": "t2", "label": "Task 2", "fields": {"done": False},
                                   "unavailable": {"remove": "Task 2 is locked"}},
                                  {"id": "t3", "label": "Task 3", "fields": {"done": False}}]
    assert [(i["id"], i["label"], i.get("fields")) for i in tasks["items"]] == [
        (i["id"], i["label"], i["fields"]) for i in full["records"]["task"]["items"]]
    # All tags are items: no id list, no omitted counts, no empty fields.
    assert tags == {"total": 2, "items": [{"id": "home", "label": "Home"}, {"id": "work", "label": "Work"}]}
    assert short["state"] == {"open": 45, "filter": "all"}
    assert {k: v["value"] for k, v in full["state"].items()} == short["state"]
    assert short["feedback"] == full["feedback"] == [{"kind": "info", "text": "Welcome back"}]
    assert "omitted" not in short and "problems" not in short and "frames" not in short  # nothing cut, no problem
    assert _compact(short) < _compact(full)

    # A model read says the same as the open did, and takes the same windows.
    assert brief.model(detail="brief") == short
    window = brief.model(detail="brief", type="task", offset=55, limit=10)
    assert [i["id"] for i in window["records"]["task"]["items"]] == ["t56", "t57", "t58", "t59", "t60"]
    assert window["records"]["task"]["offset"] == 55


def test_brief_keeps_counts_of_what_bounding_cut(pages: Pages) -> None:
    """Invariant 5 in the brief model: what the whole model counts as cut is counted there too."""
    page = pages.open("pages/model/big_values.html")
    full, short = page.model(), page.model(detail="brief")
    cut = {key: value for key, value in full["omitted"].items() if value}
    assert cut and short["omitted"] == cut
    assert short.get("problems") == (full["problems"] or None)


def test_an_unknown_detail_is_refused(pages: Pages, client: httpx.Client, fixtures: FixtureServer) -> None:
    answer = client.post("/sessions", json={"url": fixtures.url(PAGE), "detail": "short"})
    assert answer.status_code == 400 and problem(answer)["code"] == "BAD_REQUEST", answer.text
    assert "detail" in answer.text
    page = pages.open(PAGE)
    answer = client.get(f"/sessions/{page.id}/model", params={"detail": "tiny"})
    assert answer.status_code == 400 and problem(answer)["code"] == "BAD_REQUEST", answer.text


def test_mcp_open_page_and_read_model_answer_the_brief_model(service: ServiceThread, fixtures: FixtureServer,
                                                              client: httpx.Client) -> None:
    from jsonschema import Draft202012Validator
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            schemas = {t.name: t.output_schema for t in (await mcp.list_tools()).tools}
            opened = (await mcp.call_tool("open_page", {"url": fixtures.url(PAGE), "detail": "brief"})).structured_content
            sid = opened["session"]["id"]
            read = (await mcp.call_tool("read_model", {"session": sid, "detail": "brief"})).structured_content
            whole = (await mcp.call_tool("read_model", {"session": sid})).structured_content
            await mcp.call_tool("close_page", {"session": sid})
            return {"schemas": schemas, "opened": opened, "read": read, "whole": whole}

    out = asyncio.run(asyncio.wait_for(conversation(), 60))
    assert out["opened"]["model"] == out["read"] and out["read"]["detail"] == "brief"
    assert out["read"]["actions"][0] == {"id": "remove", "record": "task", "risk": "danger"}
    assert set(out["whole"]) == WHOLE_KEYS
    for name, value in (("open_page", out["opened"]), ("read_model", out["read"]), ("read_model", out["whole"])):
        Draft202012Validator(out["schemas"][name]).validate(value)


def test_a_restored_value_that_is_a_word_of_the_model_leaves_the_brief_model_answered(pages: Pages) -> None:
    # brief_literal.html's sensitive code is "read"; handed back, it is masked wherever the session
    # writes it, the actions' risk included: the brief model is still answered, as the whole one is.
    page = pages.open("pages/model/brief_literal.html")
    ref = page.model()["records"]["token"]["items"][0]["fields"]["code"]
    assert ref.startswith("<secret>"), ref
    used = page.invoke("use", {"value": ref})
    assert used["ok"] is True, used
    whole = page.client.get(f"/sessions/{page.id}/model")
    assert whole.status_code == 200, whole.text
    brief = page.client.get(f"/sessions/{page.id}/model", params={"detail": "brief"})
    assert brief.status_code == 200, brief.text
    assert [a["id"] for a in brief.json()["actions"]] == ["use", "peek"], brief.json()
    # Both still fit their schemas: the masked word is the model's own ("read", peek's risk).
    assert PageModel.model_validate(whole.json()).actions[1].risk == "read"
    assert BriefModel.model_validate(brief.json()).actions[1].risk == "read"
