"""The Pling service for the bench: ``create_app(Settings…)`` under uvicorn in a child process on port 0,
so the bench's own client and floor browser do not share its interpreter, and its memory (the
process, Playwright's driver and Chromium below it) can be read from /proc.

    python -m bench.service DATA_DIR     prints "PORT <n>", then serves until SIGINT/SIGTERM"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

# The bench page declares `remove` with risk danger: the operator policy approves it, as in CI.
APPROVE = ("remove",)
# Room for the capacity climb (bench/capacity.py): the service's own limit is not what it measures.
MAX_SESSIONS = 520


def _serve(data_dir: str) -> None:
    import uvicorn

    from pling_browser.config import Settings
    from pling_browser.server.api import create_app
    from pling_browser.server.limits import raise_open_file_limit, uvicorn_options

    settings = Settings.from_env()  # PLING_APPROVE and PLING_ADAPTERS from the environment add to the bench's own
    settings = settings.with_(allow_hosts=("127.0.0.1",), approve=APPROVE + settings.approve, max_sessions=MAX_SESSIONS,
                              data_dir=Path(data_dir))
    raise_open_file_limit()
    app = create_app(settings)
    # IPPROTO_TCP given explicitly: asyncio turns Nagle off (TCP_NODELAY) only on sockets whose proto says
    # TCP, and a bare socket.socket() says 0, which costs every answer on a kept-alive connection ~40 ms
    # (the response's second segment waits for the client's delayed ACK).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    # As `pling-browser serve` runs: with uvicorn's defaults an idle kept-alive connection was closed after
    # 5 s, as long as httpx keeps it for reuse, and a busy client lost answers (tests/test_keep_alive.py).
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", **uvicorn_options(settings))
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the stop signal again once it has shut down cleanly
        pass


class ServiceProcess:
    def __init__(self, log_path: Path, env: dict[str, str] | None = None) -> None:
        self.log_path = log_path
        self.env = env or {}
        self.data_dir = tempfile.mkdtemp(prefix="pling-bench-")
        self.process: subprocess.Popen[str] | None = None
        self.port = 0

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServiceProcess:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "w")
        root = Path(__file__).resolve().parent.parent
        self.process = subprocess.Popen([sys.executable, "-m", "bench.service", self.data_dir], cwd=root,
                                        stdout=subprocess.PIPE, stderr=log, text=True,
                                        env={**os.environ, **self.env, "PYTHONUNBUFFERED": "1"})
        log.close()
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            self.__exit__()
            raise RuntimeError(f"the Pling service did not start (see {self.log_path})")
        self.port = int(line.split()[1])
        deadline = time.time() + 90
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                self.__exit__()
                raise RuntimeError(f"the Pling service did not become healthy (see {self.log_path})")
            time.sleep(0.1)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)


if __name__ == "__main__":
    _serve(sys.argv[1])
