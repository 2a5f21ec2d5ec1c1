"""The one boundary where Playwright's errors become Pling errors (in the manner of httpx's
``map_httpcore_exceptions``). No other module names Playwright's error classes: they wrap the call in
``translate_playwright_errors()`` (or call ``translate(error)``), and a module that must tell a
Playwright timeout apart (a gesture's call log, a page load) passes ``on_timeout``.

By class first, with Playwright's public classes only (``playwright.async_api.Error`` and
``TimeoutError``, and ``Error.name``, which the driver sets to the class it threw): then, for a plain
``Error``, by the words of the messages Chromium's DevTools protocol uses, which no class tells apart:

    playwright TimeoutError                         PageUnresponsive   the browser did not answer in time
    name "TargetClosedError" (the class, when the   SessionLost        the page, context or browser is gone
    client raised it itself), "…has been closed", …
    "Execution context was destroyed",
    "Inspected target navigated or closed",
    "Frame was detached", "navigated"               PageNavigated      the document was replaced (normal)
    "net::ERR_…"                                    PageUnreachable    the address could not be loaded
    any other playwright Error                      PageUnresponsive   the browser reported an error
    RuntimeError "…the handler is closed" (uvloop)  SessionLost        the driver's pipe closed under a call

The last is not Playwright's: on uvloop (the service's loop) a write to the driver's pipe after the
driver died raises uvloop's RuntimeError from Playwright's transport, before Playwright's reader has
seen the pipe close and made its own TargetClosedError (asyncio's loop drops such a write silently).

``unknown_key`` is the one other reading of a message (a keyboard call refusing a key name).
docs/decisions.md says why each of these can only be told by its words.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

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
# uvloop's words for a write on a transport it has closed (its UVHandle._ensure_alive).
PIPE_CLOSED_MARKERS = ("the handler is closed",)
CLOSED_MARKERS = (
    "Target page, context or browser has been closed",
    "Target closed",
    "Browser has been closed",
    "Connection closed",
    "browser has disconnected",
)


def first_line(error: BaseException) -> str:
    text = str(error)
    return text.splitlines()[0] if text else type(error).__name__


def said(error: BaseException) -> str:
    """What the browser said, first line: of the Playwright error a Pling error here translates (its
    cause), else of the error itself."""
    cause = error.__cause__ if isinstance(error, PlingError) and error.__cause__ is not None else error
    return first_line(cause)


def _name(error: BaseException) -> str:
    """Playwright's name for its error: ``Error.name`` as the driver set it (the class it threw), else
    the class's own name (an error the client raised itself, when the connection closed, has none)."""
    return str(getattr(error, "name", None) or type(error).__name__)


def _has(message: str, markers: tuple[str, ...]) -> bool:
    lowered = message.lower()
    return any(marker.lower() in lowered for marker in markers)


def translate(error: BaseException) -> PlingError:
    """Map one Playwright exception to the Pling error that says what it means for the caller."""
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    message = first_line(error)
    if isinstance(error, PlaywrightTimeout):
        return PageUnresponsive(f"The browser did not answer in time: {message}")
    if isinstance(error, PlaywrightError) and _name(error) == "TargetClosedError":
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
    if pipe_closed(error):
        return SessionLost(f"The browser's driver is gone: {message}")
    return PageUnresponsive(f"The browser connection failed: {message}")


def pipe_closed(error: BaseException) -> bool:
    """uvloop's error for a write to the driver's pipe after it closed (not a Playwright class)."""
    return isinstance(error, RuntimeError) and _has(str(error), PIPE_CLOSED_MARKERS)


def is_navigation_message(message: str) -> bool:
    """A CDP error text (not a Playwright exception) that means the document was replaced."""
    return _has(message, NAVIGATION_MARKERS)


def unknown_key(error: BaseException) -> bool:
    """A keyboard call refused a key name it does not know (a plain ``Error``: only its words say so)."""
    return "Unknown key" in said(error)


@contextlib.asynccontextmanager
async def translate_playwright_errors(on_timeout: Callable[[str], BaseException] | None = None) -> AsyncIterator[None]:
    """Playwright's errors raised inside become Pling errors (``translate``). With ``on_timeout``, a
    Playwright timeout becomes what it answers for the timeout's whole text (its call log included)."""
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        yield
    except PlaywrightTimeout as error:
        if on_timeout is None:
            raise translate(error) from error
        raise on_timeout(str(error)) from None
    except PlaywrightError as error:
        raise translate(error) from error
    except RuntimeError as error:
        if not pipe_closed(error):
            raise
        raise translate(error) from error


def read_driver_error(manager: object) -> None:
    """Mark the driver's "connection closed" error as read. playwright-python sets it on a future only
    its start-up awaits; when the driver dies first (a terminal's Ctrl-C reaches the whole process group),
    asyncio would log "Future exception was never retrieved" at exit. The loss itself is seen where it
    matters: every call in flight fails, and the endpoint is marked down (core/browsers.py). Reached
    through playwright-python's private client, so a release that moves it only brings the log line back."""
    transport = getattr(getattr(manager, "_client", None), "_transport", None)
    future = getattr(transport, "on_error_future", None)
    if future is not None and hasattr(future, "add_done_callback"):
        future.add_done_callback(lambda done: done.cancelled() or done.exception())


def driver_pid(manager: object) -> int | None:
    """The process id of the driver this manager started (playwright-python's private client: its pipe
    transport's process), or None where a release keeps it elsewhere."""
    process = getattr(getattr(getattr(manager, "_client", None), "_transport", None), "_proc", None)
    pid = getattr(process, "pid", None)
    return pid if isinstance(pid, int) else None
