"""The Python client's one boundary with HTTP, shared by ``Client`` and ``AsyncClient``: a call is
described once (``Call``: method, path, body, how its answer is read) and sent by one of two thin
senders, sync or async (as httpx has one request model and two transports). Everything that can go
wrong arrives as a ``PlingError``:

    PlingError
    ├── ServiceError                 the service answered a problem (errors/: the code's own class)
    └── ClientError                  raised here only, never answered by the service
        ├── ServiceUnreachable       SERVICE_UNREACHABLE  nothing was sent: refused, no route, bad URL
        ├── NoAnswer                 NO_ANSWER            sent, and no whole answer came back (a timeout,
        │                                                 a dropped connection): an invocation may have run
        └── UnexpectedAnswer         UNEXPECTED_ANSWER    an answer that is not the service's (a proxy's
                                                          HTML, a body that is not JSON)

httpx's exceptions are translated in ``translated()`` only. Retries (``Retries``) are for answers that
say nothing was done and when to ask again: 429 TOO_MANY_SESSIONS, 503 (BROWSER_UNAVAILABLE,
QUEUE_TIMEOUT) and 409 SESSION_BUSY (the invocation did not start). Each waits what ``Retry-After``
says (seconds or an HTTP date), or, without one, 1, 2, 4 … seconds; a wait longer than ``max_wait_s``
is not made and the problem is raised at once. ``Retries(attempts=0)`` (``NO_RETRIES``) turns them off.
A timeout is never retried: the service may have run the request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, ClassVar

import httpx

from ..errors import SERVICE_CODES, PlingError, ServiceError

log = logging.getLogger("pling_browser.client")

__all__ = ["Call", "ClientError", "NO_RETRIES", "NoAnswer", "Retries", "ServiceUnreachable", "UnexpectedAnswer",
           "SyncSender", "AsyncSender"]


class ClientError(PlingError):
    """The client could not get the service's answer; raised by pling_browser's client, never answered."""

    default_started: ClassVar[bool | None] = None


class ServiceUnreachable(ClientError):
    code = "SERVICE_UNREACHABLE"
    default_started = False
    default_hint = "Check the URL and that `pling-browser serve` runs there; nothing was sent."


class NoAnswer(ClientError):
    code = "NO_ANSWER"
    default_hint = ("The request was sent but no whole answer came back: an invocation may have run. Read the "
                    "receipt log (GET /sessions/{sid}/receipts), or retry with the same Idempotency-Key.")


class UnexpectedAnswer(ClientError):
    code = "UNEXPECTED_ANSWER"
    default_hint = "Something other than Pling answered (a proxy, another server): check the URL."


@dataclass(frozen=True)
class Retries:
    """When to ask again (see the module docstring). The defaults wait at most 3 times, 30 s each."""

    attempts: int = 3
    max_wait_s: float = 30.0
    first_wait_s: float = 1.0  # without Retry-After: this, then doubled each time


NO_RETRIES = Retries(attempts=0)


@dataclass
class Call:
    """One request, and how its answer is read: `read` gets the JSON (or bytes for other types)."""

    method: str
    path: str
    json: Any = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    read: Callable[[Any], Any] = lambda body: body
    ignore: tuple[type[PlingError], ...] = ()  # problems that mean "done already": answered None


@contextmanager
def translated(base_url: str, call: Call) -> Iterator[None]:
    """httpx's failures as Pling errors (the one place they are named)."""
    where = f"{call.method} {base_url}{call.path}"
    try:
        yield
    except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol, httpx.InvalidURL) as error:
        raise ServiceUnreachable(f"{where}: the service could not be reached ({type(error).__name__}: {error})",
                                 url=base_url) from error
    except httpx.TimeoutException as error:
        raise NoAnswer(f"{where}: no answer in time ({type(error).__name__})", url=base_url, timeout=True) from error
    except httpx.TransportError as error:
        raise NoAnswer(f"{where}: the connection failed before the answer ({type(error).__name__}: {error})",
                       url=base_url, timeout=False) from error


def problem_error(answer: httpx.Response) -> PlingError:
    """The typed error of an HTTP problem (RFC 9457 problem details): the code's own ServiceError class."""
    try:
        problem = answer.json()
        code, detail = problem["code"], problem["detail"]
    except Exception:
        return UnexpectedAnswer(f"HTTP {answer.status_code} that is not a Pling problem: {answer.text[:300]}",
                                status=answer.status_code)
    cls = SERVICE_CODES.get(code, ServiceError)
    details = {k: v for k, v in problem.items() if k not in ("type", "title", "status", "detail", "code", "hint")}
    error = cls(detail, hint=problem.get("hint"), **details)
    if cls is ServiceError:  # a code this client does not know yet: keep it and the status
        error.code, error.status = str(code), answer.status_code  # type: ignore[misc]
    return error


def body_of(answer: httpx.Response) -> Any:
    if answer.headers.get("content-type", "").startswith("application/json"):
        try:
            return answer.json()
        except ValueError:
            raise UnexpectedAnswer(f"HTTP {answer.status_code} whose JSON does not parse: {answer.text[:300]}",
                                   status=answer.status_code) from None
    return answer.content


def retry_wait(answer: httpx.Response, error: PlingError, attempt: int, retries: Retries) -> float | None:
    """Seconds to wait before asking again, or None when this answer is not asked again."""
    status = answer.status_code
    if attempt >= retries.attempts or not (status in (429, 503) or (status == 409 and error.code == "SESSION_BUSY")):
        return None
    wait = _retry_after(answer.headers.get("retry-after"))
    if wait is None:
        wait = retries.first_wait_s * 2 ** attempt
    return wait if wait <= retries.max_wait_s else None


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _outcome(answer: httpx.Response, call: Call, attempt: int, retries: Retries) -> tuple[bool, Any]:
    """(True, value) when the call is answered; (False, seconds to wait) to ask again. Raises the problem."""
    if answer.status_code < 400:
        return True, call.read(body_of(answer))
    error = problem_error(answer)
    if call.ignore and isinstance(error, call.ignore):
        return True, None
    wait = retry_wait(answer, error, attempt, retries)
    if wait is None:
        raise error
    log.info("%s %s answered %d %s; asking again in %g s (retry %d of %d)", call.method, call.path,
             answer.status_code, error.code, wait, attempt + 1, retries.attempts)
    return False, wait


class SyncSender:
    def __init__(self, http: httpx.Client, retries: Retries) -> None:
        self.http, self.retries = http, retries

    def send(self, call: Call) -> Any:
        attempt = 0
        while True:
            with translated(str(self.http.base_url).rstrip("/"), call):
                answer = self.http.request(call.method, call.path, json=call.json, params=call.params, headers=call.headers)
            done, value = _outcome(answer, call, attempt, self.retries)
            if done:
                return value
            attempt += 1
            time.sleep(value)


class AsyncSender:
    def __init__(self, http: httpx.AsyncClient, retries: Retries) -> None:
        self.http, self.retries = http, retries

    async def send(self, call: Call) -> Any:
        attempt = 0
        while True:
            with translated(str(self.http.base_url).rstrip("/"), call):
                answer = await self.http.request(call.method, call.path, json=call.json, params=call.params,
                                                 headers=call.headers)
            done, value = _outcome(answer, call, attempt, self.retries)
            if done:
                return value
            attempt += 1
            await asyncio.sleep(value)
