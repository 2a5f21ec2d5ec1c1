"""Actions that leave the document, against the server-rendered task app (fixtures/apps/ssr): a real
HTTP server on port 0 with its request log, a real Pling service and Chromium, no mocks. The service
approves the app's `delete`, `delete_task` and `remove` (danger) by operator policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ..apps import SsrApp
from ..conftest import APPROVED, PageSession, ServiceThread, serving

CARD = "4000 1234 5678 9010"  # an operator secret (PLING_SECRETS) the agent refers to as <secret>CARD</secret>


@pytest.fixture(scope="session")
def nav_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    # 127.0.0.1 on any port; the app's `external` link (127.0.0.2) stays refused.
    secrets = tmp_path_factory.mktemp("nav-secrets") / "secrets.env"
    secrets.write_text(f"CARD={CARD}\n")
    with serving(approve=APPROVED + ("delete", "delete_task", "remove"), navigation_settle_s=5.0,
                 secrets_file=str(secrets)) as svc:
        yield svc


@pytest.fixture(scope="session")
def nav_client(nav_service: ServiceThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=nav_service.url, timeout=60) as c:
        yield c


class Tab(PageSession):
    """One session of the Pling service on the task app, used as an agent uses it: over HTTP."""

    def resume(self, handle: str, **extra: Any) -> httpx.Response:
        return self.client.post(f"/sessions/{self.id}/resume", json={"handle": handle, **extra})


class Opener:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.opened: list[str] = []

    def open(self, url: str) -> Tab:
        answer = self.client.post("/sessions", json={"url": url})
        assert answer.status_code == 201, answer.text
        data = answer.json()
        self.opened.append(data["session"]["id"])
        return Tab(self.client, data["session"]["id"], data["model"])

    def close_all(self) -> None:
        for sid in self.opened:
            self.client.delete(f"/sessions/{sid}")


@pytest.fixture
def opener(nav_client: httpx.Client) -> Iterator[Opener]:
    opened = Opener(nav_client)
    yield opened
    opened.close_all()


@pytest.fixture(params=[0, 150], ids=["model-on-time", "model-150ms-late"])
def app(request: pytest.FixtureRequest) -> Iterator[SsrApp]:
    """The task app, its model scripts served at once or 150 ms late (the document loads, then
    declares itself only later)."""
    with SsrApp(model_delay_ms=request.param) as running:
        yield running
