"""Playwright browser servers (`playwright launch-server`) running the system Chromium, for tests
of remote endpoints. Each runs in its own process group, so the test can kill exactly it."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pling_browser.config import find_chromium
from pling_browser.controller import chromium_args


CONFIG = Path(__file__).resolve().parent.parent / "docker" / "browser-server.json"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class BrowserServer:
    def __init__(self, port: int | None = None, path: str = "pling") -> None:
        self.port = port or free_port()
        self.path = path
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/{self.path}"

    def start(self) -> "BrowserServer":
        # The same configuration the containers use (docker/browser-server.json), on a free port.
        config = json.loads(CONFIG.read_text())
        config.update({"port": self.port, "host": "127.0.0.1", "wsPath": self.path})
        config["args"] = sorted(set(config["args"]) | set(chromium_args()))
        chromium = find_chromium(os.environ.get("PLING_CHROMIUM"))
        if chromium:
            config["executablePath"] = chromium
        handle, name = tempfile.mkstemp(suffix=".json")
        with os.fdopen(handle, "w") as file:
            json.dump(config, file)
        self.process = subprocess.Popen([sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
                                         "--config", name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        start_new_session=True)
        assert self.process.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if re.search(r"ws://", line or ""):
                return self
            if not line and self.process.poll() is not None:
                break
        self.stop()
        raise RuntimeError("the browser server did not start")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        if self.process.stdout is not None:
            self.process.stdout.close()
