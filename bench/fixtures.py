"""The bench pages over HTTP: fixtures/ as static files and the bridge at /pling.js, from a thread of
the bench process (the pages are only loaded, never polled, so it costs nothing while measuring)."""

from __future__ import annotations

import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from pling_browser.core.bridge import bridge_source

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PAGE = "/bench/list.html"


class _Handler(SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, directory=str(FIXTURES), **kwargs)

    def log_message(self, format, *args):  # type: ignore[no-untyped-def]
        pass

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/pling.js":
            body = bridge_source().encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


class FixtureServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    def page(self, n: int) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{PAGE}?n={n}"

    def __enter__(self) -> "FixtureServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
