"""Actions that leave the document (SPEC: "Actions that leave the document"). Navigation is an outcome,
not a failure: a link, a form posted and redirected, a reload or a location change replaces the
document the action started in. The bridge says when its document starts to leave (the Navigation
API's ``navigate`` event: ``leaving`` on the run and expect answers), or the call into it is cut by the
navigation (``PageNavigated``); then ``follow`` waits, bounded by ``PLING_NAVIGATION_SETTLE``
(``settings.navigation_settle_s``), for a new document to load and declare itself, and lets it settle.

Every document's bridge has an id (``whoami``): the action's document is the one the reveal stage
answered in; another id means the action left it. The before snapshot left with the old document
through a CDP binding (js_bridge/navigate.js, ``Bridge.carried``) and is diffed in the new one."""

from __future__ import annotations

import asyncio
import contextlib
import time
from urllib.parse import urlsplit

from ..core.bridge import CutByNavigation
from ..errors import PageNavigated, PageUnresponsive, PlingError, SessionLost
from ..pages import RefusedAddress, TabRef, TabsChange
from .context import Invocation

POLL_S = 0.05


def navigation_error(error: PlingError) -> bool:
    """A call into the page that the document's replacement cut short (not a stuck or closed page)."""
    return isinstance(error, (PageNavigated, CutByNavigation))


def moved(inv: Invocation, doc: str | None, leaving: bool) -> bool:
    """An answer from another document than the action's, or from one that is leaving it."""
    return leaving or (doc is not None and inv.doc is not None and doc != inv.doc)


def refused(inv: Invocation) -> list[RefusedAddress]:
    proxy = inv.session.proxy
    if proxy is None:
        return []
    return [RefusedAddress(target=r.target, reason=r.reason) for r in proxy.refused_since(inv.refused_mark)]


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


async def follow(inv: Invocation) -> None:
    """Wait for the document the action is leaving for: loaded and declared, then settled (bounded).
    A navigation that ends in the same document (cancelled, intercepted by the page) is no navigation."""
    if inv.followed:
        return
    inv.followed = True
    bridge = inv.session.bridge
    settings = inv.settings
    budget_s = settings.navigation_settle_s
    started = time.monotonic()
    declared = False
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
                inv.note("the navigation the action started ended in the same document")
                inv.leaving = False
                return
        elif who is not None:
            inv.navigated = True
            if who.declared and who.ready == "complete":
                declared = True
                break
        if _refused_document(inv):
            inv.navigated = True
            inv.note("the page was sent to an address the egress policy refused")
            break
        if remaining <= 0:
            break
        await asyncio.sleep(POLL_S)
    waited = (time.monotonic() - started) * 1000
    if inv.navigated and bridge.protected:
        with contextlib.suppress(PlingError, Exception):  # masking outlives navigations (SPEC)
            await bridge.protect(list(bridge.protected))
    if not inv.navigated:
        inv.note(f"the document was still leaving after {waited:.0f} ms")
        inv.warnings.append(f"The page started to navigate but no new document arrived within {budget_s:g} s; "
                            "what changed there is not in this receipt.")
        return
    if not declared:
        inv.note(f"the new document declared nothing within {waited:.0f} ms")
        if not _refused_document(inv):
            inv.warnings.append(f"The page navigated to a document that declared nothing within {budget_s:g} s "
                                "(PLING_NAVIGATION_SETTLE).")
        return
    inv.note(f"the page navigated; the new document declared itself after {waited:.0f} ms")
    with contextlib.suppress(PlingError):
        settled = await bridge.settle(min(1_000, settings.settle_cap_ms), terminate=False)
        if not settled.settled:
            inv.note(f"the new document had not settled after {settled.ms:.0f} ms")


async def left(inv: Invocation) -> None:
    """After a flow's steps (each followed its own navigation): is the flow's document still the one
    it started in? If not, the flow navigated, and its diff is taken across documents."""
    if inv.doc is None or inv.navigated:
        return
    with contextlib.suppress(PlingError):
        who = await inv.session.bridge.whoami()
        if who.doc != inv.doc:
            inv.navigated = inv.followed = True


async def tabs_changed(inv: Invocation) -> TabsChange | None:
    """Pages the action opened in new tabs (``target=_blank``, ``window.open``) and tabs that closed."""
    tabs = inv.session.tabs
    if tabs is None or inv.tabs_mark is None:
        return None
    expected = inv.session.bridge.window_opens - inv.opens_mark
    await tabs.arrived(inv.tabs_mark, expected)
    events = tabs.since(inv.tabs_mark)
    if not events:
        return None
    change = TabsChange()
    for event in events:
        (change.opened if event.kind == "opened" else change.closed).append(
            TabRef(id=event.tab, url=event.url, reason=event.reason))
    return change
