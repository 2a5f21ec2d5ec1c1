"""Owns Playwright's driver and browsers: the local launch or remote browser servers, and a fresh
context (with its own egress proxy) for every session. Errors are translated by core/playwright.py."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..adapters import load_adapters
from ..config import Settings
from ..errors import (
    BrowserUnavailable,
    NavigationRefused,
    PageLoadTimeout,
    PageUnreachable,
    PlingError,
    SessionLost,
)
from . import dialogs, processes
from .adapting import AdapterScripts
from .bridge import Bridge, document_script
from .egress import Budget, EgressProxy, Policy
from .endpoints import BACKOFF_S, Endpoint, chromium_args
from .playwright import driver_pid, read_driver_error, said, translate_playwright_errors
from .remote import WEBRTC_POLICY, endpoint_problem, require_webrtc_policy
from .warm import Prepared, WarmContexts

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

# Importable from here as before: the local launch's flags (tests, bench/floor.py) and the WebRTC policy.
__all__ = ["Controller", "Endpoint", "WEBRTC_POLICY", "adopt_popups", "chromium_args", "egress_cap"]

log = logging.getLogger("pling_browser")


def egress_cap(wanted: int) -> int:
    """Connections all egress proxies may hold at once: `wanted`, never more than a quarter of the
    open-file limit (each holds two descriptors; the HTTP face may hold half) unless that is under 64."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return wanted if soft == resource.RLIM_INFINITY else min(wanted, max(64, soft // 4))


class Controller:
    """One Playwright driver; browsers from the local launch or from remote browser servers
    (PLING_BROWSER_ENDPOINT); a fresh context for every session, on the endpoint with the fewest."""

    def __init__(self, settings: Settings, policy: Policy | None = None) -> None:
        self.settings = settings
        self.policy = policy or Policy(settings.allow_hosts)
        self.egress = Budget(egress_cap(settings.max_egress_connections))
        self._playwright: Playwright | None = None
        self._driver_lock = asyncio.Lock()
        self.driver_pid: int | None = None
        self.endpoints = [Endpoint(url) for url in settings.browser_endpoints] or [Endpoint(None)]
        self.on_browser_lost: Callable[[str, str | None], None] | None = None
        self.stopping = False  # set when the service is told to stop: a browser closing then is expected
        self._tasks: set[asyncio.Task[None]] = set()
        self.adapters = AdapterScripts(load_adapters(settings.adapters))  # read once, at startup
        self.warm = WarmContexts(settings.warm_contexts, self._prepare, self._warm_endpoint)

    @property
    def launches(self) -> int:
        return sum(endpoint.launches for endpoint in self.endpoints)

    @property
    def browser_status(self) -> dict[str, object]:
        up = [endpoint for endpoint in self.endpoints if endpoint.up]
        return {
            "connected": bool(up),
            "version": up[0].browser.version if up and up[0].browser else None,
            "executable": self.settings.chromium or "playwright's chromium",
            "launches": self.launches,
            "processes": len(self.browser_pids()),
            "warm_contexts": len(self.warm),
            "endpoints": [endpoint.status() for endpoint in self.endpoints],
        }

    async def start(self) -> None:
        # What a service killed before it could clean up left behind (its driver and browser are gone).
        await processes.reap([], processes.left_by_the_dead())
        self.stopping = False
        errors: list[BrowserUnavailable] = []
        for endpoint in self.endpoints:
            try:
                await self._ensure(endpoint)
            except BrowserUnavailable as error:
                errors.append(error)
                self._retry_later(endpoint)
        # A missing local Chromium is a setup problem to say at once; remote servers may come later.
        if errors and self.endpoints[0].url is None:
            raise errors[0]
        for failure in errors:
            log.error("%s", failure.message)
        self.warm.refill(0)

    async def stop(self) -> None:
        self.stopping = True  # a recovery ends by it too, should its cancellation be lost (_recover)
        for task in list(self._tasks):
            task.cancel()
        await self.warm.close()
        for endpoint in self.endpoints:
            browser, endpoint.browser = endpoint.browser, None
            if browser is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(browser.close(), 10)
        await self._stop_playwright()
        for endpoint in self.endpoints:
            await processes.reap(endpoint.pids, endpoint.profiles)

    async def _stop_playwright(self) -> None:
        playwright, self._playwright = self._playwright, None
        if playwright is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(playwright.stop(), 10)
        if self.driver_pid is not None:
            processes.kill([self.driver_pid])
            self.driver_pid = None

    def browser_pids(self) -> list[int]:
        """The Chromium processes this service launched itself (descendants of our driver)."""
        if self.driver_pid is None:
            return []
        return [pid for pid in processes.descendants(self.driver_pid) if processes.alive(pid)]

    async def _driver(self) -> Playwright:
        async with self._driver_lock:
            if self._playwright is None:
                from playwright.async_api import async_playwright

                before = set(processes.children(os.getpid()))
                manager = async_playwright()
                self._playwright = await manager.start()
                read_driver_error(manager)
                # The driver this manager started; a new `run-driver` child only where Playwright's client
                # does not say (two runtimes starting at once in one process would take each other's).
                drivers = [pid for pid in processes.children(os.getpid())
                           if pid not in before and "run-driver" in processes.cmdline(pid)]
                self.driver_pid = driver_pid(manager) or (drivers[0] if drivers else None)
            return self._playwright

    async def _ensure(self, endpoint: Endpoint) -> Browser:
        async with endpoint.lock:
            if endpoint.up:
                assert endpoint.browser is not None
                return endpoint.browser
            for attempt in (1, 2):
                try:
                    async with translate_playwright_errors():
                        playwright = await self._driver()
                        async with asyncio.timeout(60):  # not wait_for: a cancellation is never lost
                            endpoint.browser = await self._open_browser(playwright, endpoint)
                    break
                except BrowserUnavailable as error:
                    endpoint.last_error = error.message[:300]
                    raise
                except (PlingError, asyncio.TimeoutError, OSError) as error:
                    message = said(error)  # Playwright's own words: what /healthz shows
                    endpoint.last_error = message[:300]
                    if endpoint.url is not None:
                        raise BrowserUnavailable(endpoint_problem(endpoint.url, message)) from error
                    # A dead driver fails every call: start a new one and try once more.
                    await self._stop_playwright()
                    if attempt == 2:
                        raise BrowserUnavailable(f"Chromium could not be started: {message}") from error
            assert endpoint.browser is not None
            endpoint.launches += 1
            endpoint.failures = 0
            endpoint.last_error = None
            browser = endpoint.browser
            browser.on("disconnected", lambda _: self._lost(endpoint, browser))
            if endpoint.url is None:
                endpoint.pids = self.browser_pids()
                endpoint.profiles = processes.profile_folders(endpoint.pids)
                if endpoint.artifacts:
                    endpoint.profiles.append(endpoint.artifacts)
            log.info("browser %s ready on %s", browser.version, endpoint.name)
            return browser

    async def _open_browser(self, playwright: Playwright, endpoint: Endpoint) -> Browser:
        if endpoint.url is not None:
            browser = await playwright.chromium.connect(endpoint.url, timeout=30_000)
            try:
                await require_webrtc_policy(browser, endpoint.url)
            except BaseException:
                with contextlib.suppress(Exception):
                    await browser.close()
                raise
            return browser
        # The artifacts folder is ours, not the driver's: a killed driver cannot remove it, so it is
        # reaped with the browser's profile (core/processes.py).
        endpoint.artifacts = processes.artifacts_folder()
        options: dict[str, object] = {"headless": self.settings.headless, "args": chromium_args(self.settings.browser_webmcp),
                                      "artifacts_dir": endpoint.artifacts}
        if self.settings.chromium:
            options["executable_path"] = self.settings.chromium
        try:
            return await playwright.chromium.launch(**options)  # type: ignore[arg-type]
        except BaseException:
            await processes.reap([], [endpoint.artifacts])
            raise

    def _lost(self, endpoint: Endpoint, browser: Browser) -> None:
        if endpoint.browser is not browser:
            return
        endpoint.browser = None
        _forget_sessions(endpoint)
        self.warm.lost(endpoint)
        endpoint.last_error = "the browser disconnected"
        if self.stopping:  # Ctrl-C in a terminal reaches the browser's driver too: it closes with the service
            log.info("the browser on %s closed as the service stops", endpoint.name)
            return
        log.warning("the browser on %s disconnected; its sessions are lost", endpoint.name)
        if self.on_browser_lost is not None:
            self.on_browser_lost(f"the browser on {endpoint.name} is gone", endpoint.name)
        self._spawn(self._recover(endpoint, list(endpoint.pids), list(endpoint.profiles)))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _retry_later(self, endpoint: Endpoint) -> None:
        self._spawn(self._recover(endpoint, []))

    async def _recover(self, endpoint: Endpoint, old_pids: list[int], old_profiles: list[str] | None = None) -> None:
        """Reap what is left of the old browser, then bring the endpoint back, with backoff."""
        await asyncio.sleep(0.5)
        await processes.reap(old_pids, old_profiles or [])  # only PIDs we started, whatever did not exit by itself
        # Ends when the controller stops too: a cancellation lost inside an attempt (Python 3.11's
        # asyncio.wait_for) left it retrying after the service had stopped.
        while not endpoint.up and not self.stopping:
            try:
                await self._ensure(endpoint)
            except Exception:
                if self.stopping:
                    return
                endpoint.failures += 1
                delay = BACKOFF_S[min(endpoint.failures, len(BACKOFF_S)) - 1]
                endpoint.retry_at = time.monotonic() + delay
                await asyncio.sleep(delay)

    def _pick(self) -> list[Endpoint]:
        """Endpoints to try, fewest sessions first; those backing off come last."""
        now = time.monotonic()
        return sorted(self.endpoints, key=lambda e: (not e.up and e.retry_at > now, e.sessions))

    async def new_context(self, storage_state: dict[str, Any] | None = None) -> Prepared:
        """A context of its own for a session, on the least busy endpoint: one prepared ahead when there
        is one (core/warm.py), else a fresh one (with a profile's cookies and storage: always fresh);
        its every connection goes through its own proxy. Either way with its blank page and that page's
        bridge attached, so the controller's binding is on every document the page loads before any
        of its scripts runs (navigate.js): a document loaded before the attach would have had it set on
        a global its scripts already ran on, and could take it."""
        problem: BrowserUnavailable | None = None
        for endpoint in self._pick():
            prepared = await self.warm.take(endpoint) if storage_state is None else None
            if prepared is not None:
                return self._count(prepared)
            try:
                try:
                    return self._count(await self._prepare(endpoint, storage_state))
                except SessionLost:
                    # The browser or its driver died without telling us: start over once.
                    await self._reset(endpoint, "the browser or its driver stopped answering")
                    return self._count(await self._prepare(endpoint, storage_state))
            except BrowserUnavailable as error:
                problem = error
                self._retry_later(endpoint)
        raise problem or BrowserUnavailable("No browser endpoint is configured")

    async def _reset(self, endpoint: Endpoint, reason: str) -> None:
        browser, endpoint.browser = endpoint.browser, None
        if browser is not None and self.on_browser_lost is not None:
            self.on_browser_lost(reason, None)
        await self._stop_playwright()
        _forget_sessions(endpoint)
        await processes.reap(endpoint.pids, endpoint.profiles)

    def _warm_endpoint(self) -> Endpoint | None:
        """Where the next context is prepared ahead: the endpoint a session would go to now, if it is up."""
        endpoint = self._pick()[0]
        return endpoint if endpoint.up else None

    async def _prepare(self, endpoint: Endpoint, storage_state: dict[str, Any] | None = None) -> Prepared:
        """A new context on `endpoint`, with its own egress proxy, its first page (about:blank, its
        renderer started) and that page's bridge."""
        browser = await self._ensure(endpoint)
        generation = endpoint.generation
        proxy = await EgressProxy(self.policy, bind=self.settings.egress_bind, budget=self.egress).start()
        context: BrowserContext | None = None
        try:
            async with translate_playwright_errors():
                context = made = await asyncio.wait_for(browser.new_context(
                    viewport={"width": 1280, "height": 800}, accept_downloads=False, service_workers="block",
                    proxy={"server": f"http://{self.settings.egress_advertise or '127.0.0.1'}:{proxy.port}",
                           "bypass": "<-loopback>", "username": proxy.username, "password": proxy.password},
                    storage_state=storage_state), 30)  # type: ignore[arg-type]  # a saved state is StorageState's dict
                made.on("close", lambda _: self._spawn(proxy.stop()))
                # Popups are not followed: a page that floods window.open gets them closed at once.
                made.on("page", _close_popup)
                await made.add_init_script(document_script(dict(self.settings.risks)))
                await self.adapters.install(made)  # after the bridge: adapters declare through it
                prepared = Prepared(made, proxy, endpoint, generation)
                prepared.page = await asyncio.wait_for(made.new_page(), 30)
                # The bridge's binding now reaches every document this page loads before its scripts run.
                prepared.bridge = await Bridge.attach(prepared.page, self.settings.bridge_grace_s,
                                                      max(5_000, self.settings.action_timeout_ms))
        except BaseException:
            if context is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(context.close(), 5)
            await proxy.stop()
            raise
        return prepared

    def _count(self, prepared: Prepared) -> Prepared:
        """The context is a session's from now on: it counts on its endpoint until it closes."""
        endpoint, generation = prepared.endpoint, prepared.generation
        endpoint.sessions += 1

        def closed(_: object) -> None:
            if endpoint.generation == generation:
                endpoint.sessions = max(0, endpoint.sessions - 1)

        prepared.context.on("close", closed)
        return prepared

    async def open_page(self, context: BrowserContext, url: str, timeout_ms: int, page: Page | None = None) -> Page:
        """Load `url` in the context's page (`page`, prepared ahead, or a new one)."""
        if page is None:
            async with translate_playwright_errors():
                page = await context.new_page()
        page.set_default_timeout(self.settings.action_timeout_ms)
        page.on("dialog", dialogs.on_dialog)

        def load_timeout(_: str = "") -> PageLoadTimeout:
            return PageLoadTimeout(f"{url} did not finish loading within {timeout_ms} ms")

        try:
            async with translate_playwright_errors(on_timeout=load_timeout):
                response = await asyncio.wait_for(page.goto(url, wait_until="load", timeout=timeout_ms),
                                                  timeout_ms / 1000 + self.settings.bridge_grace_s)
        except asyncio.TimeoutError:
            raise load_timeout() from None
        if response is not None and response.headers.get("x-pling-refused"):
            raise NavigationRefused(f"{response.url} was refused: {(await response.text())[:300]}")
        if response is not None and response.headers.get("x-pling-unreachable"):
            raise PageUnreachable(f"{response.url} could not be reached: {(await response.text())[:300]}")
        if response is not None and response.status >= 400:
            raise PageUnreachable(f"{url} answered HTTP {response.status}", status_code=response.status)
        return page


def _forget_sessions(endpoint: Endpoint) -> None:
    """The browser is gone, and every context on it: none counts any longer (their close events may
    never come when the driver died with them)."""
    endpoint.sessions = 0
    endpoint.generation += 1


def adopt_popups(context: BrowserContext, on_page: Callable[[Page], None]) -> None:
    """From now on the context's new pages go to ``on_page`` (a session's tabs) instead of being closed."""
    with contextlib.suppress(Exception):
        context.remove_listener("page", _close_popup)
    context.on("page", on_page)


async def _close_popup(page: Page) -> None:
    with contextlib.suppress(Exception):
        if await page.opener() is not None:
            await page.close()
