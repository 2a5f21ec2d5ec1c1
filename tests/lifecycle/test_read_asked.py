"""A read the operator raised to a risk that asks (PLING_RISK + PLING_ASK) goes to a person once per
invocation. The one-call path (lifecycle/known.py) must never hold such an action: once a person
answers, the action is described again (confirm.py), which the one-call path takes as "the page
declares it otherwise now" and runs the invocation again on the full path, where the person would be
asked a second time for the same call. resolve.py's remember holds only actions confirm would not ask
a person for at the risk the operator's policy gives them; this test fails when that check is dropped
(a second request on each call)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ..conftest import ServiceThread, serving
from ..server import FixtureServer

PAGE = "pages/security/consent.html"


@pytest.fixture(scope="module")
def asking(fixtures: FixtureServer) -> Iterator[ServiceThread]:
    # `look` is a read on the page; the operator raises it to write and wants to be asked before it.
    with serving(risks=(("look", "write"),), ask=("look",), approve=(), confirm="http",
                 confirm_timeout_s=30.0) as svc:
        yield svc


def _invoke_in_thread(url: str, sid: str, action: str, out: list[dict[str, Any]]) -> threading.Thread:
    def run() -> None:
        with httpx.Client(base_url=url, timeout=90) as own:
            out.append(own.post(f"/sessions/{sid}/invoke", json={"action": action}).json()["result"])
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _answer_every_request(client: httpx.Client, sid: str, thread: threading.Thread) -> list[dict[str, Any]]:
    """Plays the person: approves each confirmation that comes until the invocation answers; returns
    the requests seen."""
    seen: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + 60
    while thread.is_alive() and time.monotonic() < deadline:
        for request in client.get(f"/sessions/{sid}/pending").json()["pending"]:
            if request["id"] not in seen:
                seen[request["id"]] = request
                client.post(f"/sessions/{sid}/confirmations/{request['id']}", json={"approve": True})
        time.sleep(0.05)
    thread.join(5)
    return list(seen.values())


def test_a_read_raised_to_ask_asks_the_person_once(asking: ServiceThread, fixtures: FixtureServer) -> None:
    with httpx.Client(base_url=asking.url, timeout=60) as client:
        sid = client.post("/sessions", json={"url": fixtures.url(PAGE)}).json()["session"]["id"]
        try:
            for attempt in range(3):  # the first described it; the next ones are "a read described before"
                results: list[dict[str, Any]] = []
                thread = _invoke_in_thread(asking.url, sid, "look", results)
                asked = _answer_every_request(client, sid, thread)
                assert results and results[0]["ok"] is True, results
                assert results[0]["data"] == 2 and results[0]["approved_by"]["via"] == "person"
                assert [(r["action"], r["risk"]) for r in asked] == [("look", "write")], (attempt, asked)
        finally:
            client.delete(f"/sessions/{sid}")
