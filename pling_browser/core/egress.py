"""Where pages may connect. Every browser context sends all its traffic through its own small proxy,
which resolves each host itself, applies the policy to the addresses, and connects to the address it
checked. So the policy holds for every request and redirect a page makes (subresources, iframes,
workers, WebSockets), and for the address actually connected to: a DNS answer that changes between
the check and the connection cannot slip past it.

The policy: http(s) only; loopback, private, link-local, CGNAT, multicast, metadata and other
non-global addresses (and their IPv6 forms) are refused unless the host is listed in
PLING_ALLOW_HOSTS; the service's own /demo/ pages are always allowed.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import hmac
import ipaddress
import logging
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..errors import NavigationRefused, PageUnreachable

log = logging.getLogger("pling_browser.egress")
OWN_PATHS = ("/demo/", "/pling.js")


def _internal(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            address = mapped
    return not address.is_global or address.is_multicast


def _listed(host: str, port: int | None, allowed: tuple[str, ...]) -> bool:
    host = host.lower().strip("[]")
    for entry in allowed:
        entry = entry.lower().strip()
        if entry.startswith("["):
            name, _, entry_port = entry[1:].partition("]")
            entry_port = entry_port.lstrip(":")
        elif entry.count(":") == 1:
            name, entry_port = entry.split(":")
        else:
            name, entry_port = entry, ""
        if name == host and (not entry_port or entry_port == str(port)):
            return True
    return False


@dataclass
class Policy:
    allow_hosts: tuple[str, ...] = ()
    own_origin: Callable[[], str | None] = lambda: None

    def _own(self, scheme: str, host: str, port: int | None, path: str | None) -> bool:
        own = self.own_origin()
        if not own or path is None:
            return False
        parts = urlsplit(own)
        return (scheme, host, port) == (parts.scheme, (parts.hostname or "").lower(), parts.port) and \
            any(path == p or path.startswith(p) for p in OWN_PATHS)

    async def addresses(self, scheme: str, host: str, port: int, path: str | None = None) -> list[str]:
        """The addresses `host` may be reached at, or NavigationRefused saying why none may."""
        host = host.lower().strip("[]").rstrip(".")
        if not host:
            raise NavigationRefused("The URL has no host")
        listed = self._own(scheme, host, port, path) or _listed(host, port, self.allow_hosts)
        if not listed and (host == "localhost" or host.endswith(".localhost")):
            raise NavigationRefused(f"{host} is a loopback name; list it in PLING_ALLOW_HOSTS to open it")
        try:
            infos = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(host, port, proto=socket.IPPROTO_TCP), 10)
        except (socket.gaierror, asyncio.TimeoutError, UnicodeError) as error:
            raise PageUnreachable(f"{host} could not be resolved: {getattr(error, 'strerror', None) or 'timed out'}") from None
        addresses = []
        for info in infos:
            text = str(info[4][0]).split("%")[0]
            if not listed and _internal(ipaddress.ip_address(text)) and not _listed(text, port, self.allow_hosts):
                raise NavigationRefused(f"{host} resolves to {text}, an internal address; list it in PLING_ALLOW_HOSTS to open it")
            if text not in addresses:
                addresses.append(text)
        return addresses

    async def check_url(self, url: str) -> str:
        """Before navigating: answer the URL to open, or raise NavigationRefused."""
        try:
            parts = urlsplit(url.strip())
            port = parts.port
        except ValueError as error:
            raise NavigationRefused(f"Not a valid URL: {error}") from None
        if parts.scheme not in ("http", "https"):
            raise NavigationRefused(f"Only http and https pages can be opened, not {parts.scheme or 'a relative URL'}:")
        if parts.username is not None or parts.password is not None:
            raise NavigationRefused("URLs with credentials (user:password@host) are not opened")
        await self.addresses(parts.scheme, parts.hostname or "", port or (443 if parts.scheme == "https" else 80),
                             parts.path or "/")
        return url


@dataclass
class Refusal:
    target: str
    reason: str


@dataclass
class Budget:
    """Connections open through every egress proxy of the service at once: each context holds at most
    its own cap, and all of them together at most `limit`, so many sessions' pages cannot use up the
    service's file descriptors between them (each connection holds two: the browser's and upstream)."""

    limit: int
    open: int = 0
    refused: int = 0

    def take(self) -> bool:
        if self.open >= self.limit:
            self.refused += 1
            return False
        self.open += 1
        return True

    def give_back(self) -> None:
        self.open = max(0, self.open - 1)


@dataclass
class EgressProxy:
    """An HTTP proxy for one browser context: CONNECT tunnels and plain HTTP requests, each checked.
    It serves only its own context: every request must carry the proxy credential made for it (given
    to the context as its proxy's username and password); anyone else gets 407 and no connection."""

    policy: Policy
    bind: str = "127.0.0.1"
    refused: list[Refusal] = field(default_factory=list)  # the first 100, for the session's listing
    refusals: int = 0  # every refusal, counted
    latest: collections.deque[Refusal] = field(default_factory=lambda: collections.deque(maxlen=20))  # the last 20
    requests: int = 0
    unauthorized: int = 0
    username: str = "pling"
    password: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    # A context holds at most this many connections through its proxy (tunnels, WebSockets, plain
    # requests); one more is answered 503. A connection with no byte either way for idle_s is closed.
    max_connections: int = 64
    idle_s: float = 300.0
    over_cap: int = 0
    budget: Budget | None = None  # shared by every proxy of the service
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _server: asyncio.base_events.Server | None = None

    def refused_since(self, mark: int) -> list[Refusal]:
        """The refusals after the ``mark``-th (at most the last 20), oldest first."""
        count = min(self.refusals - mark, len(self.latest))
        return list(self.latest)[-count:] if count > 0 else []

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> EgressProxy:
        self._server = await asyncio.start_server(self._handle, self.bind, 0)
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=2)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def _refuse(self, target: str, reason: str) -> None:
        refusal = Refusal(target[:300], reason[:300])
        if len(self.refused) < 100:
            self.refused.append(refusal)
        self.refusals += 1
        self.latest.append(refusal)
        log.info("refused %s: %s", target[:300], reason[:300])

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        full = (f"This context has {self.max_connections} connections open already"
                if len(self._tasks) >= self.max_connections else None)
        if full is None and task is not None and self.budget is not None and not self.budget.take():
            full = f"The service's browsers have {self.budget.limit} connections open already"
        if full is not None:
            self.over_cap += 1
            log.info("egress proxy refused a connection: %s", full)
            with contextlib.suppress(Exception):
                await self._answer(writer, 503, full)
            writer.close()
            return
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            if self.budget is not None:
                task.add_done_callback(lambda _: self.budget.give_back())  # type: ignore[union-attr]
        try:
            async with asyncio.timeout(30):  # not wait_for, as in _pipe: a cancellation is never lost
                head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ConnectionError,
                asyncio.CancelledError):
            # Cancelled too (the context closed while the connection idled): the handler ends here and
            # closes its connection, because on Python 3.11 asyncio closes nothing for a cancelled one
            # (its done-callback raises on task.exception() first): the socket would leak.
            writer.close()
            return
        try:
            line, _, rest = head.decode("latin-1").partition("\r\n")
            method, target, _version = line.split(" ", 2)
            if not self._authorized(rest):
                # The browser's first request of a context comes without the credential and is
                # answered the same way; it then sends it with every request.
                self.unauthorized += 1
                await self._answer(writer, 407, "This proxy serves one browser context only",
                                   'Proxy-Authenticate: Basic realm="pling egress"\r\n')
                return
            self.requests += 1
            if method == "CONNECT":
                await self._tunnel(target, reader, writer)
            else:
                await self._forward(method, target, rest, reader, writer)
        except (ValueError, ConnectionError, asyncio.TimeoutError) as error:
            with contextlib.suppress(Exception):
                await self._answer(writer, 400, f"Bad proxy request: {error}")
        except asyncio.CancelledError:
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    def _authorized(self, rest: str) -> bool:
        expected = "Basic " + base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        for header in rest.split("\r\n"):
            name, colon, value = header.partition(":")
            if colon and name.strip().lower() == "proxy-authorization":
                return hmac.compare_digest(value.strip().encode("latin-1"), expected.encode())
        return False

    async def _answer(self, writer: asyncio.StreamWriter, status: int, text: str, extra: str = "") -> None:
        body = text.encode()
        mark = {403: "X-Pling-Refused: 1\r\n", 407: ""}.get(status, "X-Pling-Unreachable: 1\r\n")
        writer.write(f"HTTP/1.1 {status} Pling egress\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                     f"{mark}{extra}Connection: close\r\n\r\n".encode() + body)
        with contextlib.suppress(Exception):
            await writer.drain()

    async def _open(self, scheme: str, host: str, port: int, path: str | None, label: str,
                    writer: asyncio.StreamWriter) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            addresses = await self.policy.addresses(scheme, host, port, path)
        except (NavigationRefused, PageUnreachable) as error:
            self._refuse(label, error.message)
            await self._answer(writer, 403 if isinstance(error, NavigationRefused) else 502, error.message)
            return None
        for address in addresses:
            try:
                async with asyncio.timeout(15):  # not wait_for, as in _pipe: a cancellation is never lost
                    return await asyncio.open_connection(address, port)
            except (OSError, asyncio.TimeoutError):
                continue
        await self._answer(writer, 502, f"{host}:{port} did not accept a connection")
        return None

    async def _tunnel(self, target: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, _, port_text = target.rpartition(":")
        upstream = await self._open("https", host, int(port_text), None, f"CONNECT {target}", writer)
        if upstream is None:
            return
        try:
            writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            await writer.drain()
            await _pipe_both(reader, writer, *upstream, idle_s=self.idle_s)
        finally:
            upstream[1].close()

    async def _forward(self, method: str, target: str, rest: str, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> None:
        parts = urlsplit(target)
        if parts.scheme != "http" or not parts.hostname:
            self._refuse(target, "only http is proxied in the clear")
            await self._answer(writer, 403, "Only http URLs are proxied")
            return
        port = parts.port or 80
        path = parts.path or "/"
        upstream = await self._open("http", parts.hostname, port, path, f"{method} {target}", writer)
        if upstream is None:
            return
        headers = [h for h in rest.split("\r\n") if h and not h.lower().startswith(("proxy-", "connection:", "keep-alive:"))]
        origin_form = path + (f"?{parts.query}" if parts.query else "")
        request = f"{method} {origin_form} HTTP/1.1\r\n" + "".join(h + "\r\n" for h in headers) + "Connection: close\r\n\r\n"
        try:
            upstream[1].write(request.encode("latin-1"))
            await upstream[1].drain()
            await _pipe_both(reader, writer, *upstream, idle_s=self.idle_s)
        finally:
            upstream[1].close()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter, activity: list[float], idle_s: float) -> None:
    """Copy until EOF, or until neither direction moved a byte for idle_s (`activity` is shared by both)."""
    loop = asyncio.get_running_loop()
    try:
        while True:
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns bytes that arrive in the turn
                # the pipe is cancelled and drops the cancellation (the pipe read on after its context closed).
                async with asyncio.timeout(max(0.05, activity[0] + idle_s - loop.time())):
                    chunk = await source.read(65536)
            except TimeoutError:
                if loop.time() - activity[0] >= idle_s:
                    break
                continue
            if not chunk:
                break
            activity[0] = loop.time()
            sink.write(chunk)
            await sink.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        with contextlib.suppress(Exception):
            if sink.can_write_eof():
                sink.write_eof()


async def _pipe_both(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter,
                     upstream_reader: asyncio.StreamReader, upstream_writer: asyncio.StreamWriter,
                     idle_s: float = 300.0) -> None:
    activity = [asyncio.get_running_loop().time()]
    upward = asyncio.create_task(_pipe(client_reader, upstream_writer, activity, idle_s))
    try:
        await _pipe(upstream_reader, client_writer, activity, idle_s)
    finally:
        upward.cancel()
        with contextlib.suppress(BaseException):
            await upward
        with contextlib.suppress(Exception):
            upstream_writer.close()
