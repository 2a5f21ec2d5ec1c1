"""Who may call the service: one ASGI middleware in front of every route (REST and MCP alike).

- Host and Origin: without a token the service listens on loopback only, and a request must name a
  loopback host; an Origin, when sent, must be a loopback origin or the request's own. This stops DNS
  rebinding: a web page cannot make the agent's browser talk to this service under its own name.
- Token: with PLING_TOKEN set, every route but /healthz, /errors (the problem types) and the public
  files (the bridge, the declaration package at /js/, the demo) needs `Authorization: Bearer <token>`,
  compared in constant time. A browser cannot put that header on an
  EventSource or an <img>, so the operator console's credentials are also accepted: the token as a
  `token` query parameter (taken out of the query before anything else, logs included, sees it), or
  a console session (``ConsoleSessions``): `GET /console?token=…` opens one and sets its random id in
  an HttpOnly, SameSite=Strict cookie named for the port, and hands the console's script the
  session's CSRF token in the redirect's URL fragment, which no server ever receives. Cookies are
  not port-scoped (another local server gets them), so the cookie alone opens only the console's
  page; every other request needs the session's CSRF token too (the `X-Pling-CSRF` header, or a
  `csrf` query parameter for event streams, taken out of the query like the token), and a write
  with the cookie needs, besides, no foreign Origin. Sessions expire when idle and after a fixed
  lifetime, and end at `POST /console/sign-out`.
- Size: request bodies over 1 MiB are refused with 413 before the app sees them. A declared length up
  to 4 MiB is read and dropped first, so the answer reaches a proxy that writes the whole body before it
  reads (nginx: answered early, its write met a reset and it answered 502 instead; tests/test_router.py);
  a larger one is refused at once and its connection closed.

Refusals are raised as `Forbidden`, `Unauthorized` and `PayloadTooLarge`; `server/problems.py` renders them
(the guard sits inside its `Problems` middleware).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from ..callers import OPERATOR, Caller, find_caller, forbidden_for
from ..errors import Forbidden, PayloadTooLarge, Unauthorized

log = logging.getLogger("pling_browser.api")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

MAX_BODY = 1024 * 1024
DRAINED_BODY = 4 * MAX_BODY  # an oversized body up to this is read and dropped before the 413
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
PUBLIC_PATHS = ("/healthz", "/errors", "/pling.js", "/js/", "/demo/")
COOKIE = "pling_console"
CSRF_HEADER = "x-pling-csrf"
CONSOLE_SHELL = ("/console", "/console/static/")  # the page and its files: no data in them


def cookie_name(host: str) -> str:
    """The console cookie of the service at `host`: named for its port, so services on two ports of one
    host (cookies ignore ports) do not overwrite each other's sign-in."""
    parsed = parse_authority(host)
    return f"{COOKIE}_{(parsed[1] if parsed else '') or 'default'}"


@dataclass
class ConsoleSession:
    host: str
    csrf: str
    created: float
    used: float
    caller: Caller = OPERATOR


class ConsoleSessions:
    """Console sign-ins, kept in this process only (a restart signs everyone out): found by the hash of
    the cookie's random id, bound to the Host it was opened on, ended when idle for `idle_s`, after
    `lifetime_s`, or at sign-out."""

    def __init__(self, idle_s: float = 3600.0, lifetime_s: float = 12 * 3600.0, limit: int = 1000) -> None:
        self.idle_s = idle_s
        self.lifetime_s = lifetime_s
        self.limit = limit
        self._sessions: dict[str, ConsoleSession] = {}

    @staticmethod
    def _key(sid: str) -> str:
        return hashlib.sha256(sid.encode("utf-8", "replace")).hexdigest()

    def open(self, host: str, caller: Caller = OPERATOR) -> tuple[str, str]:
        """A new session for `host`: its id (for the cookie) and its CSRF token (for the script)."""
        now = time.monotonic()
        self._sessions = {k: v for k, v in self._sessions.items() if self._alive(v, now)}
        while len(self._sessions) >= self.limit:
            self._sessions.pop(min(self._sessions, key=lambda k: self._sessions[k].used))
        sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        self._sessions[self._key(sid)] = ConsoleSession(host.lower(), csrf, now, now, caller)
        return sid, csrf

    def _alive(self, session: ConsoleSession, now: float) -> bool:
        return now - session.used < self.idle_s and now - session.created < self.lifetime_s

    def find(self, sid: str, host: str) -> ConsoleSession | None:
        key = self._key(sid)
        session = self._sessions.get(key)
        now = time.monotonic()
        if session is None or not self._alive(session, now):
            self._sessions.pop(key, None)
            return None
        if session.host != host.lower():
            return None
        session.used = now
        return session

    def close(self, sid: str) -> None:
        self._sessions.pop(self._key(sid), None)


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip()
    return None


# RFC 3986's authority without userinfo, as a Host header carries it (RFC 9110): a reg-name or IPv4
# address, or an IP literal in brackets, then an optional port. Anything else is not parsed at all.
_AUTHORITY = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]*)(?::(?P<port>[0-9]{0,5}))?$")


def parse_authority(authority: str) -> tuple[str, str] | None:
    """(host, port) of a Host header's value, host lower-cased (an IPv6 literal with its brackets), or
    None when it is not one: userinfo (``127.0.0.1:P@evil.example`` names evil.example), text after a
    bracket (``[::1]evil``), a second colon outside brackets, a port that is not a number."""
    found = _AUTHORITY.match(authority)
    if found is None:
        return None
    host = found.group("host").lower()
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return None
    return host, found.group("port") or ""


def _hostname(host: str) -> str:
    """The host a Host (or an origin's authority) names; "" when it cannot be parsed (never loopback)."""
    parsed = parse_authority(host)
    return parsed[0] if parsed is not None else ""


class AccessGuard:
    def __init__(self, app: Any, token: str | None, console: ConsoleSessions | None = None,
                 callers: tuple[Caller, ...] = ()) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.console = console
        self.callers = callers  # PLING_TOKENS; PLING_TOKEN is one more, the operator

    @property
    def _guarded(self) -> bool:
        return self.token is not None or bool(self.callers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
        path = scope.get("path", "")
        host = headers.get("host", "")
        query_token = _take_query_token(scope)
        query_csrf = _take_query_param(scope, "csrf")
        caller = self._check(path, host, headers, scope.get("method", ""), query_token, query_csrf)
        scope.setdefault("state", {})["caller"] = caller
        if path == "/mcp" or path.startswith("/mcp/"):
            send = _logging_refusals(scope, send)
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_BODY:
            if int(length) <= DRAINED_BODY:
                await _drain(receive)
            raise PayloadTooLarge(f"The body is {length} bytes; at most {MAX_BODY} are accepted")
        if length is None and scope.get("method") in ("POST", "PUT", "PATCH"):
            # No declared length (chunked): read the body first, so an oversized one is refused
            # before the app sees any of it.
            body, more = b"", True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY:
                    raise PayloadTooLarge(f"The body is over {MAX_BODY} bytes")
            replayed = False

            async def replay() -> dict[str, Any]:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send)
            return
        await self.app(scope, receive, send)

    def _check(self, path: str, host: str, headers: dict[str, str], method: str = "GET",
               query_token: str | None = None, query_csrf: str | None = None) -> Caller:
        """The caller, or Forbidden or Unauthorized when the request may not go on (rendered by
        server/problems.py). Without PLING_TOKEN and PLING_TOKENS, whoever reaches the loopback
        address is the operator."""
        if parse_authority(host) is None:
            raise Forbidden(f"Host {host[:100]!r} is not a host and port this service can read",
                            hint="Send a Host header of the form name[:port] or [v6-address][:port].")
        if not self._guarded and _hostname(host) not in LOOPBACK_HOSTS:
            raise Forbidden(f"Host {host[:100]!r} is not this service's loopback address",
                            hint="Call the service as 127.0.0.1 or localhost (set PLING_TOKEN to serve other addresses).")
        origin = headers.get("origin")
        if origin and origin != "null":
            parts = urlsplit(origin)
            own = f"{parts.scheme}://{parts.netloc}".lower() in (f"http://{host}".lower(), f"https://{host}".lower())
            if not own and _hostname(parts.netloc or "") not in LOOPBACK_HOSTS:
                raise Forbidden(f"Requests from {origin[:100]!r} are not accepted",
                                hint="Call the API from a server or from the service's own origin.")
        if not self._guarded or any(path == p or (p.endswith("/") and path.startswith(p)) for p in PUBLIC_PATHS):
            return OPERATOR
        caller = self._caller(path, host, headers, method, query_token, query_csrf)
        if caller is None:
            raise Unauthorized("A valid bearer token is required",
                               hint="Send `Authorization: Bearer <token>` (in a browser, open /console?token=<token> once).")
        refused = forbidden_for(caller, method, path)
        if refused is not None:
            raise Forbidden(f"The caller {caller.name!r} has the {caller.role} role, which may not {refused}",
                            hint="Use a caller with the person or operator role (PLING_TOKENS) for that.")
        return caller

    def _by_token(self, token: str) -> Caller | None:
        if self.token is not None and hmac.compare_digest(token.encode(), self.token):
            return OPERATOR
        return find_caller(token, self.callers) if self.callers else None

    def _caller(self, path: str, host: str, headers: dict[str, str], method: str, query_token: str | None,
                query_csrf: str | None = None) -> Caller | None:
        scheme, _, credential = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer":
            found = self._by_token(credential.strip())
            if found is not None:
                return found
        if query_token is not None:
            found = self._by_token(query_token)
            if found is not None:
                return found
        cookie = _cookie(headers.get("cookie", ""), cookie_name(host))
        session = self.console.find(cookie, host) if cookie and self.console is not None else None
        if session is None:
            return None
        if method in ("GET", "HEAD") and (path == CONSOLE_SHELL[0] or path.startswith(CONSOLE_SHELL[1])):
            return session.caller
        csrf = headers.get(CSRF_HEADER) or query_csrf or ""
        if not hmac.compare_digest(csrf.encode("utf-8", "replace"), session.csrf.encode()):
            return None
        origin = headers.get("origin")
        own = origin is None or origin.lower() in (f"http://{host}".lower(), f"https://{host}".lower())
        return session.caller if method in ("GET", "HEAD") or own else None


def _logging_refusals(scope: Scope, send: Send) -> Send:
    """`send`, logging a 400 the MCP server answered by itself (a body its JSON parser refuses, such as
    one holding a lone surrogate), as REST's refusals are logged: what the SDK said, escaped as all
    log text is."""
    status = 0

    async def logged(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message.get("status", 0)
        elif message["type"] == "http.response.body" and status == 400:
            status = 0  # once per answer
            said = bytes(message.get("body", b""))[:300].decode("utf-8", "replace")
            log.info("refused %s %s (400): %s", scope.get("method"), scope.get("path"), said)
        await send(message)

    return logged


def _take_query_param(scope: Scope, name: str) -> str | None:
    """A query parameter, removed from the request's query (so no log line shows it)."""
    raw = scope.get("query_string", b"")
    if f"{name}=".encode() not in raw:
        return None
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
    values = [value for key, value in pairs if key == name]
    if not values:
        return None
    scope["query_string"] = urlencode([(key, value) for key, value in pairs if key != name]).encode("latin-1")
    return values[0]


def _take_query_token(scope: Scope) -> str | None:
    """The `token` query parameter, removed from the request's query (so no log line shows it). The
    console's page handler learns from `state["token_in_query"]` that it came, to set the cookie."""
    raw = scope.get("query_string", b"")
    if b"token=" not in raw:
        return None
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
    tokens = [value for key, value in pairs if key == "token"]
    if not tokens:
        return None
    scope["query_string"] = urlencode([(key, value) for key, value in pairs if key != "token"]).encode("latin-1")
    scope.setdefault("state", {})["token_in_query"] = True
    return tokens[0]


async def _drain(receive: Receive) -> None:
    """Read a refused body to its end (its length was checked: at most DRAINED_BODY), dropping it, so the
    refusal is not lost to a reset; the body deadline (server/limits.py) still bounds a slow sender."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return
