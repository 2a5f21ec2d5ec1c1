"""Issue 14: attacks from a hostile page, a confused agent and another local process, each
reproduced against a real service and a real Chromium. Anything that could leave is aimed at a
loopback canary (a listener on an unlisted 127.0.0.1 port) that counts what reaches it."""

from __future__ import annotations

import json
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
