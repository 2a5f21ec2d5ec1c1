"""Sessions: one browser context and page per agent conversation, used one invocation at a time."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .bridge import Bridge
from .errors import SessionNotFound, TooManySessions
from .models import SessionInfo

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

    from .controller import Controller


@dataclass
class Session:
    id: str
    context: "BrowserContext"
    page: "Page"
    bridge: Bridge
    created: float = field(default_factory=time.time)
    last_used: float = field(default_factory=time.time)
    invocations: int = 0
    title: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def info(self) -> SessionInfo:
        try:
            url = self.page.url
        except Exception:  # a closed page still has a last URL in practice; never fail a listing
            url = ""
        return SessionInfo(id=self.id, url=url, title=self.title, created=self.created,
                           last_used=self.last_used, invocations=self.invocations)

    def touch(self) -> None:
        self.last_used = time.time()


class Sessions:
    """The open sessions of one service."""

    def __init__(self, controller: "Controller", max_sessions: int) -> None:
        self.controller = controller
        self.max_sessions = max_sessions
        self._sessions: dict[str, Session] = {}
        self._opening = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def list(self) -> list[Session]:
        return list(self._sessions.values())

    def get(self, sid: str) -> Session:
        session = self._sessions.get(sid)
        if session is None:
            raise SessionNotFound(f"No session {sid!r} is open")
        return session

    async def open(self, url: str, timeout_ms: int) -> Session:
        if len(self._sessions) + self._opening >= self.max_sessions:
            raise TooManySessions(f"{self.max_sessions} sessions are open already", retry_after=5)
        self._opening += 1
        try:
            context = await self.controller.new_context()
            try:
                page = await self.controller.open_page(context, url, timeout_ms)
                bridge = await Bridge.attach(page, self.controller.settings.bridge_grace_s)
                session = Session(id="s_" + secrets.token_urlsafe(9), context=context, page=page, bridge=bridge)
                await bridge.settle(min(1_000, self.controller.settings.settle_cap_ms))
                with contextlib.suppress(Exception):
                    session.title = await page.title()
            except BaseException:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(context.close(), 5)
                raise
            self._sessions[session.id] = session
            return session
        finally:
            self._opening -= 1

    async def close(self, sid: str) -> None:
        session = self._sessions.pop(sid, None)
        if session is None:
            raise SessionNotFound(f"No session {sid!r} is open")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(session.context.close(), 5)

    async def close_all(self) -> None:
        for sid in list(self._sessions):
            with contextlib.suppress(Exception):
                await self.close(sid)
