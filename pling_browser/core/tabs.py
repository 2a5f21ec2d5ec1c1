"""A session's tabs (SPEC: tabs in the HTTP API). The page a session opened is tab ``t1``; a page an
action opens (``target=_blank``, ``window.open``) becomes the next tab, with a stable id never reused,
its own bridge, and an entry in the tab log that the invocation reports as ``changed.tabs.opened``.
At most ``MAX_TABS`` are kept: a page opened past that (a popup flood) is closed at once and reported
in ``changed.tabs.closed``. Closing the active tab activates the one active before it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bridge import Bridge

if TYPE_CHECKING:
    from playwright.async_api import Page

log = logging.getLogger("pling_browser.tabs")

MAX_TABS = 8
LOG_KEPT = 200


@dataclass
class Tab:
    id: str
    page: Page
    bridge: Bridge
    opener: str | None = None

    def info(self, active: bool) -> dict[str, Any]:
        try:
            url = self.page.url
        except Exception:
            url = ""
        return {"id": self.id, "url": url, "active": active, "opener": self.opener}


@dataclass
class TabEvent:
    seq: int
    kind: str  # "opened" | "closed"
    tab: str
    url: str
    reason: str | None = None


@dataclass
class Tabs:
    """The tabs of one session, in the order they were opened; ``history`` is the activation order."""

    first: Tab
    grace_s: float
    budget_ms: float
    tabs: dict[str, Tab] = field(default_factory=dict)
    history: list[str] = field(default_factory=list)
    events: list[TabEvent] = field(default_factory=list)
    seq: int = 0
    _next: int = 2
    _adopting: int = 0
    _pending: set[asyncio.Task[None]] = field(default_factory=set)
    # Called with each tab adopted after the first (runtime/exported.py listens to its exports).
    on_adopted: list[Callable[[Tab], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tabs[self.first.id] = self.first
        self.history.append(self.first.id)
        self._watch_close(self.first)

    @property
    def active(self) -> Tab:
        return self.tabs[self.history[-1]]

    def get(self, tab_id: str) -> Tab | None:
        return self.tabs.get(tab_id)

    def listing(self) -> list[dict[str, Any]]:
        active = self.history[-1]
        return [tab.info(tab.id == active) for tab in self.tabs.values()]

    def activate(self, tab_id: str) -> Tab:
        tab = self.tabs[tab_id]
        if tab_id in self.history:
            self.history.remove(tab_id)
        self.history.append(tab_id)
        return tab

    def _log(self, kind: str, tab: str, url: str, reason: str | None = None) -> None:
        self.seq += 1
        self.events.append(TabEvent(self.seq, kind, tab, url[:500], reason))
        del self.events[:-LOG_KEPT]

    def since(self, mark: int) -> list[TabEvent]:
        return [event for event in self.events if event.seq > mark]

    # -- pages the session's pages open ---------------------------------------------------------

    def on_page(self, page: Page) -> None:
        """The context opened a page: adopt it as a tab (or close it past MAX_TABS)."""
        if any(tab.page is page for tab in self.tabs.values()):
            return
        tab_id = f"t{self._next}"
        self._next += 1
        # Decided now, in arrival order: a flood's later pages find the slots taken.
        if len(self.tabs) + self._adopting >= MAX_TABS:
            task = asyncio.ensure_future(self._refuse(page, tab_id))
        else:
            self._adopting += 1
            task = asyncio.ensure_future(self._adopt(page, tab_id))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def arrived(self, mark: int, expected: int, timeout_s: float = 3.0) -> None:
        """Wait (bounded) until the ``expected`` windows a page asked to open since ``mark`` were
        adopted or closed, and for the pages being adopted now."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while len(self.since(mark)) < expected and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)
        if self._pending:
            await asyncio.wait(list(self._pending), timeout=max(0.1, deadline - asyncio.get_running_loop().time()))

    async def _refuse(self, page: Page, tab_id: str) -> None:
        url = page.url
        with contextlib.suppress(Exception):
            await page.close()
        self._log("closed", tab_id, url, f"the session keeps at most {MAX_TABS} tabs")

    async def _adopt(self, page: Page, tab_id: str) -> None:
        try:
            await self._adopting_page(page, tab_id)
        finally:
            self._adopting -= 1

    async def _adopting_page(self, page: Page, tab_id: str) -> None:
        opener = None
        with contextlib.suppress(Exception):
            opener_page = await page.opener()
            opener = next((tab.id for tab in self.tabs.values() if tab.page is opener_page), None)
        try:
            with contextlib.suppress(Exception):
                await page.wait_for_load_state("domcontentloaded", timeout=self.budget_ms)
            bridge = await Bridge.attach(page, self.grace_s, self.budget_ms)
        except Exception as error:  # the page closed while it was adopted
            log.info("a page the session opened could not be adopted: %s", str(error)[:200])
            self._log("closed", tab_id, page.url, "it closed before it could be used")
            return
        tab = Tab(tab_id, page, bridge, opener)
        self.tabs[tab_id] = tab
        self._log("opened", tab_id, page.url)
        self._watch_close(tab)
        for hook in list(self.on_adopted):
            try:
                hook(tab)
            except Exception:  # a listener's trouble never keeps a tab from being adopted
                log.exception("a hook on an adopted tab failed")

    def _watch_close(self, tab: Tab) -> None:
        tab.page.on("close", lambda _: self._closed(tab.id, "closed by the page"))

    def _closed(self, tab_id: str, reason: str) -> None:
        tab = self.tabs.pop(tab_id, None)
        if tab is None:
            return
        with contextlib.suppress(ValueError):
            self.history.remove(tab_id)
        self._log("closed", tab_id, tab.page.url, reason)

    async def close(self, tab_id: str) -> Tab | None:
        """Close a tab; the one active before it becomes active (answered), or None if it was not."""
        tab = self.tabs[tab_id]
        was_active = self.history[-1] == tab_id
        self._closed(tab_id, "closed on request")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(tab.page.close(), 5)
        return self.active if was_active and self.tabs else None
