"""The pytest plugin: a ``pling`` fixture that opens pages and answers typed receipts.

Installing pling-browser registers it (the ``pytest11`` entry point ``pling_browser``). It adds one
command-line option and two fixtures, and does nothing else until a test asks for ``pling``:
importing it loads neither Playwright nor the service (``-p no:pling_browser`` turns it off).

    def test_add_a_task(pling):
        page = pling.open("http://127.0.0.1:8080/todos.html")
        receipt = page.invoke("add_todo", {"text": "Buy milk"})
        assert receipt.ok, receipt.error
        assert receipt.changed.records["task"].added == ["t15"]

The fixture is ``pling_browser.Client`` over HTTP, so tests read exactly what an agent reads. The
service is the one at ``--pling-url`` (or ``PLING_URL``) when given; otherwise the plugin starts
one in this process on first use (a thread, a free loopback port, a temporary data directory),
once per test session. That service takes its settings from the environment (``PLING_APPROVE``,
``PLING_SECRETS``, …) and also allows loopback hosts, where a test's pages usually are. Each test
gets fresh sessions, closed when it ends.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .agents.client import Client, PageSession

__all__ = ["PlingPages"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pling", "Pling browser")
    group.addoption("--pling-url", action="store", default=None, metavar="URL",
                    help="the Pling service the `pling` fixture talks to (default: $PLING_URL, else one started "
                         "in this process when a test first uses the fixture)")


class PlingPages:
    """What the ``pling`` fixture gives a test: ``open(url)`` answers a ``PageSession`` whose
    ``invoke`` and ``call_tool`` answer ``Receipt`` objects; its sessions close when the test ends."""

    def __init__(self, client: Client, service_url: str) -> None:
        self.client = client
        self.service_url = service_url
        self._opened: list[PageSession] = []

    def open(self, url: str | None = None, *, timeout_ms: int | None = None) -> PageSession:
        """Open a page (the service's own demo when `url` is None) in a fresh session."""
        page = self.client.open(url, timeout_ms=timeout_ms)
        self._opened.append(page)
        return page

    def close(self) -> None:
        from .errors import PlingError

        for page in self._opened:
            try:
                page.close()
            except PlingError:
                pass  # already closed by the test, or the service is gone
        self._opened.clear()


class _LocalService:
    """The HTTP service in a thread of this process, on a free loopback port."""

    def __init__(self, data_dir: Path) -> None:
        from .config import Settings
        from .server.api import create_app
        from .server.limits import uvicorn_options
        from .server.threaded import UvicornThread

        settings = Settings.from_env()
        settings = settings.with_(allow_hosts=settings.allow_hosts + _LOOPBACK, data_dir=data_dir)
        # With the limits `pling-browser serve` runs with: uvicorn's own keep-alive (5 s) closed idle
        # connections as httpx reused them (tests/test_keep_alive.py).
        self.served = UvicornThread(create_app(settings), lifespan="on",
                                    name="the Pling service (is Chromium installed? see PLING_CHROMIUM)",
                                    **uvicorn_options(settings))

    @property
    def url(self) -> str:
        return self.served.url

    def start(self) -> _LocalService:
        self.served.start()
        return self

    def stop(self) -> None:
        self.served.stop()


@pytest.fixture(scope="session")
def pling_service(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of the Pling service the ``pling`` fixture uses."""
    url = request.config.getoption("pling_url") or os.environ.get("PLING_URL")
    if url:
        yield url.rstrip("/")
        return
    service = _LocalService(tmp_path_factory.mktemp("pling-data")).start()
    try:
        yield service.url
    finally:
        service.stop()


@pytest.fixture
def pling(pling_service: str) -> Iterator[PlingPages]:
    """Open pages through Pling: ``pling.open(url).invoke(action, args)`` answers a typed ``Receipt``."""
    from .agents.client import Client

    client = Client(pling_service, token=os.environ.get("PLING_TOKEN") or None)
    pages = PlingPages(client, pling_service)
    try:
        yield pages
    finally:
        pages.close()
        client.close()
