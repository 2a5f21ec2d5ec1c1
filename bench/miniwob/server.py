"""The MiniWoB++ task pages over HTTP, from the `miniwob` package's own files (miniwob/html), on port 0.

A task's page is served as shipped with one addition, the harness script (harness.js) at the end of its
body: it starts the episode with the seed in the address and reports the episode's end to this server
(``POST /__reward?run=…``), where only the harness reads it. Nothing of the agent's goes through here."""

from __future__ import annotations

import importlib.util
import itertools
import json
import threading
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

from pling_browser.server.threaded import HTTPServerThread

HARNESS = (Path(__file__).resolve().parent / "harness.js").read_text(encoding="utf-8")
PATIENT_EPISODE_MS = 600_000  # a ceiling for a loaded machine, not a measurement (TaskServer's `patient`)
PATIENT_EVENT_WAIT_S = 5.0    # how long an ok gesture's event may take to arrive before it counts as a lie


def miniwob_html() -> Path:
    """The task files of the installed `miniwob` package (its module is not imported: it pulls in
    gymnasium and selenium, which the bench does not use)."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the miniwob package is not installed: pip install -e '.[bench]'")
    root = Path(next(iter(spec.submodule_search_locations))) / "html"
    if not (root / "miniwob").is_dir():
        raise RuntimeError(f"no miniwob/html in {root.parent}")
    return root


class _Handler(SimpleHTTPRequestHandler):
    server: TaskServer

    def __init__(self, request: Any, address: Any, server: TaskServer) -> None:
        super().__init__(request, address, server, directory=str(server.root))

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path.startswith("/miniwob/") and path.endswith(".html"):
            file = self.server.root / path.lstrip("/")
            if file.is_file():
                html = file.read_text(encoding="utf-8")
                at = html.rfind("</body>")
                clock = f"var PLING_EPISODE_MS = {json.dumps(self.server.episode_ms)};\n"
                html = html[:at] + "<script>" + clock + HARNESS + "</script>\n" + html[at:]
                self._send(200, html.encode(), "text/html; charset=utf-8")
                return
        super().do_GET()

    def do_POST(self) -> None:
        if self.path.startswith("/__event?run="):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                event = json.loads(body)
            except ValueError:
                event = {"type": "unreadable"}
            with self.server.lock:
                self.server.events.setdefault(self.path.split("=", 1)[1], []).append(event)
            self._send(204, b"", "text/plain")
            return
        if not self.path.startswith("/__reward?run="):
            self._send(404, b"", "text/plain")
            return
        run = self.path.split("=", 1)[1]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            reward = json.loads(body)
        except ValueError:
            reward = {"error": "unreadable report"}
        with self.server.lock:
            self.server.rewards.setdefault(run, reward)
        self._send(204, b"", "text/plain")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


class TaskServer(HTTPServerThread):
    """The task pages on port 0. `patient` (the tests) gives an episode PATIENT_EPISODE_MS on its clock instead
    of MiniWoB's 10 s, and the page's input events PATIENT_EVENT_WAIT_S instead of 1 s to reach the
    harness: the tests check what an episode did (its raw reward, its true receipts), not how fast, and on a
    loaded machine the episode's own clock ran out, or an event came late and its ok counted as a lie. The
    bench keeps MiniWoB's clock, so its time-proportional rewards are MiniWoB's."""

    def __init__(self, patient: bool = False) -> None:
        self.episode_ms: int | None = PATIENT_EPISODE_MS if patient else None  # None: the task's own clock
        self.event_wait_s = PATIENT_EVENT_WAIT_S if patient else 1.0
        self.root = miniwob_html()
        self.rewards: dict[str, dict[str, Any]] = {}
        self.events: dict[str, list[dict[str, Any]]] = {}   # run -> the trusted input events its page saw
        self.lock = threading.Lock()
        self._runs = itertools.count(1)
        super().__init__(_Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a page closed while a file was being sent to it: nothing to report

    def episode(self, task: str, seed: int, side: str) -> tuple[str, str]:
        """A fresh run id and the address that starts the task's episode with `seed`."""
        run = f"{side}-{task}-{seed}-{next(self._runs)}"
        return run, f"http://127.0.0.1:{self.server_address[1]}/miniwob/{task}.html?seed={seed}&run={run}"

    def reward(self, run: str) -> dict[str, Any] | None:
        """The episode's end as the task reported it (reward, raw, reason), or None while it runs."""
        with self.lock:
            return self.rewards.get(run)

    def events_of(self, run: str) -> list[dict[str, Any]]:
        """The input events the episode's page reported so far (harness.js), in the order they came."""
        with self.lock:
            return list(self.events.get(run, []))
