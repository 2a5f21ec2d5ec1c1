"""The receipt log and idempotency records survive `kill -9` of the service (SQLite in WAL mode).
The service runs as a real process here, so it can be killed for real."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx

from .server import FixtureServer
from .spawn import kill_group, serve


def _serve(data: Path, allow: str) -> tuple[subprocess.Popen[bytes], str]:
    return serve(env={"PLING_DATA_DIR": str(data), "PLING_ALLOW_HOSTS": allow})


def _kill_tree(process: subprocess.Popen[bytes]) -> None:
    # The service and everything it started (its driver and Chromium) are in its own process group.
    kill_group(process)


def test_receipts_and_keys_survive_kill_9(fixtures: FixtureServer, tmp_path: Path) -> None:
    data = tmp_path / "data"
    process, url = _serve(data, "127.0.0.1")
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            sid = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).json()["session"]["id"]
            first = client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": "kept"}},
                                headers={"Idempotency-Key": "k9"}).json()["result"]
            for text in ("one", "two", "three"):
                client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": text}})
    finally:
        _kill_tree(process)
    assert (data / "pling.sqlite3-wal").exists()  # WAL mode: the last writes may still be in the log
    process, url = _serve(data, "127.0.0.1")
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            log = client.get(f"/sessions/{sid}/receipts").json()["receipts"]
            assert [entry["receipt"]["changed"]["records"]["task"]["added"] for entry in log] == [["t15"], ["t16"], ["t17"], ["t18"]]
            again = client.post(f"/sessions/{sid}/invoke", json={"action": "add_todo", "args": {"text": "kept"}},
                                headers={"Idempotency-Key": "k9"})
            assert again.json()["result"] == first
    finally:
        _kill_tree(process)
