"""Owns Playwright: the driver, the browser and one context per session. It is also the one place
where Playwright's errors become Pling errors (``translate_playwright_errors``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import TYPE_CHECKING, AsyncIterator, Callable

from . import processes
from .bridge import bridge_source
from .config import Settings
from .egress import EgressProxy, Policy
from .errors import (BrowserUnavailable, NavigationRefused, PageLoadTimeout, PageUnreachable, PageUnresponsive,
                     PlingError, SessionLost)

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

log = logging.getLogger("pling_browser")

# Chromium needs these on a closed network: no GPU, and none of the background connections that the
# machine's network would refuse many times a second. As root, Chromium's sandbox cannot start, so
# `--no-sandbox` is added then (SECURITY.md says what that means).
CHROMIUM_ARGS = (
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate",
)

def chromium_args() -> list[str]:
    return list(CHROMIUM_ARGS) + (["--no-sandbox"] if os.geteuid() == 0 else [])


_CLOSED_MARKERS = ("Target page, context or browser has been closed", "Target closed", "Browser has been closed",
                   "Connection closed", "browser has disconnected", "Execution context was destroyed")


def translate(error: BaseException) -> PlingError:
    """Map one Playwright exception to the Pling error that says what it means for the caller."""
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    message = str(error).splitlines()[0] if str(error) else type(error).__name__
    if isinstance(error, PlaywrightTimeout):
        return PageUnresponsive(f"The browser did not answer in time: {message}")
    if isinstance(error, PlaywrightError):
        if any(marker.lower() in message.lower() for marker in _CLOSED_MARKERS):
            return SessionLost(f"The page or browser is gone: {message}")
        if "net::ERR_" in message or "NS_ERROR" in message:
            return PageUnreachable(f"The page could not be loaded: {message}")
        return PageUnresponsive(f"The browser reported an error: {message}")
    return PageUnresponsive(f"The browser connection failed: {message}")


@contextlib.asynccontextmanager
async def translate_playwright_errors() -> AsyncIterator[None]:
    from playwright.async_api import Error as PlaywrightError

    try:
        yield
    except PlaywrightError as error:
        raise translate(error) from error


class Controller:
    """One Playwright driver and one browser for the service; a fresh context for every session."""

    def __init__(self, settings: Settings, policy: Policy | None = None) -> None:
        self.settings = settings
        self.policy = policy or Policy(settings.allow_hosts)
        self._playwright: "Playwright | None" = None
        self._browser: "Browser | None" = None
        self._lock = asyncio.Lock()
        self.launches = 0
        self.driver_pid: int | None = None
        self._browser_pids: list[int] = []
        self.on_browser_lost: Callable[[str], None] | None = None

    @property
    def browser_status(self) -> dict[str, object]:
        browser = self._browser
        return {
            "connected": bool(browser and browser.is_connected()),
            "version": browser.version if browser and browser.is_connected() else None,
            "executable": self.settings.chromium or "playwright's chromium",
            "launches": self.launches,
            "processes": len(self.browser_pids()),
        }

    async def start(self) -> None:
        await self._ensure_browser()

    async def stop(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), 10)
        await self._stop_playwright()
        processes.kill(self._browser_pids)

    async def _stop_playwright(self) -> None:
        playwright, self._playwright = self._playwright, None
        if playwright is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(playwright.stop(), 10)
        if self.driver_pid is not None:
            processes.kill([self.driver_pid])
            self.driver_pid = None

    def browser_pids(self) -> list[int]:
        """The Chromium processes of the current browser (descendants of our driver)."""
        if self.driver_pid is None:
            return []
        return [pid for pid in processes.descendants(self.driver_pid) if processes.alive(pid)]

    async def _start_playwright(self) -> None:
        from playwright.async_api import async_playwright

        before = set(processes.children(os.getpid()))
        self._playwright = await async_playwright().start()
        drivers = [pid for pid in processes.children(os.getpid())
                   if pid not in before and "run-driver" in processes.cmdline(pid)]
        self.driver_pid = drivers[0] if drivers else None

    async def _ensure_browser(self) -> "Browser":
        async with self._lock:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            from playwright.async_api import Error as PlaywrightError

            options: dict[str, object] = {"headless": self.settings.headless, "args": chromium_args()}
            if self.settings.chromium:
                options["executable_path"] = self.settings.chromium
            for attempt in (1, 2):
                try:
                    if self._playwright is None:
                        await self._start_playwright()
                    assert self._playwright is not None
                    self._browser = await asyncio.wait_for(self._playwright.chromium.launch(**options), 60)  # type: ignore[arg-type]
                    break
                except (PlaywrightError, asyncio.TimeoutError, OSError) as error:
                    # A dead driver fails every call: start a new one and try once more.
                    await self._stop_playwright()
                    if attempt == 2:
                        message = str(error).splitlines()[0] if str(error) else type(error).__name__
                        raise BrowserUnavailable(f"Chromium could not be started: {message}") from error
            self.launches += 1
            self._browser.on("disconnected", self._lost)
            self._browser_pids = self.browser_pids()
            log.info("browser %s started (%s)", self._browser.version, self.settings.chromium or "bundled")
            return self._browser

    def _lost(self, browser: "Browser") -> None:
        if browser is not self._browser:
            return
        self._browser = None
        self.lost_at = time.monotonic()
        log.warning("the browser disconnected; its sessions are lost, and a new browser is being started")
        if self.on_browser_lost is not None:
            self.on_browser_lost("the browser process exited")
        asyncio.ensure_future(self._relaunch(list(self._browser_pids)))

    async def _relaunch(self, old_pids: list[int]) -> None:
        await asyncio.sleep(0.5)  # let the old tree exit by itself first
        processes.kill(old_pids)  # whatever did not: only PIDs we started
        with contextlib.suppress(Exception):
            await self._ensure_browser()

    async def new_context(self) -> tuple["BrowserContext", EgressProxy]:
        """A fresh context whose every connection goes through its own egress proxy."""
        try:
            return await self._new_context()
        except SessionLost:
            # The browser or its driver died without telling us: start over once.
            await self._reset("the browser or its driver stopped answering")
            return await self._new_context()

    async def _reset(self, reason: str) -> None:
        old_pids = list(self._browser_pids)
        browser, self._browser = self._browser, None
        if browser is not None and self.on_browser_lost is not None:
            self.on_browser_lost(reason)
        await self._stop_playwright()
        processes.kill(old_pids)

    async def _new_context(self) -> tuple["BrowserContext", EgressProxy]:
        browser = await self._ensure_browser()
        proxy = await EgressProxy(self.policy).start()
        try:
            async with translate_playwright_errors():
                context = await asyncio.wait_for(browser.new_context(
                    viewport={"width": 1280, "height": 800}, accept_downloads=False, service_workers="block",
                    proxy={"server": f"http://127.0.0.1:{proxy.port}", "bypass": "<-loopback>"}), 30)
                await context.add_init_script(bridge_source())
        except BaseException:
            await proxy.stop()
            raise
        context.on("close", lambda _: asyncio.ensure_future(proxy.stop()))
        # Popups are not followed: a page that floods window.open gets them closed at once.
        context.on("page", _close_popup)
        return context, proxy

    async def open_page(self, context: "BrowserContext", url: str, timeout_ms: int) -> "Page":
        async with translate_playwright_errors():
            page = await context.new_page()
        page.set_default_timeout(self.settings.action_timeout_ms)
        page.on("dialog", _dismiss_dialog)
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        try:
            response = await asyncio.wait_for(page.goto(url, wait_until="load", timeout=timeout_ms),
                                              timeout_ms / 1000 + self.settings.bridge_grace_s)
        except (PlaywrightTimeout, asyncio.TimeoutError):
            raise PageLoadTimeout(f"{url} did not finish loading within {timeout_ms} ms") from None
        except PlaywrightError as error:
            raise translate(error) from error
        if response is not None and response.headers.get("x-pling-refused"):
            raise NavigationRefused(f"{response.url} was refused: {(await response.text())[:300]}")
        if response is not None and response.headers.get("x-pling-unreachable"):
            raise PageUnreachable(f"{response.url} could not be reached: {(await response.text())[:300]}")
        if response is not None and response.status >= 400:
            raise PageUnreachable(f"{url} answered HTTP {response.status}", status_code=response.status)
        return page


async def _close_popup(page: "Page") -> None:
    with contextlib.suppress(Exception):
        if await page.opener() is not None:
            await page.close()


async def _dismiss_dialog(dialog: object) -> None:
    # alert/confirm/prompt would block the page's script, and with it every bridge call.
    with contextlib.suppress(Exception):
        await dialog.dismiss()  # type: ignore[attr-defined]
