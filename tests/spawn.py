"""Processes the tests start for real: the service (`pling-browser serve`) and Playwright browser
servers (`playwright launch-server` with the system Chromium). Each runs in its own process group,
so a test can kill exactly what it started."""

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
from pling_browser.core.browsers import chromium_args

from . import patient

CONFIG = Path(__file__).resolve().parent.parent / "docker" / "browser-server.json"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class BrowserServer:
    def __init__(self, port: int | None = None, path: str = "pling", without: tuple[str, ...] = ()) -> None:
        self.port = port or free_port()
        self.path = path
        self.without = without  # launch arguments to leave out (to test that the service notices)
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/{self.path}"

    def start(self) -> BrowserServer:
        # The same configuration the containers use (docker/browser-server.json), on a free port.
        config = json.loads(CONFIG.read_text())
        config.update({"port": self.port, "host": "127.0.0.1", "wsPath": self.path})
        config["args"] = sorted((set(config["args"]) | set(chromium_args())) - set(self.without))
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


def serve(*args: str, env: dict[str, str] | None = None, port: int | None = None, log: Path | None = None,
          open_files: int | None = None, host: str = "127.0.0.1") -> tuple[subprocess.Popen[bytes], str]:
    """`pling-browser serve` as a process of its own; answers it and its URL once /healthz answers.
    `log`: a file for its output; `open_files`: the soft open-file limit it starts with; `host`: the
    loopback address it listens on (127.0.0.2 is loopback too: replicas on one port, as pods)."""
    import httpx

    def limit_open_files() -> None:
        if open_files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    port = port or free_port()
    output = open(log, "wb") if log is not None else subprocess.DEVNULL
    listen = ["--host", host] if host != "127.0.0.1" else []
    process = subprocess.Popen([sys.executable, "-m", "pling_browser", "serve", "--port", str(port), *listen, *args],
                               env={**os.environ, **(env or {})}, stdout=output, stderr=output,
                               start_new_session=True, preexec_fn=limit_open_files)
    if log is not None:
        output.close()  # type: ignore[union-attr]
    url = f"http://{host}:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if patient.get(f"{url}/healthz", timeout=10).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    kill_group(process)
    raise RuntimeError("the service did not start")


def kill_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)
