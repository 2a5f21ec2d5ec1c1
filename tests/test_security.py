"""Issue 14: attacks from a hostile page, a confused agent and another local process, each
reproduced against a real service and a real Chromium. Anything that could leave is aimed at a
loopback canary (a listener on an unlisted 127.0.0.1 port) that counts what reaches it."""

from __future__ import annotations

import base64
import json
import socket
import stat
import threading
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, unquote, urlsplit

import httpx
import pytest

from . import patient
from .conftest import Pages, ServiceThread, problem, service_settings, serving
from .server import FixtureServer

CARD = "4111111111111111"
API_KEY = "sk-live-0123456789abcdef"


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


@pytest.fixture
def canary() -> Iterator[FixtureServer]:
    server = FixtureServer().start()
    yield server
    server.stop()


def _sent_values(canary: FixtureServer) -> list[dict]:
    values = []
    for _, path in canary.requests:
        query = parse_qs(urlsplit(path).query)
        values.extend(json.loads(v) for v in query.get("v", []))
    return values


def test_a_pages_own_flow_never_gets_operator_secrets(spages: Pages, canary: FixtureServer) -> None:
    page = spages.open("pages/security/flow_secret.html?sink=" + canary.url("sink"))
    for action, args in (("pull", {"note": "hello"}), ("wrap", {"word": "CARD"}), ("send_default", {})):
        receipt = page.invoke(action, args)
        assert receipt["ok"] is True, receipt
    # Each write path ran and reached the page's server, with the references as the page wrote them.
    sent = _sent_values(canary)
    assert len(sent) == 3, canary.requests
    everything = unquote(" ".join(path for _, path in canary.requests))
    assert CARD not in everything and API_KEY not in everything
    assert sent[0] == {"value": "<secret>CARD</secret>", "other": "key <secret>API_KEY</secret>"}
    assert sent[1] == {"value": "<secret>CARD</secret>"}
    assert sent[2] == {"value": "<secret>CARD</secret>"}
    # The honest use still works: a reference the agent sent is restored for the step that uses it.
    assert page.invoke("pay", {"card": "<secret>CARD</secret>"})["ok"] is True
    assert _sent_values(canary)[-1] == {"value": CARD}


class UdpCanary:
    """A UDP listener on an unlisted loopback port that counts the datagrams reaching it."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.datagrams = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._count, daemon=True)
        self._thread.start()

    def _count(self) -> None:
        while not self._stop.is_set():
            try:
                self.sock.recvfrom(65536)
                self.datagrams += 1
            except TimeoutError:
                continue

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


@pytest.fixture
def udp_canary() -> Iterator[UdpCanary]:
    canary = UdpCanary()
    yield canary
    canary.close()


def _gather_without_pling(url: str, port: int) -> None:
    """The same page in a Chromium launched with the service's arguments minus the WebRTC policy:
    shows that the page does send datagrams when nothing stops it (the canary works)."""
    from playwright.sync_api import sync_playwright

    from pling_browser.config import find_chromium
    from pling_browser.core.browsers import WEBRTC_POLICY, chromium_args

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(None),
                                             args=[a for a in chromium_args() if a != WEBRTC_POLICY])
        try:
            page = browser.new_page()
            page.goto(url)
            page.evaluate("([host, port]) => gather(host, port)", ["127.0.0.1", port])
        finally:
            browser.close()


def test_webrtc_sends_no_udp_around_the_egress_proxy(pages: Pages, fixtures: FixtureServer, udp_canary: UdpCanary) -> None:
    page = pages.open("pages/security/webrtc.html")
    receipt = page.invoke("gather", {"host": "127.0.0.1", "port": udp_canary.port})
    assert receipt["ok"] is True, receipt
    assert udp_canary.datagrams == 0
    # Control: without the policy, the same page reaches the canary.
    _gather_without_pling(fixtures.url("pages/security/webrtc.html"), udp_canary.port)
    assert udp_canary.datagrams > 0


def test_a_remote_browser_without_the_webrtc_policy_is_not_used(fixtures: FixtureServer) -> None:
    from pling_browser.core.browsers import WEBRTC_POLICY

    from .spawn import BrowserServer

    bare = BrowserServer(without=(WEBRTC_POLICY,)).start()
    with serving(browser_endpoints=(bare.url,)) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            answer = client.post("/sessions", json={"url": fixtures.url("pages/security/webrtc.html")})
            assert answer.status_code == 503, answer.text
            assert problem(answer)["code"] == "BROWSER_UNAVAILABLE"
            endpoint = client.get("/healthz").json()["browser"]["endpoints"][0]
            assert endpoint["up"] is False and WEBRTC_POLICY in endpoint["last_error"]
        bare.stop()


def test_webrtc_sends_no_udp_from_a_remote_browser(fixtures: FixtureServer, udp_canary: UdpCanary) -> None:
    from .spawn import BrowserServer

    server = BrowserServer().start()
    with serving(browser_endpoints=(server.url,)) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            opened = Pages(client, fixtures)
            page = opened.open("pages/security/webrtc.html")
            assert page.invoke("gather", {"host": "127.0.0.1", "port": udp_canary.port})["ok"] is True
            assert udp_canary.datagrams == 0
            opened.close_all()
        server.stop()


class TcpCanary:
    """A TCP listener on an unlisted loopback port that counts the connections reaching it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._count, daemon=True)
        self._thread.start()

    def _count(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


def _proxy_answer(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        return answer


def test_an_egress_proxy_serves_only_its_own_context(pages: Pages, service: ServiceThread, fixtures: FixtureServer) -> None:
    page = pages.open("pages/egress/probe.html")
    port = service.in_service(lambda runtime: _async(runtime.sessions.get(page.id).proxy.port))
    tcp = TcpCanary()
    try:
        target = f"127.0.0.1:{tcp.port}"
        wrong = "Proxy-Authorization: Basic " + base64.b64encode(b"pling:guess").decode() + "\r\n"
        for request in (f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n",
                        f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n{wrong}\r\n",
                        f"GET http://{target}/ HTTP/1.1\r\nHost: {target}\r\n\r\n"):
            answer = _proxy_answer(port, request.encode())
            assert answer.startswith(b"HTTP/1.1 407 "), answer
            assert b"proxy-authenticate: basic" in answer.lower()
        assert tcp.connections == 0
    finally:
        tcp.close()
    # The context's own browser still goes through it.
    assert page.invoke("fetch", {"id": "own", "url": fixtures.url("api/echo")})["ok"] is True
    outcomes = {item["id"]: item["fields"]["outcome"] for item in page.model()["records"]["attempt"]["items"]}
    assert outcomes["own"] == "status 200"


async def _async(value):  # a value, as the coroutine in_service wants
    return value


def test_the_data_dir_and_the_receipt_database_are_private(tmp_path) -> None:
    from pling_browser.runtime.store import Store

    folder = tmp_path / "data"
    store = Store(folder)
    store.append("s1", {"ok": True, "action": {"id": "a"}})
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("pling.sqlite3", "pling.sqlite3-wal", "pling.sqlite3-shm"):  # while open, in WAL mode
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    store.close()
    # A folder that already exists (made with the default umask) is narrowed too.
    existing = tmp_path / "existing"
    existing.mkdir(mode=0o755)
    (existing / "pling.sqlite3").touch(mode=0o644)
    Store(existing).close()
    assert stat.S_IMODE(existing.stat().st_mode) == 0o700
    assert stat.S_IMODE((existing / "pling.sqlite3").stat().st_mode) == 0o600


def test_operator_secrets_too_short_to_mask_stop_startup(tmp_path) -> None:
    from pling_browser.config import Settings, SettingsError, load_secrets

    path = tmp_path / "secrets.env"
    path.write_text("CARD=4111111111111111\nPIN=123\nEMPTY=\n")
    with pytest.raises(SettingsError) as raised:
        load_secrets(str(path))
    assert "PIN" in str(raised.value) and "at least 4" in str(raised.value) and "123" not in str(raised.value)
    with pytest.raises(SettingsError) as raised:
        Settings.from_env({"PLING_SECRETS": str(path)})
    assert "PLING_SECRETS" in str(raised.value) and "PIN" in str(raised.value) and "123" not in str(raised.value)
    path.write_text("CARD=4111111111111111\nPIN=1234\nEMPTY=\n")
    assert load_secrets(str(path))["PIN"] == "1234"


def _half_heads(port: int, count: int) -> list[socket.socket]:
    """Clients that send the start of a request and never finish its headers."""
    clients = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        clients.append(sock)
    return clients


def _closed_by_peer(sock: socket.socket, wait_s: float = 0.0) -> bool:
    sock.settimeout(wait_s if wait_s else 0.001)
    try:
        return sock.recv(1024) == b""
    except (TimeoutError, BlockingIOError):
        return False
    except ConnectionError:
        return True


def test_clients_that_never_finish_their_headers_do_not_take_healthz_down(tmp_path) -> None:
    from .spawn import kill_group, serve

    # The service starts with a soft open-file limit of 256, so 300 such clients would exhaust it.
    process, url = serve(env={"PLING_DATA_DIR": str(tmp_path / "data")}, log=tmp_path / "serve.log", open_files=256)
    clients: list[socket.socket] = []
    try:
        clients = _half_heads(int(url.rsplit(":", 1)[1]), 300)
        answer = patient.get(url + "/healthz", timeout=20)
        assert answer.status_code == 200 and answer.json()["ok"] is True
    finally:
        for sock in clients:
            sock.close()
        kill_group(process)
    assert "Too many open files" not in (tmp_path / "serve.log").read_text(errors="replace")


def test_past_the_connection_cap_the_longest_waiting_idle_connections_are_closed() -> None:
    svc = ServiceThread(service_settings(max_connections=50)).start()
    clients: list[socket.socket] = []
    try:
        clients = _half_heads(svc.port, 120)
        assert patient.get(svc.url + "/healthz", timeout=20).status_code == 200
        closed = [_closed_by_peer(sock, 1.0 if i == 0 else 0.0) for i, sock in enumerate(clients)]
        assert sum(closed) >= 70
        assert not any(closed[-40:])  # the newest were kept; the oldest made room
    finally:
        for sock in clients:
            sock.close()
        svc.stop()


def test_a_request_head_that_never_completes_is_closed_even_when_it_trickles() -> None:
    svc = ServiceThread(service_settings(header_timeout_s=1.0)).start()
    clients = _half_heads(svc.port, 2)
    try:
        idle, trickle = clients
        assert _closed_by_peer(idle, 15.0)
        closed = False
        for _ in range(60):  # one byte every 0.25 s: each byte is "activity", the head never ends
            try:
                trickle.sendall(b"x")
            except ConnectionError:
                closed = True
                break
            if _closed_by_peer(trickle, 0.25):
                closed = True
                break
        assert closed
        assert patient.get(svc.url + "/healthz", timeout=20).status_code == 200
    finally:
        for sock in clients:
            sock.close()
        svc.stop()


class HoldingCanary(TcpCanary):
    """Accepts and keeps every connection open (counts them)."""

    def _count(self) -> None:
        self.held: list[socket.socket] = []
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            self.held.append(conn)

    def close(self) -> None:
        super().close()
        for conn in self.held:
            conn.close()


def test_a_context_holds_a_bounded_number_of_egress_connections(pages: Pages, service: ServiceThread,
                                                                fixtures: FixtureServer) -> None:
    page = pages.open("pages/egress/probe.html")
    proxy = service.in_service(lambda runtime: _async(runtime.sessions.get(page.id).proxy))
    auth = "Proxy-Authorization: Basic " + base64.b64encode(f"{proxy.username}:{proxy.password}".encode()).decode()
    canary = HoldingCanary()
    tunnels: list[socket.socket] = []
    answers: list[bytes] = []
    try:
        target = f"127.0.0.1:{canary.port}"
        for _ in range(100):
            sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=10)
            sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n{auth}\r\n\r\n".encode())
            answers.append(sock.recv(4096))
            tunnels.append(sock)
        opened = sum(a.startswith(b"HTTP/1.1 200") for a in answers)
        # The canary's thread counts a connection when it accepts it, which may come after the proxy's answer.
        deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
        while canary.connections < opened and time.monotonic() < deadline:
            time.sleep(0.05)
        assert 0 < opened <= 64 and canary.connections == opened
        assert sum(a.startswith(b"HTTP/1.1 503") for a in answers) == 100 - opened
    finally:
        for sock in tunnels:
            sock.close()
        canary.close()
    # Once they are gone, the page's own requests go through again.
    for attempt in range(50):
        page.invoke("fetch", {"id": f"after{attempt}", "url": fixtures.url("api/echo")})
        outcomes = {i["id"]: i["fields"]["outcome"] for i in page.model()["records"]["attempt"]["items"]}
        if outcomes[f"after{attempt}"] == "status 200":
            break
    else:
        raise AssertionError("the page's requests did not go through again")


def test_an_idle_egress_tunnel_is_closed() -> None:
    import asyncio

    from pling_browser.core.egress import EgressProxy, Policy

    canary = HoldingCanary()

    async def scenario() -> bool:
        proxy = await EgressProxy(Policy(allow_hosts=("127.0.0.1",)), idle_s=0.5).start()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
            auth = base64.b64encode(f"{proxy.username}:{proxy.password}".encode()).decode()
            writer.write(f"CONNECT 127.0.0.1:{canary.port} HTTP/1.1\r\nProxy-Authorization: Basic {auth}\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200")
            rest = await asyncio.wait_for(reader.read(), 15)  # EOF once the proxy closes the idle tunnel
            writer.close()
            return rest == b""
        finally:
            await proxy.stop()

    try:
        assert asyncio.run(scenario()) is True
    finally:
        canary.close()


def test_a_flood_of_one_log_line_is_rate_limited(tmp_path, fixtures: FixtureServer) -> None:
    from .spawn import kill_group, serve

    log = tmp_path / "serve.log"
    process, url = serve(env={"PLING_DATA_DIR": str(tmp_path / "data"), "PLING_ALLOW_HOSTS": "127.0.0.1"}, log=log)
    try:
        with httpx.Client(base_url=url, timeout=120) as client:
            opened = Pages(client, fixtures)
            page = opened.open("pages/security/flood.html")
            assert page.invoke("flood", {"url": "http://10.255.255.1/x", "count": 300})["ok"] is True
            assert page.model()["state"]["finished"]["value"] == 300
            opened.close_all()
    finally:
        kill_group(process)
    refused = [line for line in log.read_text(errors="replace").splitlines() if "refused http://10.255.255.1" in line
               or "refused GET http://10.255.255.1" in line]
    assert 0 < len(refused) <= 25, len(refused)


CONSOLE_TOKEN = "console-token-for-security-tests"


@pytest.fixture(scope="module")
def console_service() -> Iterator[ServiceThread]:
    with serving(token=CONSOLE_TOKEN, approve=(), confirm="http", confirm_timeout_s=20.0,
                 console_idle_s=600.0) as svc:
        yield svc


def _sign_in(url: str) -> tuple[httpx.Cookies, str]:
    """What a person's browser keeps after `GET /console?token=…`: its cookies, and the CSRF token the
    redirect hands the console's script in the address's fragment (never sent to a server)."""
    opened = patient.get(f"{url}/console?token={CONSOLE_TOKEN}")
    assert opened.status_code == 303, opened.text
    fragment = urlsplit(opened.headers["location"]).fragment
    return opened.cookies, parse_qs(fragment).get("csrf", [""])[0]


def test_a_replayed_console_cookie_with_a_forged_origin_cannot_approve(console_service: ServiceThread,
                                                                      fixtures: FixtureServer) -> None:
    url = console_service.url
    bearer = {"Authorization": f"Bearer {CONSOLE_TOKEN}"}
    with httpx.Client(base_url=url, timeout=60, headers=bearer) as agent:
        opened = Pages(agent, fixtures)
        page = opened.open("pages/gates/checkout.html")
        result: dict = {}
        worker = threading.Thread(target=lambda: result.update(receipt=page.invoke("wipe")), daemon=True)
        worker.start()
        pending: list = []
        for _ in range(400):
            pending = agent.get(f"/sessions/{page.id}/pending").json()["pending"]
            if pending:
                break
            threading.Event().wait(0.05)
        cid = pending[0]["id"]
        cookies, csrf = _sign_in(url)
        # Another local server got the cookie (cookies are not port-scoped) and replays it, forging the
        # service's own Origin, without the console's CSRF token.
        answer = f"{url}/sessions/{page.id}/confirmations/{cid}"
        forged = patient.post(answer, json={"approve": True}, cookies=cookies, headers={"Origin": url})
        assert forged.status_code == 401, forged.text
        wrong = patient.post(answer, json={"approve": True}, cookies=cookies,
                           headers={"Origin": url, "X-Pling-CSRF": "guess"})
        assert wrong.status_code == 401
        assert [p["id"] for p in agent.get(f"/sessions/{page.id}/pending").json()["pending"]] == [cid]
        # The console itself (cookie and its CSRF token) answers: here it denies.
        denied = patient.post(answer, json={"approve": False}, cookies=cookies, headers={"Origin": url, "X-Pling-CSRF": csrf})
        assert denied.status_code == 200, denied.text
        worker.join(60)
        assert result["receipt"]["error"]["code"] == "PERMISSION_DENIED"
        assert page.model()["state"]["wiped"]["value"] is False
        opened.close_all()


def test_a_console_cookie_stops_working_after_sign_out(console_service: ServiceThread) -> None:
    url = console_service.url
    cookies, csrf = _sign_in(url)
    signed = {"X-Pling-CSRF": csrf}
    assert patient.get(f"{url}/console/state", cookies=cookies, headers=signed).status_code == 200
    out = patient.post(f"{url}/console/sign-out", cookies=cookies, headers={**signed, "Origin": url})
    assert out.status_code == 204
    assert patient.get(f"{url}/console/state", cookies=cookies, headers=signed).status_code == 401
    assert patient.get(f"{url}/sessions", cookies=cookies, headers=signed).status_code == 401


def test_a_console_cookie_nobody_used_for_its_idle_time_is_gone(console_service: ServiceThread) -> None:
    """Signed in to a service whose cookies idle out after 1 s, and to one that allows 600 s: after the
    same 1.5 s unused, the first is gone and the second works (however slow the machine, 600 s is
    out of reach; before, a first use more than 1 s after signing in failed on a loaded machine)."""
    with serving(token=CONSOLE_TOKEN, console_idle_s=1.0) as short:
        brief, brief_csrf = _sign_in(short.url)
        kept, kept_csrf = _sign_in(console_service.url)
        threading.Event().wait(1.5)
        assert patient.get(f"{short.url}/console/state", cookies=brief, headers={"X-Pling-CSRF": brief_csrf}).status_code == 401
        assert patient.get(f"{console_service.url}/console/state", cookies=kept,
                         headers={"X-Pling-CSRF": kept_csrf}).status_code == 200


def test_the_console_cookie_alone_reads_nothing(console_service: ServiceThread) -> None:
    url = console_service.url
    cookies, csrf = _sign_in(url)
    for path in ("/console/state", "/sessions", "/console/sessions/s_none/receipts"):
        assert patient.get(url + path, cookies=cookies).status_code == 401, path
        assert patient.get(url + path, cookies=cookies, headers={"X-Pling-CSRF": csrf}).status_code in (200, 404), path
    # The console's page itself (no data in it) opens with the cookie alone.
    assert patient.get(url + "/console", cookies=cookies).status_code == 200


AGENT_TOKEN = "agent-token-0123456789abcdef"
OTHER_AGENT_TOKEN = "agent-two-token-0123456789ab"
PERSON_TOKEN = "person-token-0123456789abcdef"


@pytest.fixture(scope="module")
def roles_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    import hashlib

    tokens = tmp_path_factory.mktemp("tokens") / "tokens.toml"
    tokens.write_text(
        '[[caller]]\nname = "bot"\nrole = "agent"\n'
        f'token_sha256 = "{hashlib.sha256(AGENT_TOKEN.encode()).hexdigest()}"\n\n'
        f'[[caller]]\nname = "bot2"\nrole = "agent"\ntoken = "{OTHER_AGENT_TOKEN}"\n\n'
        f'[[caller]]\nname = "ada"\nrole = "person"\ntoken = "{PERSON_TOKEN}"\n')
    with serving(tokens_file=str(tokens), approve=(), confirm="http",
                 confirm_timeout_s=20.0) as svc:
        yield svc


def _as(svc: ServiceThread, token: str) -> httpx.Client:
    return httpx.Client(base_url=svc.url, timeout=60, headers={"Authorization": f"Bearer {token}"})


def test_an_agent_cannot_answer_its_own_confirmation(roles_service: ServiceThread, fixtures: FixtureServer) -> None:
    with _as(roles_service, AGENT_TOKEN) as agent, _as(roles_service, PERSON_TOKEN) as person:
        assert patient.get(roles_service.url + "/sessions").status_code == 401
        opened = Pages(agent, fixtures)
        page = opened.open("pages/gates/checkout.html")
        result: dict = {}
        worker = threading.Thread(target=lambda: result.update(receipt=page.invoke("wipe")), daemon=True)
        worker.start()
        pending: list = []
        for _ in range(400):
            pending = agent.get(f"/sessions/{page.id}/pending").json()["pending"]  # it may see what waits
            if pending:
                break
            threading.Event().wait(0.05)
        cid = pending[0]["id"]
        mine = agent.post(f"/sessions/{page.id}/confirmations/{cid}", json={"approve": True})
        assert mine.status_code == 403 and problem(mine)["code"] == "FORBIDDEN", mine.text
        assert "agent role" in problem(mine)["detail"]
        assert agent.post(f"/sessions/{page.id}/handoffs/h_x", json={"outcome": "done"}).status_code == 403
        assert agent.post(f"/sessions/{page.id}/profile", json={"name": "p"}).status_code == 403
        assert patient.get(f"{roles_service.url}/console?token={AGENT_TOKEN}").status_code == 403
        # A person answers, and opens or invokes nothing.
        assert person.post("/sessions", json={"url": fixtures.url("pages/gates/checkout.html")}).status_code == 403
        assert person.post(f"/sessions/{page.id}/invoke", json={"action": "wipe"}).status_code == 403
        assert person.post(f"/sessions/{page.id}/confirmations/{cid}", json={"approve": True}).status_code == 200
        worker.join(60)
        receipt = result["receipt"]
        assert receipt["ok"] is True and receipt["caller"] == "bot"
        assert person.get(f"{roles_service.url}/console?token={PERSON_TOKEN}", follow_redirects=False).status_code == 303
        opened.close_all()


def test_idempotency_keys_are_per_caller(roles_service: ServiceThread, fixtures: FixtureServer) -> None:
    with _as(roles_service, AGENT_TOKEN) as bot, _as(roles_service, OTHER_AGENT_TOKEN) as bot2:
        opened, opened2 = Pages(bot, fixtures), Pages(bot2, fixtures)
        page = opened.open("pages/egress/probe.html")
        page2 = opened2.open("pages/egress/probe.html")  # each agent acts in a session of its own
        key = {"Idempotency-Key": "same-key"}
        url = fixtures.url("api/echo")
        first = bot.post(f"/sessions/{page.id}/invoke", headers=key, json={"action": "fetch", "args": {"id": "a", "url": url}})
        assert first.status_code == 200
        # Another caller's same key is another key: it runs (the same caller's key sent to another
        # session would be 422), and is not answered with bot's receipt.
        other = bot2.post(f"/sessions/{page2.id}/invoke", headers=key, json={"action": "fetch", "args": {"id": "b", "url": url}})
        assert other.status_code == 200, other.text
        ids = {item["id"] for item in bot2.get(f"/sessions/{page2.id}/model").json()["records"]["attempt"]["items"]}
        assert ids == {"b"}
        assert first.json()["result"]["caller"] == "bot" and other.json()["result"]["caller"] == "bot2"
        opened2.close_all()
        # Within one caller the key still holds.
        again = bot.post(f"/sessions/{page.id}/invoke", headers=key, json={"action": "fetch", "args": {"id": "c", "url": url}})
        assert again.status_code == 422
        opened.close_all()


def test_a_tokens_file_that_cannot_be_enforced_stops_startup(tmp_path) -> None:
    from pling_browser.config import Settings, SettingsError

    path = tmp_path / "tokens.toml"
    cases = {
        '[[caller]]\nname = "ada"\nrole = "person"\ntoken = "a-long-enough-token-1"\nrisks = ["read"]\n': "limits are for agents",
        '[[caller]]\nname = "bot"\nrole = "agent"\ntoken = "a-long-enough-token-1"\nrisks = ["reed"]\n': "has risks ['reed']",
        '[[caller]]\nname = "bot"\nrole = "agent"\ntoken = "a-long-enough-token-1"\nhosts = "a.example"\n': "not a list",
        '[[caller]]\nname = "bot"\nrole = "admin"\ntoken = "a-long-enough-token-1"\n': "role 'admin'",
        '[[caller]]\nname = "bot"\nrole = "agent"\n': "exactly one of token and token_sha256",
        '[[caller]]\nname = "a"\nrole = "agent"\ntoken = "a-long-enough-token-1"\n'
        '[[caller]]\nname = "b"\nrole = "person"\ntoken = "a-long-enough-token-1"\n': "same token",
    }
    for text, said in cases.items():
        path.write_text(text)
        with pytest.raises(SettingsError) as raised:
            Settings.from_env({"PLING_TOKENS": str(path)})
        assert "PLING_TOKENS" in str(raised.value) and said in str(raised.value), str(raised.value)
        assert "a-long-enough-token-1" not in str(raised.value)


def test_over_mcp_too_receipts_name_the_caller_and_keys_are_per_caller(roles_service: ServiceThread,
                                                                      fixtures: FixtureServer) -> None:
    import asyncio

    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    url = fixtures.url("api/echo")

    async def as_caller(token: str, work):
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
        async with client, Client(streamable_http_client(f"{roles_service.url}/mcp", http_client=client)) as mcp:
            return await work(mcp)

    async def scenario() -> tuple[dict, dict, dict]:
        async def first(mcp):
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("pages/egress/probe.html")})
            sid = opened.structured_content["session"]["id"]
            answer = await mcp.call_tool("invoke", {"session": sid, "action": "fetch", "idempotency_key": "k1",
                                                    "args": {"id": "a", "url": url}})
            return sid, answer.structured_content

        sid, mine = await as_caller(AGENT_TOKEN, first)

        async def second(mcp):  # in a session of its own: bot's is not bot2's to reach
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("pages/egress/probe.html")})
            own = opened.structured_content["session"]["id"]
            answer = await mcp.call_tool("invoke", {"session": own, "action": "fetch", "idempotency_key": "k1",
                                                    "args": {"id": "b", "url": url}})
            await mcp.call_tool("close_page", {"session": own})
            return answer

        other = await as_caller(OTHER_AGENT_TOKEN, second)
        return mine, other.structured_content or {}, {"error": other.is_error, "text": str(other.content)[:300]}

    mine, other, raw = asyncio.run(asyncio.wait_for(scenario(), 90))
    assert not raw["error"], raw  # another caller's same key is not a mismatch
    assert mine["ok"] is True and other["ok"] is True
    assert mine["caller"] == "bot" and other["caller"] == "bot2"


def test_a_killed_driver_leaves_no_profile_folder_and_no_phantom_sessions(fixtures: FixtureServer) -> None:
    import os
    import signal
    from pathlib import Path

    from pling_browser.core import processes

    with serving() as svc:
        controller = svc.app.state.runtime.controller
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            for _ in range(3):
                assert client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).status_code == 201
            assert client.get("/healthz").json()["browser"]["endpoints"][0]["sessions"] == 3
            driver = controller.driver_pid
            folders = sorted({Path(arg.split("=", 1)[1]) for pid in controller.browser_pids()
                              for arg in processes.cmdline(pid).split(" ") if arg.startswith("--user-data-dir=")})
            assert folders and all(folder.exists() for folder in folders)
            os.kill(driver, signal.SIGKILL)  # only the driver this test's service started
            for _ in range(100):
                fresh = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")})
                if fresh.status_code == 201:
                    break
                threading.Event().wait(0.2)
            assert fresh.status_code == 201, fresh.text
            # The three lost sessions no longer count on the endpoint: only the new one does.
            assert client.get("/healthz").json()["browser"]["endpoints"][0]["sessions"] == 1
            for _ in range(300):  # up to 30 s: a ceiling for a loaded machine, not a measurement
                if not any(folder.exists() for folder in folders):
                    break
                threading.Event().wait(0.1)
            assert not [str(folder) for folder in folders if folder.exists()]
