"""Issue 14: attacks from a hostile page, a confused agent and another local process, each
reproduced against a real service and a real Chromium. Anything that could leave is aimed at a
loopback canary (a listener on an unlisted 127.0.0.1 port) that counts what reaches it."""

from __future__ import annotations

import json
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
