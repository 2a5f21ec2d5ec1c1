"""The model as agent tools in OpenAI, Anthropic and MCP form, each checked against its format's
rules, and tool calls mapped back to actions."""

from __future__ import annotations

import re
from typing import Any

import httpx
from jsonschema import Draft202012Validator

from pling_browser.agents.tools import tool_name

from .conftest import Pages, problem

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
STRICT_KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
                   "description", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                   "multipleOf", "minItems", "maxItems", "$defs", "$ref", "title"}


def _check_openai_strict(schema: Any, path: str = "$") -> None:
    assert isinstance(schema, dict), path
    assert set(schema) <= STRICT_KEYWORDS, f"{path}: {set(schema) - STRICT_KEYWORDS}"
    if schema.get("type") == "object" or "properties" in schema:
        assert schema.get("additionalProperties") is False, path
        assert sorted(schema.get("required", [])) == sorted(schema.get("properties", {})), path
        for name, sub in schema.get("properties", {}).items():
            _check_openai_strict(sub, f"{path}.{name}")
    for sub in schema.get("anyOf", []):
        _check_openai_strict(sub, f"{path}|")
    if "items" in schema:
        _check_openai_strict(schema["items"], f"{path}[]")


def _tools(client: httpx.Client, sid: str, fmt: str) -> list[dict[str, Any]]:
    answer = client.get(f"/sessions/{sid}/tools", params={"format": fmt})
    assert answer.status_code == 200, answer.text
    return answer.json()["tools"]


def test_openai_tools_follow_strict_mode(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    tools = _tools(client, page.id, "openai")
    names = [t["function"]["name"] for t in tools]
    assert names.count("remove") == 1 and not any("@" in n for n in names)
    for tool in tools:
        assert tool["type"] == "function" and tool["function"]["strict"] is True
        assert NAME.match(tool["function"]["name"])
        parameters = tool["function"]["parameters"]
        assert parameters["type"] == "object" and "anyOf" not in parameters
        Draft202012Validator.check_schema(parameters)
        _check_openai_strict(parameters)
    remove = next(t["function"] for t in tools if t["function"]["name"] == "remove")
    assert remove["parameters"]["properties"]["record"]["enum"][:3] == ["t1", "t2", "t3"]
    add = next(t["function"] for t in tools if t["function"]["name"] == "add_todo")
    # Optional becomes nullable; what strict mode cannot say moves into the description.
    assert add["parameters"]["properties"]["due"]["type"] == ["string", "null"]
    assert "at least 1 characters" in add["description"] and "danger" in remove["description"]
    save = next(t["function"] for t in tools if t["function"]["name"] == "save_edit")
    assert "Unavailable now: No task is being edited" in save["description"]


def test_anthropic_tools(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    for tool in _tools(client, page.id, "anthropic"):
        assert set(tool) == {"name", "description", "input_schema"} and NAME.match(tool["name"])
        assert tool["input_schema"]["type"] == "object"
        Draft202012Validator.check_schema(tool["input_schema"])


def test_mcp_tools_validate_against_the_sdk(client: httpx.Client, pages: Pages) -> None:
    from mcp.types import Tool

    page = pages.open("demo/todos.html")
    raw = _tools(client, page.id, "mcp")
    tools = [Tool.model_validate(t) for t in raw]
    for original, tool in zip(raw, tools, strict=True):
        # Nothing outside the SDK's model: every key we send is one it knows.
        assert tool.model_dump(by_alias=True, exclude_none=True, mode="json") == original
        assert tool.input_schema["type"] == "object"
    by_name = {t.name: t for t in tools}
    assert by_name["set_filter"].annotations.read_only_hint is True
    assert by_name["remove"].annotations.destructive_hint is True
    assert by_name["add_todo"].annotations.read_only_hint is False


def test_a_long_record_list_is_a_described_string_and_names_are_sanitised(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("pages/tools/many.html")
    tools = {t["function"]["name"]: t["function"] for t in _tools(client, page.id, "openai")}
    record = tools["flag"]["parameters"]["properties"]["record"]
    assert "enum" not in record and "120 ids" in record["description"]
    # "count.flagged" is not a valid tool name: mangled, with a hash of the id so that it cannot be
    # confused with an action spelled "count_flagged" (see agents/tools.py).
    name = tool_name("count.flagged")
    assert name in tools and name.startswith("count_flagged_")
    answer = client.post(f"/sessions/{page.id}/tools/{name}", json={"arguments": {}})
    assert answer.json()["result"]["data"] == 0


def test_tool_calls_map_record_back_to_the_family(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("pages/tools/many.html")
    answer = client.post(f"/sessions/{page.id}/tools/flag", json={"arguments": {"record": "row-77", "note": None}})
    receipt = answer.json()["result"]
    assert receipt["ok"] is True and receipt["action"]["id"] == "flag@row-77"
    assert receipt["data"] == {"note": ""}  # null meant "left out": the declared default applied
    assert receipt["changed"]["records"]["row"]["updated"] == [{"id": "row-77", "changes": {"flagged": {"from": False, "to": True}}}]
    missing = client.post(f"/sessions/{page.id}/tools/nope", json={"arguments": {}})
    assert missing.status_code == 404 and problem(missing)["code"] == "TOOL_NOT_FOUND"
    unknown_record = client.post(f"/sessions/{page.id}/tools/flag", json={"arguments": {"record": "row-999"}})
    assert unknown_record.json()["result"]["error"]["code"] == "ACTION_NOT_FOUND"


def test_tool_arguments_may_be_the_json_text_a_model_returns(client: httpx.Client, pages: Pages) -> None:
    """OpenAI answers a function call's arguments as JSON text: it is taken as invoke takes `args`, and text
    that is not a JSON object is an INVALID_ARGS receipt (nothing resolved, nothing ran), not a 400."""
    page = pages.open("pages/tools/many.html")
    as_text = client.post(f"/sessions/{page.id}/tools/flag", json={"arguments": '{"record": "row-7", "note": "from text"}'})
    receipt = as_text.json()["result"]
    assert as_text.status_code == 200 and receipt["ok"] is True and receipt["action"]["id"] == "flag@row-7"
    assert receipt["data"] == {"note": "from text"}
    for text, words in (('{"record": "row-8", ', "not valid JSON"), ('["row-8"]', "must be a JSON object"),
                        ('{"record": "row-8", "note": NaN}', "NaN is not a JSON number")):
        answer = client.post(f"/sessions/{page.id}/tools/flag", json={"arguments": text})
        refused = answer.json()["result"]
        assert answer.status_code == 200 and refused["ok"] is False, answer.text
        assert refused["error"]["code"] == "INVALID_ARGS" and refused["error"]["stage"] == "decode"
        assert refused["error"]["started"] is False and words in refused["error"]["message"]
        assert refused["action"]["id"] == "flag"  # the record was inside the text: the family is named
    flagged = page.model(type="row", ids="row-8")["records"]["row"]["items"][0]["fields"]["flagged"]
    assert flagged is False  # nothing ran
    wrong_type = client.post(f"/sessions/{page.id}/tools/flag", json={"arguments": 5})
    assert wrong_type.status_code == 400 and problem(wrong_type)["code"] == "BAD_REQUEST"
