"""A real HTTP server for test pages: fixtures/ as static files, the bridge at /pling.js, and a few
dynamic routes that pages call to make the network observable.

    /api/echo?delay=MS&status=CODE   answers {"ok": status < 400} after MS milliseconds
    /hang                            never answers (until the server stops)
    /redirect?to=URL                 302 to URL
    /pages/…                         fixtures/pages/…
    /js/…                            the declaration package's built files (js/dist/), as the service serves them

Every GET and POST is logged in `server.requests` as (method, path with query) on arrival;
`server.wait_for_request(path, timeout)` waits for one (as playwright-python's test server does).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pling_browser.core.bridge import bridge_source
from pling_browser.server.routes.static import package_files
from pling_browser.server.threaded import HTTPServerThread

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


class _Handler(SimpleHTTPRequestHandler):
    server: FixtureServer

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(FIXTURES), **kwargs)

    def log_message(self, format, *args):  # keep test output clean
        pass

    def do_GET(self):
        self.server._record("GET", self.path)
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        if parts.path == "/pling.js":
            return self._send(200, bridge_source().encode(), "text/javascript")
        if parts.path.startswith("/js/"):  # the declaration package, as the service serves it
            found = package_files().get(parts.path[len("/js/"):])
            if found is None:
                return self._send(404, b"{}", "application/json")
            return self._send(200, found[0].read_bytes(), found[1])
        if parts.path == "/api/echo":
            return self._echo(query)
        if parts.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", query.get("to", "/"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if parts.path == "/hang":
            self.server.stopping.wait(60)
            return None
        return super().do_GET()

    def do_POST(self):
        self.server._record("POST", self.path)
        parts = urlsplit(self.path)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        if parts.path == "/api/echo":
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            return self._echo(query)
        return self._send(404, b"{}", "application/json")

    def _echo(self, query):
        delay = float(query.get("delay", 0)) / 1000
        status = int(query.get("status", 200))
        if delay:
            self.server.stopping.wait(delay)
        self.server.hits += 1
        body = json.dumps({"ok": status < 400, "at": time.time()}).encode()
        return self._send(status, body, "application/json")

    def _send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


class FixtureServer(HTTPServerThread):
    def __init__(self, host: str = "127.0.0.1") -> None:
        # Loopback only (127.0.0.0/8): a second address (127.0.0.2) is another site to the browser.
        if not host.startswith("127."):
            raise ValueError("the fixture server binds loopback addresses only")
        super().__init__(_Handler, host)
        self.stopping = threading.Event()
        self.hits = 0
        self.requests: list[tuple[str, str]] = []  # (method, path with query), in arrival order
        self._requests_changed = threading.Condition()

    def _record(self, method: str, path: str) -> None:
        with self._requests_changed:
            self.requests.append((method, path))
            self._requests_changed.notify_all()

    def wait_for_request(self, path: str, timeout: float = 30.0, *, method: str | None = None,
                         since: int = 0) -> tuple[str, str]:
        """The first request to `path` (its query string ignored unless `path` has one) at index
        `since` or later of `requests`, waiting up to `timeout` seconds; TimeoutError if none. To
        wait for a new one, pass `since=len(server.requests)` taken before the action."""
        def matches(entry: tuple[str, str]) -> bool:
            verb, seen = entry
            same = seen == path or ("?" not in path and seen.split("?", 1)[0] == path)
            return same and (method is None or verb == method)

        deadline = time.monotonic() + timeout
        with self._requests_changed:
            while True:
                found = next((entry for entry in self.requests[since:] if matches(entry)), None)
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no {method or 'request'} to {path} within {timeout} s")
                self._requests_changed.wait(left)

    def url(self, path: str) -> str:
        return self.origin + "/" + path.lstrip("/")

    def stop(self) -> None:
        self.stopping.set()  # /hang and delayed echoes answer now
        super().stop()
