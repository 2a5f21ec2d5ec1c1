"""Hostile pages: each answers a structured result within its timeout, the page or the session
says what happened, and the service keeps serving other sessions meanwhile."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pling_browser.lifecycle import LogEvent

from .conftest import Pages, ServiceThread, problem, service_settings, serving
from .server import FixtureServer


@pytest.fixture(scope="module")
def hostile_service() -> Iterator[ServiceThread]:
    settings = service_settings(action_timeout_ms=1500, expect_timeout_ms=800, settle_cap_ms=800, bridge_grace_s=1.0)
    with serving(settings) as svc:
        yield svc


@pytest.fixture
def hostile(hostile_service: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=hostile_service.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def _open(pages: Pages, name: str) -> Any:
    return pages.open(f"pages/hostile/{name}.html")


def _pong(page: Any) -> None:
    answer = page.invoke("pong")
    assert answer["ok"] is True and answer["data"] == "pong", answer


def test_endless_loop_in_a_handler_is_stopped_and_others_keep_being_served(hostile: Pages) -> None:
    page = _open(hostile, "loop_handler")
    other = _open(hostile, "frozen_pling")
    result: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: result.update(receipt=page.invoke("go")))
    runner.start()
    served_meanwhile = 0
    while runner.is_alive() and served_meanwhile < 50:
        assert other.model()["page"]["title"]  # another session answers while the page spins
        served_meanwhile += 1
    runner.join(30)
    error = result["receipt"]["error"]
    assert error["code"] == "EXECUTION_FAILED" and error["started"] is True and error["cause"] == "PAGE_UNRESPONSIVE"
    assert served_meanwhile >= 1
    _pong(page)  # the loop was terminated; the page lives on


def test_endless_loop_in_an_expectation(hostile: Pages) -> None:
    page = _open(hostile, "loop_expect")
    error = page.invoke("go")["error"]
    assert error["code"] == "EXECUTION_FAILED" and error["stage"] == "expect" and error["started"] is True
    _pong(page)


def test_endless_loop_in_the_expectation_of_a_direct_fill(hostile: Pages) -> None:
    # The expectation goes with the fill's `typed` call: that call hangs after the text landed, and the
    # expect stage meets the hang as its own call's (the fill is not taken for the part that hung).
    page = _open(hostile, "loop_expect")
    error = page.invoke("type", {"value": "typed"})["error"]
    assert error["code"] == "EXECUTION_FAILED" and error["stage"] == "expect" and error["started"] is True, error
    assert [e["path"] for e in page.codes().events(LogEvent.OPERATED)] == ["direct"]
    assert page.invoke("note")["data"] == "typed"
    _pong(page)


def test_endless_loop_in_list(hostile: Pages, client_for: Any = None) -> None:
    page = _open(hostile, "loop_list")
    armed = page.invoke("go")
    assert armed["ok"] is True and "could not be read" in armed["warning"]
    model = page.client.get(f"/sessions/{page.id}/model")
    assert model.status_code == 504 and problem(model)["code"] == "PAGE_UNRESPONSIVE"
    assert page.invoke("disarm", evidence=False)["ok"] is True
    assert page.model()["records"]["item"]["ids"] == ["a"]


@pytest.mark.parametrize("name", ["dialog_storm", "popup_flood", "replaced_pling", "frozen_pling", "patched_timers"])
def test_pages_that_fight_the_runtime_still_run_actions(hostile: Pages, name: str) -> None:
    page = _open(hostile, name)
    receipt = page.invoke("go")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["state"]["changed"]["ticks"] == {"from": 0, "to": 1}
    _pong(page)


def test_navigation_during_an_action(hostile: Pages) -> None:
    page = _open(hostile, "navigate_during")
    receipt = page.invoke("go")
    # Navigation is an outcome: the receipt names the page it led to (SPEC: actions that leave the document).
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["page"]["to"]["title"] == "window.pling frozen"
    assert page.model()["page"]["title"] == "window.pling frozen"


def test_window_close_during_an_action(hostile: Pages) -> None:
    page = _open(hostile, "close_during")
    receipt = page.invoke("go")
    assert receipt["ok"] is False and receipt["error"]["code"] == "EXECUTION_FAILED"
    assert receipt["error"]["started"] is True


def test_a_50_mb_dom(hostile: Pages) -> None:
    page = hostile.open("pages/hostile/dom_50mb.html", timeout_ms=45_000)  # building 50 MB takes long on a loaded machine
    model = page.first_model
    assert model["records"]["block"]["total"] == 50_000 and len(json.dumps(model)) <= 256_000
    assert model["records"]["block"]["omitted"]["ids"] == 40_000
    assert page.invoke("go")["ok"] is True


def test_thrown_traps_and_pollution_are_plain_failures(hostile: Pages) -> None:
    trap = _open(hostile, "throwing_error").invoke("go")
    assert trap["error"]["code"] == "EXECUTION_FAILED" and trap["error"]["page_error"] == "an unreadable error"
    page = _open(hostile, "pollution")
    polluted = page.invoke("go")
    assert polluted["ok"] is False and "real failure" in polluted["error"]["page_error"]
    assert "HACKED" not in json.dumps(polluted) and "HACKED" not in json.dumps(page.model())


def test_cyclic_data_and_control_character_ids(hostile: Pages) -> None:
    data = _open(hostile, "cyclic_data").invoke("go")["data"]
    assert data["self"] == "<cycle>" and data["name"] == "a"
    page = _open(hostile, "control_ids")
    assert page.first_model["records"]["row"]["ids"] == ["a\u0000b", "line\nbreak", "tab\there", "\u202eevil"]
    receipt = page.invoke("go@line\nbreak")
    assert receipt["ok"] is True and receipt["changed"]["records"]["row"]["removed"] == ["line\nbreak"]


def test_a_page_sending_itself_to_a_refused_address(hostile: Pages) -> None:
    page = _open(hostile, "redirect_refused")
    receipt = page.invoke("go")
    # run() ran and the document was replaced by the refused address's error page: a navigation
    # outcome (SPEC "Actions that leave the document"), with the refused address in the receipt.
    assert receipt["ok"] is True, receipt
    assert "error" not in receipt and "verified" not in receipt
    assert page.codes().events(LogEvent.RAN) == [{"code": "ran", "data": False}]
    assert receipt["changed"]["page"]["to"]["url"] == "http://169.254.169.254/latest/meta-data/"
    assert "id" not in receipt["changed"]["page"]["to"]
    in_receipt = [item["target"] for item in receipt["changed"]["refused"]]
    assert "GET http://169.254.169.254/latest/meta-data/" in in_receipt
    info = page.client.get(f"/sessions/{page.id}").json()
    assert info["url"] == "http://169.254.169.254/latest/meta-data/"
    refused = [item["target"] for item in info["refused"]]
    assert "GET http://169.254.169.254/latest/meta-data/" in refused  # (the error page may ask for a favicon too)
    assert all(target.startswith("GET http://169.254.169.254/") for target in refused)
    # The error page declares nothing: the session is still there, on a page without actions.
    assert page.model()["actions"] == []


@pytest.mark.parametrize("name,words", [("busy_dom", "had not settled"), ("endless_requests", "requests still pending")])
def test_pages_that_never_settle_are_capped_with_a_warning(hostile: Pages, name: str, words: str) -> None:
    receipt = _open(hostile, name).invoke("go")
    assert receipt["ok"] is True and words in receipt["warning"]


def test_a_target_that_vanishes_on_press_and_a_million_toasts(hostile: Pages) -> None:
    page = _open(hostile, "detach_target")
    receipt = page.invoke("go")
    # The press reached the button (it counted, then removed itself on mousedown): a trusted click
    # that completed, and the receipt says what changed.
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["state"]["changed"] == {"ticks": {"from": 0, "to": 1}}
    operated = page.codes().events(LogEvent.OPERATED)
    assert [(e["control"], e["gesture"]) for e in operated] == [("button", None)], operated
    assert page.model()["state"]["ticks"]["value"] == 1
    noisy = _open(hostile, "huge_feedback")
    assert len(noisy.first_model["feedback"]) == 50
    assert noisy.invoke("go")["ok"] is True


def test_a_beforeunload_trap_does_not_hold_the_session(hostile: Pages, fixtures: FixtureServer) -> None:
    page = _open(hostile, "beforeunload")
    since = len(fixtures.requests)
    receipt = page.invoke("go")
    # The service dismisses the page's "leave this page?" prompt, so the reload does not happen: the
    # fixture server is never asked for the page again, and the receipt says nothing changed.
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["observed"] is False and "nothing it declares changed" in receipt["warning"]
    _pong(page)
    assert [path for _, path in fixtures.requests[since:] if "beforeunload" in path] == []
    assert page.client.delete(f"/sessions/{page.id}").status_code == 200
    hostile.opened.remove(page.id)
