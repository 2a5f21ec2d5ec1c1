"""Servers in a thread of this process, on a loopback port the system picks (port 0): the pytest
plugin's service, the tests' services and apps, the bench's pages. One way to start and stop them:

- ``UvicornThread(app)``: an ASGI app under uvicorn, on a socket bound here before uvicorn starts
  (so the port is known at once and no other process can take it in between);
- ``HTTPServerThread``: a ``ThreadingHTTPServer`` that serves from a thread of its own; a server
  class derives from it and keeps its handler.

Both start with ``start()`` (or ``with``) and stop with ``stop()``."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["UvicornThread", "HTTPServerThread", "loopback_socket"]


def loopback_socket() -> socket.socket:
    """A listening TCP socket on 127.0.0.1, port 0. IPPROTO_TCP given explicitly: asyncio turns Nagle
    off (TCP_NODELAY) only on sockets whose proto says TCP, and a bare socket.socket() says 0, which
    costs every answer on a kept-alive connection ~40 ms (bench/service.py measured it)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


class UvicornThread:
    """An ASGI app under uvicorn in a daemon thread. `options` go to ``uvicorn.Config`` (log level
    warning unless given); `name` is what the error says when it does not start."""

    def __init__(self, app: Any, name: str = "the server", start_timeout_s: float = 60, **options: Any) -> None:
        import uvicorn

        self.app = app
        self.name = name
        self.start_timeout_s = start_timeout_s
        self.socket = loopback_socket()
        self.port: int = self.socket.getsockname()[1]
        options.setdefault("log_level", "warning")
        self.server = uvicorn.Server(uvicorn.Config(app, **options))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]},
                                       name=name, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> UvicornThread:
        """Start serving; RuntimeError when the app did not start within `start_timeout_s` (its
        lifespan failed, or the machine is that slow)."""
        self.thread.start()
        deadline = time.monotonic() + self.start_timeout_s
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start")
            time.sleep(0.05)
        return self

    def stop(self, timeout_s: float = 30) -> None:
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout_s)
        self.socket.close()

    def __enter__(self) -> UvicornThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class HTTPServerThread(ThreadingHTTPServer):
    """A threading HTTP server on `host` (loopback), port 0, serving from a daemon thread."""

    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1") -> None:
        super().__init__((host, 0), handler)
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def origin(self) -> str:
        return f"http://{self.server_address[0]}:{self.port}"

    def start(self) -> HTTPServerThread:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self.shutdown()
        self.server_close()

    def __enter__(self) -> HTTPServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
