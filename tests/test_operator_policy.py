"""A page cannot forge the bridge's answers: a ``then`` on Object.prototype is never consulted for
what the bridge resolves or awaits, and the operator's raised risk holds in the controller whatever
the page answers about itself (SECURITY.md, "Operator policy")."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .conftest import Pages, ServiceThread, serving
from .server import FixtureServer


@pytest.fixture(scope="module")
def strict_service() -> Iterator[ServiceThread]:
    # wipe is raised to danger by the operator; nothing approves danger and no person can be asked.
    with serving(risks=(("wipe", "danger"),), approve=(), confirm="none",
                 expect_timeout_ms=500) as svc:
        yield svc


@pytest.fixture
def strict(strict_service: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=strict_service.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def _state(page: object, key: str) -> object:
    return page.model()["state"][key]["value"]  # type: ignore[attr-defined]


def test_an_expectation_that_never_held_is_not_reported_as_held(strict: Pages) -> None:
    page = strict.open("pages/hostile/thenable.html")
    receipt = page.invoke("save")
    assert receipt["ok"] is False, receipt
    assert receipt["error"]["code"] == "EXPECTATION_FAILED"
    assert receipt.get("verified") is not True and receipt["error"]["started"] is True
    assert _state(page, "saved") == 1
    assert _state(page, "forged") == 0


def test_a_raised_risk_holds_when_the_page_lowers_it(strict: Pages) -> None:
    page = strict.open("pages/hostile/thenable.html")
    receipt = page.invoke("wipe")
    assert receipt["ok"] is False and receipt["error"]["code"] == "PERMISSION_DENIED", receipt
    assert receipt["error"]["risk"] == "danger" and receipt["error"]["started"] is False
    assert _state(page, "wiped") == 0
    # The page itself still runs what it may: a read action answers normally.
    assert page.invoke("pong")["data"] == "pong"


@pytest.fixture(scope="module")
def asking_service() -> Iterator[ServiceThread]:
    # The operator wants to be asked before publish_draft, wherever it runs; nobody can be asked.
    with serving(ask=("publish_draft",), approve=(), confirm="none") as svc:
        yield svc


def test_pling_ask_holds_for_a_step_of_a_flow(asking_service: ServiceThread, fixtures: FixtureServer) -> None:
    with httpx.Client(base_url=asking_service.url, timeout=60) as client:
        pages = Pages(client, fixtures)
        try:
            page = pages.open("pages/flows/orders.html")
            receipt = page.invoke("publish")
            assert receipt["ok"] is False and receipt["error"]["code"] == "STEP_FAILED", receipt
            assert receipt["error"]["step"] == 2
            assert receipt["error"]["step_error"]["code"] == "PERMISSION_DENIED"
            assert _state(page, "saves") == 1 and _state(page, "published") is False
            direct = page.invoke("publish_draft")
            assert direct["ok"] is False and direct["error"]["code"] == "PERMISSION_DENIED"
        finally:
            pages.close_all()


def test_a_raised_risk_holds_after_the_page_reloads(strict: Pages) -> None:
    import time

    page = strict.open("pages/hostile/reloads.html")
    assert page.invoke("wipe")["error"]["code"] == "PERMISSION_DENIED"
    page.invoke("reload")
    deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
    while _state(page, "loads") != 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _state(page, "loads") == 2
    # The model of the new document shows the raised risk too (the policy is in every document).
    assert {a["id"]: a["risk"] for a in page.model()["actions"]}["wipe"] == "danger"
    receipt = page.invoke("wipe")
    assert receipt["ok"] is False and receipt["error"]["code"] == "PERMISSION_DENIED", receipt
    assert _state(page, "wiped") == 0
