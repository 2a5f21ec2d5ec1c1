"""Where browsers come from: the local launch (Chromium's flags on a closed network) or a remote
Playwright browser server, each an ``Endpoint`` that fails only its own sessions and is retried with
backoff. core/browsers.py's Controller starts, watches and restarts them."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .remote import WEBRTC_POLICY

if TYPE_CHECKING:
    from playwright.async_api import Browser


# Chromium needs these on a closed network: no GPU, and none of the background connections that the
# machine's network would refuse many times a second. As root, Chromium's sandbox cannot start, so
# `--no-sandbox` is added then (SECURITY.md says what that means). WEBRTC_POLICY: see core/remote.py.
# Headless Chromium 156 still builds each window's omnibox popup as WebUI (chrome://omnibox-popup.top-chrome,
# a renderer of its own per context, about 43 MB PSS): nobody sees it, so those features are off
# (docs/decisions.md, "Memory per session").
CHROMIUM_ARGS = (
    "--disable-gpu",
    "--disable-quic",
    WEBRTC_POLICY,
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    ("--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate,"
     "WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI"),
)


# The browser's own WebMCP (document.modelContext, declarative <form toolname> tools, Playwright's
# page.webmcp), in Chromium builds that have it behind this feature; builds without it ignore the switch.
WEBMCP_FEATURE = "--enable-features=WebMCP"


def chromium_args(webmcp: bool = True) -> list[str]:
    return list(CHROMIUM_ARGS) + ([WEBMCP_FEATURE] if webmcp else []) + (["--no-sandbox"] if os.geteuid() == 0 else [])


@dataclass
class Endpoint:
    """Where browsers come from: the local launch (`url` None) or a remote Playwright browser server.
    A lost endpoint fails only its own sessions and is retried with backoff."""

    url: str | None
    browser: Browser | None = None
    sessions: int = 0
    failures: int = 0
    retry_at: float = 0.0
    last_error: str | None = None
    launches: int = 0
    pids: list[int] = field(default_factory=list)
    # The launched browser's temporary folders: its profile, and the artifacts folder made for it (the
    # driver removes neither when it is killed).
    profiles: list[str] = field(default_factory=list)
    artifacts: str | None = None
    generation: int = 0  # a new browser, a new count: contexts of a lost one no longer count
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def name(self) -> str:
        return self.url or "local"

    @property
    def up(self) -> bool:
        return self.browser is not None and self.browser.is_connected()

    def status(self) -> dict[str, object]:
        return {"endpoint": self.name, "up": self.up, "sessions": self.sessions, "launches": self.launches,
                "version": self.browser.version if self.up and self.browser else None, "last_error": self.last_error}


BACKOFF_S = (0.5, 1, 2, 4, 8, 15, 30)
