"""Limits that keep the HTTP face up under a flood of connections: a deadline for a request's head and
one for its body after the head, a cap on open connections (the longest-waiting idle ones are closed to make room), the open-file
limit raised to its hard limit, and repeated log lines rate-limited.

uvicorn times out only kept-alive connections after a response; a client that connects and never
finishes its headers is never closed, and a thousand of them use up the process's file descriptors
(then nothing is accepted, /healthz included, and asyncio logs the failed accept in a loop). Nor does
it time out a body: a client that sends complete headers and then trickles its body (or stops) would hold
the connection and the handler reading it for as long as it likes; past the body deadline it is answered
408 REQUEST_TIMEOUT and the connection is closed."""

from __future__ import annotations

import json
import logging
import resource
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..config import Settings
from ..errors import RequestTimeout
from .problems import MEDIA_TYPE, problem_body

__all__ = ["raise_open_file_limit", "connection_cap", "uvicorn_options", "RepeatLimit", "limit_repeated_logs"]

log = logging.getLogger("pling_browser")

HEAD_LIMIT_BYTES = 64 * 1024  # the largest request head h11 buffers before answering 400


def raise_open_file_limit() -> int:
    """The soft RLIMIT_NOFILE raised to the hard limit; answers the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1_048_576)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("the open-file limit stays at %s: %s", soft, error)
    return soft


def connection_cap(settings: Settings) -> int:
    """PLING_MAX_CONNECTIONS, and never more than half the open-file limit (browsers' pipes, egress
    tunnels and the database need the rest)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return settings.max_connections
    return max(16, min(settings.max_connections, soft // 2))


def _refuse_slow_body(protocol: H11Protocol, body_timeout_s: float) -> None:
    """Answer 408 (a problem, as every refusal) and close: the request's body did not arrive in time.
    The handler reading it then sees the client gone; nothing it sends later is written."""
    scope = protocol.scope
    error = RequestTimeout(f"The request body did not arrive within {body_timeout_s:g} s of its headers")
    body = json.dumps(problem_body(error)).encode()
    headers = [(b"content-type", MEDIA_TYPE.encode()), (b"connection", b"close"),
               (b"content-length", str(len(body)).encode())]
    try:
        for event in (h11.Response(status_code=408, headers=headers, reason=b"Request Timeout"),
                      h11.Data(data=body), h11.EndOfMessage()):
            protocol.transport.write(protocol.conn.send(event))
    except h11.LocalProtocolError:  # the response had begun after all: closing is all that is left
        pass
    log.info("refused %s %s (408): %s", scope.get("method"), str(scope.get("path", ""))[:200], error.message)
    protocol.transport.close()


class _Gathered:
    """A response cycle's transport while it sends its head and the first part of its body: what uvicorn
    writes is kept and written at once (``flush``), before the connection is closed and before the
    protocol hears that the response is complete (which may start a pipelined request's answer)."""

    def __init__(self, transport: Any) -> None:
        self._transport = transport
        self._parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self._parts.append(data)

    def flush(self) -> None:
        if self._parts and not self._transport.is_closing():
            self._transport.write(b"".join(self._parts))
        self._parts = []

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def _one_write(cycle: Any) -> Any:
    """The cycle's ASGI ``send``, writing a response whose length is known (``content-length``: every
    JSON answer) in one write, its head with its body. uvicorn writes the head as soon as the app starts
    the response, so the client woke for the head alone and read the body on a second wake-up, and on a
    loaded machine the service lost its core between the two writes (issue 31: 0.13-1.0 ms of a read's
    answer). A response without a length (an event stream) starts as before: its head is not held."""
    send, on_response = cycle.send, cycle.on_response
    held: list[Any] = []

    def completed() -> None:
        if isinstance(cycle.transport, _Gathered):
            cycle.transport.flush()
        on_response()

    async def sending(message: Any) -> None:
        if message["type"] == "http.response.start" and not cycle.response_started:
            held.clear()  # a start never followed by its body (uvicorn's 500 after an error) is not sent
            if any(name.lower() == b"content-length" for name, _ in message.get("headers", ())):
                held.append(message)  # the response starts with its body
                return
        real = gathered = cycle.transport
        if held:
            gathered = cycle.transport = _Gathered(real)
        try:
            if held:
                await send(held.pop())
            await send(message)
        finally:
            cycle.transport = real
            if isinstance(gathered, _Gathered):
                gathered.flush()

    cycle.on_response = completed
    return sending


def _protocol(header_timeout_s: float, max_connections: int, body_timeout_s: float = 30.0) -> type[H11Protocol]:
    class GuardedH11Protocol(H11Protocol):
        """uvicorn's h11 protocol with a deadline for each request head (a fresh connection's, and a
        kept-alive connection's next one, however slowly its bytes trickle in), one for each request
        body after its head, and a connection cap that closes the longest-waiting connection with no
        request in progress to admit a new one."""

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._waiting_since = time.monotonic()
            self._head_timer: Any = None
            self._body_timer: Any = None
            self._body_cycle: Any = None
            self._answering: Any = None
            self._arm_head_timer()
            if len(self.connections) > max_connections:
                self._make_room()

        def _arm_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._waiting_since = time.monotonic()
            self._head_timer = self.loop.call_later(header_timeout_s, self._head_timeout)

        def _waiting_for_head(self) -> bool:
            return self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

        def _head_timeout(self) -> None:
            self._head_timer = None
            if self._waiting_for_head() and not self.transport.is_closing():
                self.transport.close()

        def handle_events(self) -> None:
            super().handle_events()
            cycle = self.cycle
            if cycle is not None and cycle is not self._answering:
                self._answering = cycle  # a new request: its task starts on the loop's next turn
                cycle.send = _one_write(cycle)
            if cycle is not None and cycle is not self._body_cycle and cycle.more_body:
                self._body_cycle = cycle  # a new request whose head is complete and body is not
                self._arm_body_timer(cycle)

        def _arm_body_timer(self, cycle: Any) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
            self._body_timer = self.loop.call_later(body_timeout_s, self._body_timeout, cycle)

        def _body_timeout(self, cycle: Any) -> None:
            self._body_timer = None
            if self.cycle is not cycle or not cycle.more_body or cycle.response_started or self.transport.is_closing():
                return  # the body arrived, or the answer has begun
            if self.flow.read_paused:  # the handler is not reading yet: the client is not the one waiting
                self._arm_body_timer(cycle)
                return
            _refuse_slow_body(self, body_timeout_s)

        def _make_room(self) -> None:
            waiting = [c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol)
                       and c._waiting_for_head() and not c.transport.is_closing()]
            excess = len(self.connections) - max_connections
            for victim in sorted(waiting, key=lambda c: c._waiting_since)[:excess]:
                victim.transport.close()
                self.connections.discard(victim)
            if len(self.connections) > max_connections:
                self.transport.close()  # every other connection is busy: this one waits its turn
                self.connections.discard(self)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            for timer in (self._head_timer, self._body_timer):
                if timer is not None:
                    timer.cancel()
            self._head_timer = self._body_timer = None
            super().connection_lost(exc)

    return GuardedH11Protocol


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What `pling-browser serve` (and the tests' service) pass to uvicorn."""
    cap = connection_cap(settings)
    return {
        # uvloop where it is installed (a dependency, but on Windows), else asyncio's loop.
        "loop": "auto",
        "http": _protocol(settings.header_timeout_s, cap, settings.body_timeout_s),
        # An idle kept-alive connection is closed after the head deadline (the protocol above), not
        # before: a server that closes first races the client that reuses the socket at that moment
        # ("other side closed"). Clients expire idle connections sooner (Node's undici after 4 s,
        # httpx after 5 s); at 5 s here the TypeScript MCP SDK failed 5 of 8 runs on a loaded machine.
        "timeout_keep_alive": settings.header_timeout_s,
        # uvicorn answers 503 past this many connections or tasks; the cap above keeps connections
        # below it, so only work in progress can reach it.
        "limit_concurrency": cap + 1,
        "h11_max_incomplete_event_size": HEAD_LIMIT_BYTES,
    }


class RepeatLimit(logging.Filter):
    """Passes at most `burst` records of one logger and message template per `window_s` seconds; the
    first record after a window says how many were dropped. A flood of one line (a page's refused
    requests, a failing accept) cannot fill the disk."""

    def __init__(self, burst: int = 20, window_s: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window_s = window_s
        self._seen: dict[tuple[str, str], list[float]] = {}  # key -> [window start, passed, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= self.window_s:
            dropped = int(entry[2]) if entry else 0
            if len(self._seen) > 10_000:
                self._seen.clear()
            self._seen[key] = [now, 1, 0]
            if dropped:
                record.msg = f"{record.msg} (and {dropped} more like it in the last {self.window_s:.0f} s, not logged)"
            return True
        if entry[1] < self.burst:
            entry[1] += 1
            return True
        entry[2] += 1
        return False


def limit_repeated_logs(burst: int = 20, window_s: float = 60.0) -> RepeatLimit:
    """One RepeatLimit on every handler of the root logger and of uvicorn's loggers."""
    limit = RepeatLimit(burst, window_s)
    for name in (None, "uvicorn", "uvicorn.error", "uvicorn.access"):
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RepeatLimit) for f in handler.filters):
                handler.addFilter(limit)
    return limit
