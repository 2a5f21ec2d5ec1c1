"""Problems with the page as a whole and what serves it: the site, the browser, the replica."""

from __future__ import annotations

from .base import ServiceError


class PageUnreachable(ServiceError):
    code = "PAGE_UNREACHABLE"
    status = 502
    default_hint = "Check the URL and that the site is up."


class ReplicaUnavailable(ServiceError):
    code = "REPLICA_UNAVAILABLE"
    status = 502
    default_hint = ("A session lives on the replica that opened it and is lost with it: open a new one "
                    "(POST /sessions goes to a replica that answers).")


class BrowserUnavailable(ServiceError):
    code = "BROWSER_UNAVAILABLE"
    status = 503
    default_hint = "Check PLING_CHROMIUM or install chromium; GET /healthz shows the browser status."


class PageUnresponsive(ServiceError):
    code = "PAGE_UNRESPONSIVE"
    status = 504
    default_hint = "The page's script is busy or stuck; close the session and open a new one."


class PageLoadTimeout(ServiceError):
    code = "PAGE_LOAD_TIMEOUT"
    status = 504
    default_hint = "The page did not finish loading in time; check the site, or retry."


class PageNavigated(ServiceError):
    """The document was replaced while it was being read (a navigation the page started itself)."""

    code = "PAGE_NAVIGATED"
    status = 409
    default_hint = "The page moved to another document; read the model again."
