"""The one boundary where Playwright's errors become Pling errors (in the manner of httpx's
``map_httpcore_exceptions``). Other modules never catch ``playwright.async_api.Error`` themselves:
they wrap the call in ``translate_playwright_errors()`` or call ``translate(error)``.

Mapping, first by class, then by the messages Chromium's DevTools protocol uses:

    playwright TimeoutError                         PageUnresponsive   the browser did not answer in time
    TargetClosedError, "…has been closed", …        SessionLost        the page, context or browser is gone
    "Execution context was destroyed",
    "Inspected target navigated or closed",
    "Frame was detached", "navigated"               PageNavigated      the document was replaced (normal)
    "net::ERR_…"                                    PageUnreachable    the address could not be loaded
    any other playwright Error                      PageUnresponsive   the browser reported an error
"""

from __future__ import annotations

import contextlib
from typing import AsyncIterator

from ..errors import PageNavigated, PageUnreachable, PageUnresponsive, PlingError, SessionLost

# Messages that mean the document (or the frame holding the element) was replaced by a navigation:
# an outcome of the action, never a stuck page.
NAVIGATION_MARKERS = (
    "Execution context was destroyed",
    "Inspected target navigated or closed",
    "Frame was detached",
    "frame got detached",
    "Cannot find context with specified id",
    "because of a navigation",
    "Navigation interrupted",
)
CLOSED_MARKERS = (
    "Target page, context or browser has been closed",
    "Target closed",
    "Browser has been closed",
    "Connection closed",
    "browser has disconnected",
)


def _first_line(error: BaseException) -> str:
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


def _has(message: str, markers: tuple[str, ...]) -> bool:
    lowered = message.lower()
    return any(marker.lower() in lowered for marker in markers)


def translate(error: BaseException) -> PlingError:
    """Map one Playwright exception to the Pling error that says what it means for the caller."""
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout
    from playwright._impl._errors import TargetClosedError

    message = _first_line(error)
    if isinstance(error, PlaywrightTimeout):
        return PageUnresponsive(f"The browser did not answer in time: {message}")
    if isinstance(error, TargetClosedError):
        return SessionLost(f"The page or browser is gone: {message}")
    if isinstance(error, PlaywrightError):
        full = str(error)
        if _has(full, NAVIGATION_MARKERS):
            return PageNavigated(f"The document was replaced by a navigation: {message}")
        if _has(full, CLOSED_MARKERS):
            return SessionLost(f"The page or browser is gone: {message}")
        if "net::ERR_" in full or "NS_ERROR" in full:
            return PageUnreachable(f"The page could not be loaded: {message}")
        return PageUnresponsive(f"The browser reported an error: {message}")
    return PageUnresponsive(f"The browser connection failed: {message}")


def is_navigation_message(message: str) -> bool:
    """A CDP error text (not a Playwright exception) that means the document was replaced."""
    return _has(message, NAVIGATION_MARKERS)


@contextlib.asynccontextmanager
async def translate_playwright_errors() -> AsyncIterator[None]:
    from playwright.async_api import Error as PlaywrightError

    try:
        yield
    except PlaywrightError as error:
        raise translate(error) from error
