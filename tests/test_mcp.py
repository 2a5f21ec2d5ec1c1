"""The MCP server, driven by the official SDK's own client against the running service."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from . import patient
from .conftest import ServiceThread, problem
from .server import FixtureServer


def _run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_mcp_client_opens_reads_and_invokes(service: ServiceThread, fixtures: FixtureServer, client: httpx.Client) -> None:
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            names = {tool.name for tool in (await mcp.list_tools()).tools}
            assert {"open_page", "read_model", "invoke", "resume", "close_page"} <= names
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("demo/todos.html")})
            assert not opened.is_error, opened
            sid = opened.structured_content["session"]["id"]
            model = (await mcp.call_tool("read_model", {"session": sid, "limit": 2})).structured_content
            receipt = (await mcp.call_tool("invoke", {"session": sid, "action": "toggle@t4"})).structured_content
            bad = (await mcp.call_tool("invoke", {"session": sid, "action": "nope"})).structured_content
            return {"sid": sid, "model": model, "receipt": receipt, "bad": bad}

    out = _run(conversation())
    assert out["model"]["page"]["id"] == "todos" and len(out["model"]["records"]["task"]["items"]) == 2
    assert out["receipt"]["ok"] is True
    assert out["receipt"]["changed"]["records"]["task"]["updated"][0]["id"] == "t4"
    assert out["bad"]["ok"] is False and out["bad"]["error"]["code"] == "ACTION_NOT_FOUND"
    # The same session is visible through the REST API.
    info = client.get(f"/sessions/{out['sid']}")
    assert info.status_code == 200 and info.json()["invocations"] == 2
    client.delete(f"/sessions/{out['sid']}")


def test_mcp_rejects_a_foreign_host_header(service: ServiceThread) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    answer = patient.post(f"{service.url}/mcp", json=body, headers={"Host": "evil.example:80",
                                                                 "Accept": "application/json, text/event-stream"})
    assert answer.status_code == 403 and problem(answer)["code"] == "FORBIDDEN"


# ---- typed results, errors as problems, page tools and list_changed (issue 18) -----------------------


def test_a_failure_is_a_tool_error_carrying_the_rest_problem(service: ServiceThread, fixtures: FixtureServer,
                                                            client: httpx.Client, caplog: Any) -> None:
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            return {"missing": await mcp.call_tool("read_model", {"session": "s_nope"}),
                    "bad_args": await mcp.call_tool("read_model", {"session": "s_nope", "limit": 5000}),
                    "unknown": await mcp.call_tool("no_such_tool", {}),
                    "refused": await mcp.call_tool("open_page", {"url": "file:///etc/passwd"})}

    with caplog.at_level("INFO"):
        out = _run(conversation())
    rest = problem(client.get("/sessions/s_nope/model"))
    for name, code in [("missing", "SESSION_NOT_FOUND"), ("bad_args", "BAD_REQUEST"), ("unknown", "TOOL_NOT_FOUND"),
                       ("refused", "URL_REFUSED")]:
        result = out[name]
        assert result.is_error is True, name
        details = json.loads(result.content[0].text)  # the text is the problem details themselves
        assert details["code"] == code and details["detail"] and "hint" in details, details
        assert details["type"] == f"/errors#{code}" and details["title"] and details["status"] >= 400, details
    assert json.loads(out["missing"].content[0].text) == rest  # the same problem REST answers
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]


def test_output_schemas_validate_structured_content_and_text_is_compact(service: ServiceThread, fixtures: FixtureServer) -> None:
    from jsonschema import Draft202012Validator
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            schemas = {t.name: t.output_schema for t in (await mcp.list_tools()).tools}
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("demo/todos.html")})
            sid = opened.structured_content["session"]["id"]
            results = {"open_page": opened,
                       "read_model": await mcp.call_tool("read_model", {"session": sid, "type": "task", "offset": 1, "limit": 1}),
                       "invoke": await mcp.call_tool("invoke", {"session": sid, "action": "toggle@t4"}),
                       "close_page": await mcp.call_tool("close_page", {"session": sid})}
            return {"schemas": schemas, "results": results}

    out = _run(conversation())
    for name, result in out["results"].items():
        schema = out["schemas"][name]
        assert schema and schema.get("type") == "object" and schema.get("properties"), name  # typed, not an open object
        Draft202012Validator.check_schema(schema)
        Draft202012Validator(schema).validate(result.structured_content)
        text = result.content[0].text
        assert json.loads(text) == result.structured_content and "\n" not in text and ", " not in text[:200], name
    assert set(out["schemas"]["invoke"]["properties"]) >= {"ok", "action", "changed", "error"}
    model = out["results"]["read_model"].structured_content
    assert [item["id"] for item in model["records"]["task"]["items"]] == ["t2"]  # REST's window parameters


def test_page_actions_are_tools_and_list_changed_follows_the_model(service: ServiceThread, fixtures: FixtureServer) -> None:
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("demo/todos.html")})
            sid = opened.structured_content["session"]["id"]
            listed = {t.name: t for t in (await mcp.list_tools()).tools}
            mine = {name: tool for name, tool in listed.items() if sid in (tool.description or "")}
            tag = next(iter(mine)).split("_", 1)[0]
            async with mcp.listen(tools_list_changed=True) as subscription:
                added = await mcp.call_tool(f"{tag}_add_todo", {"text": "Call the MCP client"})
                event = await asyncio.wait_for(subscription.__anext__(), 30)
            after = {t.name: t for t in (await mcp.list_tools()).tools}
            removed = await mcp.call_tool(f"{tag}_remove", {"record": "t1"})
            await mcp.call_tool("close_page", {"session": sid})
            gone = {t.name for t in (await mcp.list_tools()).tools}
            return {"tag": tag, "mine": mine, "added": added, "event": event, "after": after, "removed": removed,
                    "gone": gone}

    out = _run(conversation())
    tag, mine = out["tag"], out["mine"]
    assert {f"{tag}_add_todo", f"{tag}_remove", f"{tag}_toggle", f"{tag}_set_filter"} <= set(mine)
    remove, add, read = mine[f"{tag}_remove"], mine[f"{tag}_add_todo"], mine[f"{tag}_set_filter"]
    assert remove.annotations.destructive_hint is True and remove.annotations.read_only_hint is False
    assert add.annotations.destructive_hint is None and add.annotations.open_world_hint is None  # no claim
    assert read.annotations.read_only_hint is True
    assert remove.input_schema["properties"]["record"]["enum"][:2] == ["t1", "t2"]
    assert out["added"].is_error is False and out["added"].structured_content["ok"] is True
    assert type(out["event"]).__name__ == "ToolsListChanged"
    new_id = out["added"].structured_content["changed"]["records"]["task"]["added"][0]
    assert new_id in out["after"][f"{tag}_remove"].input_schema["properties"]["record"]["enum"]
    assert out["removed"].structured_content["action"]["id"] == "remove@t1"  # `record` maps back to the family
    assert not any(name.startswith(tag + "_") for name in out["gone"])


def test_a_handshake_era_client_gets_list_changed_on_its_stream(service: ServiceThread, fixtures: FixtureServer,
                                                               client: httpx.Client) -> None:
    from mcp import Client, types

    seen: list[Any] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            seen.append(message)

    async def conversation() -> str:
        async with Client(f"{service.url}/mcp", mode="legacy", message_handler=on_message) as mcp:
            await mcp.list_tools()
            # A page opened through REST gets tools here too; the model change is announced.
            sid = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).json()["session"]["id"]
            for _ in range(300):
                if seen:
                    break
                await asyncio.sleep(0.1)
            assert seen, "no notifications/tools/list_changed after a session opened"
            names = [t.name for t in (await mcp.list_tools()).tools]
            assert any(n.endswith("_add_todo") for n in names)
            client.delete(f"/sessions/{sid}")
            return sid

    _run(conversation())


# ---- what clients nobody here wrote expect (issue 30) -------------------------------------------------


def test_list_changed_is_advertised_on_every_protocol_version(service: ServiceThread) -> None:
    from mcp import Client

    async def capabilities(mode: str) -> Any:
        options = {"mode": "legacy"} if mode == "legacy" else {}
        async with Client(f"{service.url}/mcp", **options) as mcp:
            return mcp.protocol_version, mcp.server_capabilities

    for mode in ("legacy", "modern"):
        version, caps = _run(capabilities(mode))
        assert caps.tools is not None and caps.tools.list_changed is True, (mode, version, caps)
    assert _run(capabilities("legacy"))[0] != _run(capabilities("modern"))[0]  # two protocol eras, really


def test_a_failed_receipt_is_an_error_result_that_keeps_the_receipt(service: ServiceThread, fixtures: FixtureServer) -> None:
    from mcp import Client

    async def conversation() -> dict[str, Any]:
        async with Client(f"{service.url}/mcp") as mcp:
            sid = (await mcp.call_tool("open_page", {"url": fixtures.url("demo/todos.html")})).structured_content["session"]["id"]
            tag = next(t.name for t in (await mcp.list_tools()).tools if sid in (t.description or "")).split("_", 1)[0]
            out = {"unknown": await mcp.call_tool("invoke", {"session": sid, "action": "nope"}),
                   "invalid": await mcp.call_tool(f"{tag}_add_todo", {"text": ""}),
                   "fine": await mcp.call_tool(f"{tag}_toggle", {"record": "t2"})}
            await mcp.call_tool("close_page", {"session": sid})
            return out

    out = _run(conversation())
    for name, code in (("unknown", "ACTION_NOT_FOUND"), ("invalid", "INVALID_PARAMS")):
        result = out[name]
        assert result.is_error is True, name  # frameworks that read only isError see a failure
        receipt = result.structured_content
        assert receipt["ok"] is False and receipt["error"]["code"] == code and receipt["error"]["started"] is False
        text = json.loads(result.content[0].text)  # the same code, message and hint as REST's receipt
        assert text["error"]["code"] == code and text["error"]["message"] and text["error"]["hint"], text
    assert out["fine"].is_error is False and out["fine"].structured_content["ok"] is True


class _RawMCP:
    """A handshake-era JSON-RPC conversation over plain HTTP: what a client that does not validate its
    own requests sends (the SDKs refuse to send `arguments` as text)."""

    def __init__(self, url: str) -> None:
        self.url, self.http, self.sid, self.n = url, httpx.Client(timeout=60), "", 0

    def ask(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.n += 1
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        if self.sid:
            headers.update({"mcp-session-id": self.sid, "mcp-protocol-version": "2025-06-18"})
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
        if not method.startswith("notifications/"):
            body["id"] = self.n
        answer = self.http.post(self.url, json=body, headers=headers)
        self.sid = self.sid or answer.headers.get("mcp-session-id", "")
        data = [line[5:] for line in answer.text.splitlines() if line.startswith("data:")]
        return json.loads(data[-1]) if data else {}

    def __enter__(self) -> _RawMCP:
        self.ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}})
        self.ask("notifications/initialized")
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.close()


def test_tool_arguments_may_be_json_text_over_mcp(service: ServiceThread, fixtures: FixtureServer, client: httpx.Client) -> None:
    sid = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).json()["session"]["id"]
    try:
        with _RawMCP(f"{service.url}/mcp") as mcp:
            tag = next(t["name"] for t in mcp.ask("tools/list")["result"]["tools"] if sid in t.get("description", "")).split("_", 1)[0]

            def call(name: str, arguments: Any) -> dict[str, Any]:
                return mcp.ask("tools/call", {"name": name, "arguments": arguments})["result"]

            added = call(f"{tag}_add_todo", '{"text": "Sent as text"}')
            toggled = call(f"{tag}_toggle", '{"record": "t2"}')
            broken = call(f"{tag}_add_todo", '{"text": ')
            listed = call(f"{tag}_add_todo", '["not", "an", "object"]')
            model = call("read_model", json.dumps({"session": sid, "limit": 0}))
            bad = call("read_model", "{nope")
        logged = [entry["receipt"]["error"]["code"] for entry in client.get(f"/sessions/{sid}/receipts").json()["receipts"]
                  if not entry["receipt"]["ok"]]
    finally:
        client.delete(f"/sessions/{sid}")
    assert added["isError"] is False and added["structuredContent"]["ok"] is True
    assert added["structuredContent"]["changed"]["records"]["task"]["added"] == ["t15"]
    assert toggled["structuredContent"]["action"]["id"] == "toggle@t2"  # the record maps back from text too
    for refused in (broken, listed):
        receipt = refused["structuredContent"]
        assert refused["isError"] is True and receipt["error"]["code"] == "INVALID_ARGS", receipt
        assert receipt["error"]["stage"] == "decode" and receipt["error"]["started"] is False
        assert receipt["action"]["id"] == "add_todo"
    assert model["isError"] is False and model["structuredContent"]["page"]["id"] == "todos"
    assert bad["isError"] is True and json.loads(bad["content"][0]["text"])["code"] == "BAD_REQUEST"
    assert logged == ["INVALID_ARGS", "INVALID_ARGS"]  # refused calls are in the receipt log, as invokes are
