"""Stage 7, expect and settle: the declared effect is polled until it holds, the page settles, and
an effect that held and was rolled back is not a success."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest

from ..conftest import Pages

PAGE = "pages/lifecycle/expect.html"


def test_an_effect_that_lands_after_a_request_is_verified(pages: Pages) -> None:
    page = pages.open(PAGE)
    assert page.first_model["state"]["synced"]["value"] is False
    receipt = page.invoke("sync")
    assert receipt["ok"] is True, receipt
    assert receipt["verified"] is True
    assert receipt["expect"] == "The invoices are synced"
    assert receipt["changed"]["state"]["changed"]["synced"] == {"from": False, "to": True}
    assert "warning" not in receipt
    assert page.model()["state"]["synced"]["value"] is True


def test_a_never_true_expectation_fails_after_its_timeout(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("summon")
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "EXPECTATION_FAILED"
    assert error["stage"] == "expect" and error["started"] is True
    assert error["expectation"] == "The moon turns green"
    assert isinstance(error["polled_ms"], int) and error["polled_ms"] >= 200
    assert "verified" not in receipt or receipt["verified"] is not True


def test_an_optimistic_write_rolled_back_by_the_server_is_not_a_success(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("mark_paid@inv-101")
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "EXPECTATION_FAILED"
    assert error["stage"] == "expect" and error["started"] is True
    assert error["expectation"] == "The invoice is paid"
    assert receipt.get("verified") is not True

    changed = receipt["changed"]
    assert {"kind": "error", "text": "Could not mark inv-101 paid: the server refused"} in changed["feedback"]["added"]
    # The UI showed "paid" for a moment; the receipt must not report it as the outcome.
    assert all(update["id"] != "inv-101" for update in changed["records"].get("invoice", {"updated": []})["updated"]), changed["records"]
    items = {item["id"]: item["fields"] for item in page.model()["records"]["invoice"]["items"]}
    assert items["inv-101"]["status"] == "open"


class _SlowBody(BaseHTTPRequestHandler):
    """Answers 500 with its headers at once and its JSON body 300 ms later, as a slow network or a
    streaming server does. Cross-origin for the fixture page, so it allows any origin."""

    def log_message(self, format, *args):  # keep test output clean
        pass

    def do_GET(self):
        body = json.dumps({"ok": False, "error": "refused"}).encode()
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.flush()
        self.server.stopping.wait(0.3)  # type: ignore[attr-defined]
        self.wfile.write(body)


@pytest.fixture(scope="module")
def slow_body() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowBody)
    server.daemon_threads = True
    server.stopping = threading.Event()  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/refuse"
    server.stopping.set()  # type: ignore[attr-defined]
    server.shutdown()
    server.server_close()


def test_a_rollback_decided_by_the_response_body_is_not_a_success(pages: Pages, slow_body: str) -> None:
    # The page learns of the refusal only from the body, which arrives after the headers: the
    # request has not answered until the page has its body.
    page = pages.open("pages/lifecycle/expect.html?api=" + quote(slow_body, safe=""))
    receipt = page.invoke("approve@inv-102")
    assert receipt["ok"] is False, receipt
    assert receipt["error"]["code"] == "EXPECTATION_FAILED" and receipt["error"]["started"] is True
    changed = receipt["changed"]
    assert {"kind": "error", "text": "Could not approve inv-102: the server refused"} in changed["feedback"]["added"]
    assert all(update["id"] != "inv-102" for update in changed["records"].get("invoice", {"updated": []})["updated"]), changed["records"]


def test_settling_waits_for_work_queued_in_timers_and_frames(pages) -> None:
    page = pages.open("pages/lifecycle/deferred.html")
    timed = page.invoke("bump_later")
    assert timed["ok"] is True and timed["changed"]["state"]["changed"] == {"timed": {"from": 0, "to": 1}}
    framed = page.invoke("bump_next_frame")
    assert framed["ok"] is True and framed["changed"]["state"]["changed"] == {"framed": {"from": 0, "to": 1}}
    assert "warning" not in timed and "warning" not in framed
