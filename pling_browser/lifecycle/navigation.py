"""Actions that leave the document (SPEC: "Actions that leave the document"). Navigation is an outcome,
not a failure: a link, a form posted and redirected, a reload or a location change replaces the
document the action started in. The bridge says when its document starts to leave (the Navigation
API's ``navigate`` event: ``leaving`` on the run and expect answers), or the call into it is cut by the
navigation (``PageNavigated``); then ``DocumentTracker.follow`` waits, bounded by ``PLING_NAVIGATION_SETTLE``
(``settings.navigation_settle_s``), for a new document to load and declare itself, and lets it settle.

Every document's bridge has an id (``whoami``): the action's document is the one the reveal stage
answered in; another id means the action left it. The before snapshot left with the old document
through a CDP binding (js_bridge/navigate.js, ``Bridge.carried``) and is diffed in the new one."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..core.answers import Diffed, Expected, Settled
from ..core.bridge import CutByNavigation
from ..errors import PageNavigated, PageUnresponsive, PlingError, SessionLost
from ..pages import RefusedAddress, TabRef, TabsChange
from .codes import LogEvent, ReceiptWarning

if TYPE_CHECKING:
    from .context import Invocation

POLL_S = 0.05


def navigation_error(error: PlingError) -> bool:
    """A call into the page that the document's replacement cut short (not a stuck or closed page)."""
    return isinstance(error, (PageNavigated, CutByNavigation))


def refused(inv: Invocation) -> list[RefusedAddress]:
    proxy, marks = inv.session.proxy, inv.journal.marks
    if proxy is None:
        return []
    since = marks.refused if marks is not None else 0
    return [RefusedAddress(target=r.target, reason=r.reason) for r in proxy.refused_since(since)]


def _refused_document(inv: Invocation) -> bool:
    """The page now shows what the egress proxy answered for a refused address: it declares nothing."""
    try:
        url = urlsplit(inv.session.handle.url)
    except Exception:
        return False
    if not url.hostname:
        return False
    where = f"{url.hostname}:{url.port or (443 if url.scheme == 'https' else 80)}"
    return any(where in r.target or url.geturl() in r.target for r in refused(inv))


class DocumentTracker:
    """The one place that follows the action's document: whether it is leaving (``leave``), whether
    it was followed to the next one (``follow``, once) and replaced (``navigated``), and the after
    snapshot the expect call took in it (``keep_after``; ``after_hung`` when reading it hung). Every
    value here has this one writer; execute, expect, diff and a flow only ask it. The action's own
    document is the one reveal answered in (``Ready.doc``)."""

    _leaving: bool
    _followed: bool
    _navigated: bool
    _after: Diffed | None
    _across: Diffed | None
    _held: str | None
    _after_unreadable: bool

    def __init__(self) -> None:
        self._leaving = False
        self._followed = False
        self._navigated = False
        self._after: Diffed | None = None
        self._across: Diffed | None = None
        self._held: str | None = None
        self._after_unreadable = False

    @property
    def leaving(self) -> bool:
        return self._leaving

    @property
    def navigated(self) -> bool:
        return self._navigated

    @property
    def after(self) -> Diffed | None:
        """The after snapshot the expect call took the moment the page settled (expect.js)."""
        return self._after

    @property
    def held(self) -> str | None:
        """The key under which the new document holds the before snapshot the action's document carried
        (``hold``), or None."""
        return self._held

    @property
    def across(self) -> Diffed | None:
        """The new document's after snapshot against the carried one, taken by its expect call the
        moment the page settled (expect.js withAfter), as in the action's own document."""
        return self._across

    @property
    def after_unreadable(self) -> bool:
        """That call hung reading the page: the after snapshot is not asked again."""
        return self._after_unreadable

    @staticmethod
    def moved(inv: Invocation, doc: str | None, leaving: bool) -> bool:
        """An answer from another document than the action's, or from one that is leaving it."""
        return leaving or (doc is not None and inv.doc is not None and doc != inv.doc)

    def leave(self) -> None:
        """The action's document started to leave (or a call into it was cut by its replacement)."""
        self._leaving = True

    def answered(self, inv: Invocation, doc: str | None, leaving: bool) -> bool:
        """An answer came from `doc`: True, and the document marked leaving, when it moved."""
        if self.moved(inv, doc, leaving):
            self._leaving = True
        return self._leaving

    def keep_after(self, inv: Invocation, answer: Expected) -> None:
        # Kept only from the action's own document, not leaving (the diff stage takes it from there);
        # after a navigation, from the new document, not leaving again.
        self._after = answer.diffed if not answer.leaving and answer.doc == inv.doc else None
        moved = self._navigated and answer.doc is not None and answer.doc != inv.doc
        self._across = answer.diffed if moved and not answer.leaving else None

    def after_hung(self) -> None:
        self._after_unreadable = True

    async def follow(self, inv: Invocation) -> None:
        """Wait for the document the action is leaving for: loaded and declared, then settled (bounded).
        A navigation that ends in the same document (cancelled, intercepted by the page) is no navigation."""
        if self._followed:
            return
        self._followed = True
        budget_s = inv.settings.navigation_settle_s
        started = time.monotonic()
        declared = await self._arrival(inv, budget_s, started)
        if declared is None:
            return
        waited = (time.monotonic() - started) * 1000
        bridge = inv.session.bridge
        if self._navigated and bridge.protected:
            with contextlib.suppress(PlingError, Exception):  # masking outlives navigations (SPEC)
                await bridge.protect(list(bridge.protected))
        if not self._navigated:
            inv.note(LogEvent.NAVIGATION_STILL_LEAVING, ms=waited)
            inv.warn(ReceiptWarning.NO_NEW_DOCUMENT, budget_s=budget_s)
            return
        if not declared:
            inv.note(LogEvent.NAVIGATION_DECLARED_NOTHING, ms=waited)
            if not _refused_document(inv):
                inv.warn(ReceiptWarning.DECLARED_NOTHING, budget_s=budget_s)
            return
        inv.note(LogEvent.NAVIGATED, ms=waited)
        with contextlib.suppress(PlingError):
            settled = await self._settle_holding(inv)
            if not settled.settled:
                inv.note(LogEvent.NEW_DOCUMENT_NOT_SETTLED, ms=settled.ms)

    async def _settle_holding(self, inv: Invocation) -> Settled:
        """The new document settles; with evidence, it is handed the carried before snapshot meanwhile
        (``hold``, sent just after the settle call: its transfer and parse take time the settle spends
        waiting for frames), so its expect call diffs without carrying it in (expect.py)."""
        bridge = inv.session.bridge
        settling = asyncio.ensure_future(bridge.settle(min(1_000, inv.settings.settle_cap_ms), terminate=False))
        carried = bridge.carried(inv.doc, keep=True) if inv.evidence_begun and inv.doc else None
        if carried is not None and inv.doc is not None:
            # Held under a key of the controller's, not the old document's id: the bridge's entry point
            # answers the page too, which can learn that id (whoami) and call hold itself.
            key = secrets.token_urlsafe(16)
            holding = asyncio.ensure_future(bridge.hold(key, carried))
            held = (await asyncio.gather(settling, holding, return_exceptions=True))[1]
            self._held = key if held is True else None  # not held (refused, hung, navigated again): the diff stage's own call
        return await settling

    async def _arrival(self, inv: Invocation, budget_s: float, started: float) -> bool | None:
        """Poll until a new document declared itself (True), the budget ran out (False), or the
        navigation ended in the same document (None: not leaving any more)."""
        bridge = inv.session.bridge
        while True:
            remaining = budget_s - (time.monotonic() - started)
            who = None
            try:
                who = await bridge.whoami(budget_ms=max(100, min(1_000, remaining * 1000)))
            except PlingError as error:
                if isinstance(error, SessionLost) and inv.session.handle.is_closed():
                    raise
                if not isinstance(error, (PageNavigated, SessionLost, PageUnresponsive)):
                    raise
            if who is not None and who.doc == inv.doc:
                if not who.leaving:
                    inv.note(LogEvent.NAVIGATION_SAME_DOCUMENT)
                    self._leaving = False
                    return None
            elif who is not None:
                self._navigated = True
                if who.declared and who.ready == "complete":
                    return True
            if _refused_document(inv):
                self._navigated = True
                inv.note(LogEvent.NAVIGATION_REFUSED_ADDRESS)
                return False
            if remaining <= 0:
                return False
            await asyncio.sleep(POLL_S)

    async def left(self, inv: Invocation) -> None:
        """After a flow's steps (each followed its own navigation): is the flow's document still the
        one it started in? If not, the flow navigated, and its diff is taken across documents."""
        if inv.doc is None or self._navigated:
            return
        with contextlib.suppress(PlingError):
            who = await inv.session.bridge.whoami()
            if who.doc != inv.doc:
                self._navigated = self._followed = True


async def tabs_changed(inv: Invocation) -> TabsChange | None:
    """Pages the action opened in new tabs (``target=_blank``, ``window.open``) and tabs that closed."""
    tabs, marks = inv.session.tabs, inv.journal.marks
    if tabs is None or marks is None or marks.tabs is None:
        return None
    expected = inv.session.bridge.window_opens - marks.opens
    await tabs.arrived(marks.tabs, expected)
    events = tabs.since(marks.tabs)
    if not events:
        return None
    change = TabsChange()
    for event in events:
        (change.opened if event.kind == "opened" else change.closed).append(
            TabRef(id=event.tab, url=event.url, reason=event.reason))
    return change
