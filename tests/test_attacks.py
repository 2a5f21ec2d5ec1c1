"""Issue 27: the attacks that broke, each reproduced against a real service and a real Chromium. Each
test here failed on main before the fix (the issue's report says how each one broke)."""

from __future__ import annotations

import base64
import io
import json
import logging
import socket
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from . import patient
from .conftest import Pages, ServiceThread, service_settings, serving
from .server import FixtureServer

CARD = "4111111111111111"
API_KEY = "sk-live-0123456789abcdef"


def _forms(value: str) -> list[bytes]:
    """The value as a trace could carry it: as is, grouped as a card, base64 (a screencast frame or
    a resource is binary: its base64 in a JSON entry is what could be read)."""
    grouped = " ".join(value[i:i + 4] for i in range(0, len(value), 4))
    return [value.encode(), grouped.encode(), base64.b64encode(value.encode())]


def _zip_entries(data: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {name: archive.read(name) for name in archive.namelist()}


def _reference(model: dict, record: str) -> str:
    item = next(i for i in model["records"]["account"]["items"] if i["id"] == record)
    return item["fields"]["card"]


def test_a_trace_during_which_a_value_was_restored_is_discarded(client: httpx.Client, pages: Pages,
                                                               service: ServiceThread) -> None:
    """Finding 1: `trace: true` on the first invocation that restores a page's sensitive reference
    kept the card number in the zip (the fill's params, its log line, the DOM snapshots)."""
    page = pages.open("pages/security/consent.html")
    reference = _reference(page.first_model, "a1")
    assert reference.startswith("<secret>") and CARD not in json.dumps(page.first_model)
    receipt = page.invoke("fill_card", {"value": reference}, trace=True)
    assert receipt["ok"] is True, receipt
    assert "trace" not in receipt, receipt
    assert "The trace was discarded" in receipt["warning"] and "restored" in receipt["warning"]
    data_dir = Path(service.app.state.runtime.settings.data_dir)
    for kept in (data_dir / "traces" / page.id).glob("*.zip"):  # nothing kept, and nothing kept holds it
        assert not any(form in entry for entry in _zip_entries(kept.read_bytes()).values() for form in _forms(CARD))
    # Once a value was restored, the session's pages hold it: a later trace is refused outright.
    later = page.invoke("look", trace=True)
    assert "trace" not in later and "were given restored values" in later["warning"]
    # A session whose pages were given nothing is traced as before, and the zip is served.
    other = pages.open("pages/security/consent.html")
    framed = False
    for _ in range(10):  # Chromium's first screencast frame may come after a short trace stops: traced again
        traced = other.invoke("look", trace=True)
        assert traced["trace"].startswith(f"/sessions/{other.id}/traces/t_"), traced
        entries = _zip_entries(client.get(traced["trace"]).content)
        assert "trace.trace" in entries, sorted(entries)
        framed = any(name.endswith(".jpeg") for name in entries)
        if framed:
            break
    assert framed  # frames: nothing to mask (with PLING_SECRETS none are recorded at all, the test below)


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    secrets = tmp_path_factory.mktemp("secrets") / "secrets.env"
    secrets.write_text(f"CARD={CARD}\nAPI_KEY={API_KEY}\n")
    with serving(secrets_file=str(secrets)) as svc:
        yield svc


@pytest.fixture
def spages(secured: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=secured.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def test_with_operator_secrets_a_trace_holds_none_of_them(spages: Pages, secured: ServiceThread) -> None:
    """With PLING_SECRETS a session may be traced when nothing was restored during the trace; every
    entry of the zip is read, and none holds an operator secret in any form. Screencast frames cannot
    be read, so where masking has values the trace records none (the DOM snapshots, which are read,
    stay); a page that shows an operator secret by itself has its trace discarded, as /screenshot
    masks that text."""
    page = spages.open("pages/security/consent.html")
    traced = page.invoke("look", trace=True)
    assert traced["ok"] is True and "trace" in traced, traced
    entries = _zip_entries(spages.client.get(traced["trace"]).content)
    assert "trace.trace" in entries
    assert not [name for name in entries if name.endswith((".jpeg", ".png"))], sorted(entries)
    assert b"screencast-frame" not in entries["trace.trace"]
    for name, entry in entries.items():
        for secret in (CARD, API_KEY):
            assert not any(form in entry for form in _forms(secret)), (name, secret)
    # The operator secret's reference restored during a trace: discarded.
    restored = page.invoke("fill_card", {"value": "<secret>CARD</secret>"}, trace=True)
    assert restored["ok"] is True and "trace" not in restored and "The trace was discarded" in restored["warning"]
    # A page that shows an operator secret it was never sent: the DOM snapshots of the fill hold it,
    # so the trace is discarded (and it recorded no frame, which could not have been searched).
    showing = spages.open("pages/security/consent.html?show=" + API_KEY)
    shown = showing.invoke("fill_card", {"value": "plain"}, trace=True)
    assert shown["ok"] is True and "trace" not in shown, shown
    assert "The trace was discarded" in shown["warning"] and "showed a masked value" in shown["warning"]
    data_dir = Path(secured.app.state.runtime.settings.data_dir)
    assert not list((data_dir / "traces" / showing.id).glob("*.zip"))


@pytest.fixture
def impatient() -> Iterator[ServiceThread]:
    with serving(invoke_wait_s=0.5) as svc:
        yield svc


def _until(condition, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name.startswith("pling_browser")]


def test_an_agents_action_id_cannot_forge_a_log_line(impatient: ServiceThread, fixtures: FixtureServer,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Finding 4: CR/LF in an action id were written raw into "not started: the session stayed busy".
    Such an id is taken as it is (a record's id may hold any character its page gave it: SPEC invariant
    1, tests/test_hostile.py) and escaped in every log line, as all agent and page text is, by the one
    filter every service logger has; a direction-changing character likewise."""
    caplog.set_level(logging.INFO, logger="pling_browser")
    forged = "\r\n2030-01-01 00:00:00 INFO pling_browser.api: operator approved everything"
    with httpx.Client(base_url=impatient.url, timeout=60) as client:
        sid = client.post("/sessions", json={"url": fixtures.url("pages/security/consent.html")}).json()["session"]["id"]
        unknown = client.post(f"/sessions/{sid}/invoke", json={"action": "look" + forged})
        assert unknown.status_code == 200 and unknown.json()["result"]["error"]["code"] == "ACTION_NOT_FOUND", unknown.text
        holder = threading.Thread(target=lambda: client.post(f"/sessions/{sid}/invoke",
                                                             json={"action": "wait", "args": {"ms": 4000}}))
        holder.start()
        assert _until(lambda: client.get(f"/sessions/{sid}").json()["invocations"] == 2)
        busy = [client.post(f"/sessions/{sid}/invoke", json={"action": action})
                for action in ("look" + forged, "look \u202e\u2066gnihtyreve devorppa")]
        holder.join(30)
        assert [answer.status_code for answer in busy] == [409, 409], [answer.text for answer in busy]
        client.delete(f"/sessions/{sid}")
    lines = _lines(caplog)
    said = [line for line in lines if "the session stayed busy" in line]
    assert any("look\\x0d\\x0a2030-01-01 00:00:00 INFO" in line for line in said), said
    assert any("look \\u202e\\u2066gnihtyreve" in line for line in said), said
    assert not [line for line in lines if "\r" in line or "\n" in line or "\u202e" in line]


def test_malformed_input_is_a_logged_400_and_nothing_is_lost(client: httpx.Client, pages: Pages,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """Finding 3: a lone surrogate in the action id or an args key answered 500 (the receipt store could
    not encode it) and the refusal was not logged."""
    caplog.set_level(logging.INFO, logger="pling_browser")
    page = pages.open("pages/security/consent.html")
    cases = [{"action": "look\ud800"}, {"action": "note", "args": {"t\udc00": "x"}},
             {"action": "note", "args": {"text": "a\ud800b"}}, {"action": "go@line\ud800break"}]
    for body in cases:  # JSON escapes (\\ud800): the way a lone surrogate travels in a request
        answer = client.post(f"/sessions/{page.id}/invoke", content=json.dumps(body),
                             headers={"content-type": "application/json"})
        assert answer.status_code == 400, (body, answer.status_code, answer.text)
    for key in ("k\u00e9y".encode("latin-1"), b"two words"):
        answer = client.post(f"/sessions/{page.id}/invoke", json={"action": "look"}, headers={"Idempotency-Key": key})
        assert answer.status_code == 400, answer.text
    tool = client.post(f"/sessions/{page.id}/tools/look", content=json.dumps({"arguments": {"k\ud800": 1}}),
                       headers={"content-type": "application/json"})
    assert tool.status_code == 400, tool.text
    refusals = [line for line in _lines(caplog) if line.startswith("refused POST") and "(400)" in line]
    assert len(refusals) >= len(cases) + 3 and any("lone UTF-16 surrogate" in line for line in refusals)
    # Nothing lost: the receipt log answers, and the next invocation runs and is logged.
    assert page.invoke("look")["ok"] is True
    log = client.get(f"/sessions/{page.id}/receipts")
    assert log.status_code == 200 and [e["receipt"]["action"]["id"] for e in log.json()["receipts"]] == ["look"]


def test_the_receipt_store_never_fails_to_encode() -> None:
    """Whatever reaches the store (a page's text in a receipt, a request another way in let through) is
    stored with each lone surrogate as U+FFFD, and read back; the runtime answers the same."""
    from pling_browser.runtime.store import Store

    store = Store(Path(tempfile.mkdtemp(prefix="pling-store-")))
    seq = store.append("s_x", {"ok": False, "action": {"id": "look\ud800"}, "log": ["k\udc00"]}, None, None,
                       ["invoke", {"action": "look\ud800", "args": {"k\udc00": 1}}])
    stored = store.receipts("s_x")[0]
    assert stored["seq"] == seq and stored["receipt"]["action"]["id"] == "look\ufffd"
    assert store.with_requests("s_x")[0][1] == ["invoke", {"action": "look\ufffd", "args": {"k\ufffd": 1}}]
    store.close()


def test_host_values_that_cannot_be_parsed_are_refused(service: ServiceThread) -> None:
    """Finding 4: `127.0.0.1:P@evil.example` and `[::1]evil` passed as loopback; RFC 3986 reads the
    first as evil.example (after userinfo) and the second as no authority at all."""
    url, port = service.url, service.port
    for host in (f"127.0.0.1:{port}@evil.example", "[::1]evil", f"[::1]evil:{port}", "127.0.0.1:80:81",
                 f"localhost:{port}x", "[::1", "[zz::1]"):
        answer = patient.get(f"{url}/sessions", headers={"Host": host})
        assert answer.status_code == 403, (host, answer.status_code)
    for host in (f"127.0.0.1:{port}", f"LOCALHOST:{port}", f"[::1]:{port}", "localhost"):
        assert patient.get(f"{url}/sessions", headers={"Host": host}).status_code == 200, host
    for origin in (f"http://127.0.0.1:{port}@evil.example", "http://[::1]evil"):
        assert patient.get(f"{url}/sessions", headers={"Origin": origin}).status_code == 403, origin
    assert patient.get(f"{url}/sessions", headers={"Origin": f"http://[::1]:{port}"}).status_code == 200


@pytest.fixture
def asking() -> Iterator[ServiceThread]:
    with serving(approve=(), confirm="http", confirm_timeout_s=20.0) as svc:
        yield svc


def test_characters_nobody_sees_are_refused_in_ids_and_shown_to_the_person(asking: ServiceThread,
                                                                          fixtures: FixtureServer) -> None:
    """Finding 4: `pay\\u200b` was declared (and run) beside `pay`, and a confirmation showed U+202E,
    U+200B and U+2066 as they are, so what the person read was not what the page declared."""
    with httpx.Client(base_url=asking.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        page = opened.open("pages/security/lookalike.html")
        ids = [action["id"] for action in page.first_model["actions"]]
        assert ids == ["pay", "refund"], ids
        problems = [p["where"] for p in page.first_model["problems"]]
        assert "action pay[U+200B]" in problems and "action p[U+202E]ya" in problems, problems
        assert page.invoke("pay\u200b")["error"]["code"] == "ACTION_NOT_FOUND"
        assert page.model()["state"]["ran"]["value"] == []
        result: dict = {}
        worker = threading.Thread(target=lambda: result.update(r=page.invoke("refund", {"note": "a\u200bb\u202ec"})))
        worker.start()
        assert _until(lambda: client.get(f"/sessions/{page.id}/pending").json()["pending"])
        asked = client.get(f"/sessions/{page.id}/pending").json()["pending"][0]
        assert asked["description"] == "Refund [U+202E]005,1€[U+202C] to [U+2066]you[U+2069][U+200B]", asked
        assert asked["args"] == {"note": "a[U+200B]b[U+202E]c"}
        # The console shows the person the same marks (its state, from which its page draws the request).
        console = client.get("/console/state").json()["pending"]
        assert [(p["description"], p["args"]) for p in console if p["id"] == asked["id"]] == \
            [(asked["description"], asked["args"])], console
        client.post(f"/sessions/{page.id}/confirmations/{asked['id']}", json={"approve": False})
        worker.join(30)
        assert result["r"]["error"]["code"] == "PERMISSION_DENIED"
        opened.close_all()


def _answer_to_a_trickled_body(port: int, head: bytes, bytes_: int = 60) -> bytes:
    """Sends a complete head, then a body one byte every 0.25 s that never completes; answers what the
    service sent back (b"" when it sent nothing while the trickle lasted and 30 s more)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        sock.settimeout(0.25)
        received = b""
        for _ in range(bytes_):
            try:
                sock.sendall(b" ")
                received += sock.recv(65536)
                break
            except TimeoutError:
                continue
            except ConnectionError:
                break
        sock.settimeout(30)
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    return received  # closed by the service
                received += chunk
        except ConnectionError:  # reset: the service closed it while the trickle's last bytes were unread
            return received
        except TimeoutError:
            return received + b"<not closed>" if received else received


def test_a_body_that_trickles_after_its_headers_is_cut_off(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 27: the head had a deadline, the body none: a client that sent complete headers and then
    trickled its body (or stopped) held the connection and the handler reading it for ever. Now it is
    answered 408 REQUEST_TIMEOUT, as a problem, and the connection is closed; the service still answers."""
    caplog.set_level(logging.INFO, logger="pling_browser")
    with serving(body_timeout_s=1.0) as svc:
        host = f"Host: 127.0.0.1:{svc.port}\r\nContent-Type: application/json\r\n".encode()
        declared = b"POST /sessions HTTP/1.1\r\n" + host + b"Content-Length: 500\r\n\r\n{"
        chunked = b"POST /sessions HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n100\r\n{"
        for head in (declared, chunked):
            answer = _answer_to_a_trickled_body(svc.port, head)
            status, _, rest = answer.partition(b"\r\n")
            assert status == b"HTTP/1.1 408 Request Timeout", answer[:300]
            headers, _, body = rest.partition(b"\r\n\r\n")
            assert b"content-type: application/problem+json" in headers.lower() and not body.endswith(b"<not closed>")
            problem = json.loads(body)
            assert problem["code"] == "REQUEST_TIMEOUT" and problem["status"] == 408 and problem["type"] == "/errors#REQUEST_TIMEOUT"
        assert patient.get(svc.url + "/healthz", timeout=20).status_code == 200
        sessions = patient.get(svc.url + "/sessions", timeout=20)
        assert sessions.status_code == 200 and sessions.json() == []  # neither request opened anything
    refused = [line for line in _lines(caplog) if line.startswith("refused POST /sessions (408)")]
    assert len(refused) == 2, _lines(caplog)


def _tunnel(proxy: object, target: str) -> tuple[socket.socket, bytes]:
    """A CONNECT through a context's egress proxy, with that context's own credential."""
    credential = base64.b64encode(f"{proxy.username}:{proxy.password}".encode()).decode()  # type: ignore[attr-defined]
    sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=10)  # type: ignore[attr-defined]
    sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\nProxy-Authorization: Basic {credential}\r\n\r\n".encode())
    return sock, sock.recv(4096)


def test_all_egress_proxies_together_hold_a_bounded_number_of_connections(fixtures: FixtureServer) -> None:
    """Issue 27: each context's proxy held at most 64 connections, but nothing bounded them all: pages
    in many sessions could hold 64 each and use up the service's file descriptors. Two sessions here,
    a cap of 10 across all proxies: 12 tunnels to a loopback canary that holds them, 6 through each
    context's own proxy; those past the cap are answered 503 and reach nothing, and a tunnel closed
    gives its place back."""
    from .test_security import HoldingCanary

    svc = ServiceThread(service_settings(max_egress_connections=10)).start()
    canary = HoldingCanary()
    tunnels: list[socket.socket] = []
    try:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            sids = [client.post("/sessions", json={"url": fixtures.url("pages/security/consent.html")}).json()["session"]["id"]
                    for _ in range(2)]

            async def proxies(runtime: object) -> list[object]:
                return [runtime.sessions.get(sid).proxy for sid in sids]  # type: ignore[attr-defined]

            first, second = svc.in_service(proxies)
            target = f"127.0.0.1:{canary.port}"
            answers = []
            for proxy in (first, second) * 6:
                sock, answer = _tunnel(proxy, target)
                tunnels.append(sock)
                answers.append(answer)
            opened = [a for a in answers if a.startswith(b"HTTP/1.1 200")]
            refused = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
            assert len(opened) + len(refused) == 12 and 2 <= len(refused) and len(opened) <= 10, answers
            assert any(b"connections open already" in a for a in refused)
            assert _until(lambda: canary.connections == len(opened)) and canary.connections == len(opened)
            for sock in tunnels:
                sock.close()
            canary.close()  # both ends gone: the tunnels end and give their places back
            again = HoldingCanary()
            try:
                def reopened() -> bool:
                    sock, answer = _tunnel(first, f"127.0.0.1:{again.port}")
                    tunnels.append(sock)
                    return answer.startswith(b"HTTP/1.1 200")

                assert _until(reopened)
            finally:
                again.close()
    finally:
        for sock in tunnels:
            sock.close()
        canary.close()
        svc.stop()


def test_over_mcp_a_lone_surrogate_is_refused_logged_and_nothing_runs(client: httpx.Client, pages: Pages,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """Finding 3 over MCP: a tool call whose JSON holds a lone surrogate (an action id, an args key) is
    refused (400: the MCP server's parser takes no such JSON) and nothing runs; the refusal was not
    logged (the SDK answers by itself), now it is, as REST's are. The session goes on."""
    caplog.set_level(logging.INFO, logger="pling_browser")
    page = pages.open("pages/security/consent.html")
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    start = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    began = client.post("/mcp", json=start, headers=accept)
    headers = {**accept, "Mcp-Session-Id": began.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-06-18"}
    client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    for n, arguments in enumerate(({"session": page.id, "action": "note\ud800", "args": {"text": "x"}},
                                   {"session": page.id, "action": "note", "args": {"t\udc00": "x"}}), 2):
        call = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "invoke", "arguments": arguments}}
        answer = client.post("/mcp", content=json.dumps(call), headers=headers)  # \ud800 travels escaped in JSON
        assert answer.status_code == 400 and answer.json()["error"]["code"] == -32700, answer.text
    refused = [line for line in _lines(caplog) if line.startswith("refused POST /mcp (400)")]
    assert len(refused) == 2 and all("Parse error" in line and "escape" in line for line in refused), refused
    assert page.model()["state"]["ran"]["value"] == []
    assert client.get(f"/sessions/{page.id}/receipts").json()["receipts"] == []
    assert page.invoke("look")["ok"] is True
