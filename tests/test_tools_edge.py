"""Every tool of a page of edge-case params, checked with the real libraries that consume them
(openai-agents' strict check, the openai and anthropic packages' types, mcp `types.Tool`, jsonschema),
then called with arguments a strict model would send."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter

from pling_browser.agents.tools import tool_name, tool_names

from .conftest import Pages, PageSession

EDGE = "pages/tools/edge.html"
LONG = "x" * 70


def _tools(client: httpx.Client, sid: str, fmt: str) -> dict[str, Any]:
    answer = client.get(f"/sessions/{sid}/tools", params={"format": fmt})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture()
def edge(pages: Pages) -> PageSession:
    return pages.open(EDGE)


# ---- arguments a strict model would send -----------------------------------------------------------


SAMPLES = {"date-time": "2024-05-01T10:00:00Z", "date": "2024-05-01", "time": "10:00:00Z", "duration": "P1DT2H",
           "email": "ada@example.test", "hostname": "example.test", "uri": "https://example.test/x",
           "ipv4": "127.0.0.1", "uuid": "7e57d004-2b97-0e7a-b45f-5387367791cd"}


def _deref(root: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        target: Any = root
        for part in schema["$ref"][2:].split("/"):
            target = target[part]
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


# What a strict model reads in a description ("format uri") where strict mode has no keyword for it.
DESCRIBED = {"site": "https://example.test/x"}


def sample(root: dict[str, Any], schema: dict[str, Any], nulls: bool, name: str = "") -> Any:
    """A value for `schema`: with `nulls`, null wherever strict mode allows it; without, a value
    wherever one can be given, nested optional fields of those values still null."""
    schema = _deref(root, schema)
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    enum = [v for v in schema.get("enum", []) if v is not None]
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    nullable = "null" in kinds or None in schema.get("enum", [None]) and "enum" in schema or \
        any(b.get("type") == "null" for b in schema.get("anyOf", []))
    if nullable and nulls:
        return None
    if "const" in schema:
        return schema["const"]
    if enum:
        return enum[0]
    if branches:
        return sample(root, branches[0], nulls)
    kind = next((k for k in kinds if k not in (None, "null")), None)
    if kind == "object":
        if isinstance(schema.get("additionalProperties"), dict) and not schema.get("properties"):
            return {"k": sample(root, schema["additionalProperties"], nulls)}
        return {key: sample(root, sub, nulls or key not in schema.get("required", []) and kind != "object", key)
                for key, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [sample(root, schema["items"], nulls) for _ in range(max(1, schema.get("minItems", 1)))]
    if kind == "string":
        if "pattern" in schema:
            return "12345" if "0-9]{5}" in schema["pattern"] else "+44 20"
        return SAMPLES.get(schema.get("format", ""), DESCRIBED.get(name, "text"))
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return True
    return None


def _is_nullable_top(prop: dict[str, Any]) -> bool:
    return "null" in (prop.get("type") or []) or None in prop.get("enum", [0]) or \
        any(b.get("type") == "null" for b in prop.get("anyOf", []))


# ---- the checks --------------------------------------------------------------------------------------


def test_every_openai_tool_passes_the_real_libraries(client: httpx.Client, edge: PageSession) -> None:
    from agents.strict_schema import ensure_strict_json_schema
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam
    from openai.types.shared_params import FunctionDefinition

    chat = _tools(client, edge.id, "openai")["tools"]
    responses = _tools(client, edge.id, "openai-responses")["tools"]
    assert [t["function"]["name"] for t in chat] == [t["name"] for t in responses]
    for chat_tool, tool in zip(chat, responses, strict=True):
        # The shapes the openai package declares, and nothing else.
        TypeAdapter(ChatCompletionFunctionToolParam).validate_python(chat_tool)
        assert set(chat_tool["function"]) <= set(FunctionDefinition.__annotations__)
        TypeAdapter(FunctionToolParam).validate_python(tool)
        assert set(tool) <= set(FunctionToolParam.__annotations__)
        assert {k: v for k, v in tool.items() if k != "type"} == chat_tool["function"]
        parameters = tool["parameters"]
        Draft202012Validator.check_schema(parameters)
        if tool["strict"]:
            # openai-agents' own strict conversion finds nothing left to change.
            assert ensure_strict_json_schema(copy.deepcopy(parameters)) == parameters, tool["name"]
    by_name = {t["name"]: t for t in responses}
    assert by_name["labels"]["strict"] is False and "map" in by_name["labels"]["description"]
    assert sum(1 for t in responses if not t["strict"]) == 1


def test_strict_conversion_of_each_edge_case(client: httpx.Client, edge: PageSession) -> None:
    tools = {t["name"]: t for t in _tools(client, edge.id, "openai-responses")["tools"]}
    size = tools["opt_enum"]["parameters"]["properties"]["size"]
    assert size["type"] == ["string", "null"] and size["enum"] == ["s", "m", "l", None]
    assert tools["opt_enum"]["parameters"]["properties"]["color"]["enum"] == ["red", "green", None]
    address = tools["nested"]["parameters"]["properties"]["address"]
    assert address["type"] == ["object", "null"] and address["properties"]["zip"]["type"] == ["string", "null"]
    assert address["properties"]["street"]["type"] == "string" and address["additionalProperties"] is False
    defs = tools["defs"]["parameters"]
    assert defs["$defs"]["point"]["properties"]["label"]["type"] == ["string", "null"]
    assert defs["properties"]["from"] == {"$ref": "#/$defs/point"}
    # A reference with a sibling is inlined (strict mode takes `$ref` alone), then made nullable.
    to = defs["properties"]["to"]
    assert to["type"] == ["object", "null"] and to["description"] == "Where it ends" and to["required"] == ["x", "y", "label"]
    assert defs["properties"]["via"] == {"type": ["array", "null"], "items": {"$ref": "#/$defs/point"}}
    contact = tools["one_of"]["parameters"]["properties"]["contact"]
    assert [sorted(b["properties"]) for b in contact["anyOf"]] == [["email"], ["phone"]]
    assert "exactly one of" in tools["one_of"]["description"]
    tag = tools["tag"]["parameters"]
    assert tag["properties"]["record_id"]["enum"] == ["i1", "i2"] and "record" in tag["properties"]
    assert tag["properties"]["record"]["type"] == "string"


def test_names_are_unique_stable_and_map_back(client: httpx.Client, edge: PageSession) -> None:
    listing = _tools(client, edge.id, "openai-responses")
    names = [t["name"] for t in listing["tools"]]
    assert len(names) == len(set(names)) and all(len(n) <= 64 for n in names)
    assert "cart_add" in names and tool_name("cart.add") in names and tool_name("cart.add") != "cart_add"
    assert tool_name("cart.add").startswith("cart_add_") and tool_name("cart.add") == tool_name("cart.add")
    assert tool_name(LONG + ".one") != tool_name(LONG + ".two")
    assert listing["names"][tool_name("cart.add")] == {"action": "cart.add", "record_param": None}
    assert listing["names"]["tag"] == {"action": "tag", "record_param": "record_id"}
    # Calling each runs its own action.
    for action in ("cart.add", "cart_add"):
        answer = client.post(f"/sessions/{edge.id}/tools/{tool_name(action)}", json={"arguments": {"sku": "A1"}})
        assert answer.json()["result"]["data"]["ran"] == action
    # A valid id spelled like another's mangled name does not take it away.
    clash = tool_names(["cart.add", tool_name("cart.add")])
    assert len(clash) == 2 and set(clash.values()) == {"cart.add", tool_name("cart.add")}


def test_anthropic_and_mcp_shapes(client: httpx.Client, edge: PageSession) -> None:
    from anthropic.types import ToolParam
    from mcp.types import Tool

    for tool in _tools(client, edge.id, "anthropic")["tools"]:
        TypeAdapter(ToolParam).validate_python(tool)
        assert set(tool) <= set(ToolParam.__annotations__)
        Draft202012Validator.check_schema(tool["input_schema"])
    for raw in _tools(client, edge.id, "mcp")["tools"]:
        tool = Tool.model_validate(raw)
        assert tool.model_dump(by_alias=True, exclude_none=True, mode="json") == raw
        Draft202012Validator.check_schema(tool.input_schema)
        hints = raw["annotations"]
        assert "openWorldHint" not in hints
        assert hints.get("destructiveHint") is (True if raw["name"] == "wipe" else None)
        assert hints["readOnlyHint"] is (raw["name"] == "peek")


@pytest.mark.parametrize("nulls", [True, False], ids=["nulls-wherever-allowed", "values-with-nested-nulls"])
def test_every_tool_runs_with_strict_valid_arguments(client: httpx.Client, edge: PageSession, nulls: bool) -> None:
    tools = _tools(client, edge.id, "openai-responses")["tools"]
    for tool in tools:
        parameters = tool["parameters"]
        args = sample(parameters, parameters, nulls=False)
        if nulls:
            args = {k: (None if _is_nullable_top(p) else args[k]) for k, p in parameters["properties"].items()}
        if tool["strict"]:
            Draft202012Validator(parameters).validate(args)  # what a strict model may send
        answer = client.post(f"/sessions/{edge.id}/tools/{tool['name']}", json={"arguments": args})
        assert answer.status_code == 200, (tool["name"], answer.text)
        receipt = answer.json()["result"]
        if tool["name"] == "wipe":  # danger: the arguments passed, and no person confirmed
            assert receipt["error"]["code"] == "PERMISSION_DENIED"
            continue
        assert receipt["ok"] is True, (tool["name"], args, receipt.get("error"))


def test_nulls_are_dropped_at_every_depth_and_kept_where_declared(client: httpx.Client, edge: PageSession) -> None:
    def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return client.post(f"/sessions/{edge.id}/tools/{name}", json={"arguments": args}).json()["result"]

    nested = call("nested", {"name": "Ada", "address": {"street": "Main", "zip": None}})
    assert nested["ok"] is True and nested["data"]["args"] == {"name": "Ada", "address": {"street": "Main"}}
    pairs = call("pairs", {"pairs": [{"k": "a", "v": None}, {"k": "b", "v": "c"}]})
    assert pairs["data"]["args"] == {"pairs": [{"k": "a"}, {"k": "b", "v": "c"}]}
    defs = call("defs", {"from": {"x": 1, "y": 2, "label": None}, "to": None, "via": None})
    assert defs["data"]["args"] == {"from": {"x": 1, "y": 2}}
    one_of = call("one_of", {"contact": {"phone": "+44 20"}, "amount": None})
    assert one_of["ok"] is True and one_of["data"]["args"] == {"contact": {"phone": "+44 20"}}
    kept = call("nullable", {"comment": None})
    assert kept["data"]["args"] == {"comment": None}
    tag = call("tag", {"record_id": "i2", "record": "own", "note": None})
    assert tag["action"]["id"] == "tag@i2" and tag["data"]["args"] == {"record": "own"} and tag["data"]["id"] == "i2"
    bad_zip = call("nested", {"name": "Ada", "address": {"street": "Main", "zip": "abc"}})
    assert bad_zip["error"]["code"] == "INVALID_PARAMS"


def test_declared_formats_are_checked(client: httpx.Client, edge: PageSession) -> None:
    def issues(args: dict[str, Any]) -> dict[str, str]:
        receipt = client.post(f"/sessions/{edge.id}/invoke", json={"action": "schedule", "args": args}).json()["result"]
        assert receipt["ok"] is False and receipt["error"]["code"] == "INVALID_PARAMS", receipt
        return {issue["path"]: issue["problem"] for issue in receipt["error"]["issues"]}

    assert issues({"when": "yesterday"}) == {"when": "must be a valid date-time"}
    assert issues({"when": "2024-05-01T10:00:00Z", "site": "not a uri", "host": "-bad-", "every": "1 day"}) == {
        "site": "must be a valid uri", "host": "must be a valid hostname", "every": "must be a valid duration"}
    good = {"when": "2024-05-01T10:00:00+02:00", "site": "https://example.test/a?b=c", "host": "example.test", "every": "PT5M"}
    assert client.post(f"/sessions/{edge.id}/invoke", json={"action": "schedule", "args": good}).json()["result"]["ok"]


def test_a_missing_field_with_a_quote_in_its_name_is_named_whole(client: httpx.Client, edge: PageSession) -> None:
    receipt = client.post(f"/sessions/{edge.id}/invoke", json={"action": "quoted", "args": {}}).json()["result"]
    assert receipt["error"]["issues"] == [{"path": "it's", "problem": "is required"}]
