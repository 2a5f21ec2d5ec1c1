"""Remote browser servers (PLING_BROWSER_ENDPOINT): what a server launched by someone else must have
before any session goes to it, and what to say when one cannot be used."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from ..errors import BrowserUnavailable

if TYPE_CHECKING:
    from playwright.async_api import Browser

# WebRTC would otherwise send UDP (STUN/TURN, host candidates) straight from the browser, around the
# egress proxy: only proxied traffic is allowed, and the proxy carries no UDP.
WEBRTC_POLICY = "--webrtc-ip-handling-policy=disable_non_proxied_udp"


async def require_webrtc_policy(browser: Browser, url: str) -> None:
    """A remote browser server is launched by someone else: use it only when its command line has the
    WebRTC policy (read from chrome://version in a context of its own, without the egress proxy, that
    opens nothing else), so no page of ours can send UDP around its egress proxy."""
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto("chrome://version", timeout=10_000)
        command_line = await page.locator("#command_line").inner_text(timeout=5_000)
    finally:
        with contextlib.suppress(Exception):
            await context.close()
    if WEBRTC_POLICY not in command_line.split():
        raise BrowserUnavailable(
            f"The browser server at {url} was launched without {WEBRTC_POLICY}: its pages could send UDP "
            "(WebRTC) around the egress proxy. Add that argument to the server's launch arguments "
            "(docker/browser-server.json has it).")


def endpoint_problem(url: str, message: str) -> str:
    from importlib.metadata import version

    ours = version("playwright")
    if "428" in message or "version" in message.lower():
        return (f"The browser server at {url} runs a different Playwright version than this service "
                f"(client {ours}; major.minor must match): {message}")
    return f"The browser server at {url} cannot be reached: {message}"
