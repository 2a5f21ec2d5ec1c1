"""Idempotency keys and the durable receipt log."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx

from .conftest import Pages, ServiceThread, problem, service_settings, serving
from .server import FixtureServer


def _invoke(client: httpx.Client, sid: str, key: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(f"/sessions/{sid}/invoke", json=body, headers={"Idempotency-Key": key})


def _total(page: Any) -> int:
    return page.model()["records"]["task"]["total"]


def test_the_same_key_twice_runs_once(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    body = {"action": "add_todo", "args": {"text": "Only once"}}
    first = _invoke(client, page.id, "k-1", body).json()["result"]
    second = _invoke(client, page.id, "k-1", body).json()["result"]
    assert first["ok"] is True and second == first
    assert _total(page) == 15
    other = _invoke(client, page.id, "k-1", {"action": "add_todo", "args": {"text": "Something else"}})
    assert other.status_code == 422 and problem(other)["code"] == "IDEMPOTENCY_MISMATCH"
    assert _total(page) == 15


def test_concurrent_duplicates_run_once(client: httpx.Client, pages: Pages, service: ServiceThread) -> None:
    page = pages.open("demo/todos.html")
    body = {"action": "add_todo", "args": {"text": "Raced"}}
    answers: list[dict[str, Any]] = []

    def send() -> None:
        with httpx.Client(base_url=service.url, timeout=60) as own:
            answers.append(_invoke(own, page.id, "race", body).json()["result"])

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == 4 and all(answer == answers[0] for answer in answers)
    assert _total(page) == 15


def test_tool_calls_take_keys_too(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    for _ in range(2):
        answer = client.post(f"/sessions/{page.id}/tools/add_todo", json={"arguments": {"text": "Tool once", "due": None}},
                             headers={"Idempotency-Key": "tool-1"})
        assert answer.json()["result"]["ok"] is True
    assert _total(page) == 15


def test_receipts_and_keys_survive_a_restart(fixtures: FixtureServer, tmp_path: Path) -> None:
    settings = service_settings(data_dir=tmp_path / "data")
    with serving(settings) as first:
        with httpx.Client(base_url=first.url, timeout=60) as client:
            sid = client.post("/sessions", json={"url": fixtures.url("demo/todos.html")}).json()["session"]["id"]
            kept = _invoke(client, sid, "before-restart", {"action": "add_todo", "args": {"text": "Durable"}}).json()["result"]
            client.post(f"/sessions/{sid}/invoke", json={"action": "nope"})
    with serving(settings) as second:
        with httpx.Client(base_url=second.url, timeout=60) as client:
            # The session is gone with the old process; its key still answers the first receipt.
            assert client.get(f"/sessions/{sid}").status_code == 404
            again = _invoke(client, sid, "before-restart", {"action": "add_todo", "args": {"text": "Durable"}})
            assert again.status_code == 200 and again.json()["result"] == kept
            log = client.get(f"/sessions/{sid}/receipts").json()
            assert [entry["receipt"]["action"]["id"] for entry in log["receipts"]] == ["add_todo", "nope"]
            assert log["receipts"][1]["receipt"]["error"]["code"] == "ACTION_NOT_FOUND"
            later = client.get(f"/sessions/{sid}/receipts", params={"after": log["receipts"][0]["seq"]}).json()
            assert len(later["receipts"]) == 1


def test_a_key_is_the_callers_across_sessions(client: httpx.Client, pages: Pages) -> None:
    """SPEC: keys are unique per caller across sessions. The same key sent to another session is not
    a fresh key there: it is another request (422), and nothing runs in the second session."""
    first, second = pages.open("demo/todos.html"), pages.open("demo/todos.html")
    body = {"action": "add_todo", "args": {"text": "Once per key"}}
    assert _invoke(client, first.id, "across-1", body).json()["result"]["ok"] is True
    again = _invoke(client, second.id, "across-1", body)
    assert again.status_code == 422 and problem(again)["code"] == "IDEMPOTENCY_MISMATCH", again.text
    assert _total(first) == 15 and _total(second) == 14
    # In its own session the key still answers the first receipt.
    assert _invoke(client, first.id, "across-1", body).json()["result"]["ok"] is True
    assert _total(first) == 15
