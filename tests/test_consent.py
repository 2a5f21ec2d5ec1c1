"""Issue 27: consent that holds, with the three callers of a PLING_TOKENS file (agents, a person, an
operator) against a real service and a real Chromium. fixtures/pages/security/consent.html keeps a
ledger (`ran`) of every write path that ran, so each test sees exactly what an approval let through."""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from pling_browser.lifecycle import LogEvent

from . import patient
from .conftest import ServiceThread, coded, problem, serving
from .server import FixtureServer

BOT = "bot-agent-token-0123456789"
BOT2 = "bot2-agent-token-0123456789"
LIMITED = "limited-agent-token-0123456789"
ADA = "ada-person-token-0123456789"
OPS = "ops-operator-token-0123456789"
PAGE = "pages/security/consent.html"


@pytest.fixture(scope="module")
def consent(tmp_path_factory: pytest.TempPathFactory, fixtures: FixtureServer) -> Iterator[ServiceThread]:
    tokens = tmp_path_factory.mktemp("tokens") / "tokens.toml"
    port = fixtures.url("").split(":")[2].split("/")[0]
    tokens.write_text(
        f'[[caller]]\nname = "bot"\nrole = "agent"\ntoken_sha256 = "{hashlib.sha256(BOT.encode()).hexdigest()}"\n\n'
        f'[[caller]]\nname = "bot2"\nrole = "agent"\ntoken = "{BOT2}"\n\n'
        f'[[caller]]\nname = "limited"\nrole = "agent"\ntoken = "{LIMITED}"\nrisks = ["read", "write"]\n'
        f'actions = ["look", "note", "transfer", "wipe"]\nhosts = ["127.0.0.1:{port}"]\n\n'
        f'[[caller]]\nname = "ada"\nrole = "person"\ntoken = "{ADA}"\n\n'
        f'[[caller]]\nname = "ops"\nrole = "operator"\ntoken = "{OPS}"\n')
    with serving(tokens_file=str(tokens), approve=("wipe",), ask=("tag",), confirm="http",
                 confirm_timeout_s=30.0) as svc:
        yield svc


def _as(svc: ServiceThread, token: str) -> httpx.Client:
    return httpx.Client(base_url=svc.url, timeout=60, headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def callers(consent: ServiceThread, fixtures: FixtureServer) -> Iterator[dict[str, Any]]:
    """A client per caller, the fixture server, and the sessions opened (closed by the operator after)."""
    clients: dict[str, Any] = {name: _as(consent, token) for name, token in
                               (("bot", BOT), ("bot2", BOT2), ("limited", LIMITED), ("ada", ADA), ("ops", OPS))}
    opened: list[str] = []
    clients["opened"], clients["fixtures"] = opened, fixtures
    yield clients
    for sid in opened:
        clients["ops"].delete(f"/sessions/{sid}")
    for client in clients.values():
        if isinstance(client, httpx.Client):
            client.close()


def _open(callers: dict[str, Any], who: str, path: str = PAGE) -> str:
    answer = callers[who].post("/sessions", json={"url": callers["fixtures"].url(path)})
    assert answer.status_code == 201, answer.text
    sid = answer.json()["session"]["id"]
    callers["opened"].append(sid)
    return sid


class Invoking:
    """An agent's invoke that may wait on a person, in a thread while the test plays the person."""

    def __init__(self, client: httpx.Client, sid: str, action: str, args: Any = None) -> None:
        self.result: dict[str, Any] | None = None
        body: dict[str, Any] = {"action": action, **({"args": args} if args is not None else {})}
        headers = dict(client.headers)
        self.thread = threading.Thread(target=self._run, args=(str(client.base_url), headers, sid, body), daemon=True)
        self.thread.start()

    def _run(self, url: str, headers: dict[str, str], sid: str, body: dict[str, Any]) -> None:
        with httpx.Client(base_url=url, headers=headers, timeout=90) as own:
            self.result = own.post(f"/sessions/{sid}/invoke", json=body).json()["result"]

    def join(self) -> dict[str, Any]:
        self.thread.join(60)
        assert self.result is not None
        return self.result


def _until(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the condition did not hold in time")


def _pending(person: httpx.Client, sid: str, seen: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    """The next confirmation waiting in the session (one not in `seen`)."""
    return _until(lambda: next((p for p in person.get(f"/sessions/{sid}/pending").json()["pending"]
                                if p["id"] not in seen), None))


def _ran(client: httpx.Client, sid: str) -> list[str]:
    return client.get(f"/sessions/{sid}/model").json()["state"]["ran"]["value"]


def _in_page(svc: ServiceThread, sid: str, script: str) -> None:
    """The page's own script changes its declarations (as a page may at any moment)."""
    async def work(runtime: Any) -> None:
        # `void`: Playwright calls a function an expression evaluates to (a declaration's remover).
        await runtime.sessions.get(sid).page.evaluate(f"void ({script})")

    svc.in_service(work)


def test_an_approval_is_for_what_the_person_was_shown(consent: ServiceThread, callers: dict[str, Any]) -> None:
    """Finding 2: the page re-declared "Transfer $1" as $1,000,000 while the confirmation waited, and the
    approved call ran the new one. Now the approval does not apply: the person is asked again."""
    bot, ada = callers["bot"], callers["ada"]
    sid = _open(callers, "bot")
    waiting = Invoking(bot, sid, "transfer", {"to": "mallory"})
    first = _pending(ada, sid)
    assert first["description"] == "Transfer $1" and first["risk"] == "danger" and first["fingerprint"]
    assert first["params"]["required"] == ["to"] and first["args"] == {"to": "mallory"}
    _in_page(consent, sid, "redeclare(1000000)")
    assert ada.post(f"/sessions/{sid}/confirmations/{first['id']}", json={"approve": True}).status_code == 200
    second = _pending(ada, sid, {first["id"]})
    assert second["description"] == "Transfer $1,000,000" and second["fingerprint"] != first["fingerprint"]
    assert _ran(ada, sid) == []  # the old approval ran nothing
    assert ada.post(f"/sessions/{sid}/confirmations/{second['id']}", json={"approve": False}).status_code == 200
    receipt = waiting.join()
    assert receipt["ok"] is False and receipt["error"]["code"] == "PERMISSION_DENIED", receipt
    assert receipt["error"]["started"] is False and "approved_by" not in receipt
    changed = coded(ada, sid).events(LogEvent.CHANGED_WHILE_ASKED)
    assert ["description" in entry["changed"] for entry in changed] == [True], changed
    assert _ran(ada, sid) == []
    # Asked again and approved, it runs as the person saw it the second time.
    waiting = Invoking(bot, sid, "transfer", {"to": "mallory"})
    again = _pending(ada, sid, {first["id"], second["id"]})
    assert again["description"] == "Transfer $1,000,000"
    ada.post(f"/sessions/{sid}/confirmations/{again['id']}", json={"approve": True})
    receipt = waiting.join()
    assert receipt["ok"] is True and receipt["approved_by"]["caller"] == "ada" and receipt["approved_by"]["via"] == "person"
    assert _ran(ada, sid) == ["transfer 1000000 to mallory"]


def test_a_grant_is_used_then_expires(consent: ServiceThread, callers: dict[str, Any]) -> None:
    bot, ada, ops = callers["bot"], callers["ada"], callers["ops"]
    sid = _open(callers, "bot")
    waiting = Invoking(bot, sid, "note", {"text": "a"})
    asked = _pending(ada, sid)
    answer = ada.post(f"/sessions/{sid}/confirmations/{asked['id']}",
                      json={"approve": True, "grant": {"scope": "action", "for_s": 2}})
    assert answer.status_code == 200 and answer.json()["grant"] == {"scope": "action", "for_s": 2}
    first = waiting.join()
    assert first["ok"] is True and first["approved_by"]["caller"] == "ada" and first["approved_by"]["via"] == "person"
    second = bot.post(f"/sessions/{sid}/invoke", json={"action": "note", "args": {"text": "b"}}).json()["result"]
    assert second["ok"] is True, second
    granted = second["approved_by"]
    assert granted["via"] == "grant" and granted["caller"] == "ada" and granted["until"] > granted["at"]
    by_grant = coded(bot, sid).events(LogEvent.APPROVED_BY_GRANT)
    assert [(e["by"], e["scope"], e["what"], e["until"]) for e in by_grant] == [("ada", "action", "note", granted["until"])]
    # The grant is for the agent that asked: the operator's own call in the same session is asked for.
    waiting = Invoking(ops, sid, "note", {"text": "operator"})
    theirs = _pending(ada, sid, {asked["id"]})
    ada.post(f"/sessions/{sid}/confirmations/{theirs['id']}", json={"approve": False})
    assert waiting.join()["error"]["code"] == "PERMISSION_DENIED"
    # Once it has ended (polled: the grant lasts 2 s), the person is asked again.
    _until(lambda: time.time() > granted["until"] + 0.05)
    waiting = Invoking(bot, sid, "note", {"text": "c"})
    later = _pending(ada, sid, {asked["id"], theirs["id"]})
    ada.post(f"/sessions/{sid}/confirmations/{later['id']}", json={"approve": False})
    denied = waiting.join()
    assert denied["error"]["code"] == "PERMISSION_DENIED" and "approved_by" not in denied
    assert _ran(ada, sid) == ["note a", "note b"]
    # Who approved is in the receipt log too, as the receipts said it.
    logged = [entry["receipt"] for entry in ada.get(f"/sessions/{sid}/receipts").json()["receipts"]]
    assert [r.get("approved_by", {}).get("via") for r in logged] == ["person", "grant", None, None]
    assert logged[1]["approved_by"] == granted and logged[0]["caller"] == "bot"


def test_a_grant_never_covers_a_riskier_action_another_action_or_another_session(
        consent: ServiceThread, callers: dict[str, Any]) -> None:
    bot, ada = callers["bot"], callers["ada"]
    sid = _open(callers, "bot")
    waiting = Invoking(bot, sid, "close@a1")
    asked = _pending(ada, sid)
    ada.post(f"/sessions/{sid}/confirmations/{asked['id']}", json={"approve": True, "grant": {"scope": "family", "for_s": 120}})
    assert waiting.join()["approved_by"]["via"] == "person"
    covered = bot.post(f"/sessions/{sid}/invoke", json={"action": "close@a2"}).json()["result"]
    assert covered["ok"] is True and covered["approved_by"]["via"] == "grant"  # the family: another record
    seen = {asked["id"]}

    def refused(client: httpx.Client, where: str, action: str, args: Any = None) -> dict[str, Any]:
        waiting = Invoking(client, where, action, args)
        _until(lambda: waiting.result is not None or [p for p in ada.get(f"/sessions/{where}/pending").json()["pending"] if p["id"] not in seen])
        assert waiting.result is None, waiting.result
        again = _pending(ada, where, seen)
        seen.add(again["id"])
        ada.post(f"/sessions/{where}/confirmations/{again['id']}", json={"approve": False})
        return waiting.join()

    assert refused(bot, sid, "transfer", {"to": "x"})["error"]["code"] == "PERMISSION_DENIED"  # another action asks
    _in_page(consent, sid, "raise('close', 'danger')")  # the page makes the family riskier
    riskier = refused(bot, sid, "close@a1")
    assert riskier["error"]["code"] == "PERMISSION_DENIED" and riskier["error"]["risk"] == "danger"
    other = _open(callers, "bot")  # another session of the same agent
    assert refused(bot, other, "close@a1")["error"]["code"] == "PERMISSION_DENIED"
    assert _ran(ada, sid) == ["close a1", "close a2"] and _ran(ada, other) == []
    # A grant comes only with an approval, and only for an action's confirmation.
    waiting = Invoking(bot, other, "transfer", {"to": "x"})
    asked = _pending(ada, other, seen)
    no = ada.post(f"/sessions/{other}/confirmations/{asked['id']}",
                  json={"approve": False, "grant": {"scope": "action", "for_s": 5}})
    assert no.status_code == 400 and problem(no)["code"] == "BAD_REQUEST"
    ada.post(f"/sessions/{other}/confirmations/{asked['id']}", json={"approve": False})
    waiting.join()


def test_caller_limits_hold_before_anything_runs(consent: ServiceThread, callers: dict[str, Any]) -> None:
    limited, ada = callers["limited"], callers["ada"]
    sid = _open(callers, "limited")
    assert limited.post(f"/sessions/{sid}/invoke", json={"action": "look"}).json()["result"]["ok"] is True
    for action, said in (("transfer", "may invoke read, write actions, and transfer is danger"),
                         ("close@a1", "may not invoke 'close'"),
                         ("wipe", "may invoke read, write actions")):  # PLING_APPROVE=wipe does not widen it
        receipt = limited.post(f"/sessions/{sid}/invoke", json={"action": action}).json()["result"]
        error = receipt["error"]
        assert error["code"] == "PERMISSION_DENIED" and error["denied_by"] == "caller policy", receipt
        assert error["started"] is False and error["stage"] == "confirm" and said in error["message"], error
    assert ada.get(f"/sessions/{sid}/pending").json()["pending"] == []  # no person was asked
    assert _ran(ada, sid) == []
    # Its hosts: the service's own demo page is another host and port, so no session opens there.
    demo = limited.post("/sessions", json={})
    assert demo.status_code == 403 and problem(demo)["code"] == "FORBIDDEN"
    assert problem(demo)["denied_by"] == "caller policy"
    # The unlimited agent is approved by the operator's policy, and the receipt says so.
    bot_sid = _open(callers, "bot")
    wiped = callers["bot"].post(f"/sessions/{bot_sid}/invoke", json={"action": "wipe"}).json()["result"]
    assert wiped["ok"] is True and wiped["approved_by"]["via"] == "policy"
    assert wiped["approved_by"]["caller"] == "operator" and wiped["approved_by"]["policy"] == "PLING_APPROVE=wipe"


def test_sessions_belong_to_the_agent_that_opened_them(consent: ServiceThread, callers: dict[str, Any]) -> None:
    bot, bot2, ada, ops = callers["bot"], callers["bot2"], callers["ada"], callers["ops"]
    sid = _open(callers, "bot")
    assert bot.post(f"/sessions/{sid}/invoke", json={"action": "look"}).json()["result"]["ok"] is True
    for method, path, body in (("GET", "", None), ("GET", "/model", None), ("GET", "/receipts", None),
                               ("GET", "/tools", None), ("GET", "/pending", None), ("GET", "/screenshot", None),
                               ("GET", "/tabs", None), ("GET", "/scenario", None),
                               ("POST", "/invoke", {"action": "look"}), ("POST", "/tools/look", {"arguments": {}}),
                               ("POST", "/resume", {"handle": "r_x"}), ("DELETE", "", None)):
        answer = bot2.request(method, f"/sessions/{sid}{path}", json=body)
        assert answer.status_code == 404 and problem(answer)["code"] == "SESSION_NOT_FOUND", (method, path, answer.text)
    assert sid not in [s["id"] for s in bot2.get("/sessions").json()]
    assert sid in [s["id"] for s in bot.get("/sessions").json()]
    for who in (ada, ops):  # a person and the operator see all
        assert sid in [s["id"] for s in who.get("/sessions").json()]
        assert who.get(f"/sessions/{sid}/receipts").json()["receipts"][0]["receipt"]["caller"] == "bot"
    assert bot.get(f"/sessions/{sid}").status_code == 200  # bot2's DELETE closed nothing


def test_over_mcp_an_agent_reaches_only_its_own_sessions_and_mcp_session_ids(
        consent: ServiceThread, callers: dict[str, Any]) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    sid = _open(callers, "bot")

    async def as_caller(token: str, work: Any) -> Any:
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
        async with client, Client(streamable_http_client(f"{consent.url}/mcp", http_client=client)) as mcp:
            return await work(mcp)

    async def scenario() -> tuple[Any, ...]:
        async def other(mcp: Any) -> tuple[Any, ...]:
            names = [tool.name for tool in (await mcp.list_tools()).tools]
            read = await mcp.call_tool("read_model", {"session": sid})
            invoked = await mcp.call_tool("invoke", {"session": sid, "action": "look"})
            return names, read, invoked

        async def own(mcp: Any) -> list[str]:
            return [tool.name for tool in (await mcp.list_tools()).tools]

        return (*(await as_caller(BOT2, other)), await as_caller(BOT, own))

    names, read, invoked, own_names = asyncio.run(asyncio.wait_for(scenario(), 90))
    page_tools = [name for name in own_names if name.endswith("_look")]
    assert page_tools and not [name for name in names if name.endswith("_look")], (names, own_names)
    assert read.is_error and "SESSION_NOT_FOUND" in str(read.content)
    assert invoked.is_error and "SESSION_NOT_FOUND" in str(invoked.content)

    async def borrowed_tool() -> Any:
        return await as_caller(BOT2, lambda mcp: mcp.call_tool(page_tools[0], {}))

    assert asyncio.run(asyncio.wait_for(borrowed_tool(), 60)).is_error
    assert callers["ada"].get(f"/sessions/{sid}/receipts").json()["receipts"] == []  # nothing ran for bot2

    # An MCP session id works only with the token that began it.
    start = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    began = patient.post(f"{consent.url}/mcp", json=start, headers={**accept, "Authorization": f"Bearer {BOT}"})
    mcp_id = began.headers.get("mcp-session-id")
    assert began.status_code == 200 and mcp_id, began.text
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    stolen = patient.post(f"{consent.url}/mcp", json=listing, headers={
        **accept, "Authorization": f"Bearer {BOT2}", "Mcp-Session-Id": mcp_id, "Mcp-Protocol-Version": "2025-06-18"})
    assert stolen.status_code == 404, stolen.text
    mine = patient.post(f"{consent.url}/mcp", json=listing, headers={
        **accept, "Authorization": f"Bearer {BOT}", "Mcp-Session-Id": mcp_id, "Mcp-Protocol-Version": "2025-06-18"})
    assert mine.status_code != 404, mine.text


def test_a_grant_never_widens_caller_limits_nor_covers_a_re_described_action(
        consent: ServiceThread, callers: dict[str, Any]) -> None:
    """SPEC: a grant never covers anything past the caller's limits, nor an action the page re-described.
    The limited agent may invoke read and write actions: its grant on `note` holds while `note` is a
    write; made a danger by the page, `note` is refused by the caller policy before anyone is asked or
    the grant is looked at; made a write again, the same grant covers it (it had not ended)."""
    limited, bot, ada = callers["limited"], callers["bot"], callers["ada"]
    sid = _open(callers, "limited")
    waiting = Invoking(limited, sid, "note", {"text": "a"})
    asked = _pending(ada, sid)
    ada.post(f"/sessions/{sid}/confirmations/{asked['id']}", json={"approve": True, "grant": {"scope": "family", "for_s": 300}})
    assert waiting.join()["approved_by"]["via"] == "person"
    assert limited.post(f"/sessions/{sid}/invoke", json={"action": "note", "args": {"text": "b"}}).json()["result"]["approved_by"]["via"] == "grant"
    _in_page(consent, sid, "raise('note', 'danger')")
    refused = limited.post(f"/sessions/{sid}/invoke", json={"action": "note", "args": {"text": "c"}}).json()["result"]
    error = refused["error"]
    assert error["code"] == "PERMISSION_DENIED" and error["denied_by"] == "caller policy" and error["started"] is False, refused
    assert "approved_by" not in refused and ada.get(f"/sessions/{sid}/pending").json()["pending"] == []
    _in_page(consent, sid, "raise('note', 'write')")
    again = limited.post(f"/sessions/{sid}/invoke", json={"action": "note", "args": {"text": "d"}}).json()["result"]
    assert again["ok"] is True and again["approved_by"]["via"] == "grant", again
    assert _ran(ada, sid) == ["note a", "note b", "note d"]
    # Re-described: the agent's grant on "Transfer $1" does not cover "Transfer $5"; the person is asked.
    other = _open(callers, "bot")
    waiting = Invoking(bot, other, "transfer", {"to": "bob"})
    asked = _pending(ada, other)
    ada.post(f"/sessions/{other}/confirmations/{asked['id']}", json={"approve": True, "grant": {"scope": "action", "for_s": 300}})
    assert waiting.join()["ok"] is True
    covered = bot.post(f"/sessions/{other}/invoke", json={"action": "transfer", "args": {"to": "carol"}}).json()["result"]
    assert covered["approved_by"]["via"] == "grant"  # any arguments the page accepts, as SECURITY.md says
    _in_page(consent, other, "redeclare(5)")
    waiting = Invoking(bot, other, "transfer", {"to": "dave"})
    asked_again = _pending(ada, other, {asked["id"]})
    assert asked_again["description"] == "Transfer $5"
    ada.post(f"/sessions/{other}/confirmations/{asked_again['id']}", json={"approve": False})
    assert waiting.join()["error"]["code"] == "PERMISSION_DENIED"
    assert _ran(ada, other) == ["transfer 1 to bob", "transfer 1 to carol"]


def test_over_mcp_receipts_and_the_receipt_log_say_who_approved(consent: ServiceThread, callers: dict[str, Any]) -> None:
    """`approved_by` where an agent reads it over MCP (the `invoke` tool and a page tool), with the
    operator answering as a person does: the answer, then the grant it made, each in the MCP result and
    in the receipt log the person reads."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    ops, ada = callers["ops"], callers["ada"]
    sid = _open(callers, "bot")

    def approve_with_grant() -> None:
        asked = _pending(ops, sid)
        answer = ops.post(f"/sessions/{sid}/confirmations/{asked['id']}",
                          json={"approve": True, "grant": {"scope": "action", "for_s": 300}})
        assert answer.status_code == 200, answer.text

    async def scenario() -> tuple[Any, Any, Any]:
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {BOT}"}, timeout=90)
        async with client, Client(streamable_http_client(f"{consent.url}/mcp", http_client=client)) as mcp:
            call = asyncio.ensure_future(mcp.call_tool("invoke", {"session": sid, "action": "note", "args": {"text": "m1"}}))
            await asyncio.to_thread(approve_with_grant)
            first = await call
            second = await mcp.call_tool("invoke", {"session": sid, "action": "note", "args": {"text": "m2"}})
            names = [tool.name for tool in (await mcp.list_tools()).tools]
            note = next(name for name in names if name.endswith("_note"))
            third = await mcp.call_tool(note, {"text": "m3"})
            return first, second, third

    first, second, third = asyncio.run(asyncio.wait_for(scenario(), 120))
    receipts = [result.structured_content for result in (first, second, third)]
    assert all(r["ok"] is True and r["caller"] == "bot" for r in receipts), receipts
    assert receipts[0]["approved_by"]["via"] == "person" and receipts[0]["approved_by"]["caller"] == "ops"
    for r in receipts[1:]:
        assert r["approved_by"]["via"] == "grant" and r["approved_by"]["caller"] == "ops" and r["approved_by"]["until"]
    logged = [entry["receipt"] for entry in ada.get(f"/sessions/{sid}/receipts").json()["receipts"]]
    assert [r["approved_by"] for r in logged] == [r["approved_by"] for r in receipts]
    assert _ran(ada, sid) == ["note m1", "note m2", "note m3"]


def test_a_grant_never_answers_for_an_action_the_operator_asks_for_every_time(
        consent: ServiceThread, callers: dict[str, Any]) -> None:
    """PLING_ASK names `tag`: the person is asked each time it runs. A grant made with an answer about
    it (the person may not know the operator's list) answers no later call."""
    bot, ada = callers["bot"], callers["ada"]
    sid = _open(callers, "bot")
    waiting = Invoking(bot, sid, "tag")
    asked = _pending(ada, sid)
    ada.post(f"/sessions/{sid}/confirmations/{asked['id']}", json={"approve": True, "grant": {"scope": "action", "for_s": 300}})
    assert waiting.join()["approved_by"]["via"] == "person"
    waiting = Invoking(bot, sid, "tag")
    again = _pending(ada, sid, {asked["id"]})  # asked again, the grant notwithstanding
    ada.post(f"/sessions/{sid}/confirmations/{again['id']}", json={"approve": False})
    denied = waiting.join()
    assert denied["error"]["code"] == "PERMISSION_DENIED" and "approved_by" not in denied
    assert coded(ada, sid).events(LogEvent.APPROVED_BY_GRANT) == []
    assert _ran(ada, sid) == ["tag"]


def test_a_limited_agent_does_not_act_on_a_document_of_another_host(consent: ServiceThread, callers: dict[str, Any]) -> None:
    """The limited agent's hosts name the fixture server's host and port. Its page sends itself to the
    same page on another port (another host entry): the agent's invocations there are refused by the
    caller policy before anything runs, a read too; back on its own host, it acts again."""
    limited, ada = callers["limited"], callers["ada"]
    other = FixtureServer().start()
    try:
        sid = _open(callers, "limited")
        elsewhere = other.url(PAGE)
        _in_page(consent, sid, f"location.href = {elsewhere!r}")
        _until(lambda: limited.get(f"/sessions/{sid}").json().get("url") == elsewhere)
        # The new document has declared its actions (read by the person, who may): the refusal below is
        # the caller policy's, not an action not yet declared.
        _until(lambda: "look" in {a["id"] for a in ada.get(f"/sessions/{sid}/model").json().get("actions", [])})
        for action, args in (("look", None), ("note", {"text": "x"})):
            receipt = limited.post(f"/sessions/{sid}/invoke", json={"action": action, **({"args": args} if args else {})}).json()["result"]
            error = receipt["error"]
            assert error["code"] == "PERMISSION_DENIED" and error["denied_by"] == "caller policy", receipt
            assert error["started"] is False and "may not act on" in error["message"], error
        assert ada.get(f"/sessions/{sid}/pending").json()["pending"] == [] and _ran(ada, sid) == []
        home = callers["fixtures"].url(PAGE)
        _in_page(consent, sid, f"location.href = {home!r}")
        _until(lambda: limited.get(f"/sessions/{sid}").json().get("url") == home)
        _until(lambda: "look" in {a["id"] for a in ada.get(f"/sessions/{sid}/model").json().get("actions", [])})
        assert limited.post(f"/sessions/{sid}/invoke", json={"action": "look"}).json()["result"]["ok"] is True
    finally:
        other.stop()
