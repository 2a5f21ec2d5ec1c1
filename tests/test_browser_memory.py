"""What a session costs in memory: no hidden browser UI is built per context (headless Chromium 156
makes each window's omnibox popup a WebUI page in a renderer of its own, ~43 MB PSS per session)."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import ServiceThread
from .server import FixtureServer


def test_no_hidden_browser_ui_renderer_per_context(client: httpx.Client, service: ServiceThread,
                                                   fixtures: FixtureServer) -> None:
    opened = [client.post("/sessions", json={"url": fixtures.url("pages/egress/probe.html")}) for _ in range(2)]
    assert all(answer.status_code == 201 for answer in opened), [answer.text for answer in opened]

    async def targets(runtime: Any) -> list[dict[str, Any]]:
        browser = runtime.controller.endpoints[0].browser
        cdp = await browser.new_browser_cdp_session()
        try:
            return (await cdp.send("Target.getTargets", {"filter": [{}]}))["targetInfos"]
        finally:
            await cdp.detach()
    try:
        found = service.in_service(targets)
        assert sum(target["type"] == "page" for target in found) >= 2
        assert [t["url"] for t in found if t["type"] == "browser_ui" or "top-chrome" in t["url"]] == []
    finally:
        for answer in opened:
            client.delete(f"/sessions/{answer.json()['session']['id']}")
