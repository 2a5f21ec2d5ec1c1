"""Issue 14: attacks from a hostile page, a confused agent and another local process, each
reproduced against a real service and a real Chromium. Anything that could leave is aimed at a
loopback canary (a listener on an unlisted 127.0.0.1 port) that counts what reaches it."""

from __future__ import annotations

import base64
import json
import stat
import socket
import threading
from typing import Iterator
from urllib.parse import parse_qs, unquote, urlsplit

import httpx
import pytest

from .conftest import Pages, ServiceThread, service_settings
from .server import FixtureServer

CARD = "4111111111111111"
API_KEY = "sk-live-0123456789abcdef"


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    secrets = tmp_path_factory.mktemp("secrets") / "secrets.env"
    secrets.write_text(f"CARD={CARD}\nAPI_KEY={API_KEY}\n")
    svc = ServiceThread(service_settings(secrets_file=str(secrets))).start()
    yield svc
    svc.stop()


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
            except socket.timeout:
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
    svc = ServiceThread(service_settings(browser_endpoints=(bare.url,))).start()
    try:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            answer = client.post("/sessions", json={"url": fixtures.url("pages/security/webrtc.html")})
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "BROWSER_UNAVAILABLE"
            endpoint = client.get("/healthz").json()["browser"]["endpoints"][0]
            assert endpoint["up"] is False and WEBRTC_POLICY in endpoint["last_error"]
    finally:
        svc.stop()
        bare.stop()


def test_webrtc_sends_no_udp_from_a_remote_browser(fixtures: FixtureServer, udp_canary: UdpCanary) -> None:
    from .spawn import BrowserServer

    server = BrowserServer().start()
    svc = ServiceThread(service_settings(browser_endpoints=(server.url,))).start()
    try:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            opened = Pages(client, fixtures)
            page = opened.open("pages/security/webrtc.html")
            assert page.invoke("gather", {"host": "127.0.0.1", "port": udp_canary.port})["ok"] is True
            assert udp_canary.datagrams == 0
            opened.close_all()
    finally:
        svc.stop()
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
            except socket.timeout:
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
