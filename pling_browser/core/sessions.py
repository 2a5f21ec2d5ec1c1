"""Sessions: one browser context and page per agent conversation, used one invocation at a time."""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import dataclasses
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bodies import SessionInfo
from ..errors import PageUnresponsive, QueueTimeout, SessionLost, SessionNotFound, TabNotFound, TooManySessions
from . import profiles
from .bridge import Bridge
from .browsers import adopt_popups
from .handle import PageHandle
from .outbound import Outbound
from .tabs import Tab, Tabs

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

    from .browsers import Controller
    from .egress import EgressProxy


@dataclass
class Session:
    id: str
    context: BrowserContext
    page: Page
    bridge: Bridge
    proxy: EgressProxy | None = None
    endpoint: str = "local"
    created: float = field(default_factory=time.time)
    last_used: float = field(default_factory=time.time)
    invocations: int = 0
    title: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The operator's secret values: masked in everything written about this session, with the values
    # its pages and their frames were given (bridge.masked_values()), in every document.
    operator_values: tuple[str, ...] = ()
    opened_url: str = ""  # the address the session was opened at (a recorded scenario starts there)
    profile: str | None = None  # the saved profile (its name) the session was opened with
    # The trace being recorded for the invocation running now (core/tracing.py), shared with the views
    # of this session on its tabs: the decode stage discards it before a value is restored.
    recording: Any = None
    # A person's grants in this session (lifecycle/grants.py), shared with its views on tabs.
    grants: list[Any] = field(default_factory=list)
    owner: str | None = None  # the PLING_TOKENS agent that opened it: another agent does not see it
    _title_task: asyncio.Future[None] | None = field(default=None, repr=False)
    _title_stale: bool = field(default=False, repr=False)

    def masked_values(self) -> list[str]:
        # A restored value under 4 characters is not masked (as in the page's bridge): it would mask
        # ordinary text; operator secrets that short stop startup.
        return [*self.operator_values, *(value for value in self.bridge.masked_values() if len(value) >= 4)]

    def restored_values(self) -> list[str]:
        """The values this session's pages were given (in any tab), of every length."""
        bridges = [tab.bridge for tab in self.tabs.tabs.values()] if self.tabs is not None else []
        return list(dict.fromkeys(v for bridge in [self.bridge, *bridges] for v in bridge.protected))

    @property
    def outbound(self) -> Outbound:
        """The way out of everything written about this session (core/outbound.py): it masks this
        session's values, as they are when it is used."""
        return Outbound(self.masked_values)
    tabs: Tabs | None = None  # the page above is the active tab's (core/tabs.py)

    def activate(self, tab_id: str) -> None:
        """Make a tab the active one: the model, invoke and screenshot act on it from now on."""
        assert self.tabs is not None
        tab = self.tabs.activate(tab_id)
        self.page, self.bridge = tab.page, tab.bridge

    def follow_active(self) -> None:
        """After a tab closed: the session's page is the tab active now."""
        if self.tabs is not None and self.tabs.tabs:
            tab = self.tabs.active
            self.page, self.bridge = tab.page, tab.bridge

    @property
    def tab_id(self) -> str | None:
        """Which tab this session's page is (None without tabs)."""
        if self.tabs is None:
            return None
        return next((t.id for t in self.tabs.tabs.values() if t.page is self.page), None)

    def on_tab(self, tab_id: str | None) -> Session:
        """This session as seen on one tab (the same lock, tabs and proxy), for one call."""
        if tab_id is None or self.tabs is None:
            return self
        tab = self.tabs.get(tab_id)
        if tab is None:
            raise TabNotFound(f"No tab {tab_id!r} in this session (GET /sessions/{self.id}/tabs lists them)")
        return dataclasses.replace(self, page=tab.page, bridge=tab.bridge)

    def in_frame(self, bridge: Bridge) -> Session:
        """This session as seen in one child frame's document (its bridge, core/frames.py), for one
        invocation: the same lock, tabs, proxy and page."""
        return dataclasses.replace(self, bridge=bridge)

    @property
    def handle(self) -> PageHandle:
        """This session's page as the layers above core use it (core/handle.py): they never hold
        ``page`` or ``context``, which are Playwright's."""
        return PageHandle(self.page, self.bridge, self.outbound)

    def info(self) -> SessionInfo:
        try:
            url = self.page.url
        except Exception:  # a closed page still has a last URL in practice; never fail a listing
            url = ""
        refused = [{"target": r.target, "reason": r.reason} for r in (self.proxy.refused[-10:] if self.proxy else [])]
        url, title = self.outbound.text(url), self.outbound.text(self.title)
        refused = self.outbound.data(refused)
        return SessionInfo(id=self.id, url=url, title=title, created=self.created,
                           last_used=self.last_used, invocations=self.invocations, endpoint=self.endpoint,
                           refused=refused, profile=self.profile)

    async def refresh_title(self) -> None:
        """The page's title now (best effort: a busy or gone page keeps the last one)."""
        with contextlib.suppress(Exception):
            self.title = await asyncio.wait_for(self.page.title(), 2)

    def mark_title_stale(self) -> None:
        """The page may have another title now: it is read when someone asks (``current_info()``),
        not after every invocation. Each read is a round trip through the driver into the page, ~1 ms
        of CPU across the service, the driver and Chromium, which 16 busy sessions on 2 cores feel."""
        self._title_stale = True

    async def current_info(self) -> SessionInfo:
        """``info()`` with the title read since the last invocation (one read for all who ask at once)."""
        if self._title_stale and (self._title_task is None or self._title_task.done()):
            self._title_stale = False
            self._title_task = asyncio.ensure_future(self.refresh_title())
        if self._title_task is not None and not self._title_task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._title_task), 3)
        return self.info()

    def touch(self) -> None:
        self.last_used = time.time()


class Sessions:
    """The open sessions of one service, at most `max_sessions` at once. Past that, up to `queue`
    requests wait for a slot (`queue_timeout_s`, then 503); more are refused at once (429). Closed
    sessions leave a tombstone, so a late request learns why (410) instead of 'not found'."""

    TOMBSTONES = 1000

    def __init__(self, controller: Controller, max_sessions: int, queue: int | None = None,
                 queue_timeout_s: float = 30.0) -> None:
        self.controller = controller
        self.max_sessions = max_sessions
        self.queue = max_sessions if queue is None else queue
        self.queue_timeout_s = queue_timeout_s
        self._sessions: dict[str, Session] = {}
        self._tombstones: dict[str, str] = {}
        self._owners: dict[str, str | None] = {}  # session id -> the agent that opened it (open and closed ones)
        self._opening = 0
        self._waiting = 0
        self._freed = asyncio.Condition()
        self.operator_values: tuple[str, ...] = ()  # the operator's secret values, for every session

    def __len__(self) -> int:
        return len(self._sessions)

    @property
    def waiting(self) -> int:
        return self._waiting

    def list(self, agent: str | None = None) -> list[Session]:
        """The open sessions (for `agent`, those it opened)."""
        return [s for s in self._sessions.values() if agent is None or s.owner == agent]

    def outbound(self, sid: str | None) -> Outbound:
        """The way out for what is written about session `sid`: its own encoder while it is open, else
        one masking the operator's secrets (a closed session's restored values left with its pages)."""
        session = self._sessions.get(sid) if sid is not None else None
        return session.outbound if session is not None else Outbound(lambda: self.operator_values)

    def owned_by(self, sid: str, agent: str) -> bool:
        """Whether `agent` opened session `sid` (open or closed since)."""
        return sid in self._owners and self._owners[sid] == agent

    def own(self, session: Session, owner: str | None) -> None:
        """`session` belongs to `owner` (an agent's name; None: everyone's), kept past its closing, as its
        tombstone is, so its receipts stay its owner's."""
        session.owner = owner
        self._owners[session.id] = owner
        while len(self._owners) > self.TOMBSTONES + len(self._sessions):
            del self._owners[next(iter(self._owners))]

    def get(self, sid: str, agent: str | None = None) -> Session:
        """The open session `sid`; for `agent` (a PLING_TOKENS agent's name), only one it opened: another
        agent's session is as unknown to it as one that never was (404, not 403: nothing said it exists)."""
        if agent is not None and not self.owned_by(sid, agent):
            raise SessionNotFound(f"No session {sid!r} is open")
        session = self._sessions.get(sid)
        if session is None:
            if sid in self._tombstones:
                raise SessionLost(f"Session {sid!r} is closed: {self._tombstones[sid]}")
            raise SessionNotFound(f"No session {sid!r} is open")
        return session

    def _full(self) -> bool:
        return len(self._sessions) + self._opening >= self.max_sessions

    async def _slot(self) -> None:
        if not self._full():
            return
        if self._waiting >= self.queue:
            raise TooManySessions(f"{self.max_sessions} sessions are open and {self._waiting} requests wait already",
                                  retry_after=5)
        self._waiting += 1
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns when a slot frees in the turn
            # the open is cancelled and drops the cancellation (a session then opened for nobody).
            async with self._freed, asyncio.timeout(self.queue_timeout_s):
                await self._freed.wait_for(lambda: not self._full())
        except asyncio.TimeoutError:
            raise QueueTimeout(f"No session slot was free within {self.queue_timeout_s:g} s") from None
        finally:
            self._waiting -= 1

    async def _notify(self) -> None:
        async with self._freed:
            self._freed.notify_all()

    async def open(self, url: str, timeout_ms: int, profile: tuple[str, dict[str, Any]] | None = None) -> Session:
        """A session on `url`; with `profile` (its name and saved state), signed in as it was saved."""
        await self._slot()
        self._opening += 1
        try:
            with profiles.unusable(profile[0]) if profile else contextlib.nullcontext():
                prepared = await self.controller.new_context(profiles.storage_state(profile[1]) if profile else None)
            context, proxy, endpoint = prepared.context, prepared.proxy, prepared.endpoint
            try:
                if profile is not None:
                    with profiles.unusable(profile[0]):
                        await profiles.restore_session_storage(context, profile[1])
                page = await self.controller.open_page(context, url, timeout_ms, prepared.page)
                settings = self.controller.settings
                # Calls that are not an action's own (the model, snapshots) get at least 5 s. A context
                # prepared ahead has its page's bridge attached already (core/warm.py).
                bridge = prepared.bridge or await Bridge.attach(page, settings.bridge_grace_s,
                                                                max(5_000, settings.action_timeout_ms))
                session = Session(id=self._new_id(), context=context, page=page, bridge=bridge, proxy=proxy,
                                  endpoint=endpoint.name, operator_values=self.operator_values, opened_url=url,
                                  profile=profile[0] if profile else None)
                # Best effort: a page still busy after loading (a huge DOM laying out) is not stuck,
                # so it is neither failed nor interrupted here.
                with contextlib.suppress(PageUnresponsive):
                    await bridge.settle(min(1_000, settings.settle_cap_ms), budget_ms=timeout_ms, terminate=False)
                with contextlib.suppress(Exception):
                    session.title = await asyncio.wait_for(page.title(), 5)
            except BaseException:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(context.close(), 5)
                await proxy.stop()
                raise
            session.tabs = Tabs(Tab("t1", page, bridge), settings.bridge_grace_s, max(5_000, settings.action_timeout_ms))
            adopt_popups(context, session.tabs.on_page)
            self._sessions[session.id] = session
            return session
        finally:
            self._opening -= 1
            await self._notify()
            self.controller.warm.refill()  # now: preparing the next one does not slow this open down

    async def close(self, sid: str, reason: str = "closed by a DELETE request") -> None:
        session = self._sessions.pop(sid, None)
        if session is None:
            self.get(sid)  # raises the right error
            return
        self._bury(sid, reason)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(session.context.close(), 5)
        if session.proxy is not None:
            await session.proxy.stop()
        await self._notify()

    def _new_id(self) -> str:
        # With PLING_REPLICA set, the id names the replica that owns the session, so an ingress can
        # route every request about it there: s-<replica>-<random>.
        replica = self.controller.settings.replica
        return f"s-{replica}-{secrets.token_urlsafe(9)}" if replica else "s_" + secrets.token_urlsafe(9)

    def lose_all(self, reason: str, endpoint: str | None = None) -> builtins.list[str]:
        """A browser is gone: its sessions are lost at once (their contexts died with it); with no
        endpoint named, every session is."""
        lost = [sid for sid, s in self._sessions.items() if endpoint is None or s.endpoint == endpoint]
        for sid in lost:
            session = self._sessions.pop(sid)
            self._bury(sid, reason)
            if session.proxy is not None:
                asyncio.ensure_future(session.proxy.stop())
        if lost:
            asyncio.ensure_future(self._notify())  # their slots are free: wake the opens queued for one
        return lost

    def _bury(self, sid: str, reason: str) -> None:
        self._tombstones[sid] = reason
        while len(self._tombstones) > self.TOMBSTONES:
            del self._tombstones[next(iter(self._tombstones))]

    async def close_all(self) -> None:
        for sid in list(self._sessions):
            with contextlib.suppress(Exception):
                await self.close(sid, "the service stopped")

    async def reap(self, idle_s: float, lifetime_s: float) -> builtins.list[str]:
        """Close sessions idle too long (not while an invocation runs) or past their lifetime."""
        now = time.time()
        closed = []
        for session in list(self._sessions.values()):
            if now - session.created > lifetime_s:
                reason = f"it reached the maximum lifetime of {lifetime_s:g} s"
            elif now - session.last_used > idle_s and not session.lock.locked():
                reason = f"it was idle for more than {idle_s:g} s"
            else:
                continue
            await self.close(session.id, reason)
            closed.append(session.id)
        return closed
