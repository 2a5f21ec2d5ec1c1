"""Test harness: a real fixture server and a real Pling service (uvicorn in a thread, port 0) with a
real Chromium. Tests talk to the service over HTTP, as an agent does."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from pling_browser.config import Settings
from pling_browser.lifecycle import LogEvent, ReceiptWarning
from pling_browser.server.api import create_app
from pling_browser.server.limits import uvicorn_options
from pling_browser.server.threaded import UvicornThread

from .server import FixtureServer

# Actions the test service approves without a person: every other danger action is denied.
APPROVED = ("remove", "clear_done", "approved_danger")


# The services running in this process, by URL: a page's session reads its receipts' codes from its own.
SERVICES: dict[str, ServiceThread] = {}


class ServiceThread(UvicornThread):
    """The Pling service of `settings` under uvicorn in a thread, with the limits `pling-browser serve`
    runs with. Prefer `serving(**changes)` (or a fixture built on it), which stops it for you."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        super().__init__(create_app(settings), name="the Pling service", lifespan="on", **uvicorn_options(settings))

    def start(self) -> ServiceThread:
        super().start()
        SERVICES[self.url] = self
        return self

    def stop(self, timeout_s: float = 30) -> None:
        SERVICES.pop(self.url, None)
        super().stop(timeout_s)

    def in_service(self, work: Callable[[Any], Awaitable[Any]], timeout: float = 30) -> Any:
        """Run `work(runtime)` on the service's own event loop, e.g. to play the person in a page."""
        runtime = self.app.state.runtime
        return asyncio.run_coroutine_threadsafe(work(runtime), runtime.loop).result(timeout)


@contextmanager
def serving(settings: Settings | None = None, **changes: Any) -> Iterator[ServiceThread]:
    """A service of its own for a test or a module: `settings`, else `service_settings(**changes)`;
    started on entry, stopped on exit (even when the test fails)."""
    svc = ServiceThread(settings if settings is not None else service_settings(**changes)).start()
    try:
        yield svc
    finally:
        svc.stop()


def service_settings(**changes: Any) -> Settings:
    base = Settings.from_env().with_(
        allow_hosts=("127.0.0.1",), approve=APPROVED, navigation_timeout_ms=5_000, action_timeout_ms=3_000,
        settle_cap_ms=2_000, bridge_grace_s=3.0, max_sessions=16,
        data_dir=Path(tempfile.mkdtemp(prefix="pling-test-")))
    remote = os.environ.get("PLING_TEST_BROWSER_ENDPOINT")
    if remote:  # run the same tests against a remote Playwright browser server
        base = base.with_(browser_endpoints=(remote,))
    return base.with_(**changes)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile` (make test) with the longest files first (tests/schedule.py); other modes as xdist has them."""
    if config.getvalue("dist") != "loadfile":
        return None
    from .schedule import LongestFirst

    # LongestFirst overrides two of xdist's private methods: a release that renames them gets its own loadfile.
    if not all(hasattr(LongestFirst.__mro__[1], name) for name in ("_split_scope", "_assign_work_unit")):
        return None
    return LongestFirst(config, log)


@pytest.fixture(scope="session")
def fixtures() -> Iterator[FixtureServer]:
    server = FixtureServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def service() -> Iterator[ServiceThread]:
    with serving() as svc:
        yield svc


@pytest.fixture(scope="session")
def shim_service() -> Iterator[ServiceThread]:
    """The service with the bridge's WebMCP shim (PLING_BROWSER_WEBMCP=0) instead of the browser's own:
    one for the run, as `service` is (tests/webmcp_fixtures.py's `where` takes either)."""
    with serving(browser_webmcp=False) as svc:
        yield svc


@pytest.fixture(scope="session")
def client(service: ServiceThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=60) as c:
        yield c


PROBLEM_MEMBERS = ("type", "title", "status", "detail", "code")


def problem(answer: httpx.Response) -> dict[str, Any]:
    """The problem details of an HTTP error answer, checked for the RFC 9457 shape every error has
    (media type, `type` /errors#CODE, `status` as answered): read `problem(answer)["code"]`,
    `["detail"]`, `["hint"]` and the error's own members (`issues`, `available`…)."""
    assert answer.status_code >= 400, (answer.status_code, answer.text[:300])
    assert answer.headers.get("content-type") == "application/problem+json", (answer.headers.get("content-type"), answer.text[:300])
    body: dict[str, Any] = answer.json()
    assert all(member in body for member in PROBLEM_MEMBERS), body
    assert body["status"] == answer.status_code and body["type"] == f"/errors#{body['code']}", body
    return body


class Pages:
    """Opens sessions on fixture pages and closes them when the test ends."""

    def __init__(self, client: httpx.Client, fixtures: FixtureServer) -> None:
        self.client = client
        self.fixtures = fixtures
        self.opened: list[str] = []

    def open(self, path: str, **body: Any) -> PageSession:
        answer = self.client.post("/sessions", json={"url": self.fixtures.url(path), **body})
        assert answer.status_code == 201, answer.text
        data = answer.json()
        self.opened.append(data["session"]["id"])
        return PageSession(self.client, data["session"]["id"], data["model"])

    def close_all(self) -> None:
        for sid in self.opened:
            self.client.delete(f"/sessions/{sid}")


class Coded:
    """A receipt's log and warnings as the lifecycle wrote them: codes with their parameters
    (pling_browser/lifecycle/codes.py). Tests read these; the receipt's words are for people."""

    def __init__(self, coded: dict[str, Any]) -> None:
        self.log: list[dict[str, Any]] = coded["log"]
        self.warnings: list[dict[str, Any]] = coded["warnings"]

    def events(self, code: LogEvent) -> list[dict[str, Any]]:
        """The log's entries of one code, in order."""
        return [entry for entry in self.log if entry["code"] == code.value]

    def warned(self, code: ReceiptWarning) -> list[dict[str, Any]]:
        return [entry for entry in self.warnings if entry["code"] == code.value]


def coded(client: httpx.Client, sid: str) -> Coded:
    """The codes of a session's last receipt, from the receipt store of the service `client` talks to
    (a service of this process: kept beside each receipt, never in the receipt an agent reads)."""
    service = SERVICES[str(client.base_url).rstrip("/")]
    found = service.app.state.runtime.store.coded(sid)
    assert found, f"no receipt is stored for session {sid}"
    return Coded(found[-1])


class PageSession:
    def __init__(self, client: httpx.Client, sid: str, model: dict[str, Any]) -> None:
        self.client = client
        self.id = sid
        self.first_model = model

    def model(self, **params: Any) -> dict[str, Any]:
        answer = self.client.get(f"/sessions/{self.id}/model", params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def invoke(self, action: str, args: Any = None, **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"action": action, **extra}
        if args is not None:
            body["args"] = args
        answer = self.client.post(f"/sessions/{self.id}/invoke", json=body)
        assert answer.status_code == 200, answer.text
        return answer.json()["result"]

    def codes(self) -> Coded:
        """The log and warnings of this session's last receipt, as codes."""
        return coded(self.client, self.id)



@pytest.fixture
def pages(client: httpx.Client, fixtures: FixtureServer) -> Iterator[Pages]:
    opened = Pages(client, fixtures)
    yield opened
    opened.close_all()
