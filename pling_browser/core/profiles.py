"""The browser's side of profiles (``runtime/profiles.py`` keeps them): what a context holds of a
sign-in, read out, and given to a new context.

Playwright's storage state has the cookies (HttpOnly ones too), local storage and IndexedDB. Session
storage belongs to a tab, so it is read from each open page through CDP (``DOMStorage``: no script of
the page runs, and the origins come from the frames' addresses, never from what a page says), and
given back by an init script that fills a tab's session storage for an origin only while it is still
empty there (so what the page later removes stays removed, and a second tab starts as the first).

A state is plain data: ``{"cookies", "origins", "sessionStorage": [{"origin", "items": [{"name",
"value"}]}]}``. Its values are never logged, nor put in an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..errors import BrowserUnavailable, PageUnresponsive, ProfileUnreadable, SessionLost
from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page

__all__ = ["capture", "storage_state", "restore_session_storage", "unusable"]

CAPTURE_TIMEOUT_S = 15.0


def origin_of(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


async def capture(context: BrowserContext, first: Page | None = None) -> dict[str, Any]:
    """Cookies, local storage, IndexedDB and every open tab's session storage (`first`'s wins where two
    tabs hold the same key)."""
    found: dict[str, dict[str, str]] = {}
    try:
        async with translate_playwright_errors():
            state: dict[str, Any] = dict(await asyncio.wait_for(context.storage_state(indexed_db=True),
                                                                CAPTURE_TIMEOUT_S))
            pages = list(context.pages)
            if first is not None and first in pages:
                pages.remove(first)
                pages.insert(0, first)
            for page in pages:
                await asyncio.wait_for(_session_storage_of(context, page, found), CAPTURE_TIMEOUT_S)
    except asyncio.TimeoutError:
        raise PageUnresponsive(f"The browser did not hand over the sign-in within {CAPTURE_TIMEOUT_S:g} s",
                               hint="The page may be busy; try again, or sign in again in a new session.") from None
    state["sessionStorage"] = [{"origin": origin, "items": [{"name": k, "value": v} for k, v in items.items()]}
                               for origin, items in found.items() if items]
    return state


async def _session_storage_of(context: BrowserContext, page: Page, found: dict[str, dict[str, str]]) -> None:
    if page.is_closed():
        return
    origins = sorted({origin for origin in (origin_of(frame.url) for frame in page.frames) if origin})
    if not origins:
        return
    cdp = await context.new_cdp_session(page)
    try:
        for origin in origins:
            answer = await cdp.send("DOMStorage.getDOMStorageItems",
                                    {"storageId": {"securityOrigin": origin, "isLocalStorage": False}})
            items = found.setdefault(origin, {})
            for entry in answer.get("entries", []):
                if isinstance(entry, list) and len(entry) == 2:
                    items.setdefault(str(entry[0]), str(entry[1]))
    finally:
        with contextlib.suppress(Exception):
            await cdp.detach()


def storage_state(state: dict[str, Any]) -> dict[str, Any]:
    """The part of a profile Playwright's `new_context(storage_state=…)` takes."""
    return {"cookies": list(state.get("cookies") or []), "origins": list(state.get("origins") or [])}


def restore_script(state: dict[str, Any]) -> str | None:
    """The init script that gives a tab the saved session storage of its origin, or None when there is none."""
    saved = {entry["origin"]: [[item["name"], item["value"]] for item in entry.get("items", [])]
             for entry in state.get("sessionStorage") or [] if isinstance(entry, dict) and entry.get("origin")}
    if not any(saved.values()):
        return None
    # JSON (ASCII only, so no line separator can end the literal) is a JavaScript expression.
    return ("(() => { try { const saved = " + json.dumps(saved, ensure_ascii=True) + "; "
            "const items = Object.prototype.hasOwnProperty.call(saved, location.origin) ? saved[location.origin] : null; "
            "if (!items || window.sessionStorage.length) return; "
            "for (const [name, value] of items) window.sessionStorage.setItem(name, value); } catch (e) {} })();")


async def restore_session_storage(context: BrowserContext, state: dict[str, Any]) -> None:
    script = restore_script(state)
    if script is not None:
        async with translate_playwright_errors():
            await context.add_init_script(script)


@contextlib.contextmanager
def unusable(name: str) -> Any:
    """Around giving a profile to a new context: an error there says the profile could not be used,
    never what Playwright said about its values. A browser that is gone stays that error."""
    try:
        yield
    except (SessionLost, BrowserUnavailable):
        raise
    except Exception:
        raise ProfileUnreadable(f"The profile {name!r} could not be given to a new browser context") from None
