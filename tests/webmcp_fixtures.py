"""Fixtures for the WebMCP tests: the same test with the browser's own WebMCP (the service's default,
`--enable-features=WebMCP`) and with the bridge's shim (PLING_BROWSER_WEBMCP=0). Import them into a
test module.

`where` runs a test in both: for what the two WebMCPs do differently (registering, unregistering and
listing tools, the legacy API, the tool events, exposedTo, Pling's exports registered and called,
pages written against either). A test of what Pling does once it knows a tool (validation, risk and
the gates, budgets, receipts and diffs, declarative forms, which the bridge reads itself in both) is
`@mode_independent`: the browser's own WebMCP only, the service's default."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import FixtureServer, Pages, ServiceThread


@pytest.fixture(params=["browser", "shim"])
def where(request: pytest.FixtureRequest, service: ServiceThread, fixtures: FixtureServer) -> Iterator[tuple[ServiceThread, Pages]]:
    svc = service if request.param == "browser" else request.getfixturevalue("shim_service")
    # The tests branch on this setting: a fixture handing the wrong service would pass in the wrong mode.
    assert svc.app.state.runtime.settings.browser_webmcp is (request.param == "browser")
    with httpx.Client(base_url=svc.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield svc, opened
        opened.close_all()


# The mode does not change what is under test: `where` with the browser's own WebMCP only.
mode_independent = pytest.mark.parametrize("where", ["browser"], indirect=True)


def in_page(svc: ServiceThread, sid: str, script: str, arg: Any = None) -> Any:
    """Run `script` in the session's page, as an in-page WebMCP agent would (outside any invocation)."""
    async def run(runtime: Any) -> Any:
        return await runtime.sessions.get(sid).page.evaluate(script, arg)
    return svc.in_service(run, timeout=60)


def browser_tools(svc: ServiceThread, sid: str) -> Any:
    """What the browser's own WebMCP lists, through Playwright's page.webmcp (None: it has none)."""
    async def look(runtime: Any) -> Any:
        page = runtime.sessions.get(sid).page
        native = await page.evaluate("() => Object.prototype.toString.call(document.modelContext)")
        return await asyncio.wait_for(page.webmcp.tools(), 10) if native == "[object ModelContext]" else None
    return svc.in_service(look)


def browser_call(svc: ServiceThread, sid: str, name: str, arguments: Any) -> Any:
    """A tool call through Playwright's page.webmcp.call_tool, as Playwright MCP makes it."""
    async def call(runtime: Any) -> Any:
        return await runtime.sessions.get(sid).page.webmcp.call_tool(name, arguments, timeout=30_000)
    return svc.in_service(call, timeout=60)
