"""Frames of other origins (SPEC "The page side"): each frame declares in its own document, and its
declarations, WebMCP tools and adapters are part of the model when its origin is allowed; a frame
that is not read is counted in `omitted.frames` with the reason. Real servers on loopback: the page
on one port, a payment form on a second port (the same site: the same renderer process), a widget on
127.0.0.2 (another site: an out-of-process frame), and an unlisted port as a canary that counts the
requests it gets (none: the egress policy refuses that frame)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pling_browser.lifecycle import LogEvent

from .conftest import PageSession, serving
from .server import FixtureServer

ADAPTERS = Path(__file__).resolve().parent.parent / "fixtures" / "pages" / "frames" / "adapters"
CARD = "4242 4242 4242 4242"


class Origins:
    def __init__(self) -> None:
        self.page = FixtureServer().start()
        self.pay = FixtureServer().start()  # another port of 127.0.0.1: cross-origin, same site
        self.widget = FixtureServer("127.0.0.2").start()  # another site: out of process
        self.canary = FixtureServer().start()  # not listed in PLING_ALLOW_HOSTS

    def stop(self) -> None:
        for server in (self.page, self.pay, self.widget, self.canary):
            server.stop()

    def host(self, server: FixtureServer) -> str:
        return server.origin.removeprefix("http://")

    def checkout(self, **frames: str) -> str:
        servers = {"pay": (self.pay, "pay.html"), "widget": (self.widget, "widget.html"), "blocked": (self.canary, "blocked.html")}
        query = "&".join(f"{name}={servers[name][0].url('/pages/frames/' + servers[name][1])}" for name in frames)
        return self.page.url("/pages/frames/checkout.html" + ("?" + query if query else ""))


@pytest.fixture(scope="module")
def origins() -> Iterator[Origins]:
    running = Origins()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def framed_client(origins: Origins) -> Iterator[httpx.Client]:
    allowed = (origins.host(origins.page), origins.host(origins.pay), origins.host(origins.widget))
    with serving(allow_hosts=allowed, adapters=str(ADAPTERS)) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            yield client


@pytest.fixture
def checkout(framed_client: httpx.Client, origins: Origins) -> Iterator[Any]:
    opened: list[str] = []

    def open_(**frames: str) -> PageSession:
        answer = framed_client.post("/sessions", json={"url": origins.checkout(**frames)})
        assert answer.status_code == 201, answer.text
        data = answer.json()
        opened.append(data["session"]["id"])
        return PageSession(framed_client, data["session"]["id"], data["model"])

    yield open_
    for sid in opened:
        framed_client.delete(f"/sessions/{sid}")


def _settled_model(page: PageSession, ready: Any) -> dict[str, Any]:
    """The model once every frame has declared itself (frames load after the page): polled, bounded."""
    import time

    deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
    while True:
        model = page.model()
        if ready(model) or time.monotonic() > deadline:
            return model
        time.sleep(0.1)


def _all_frames(model: dict[str, Any]) -> bool:
    return {f["id"] for f in model.get("frames", [])} >= {"payment", "newsletter"} and bool(model["omitted"]["frames"])


def test_frames_of_other_origins_are_in_the_model_with_their_origin(checkout: Any, origins: Origins) -> None:
    page = checkout(pay="1", widget="1", blocked="1")
    model = _settled_model(page, _all_frames)
    pay, widget = origins.pay.origin, origins.widget.origin
    assert model["page"]["id"] == "checkout"
    assert {(f["origin"], f["id"]) for f in model["frames"]} == {(pay, "payment"), (widget, "newsletter")}
    assert next(f for f in model["frames"] if f["origin"] == widget)["adapter"] == ["widget.js"]
    actions = {a["id"]: a for a in model["actions"]}
    assert actions["refresh"].get("frame") is None  # the page's own; the payment frame's `refresh` is left out
    assert (actions["pay"]["frame"], actions["pay"]["risk"]) == (pay, "write")
    assert (actions["remove_card"]["frame"], actions["remove_card"]["risk"], actions["remove_card"]["record"]) == (pay, "danger", "card")
    assert (actions["subscribe"]["frame"], actions["lookup_rate"]["frame"]) == (widget, widget)  # the adapter's, the WebMCP tool
    assert actions["lookup_rate"]["risk"] == "read"
    assert model["records"]["card"]["frame"] == pay and model["records"]["card"]["ids"] == ["c1"]
    assert model["records"]["item"].get("frame") is None
    assert model["state"]["status"] == {"value": "ready", "description": "The payment status", "frame": pay}
    assert {"where": f"frame {pay}",
            "problem": "the page declares action 'refresh' too; the page's stands, the frame's is left out"} in model["problems"]
    # The frame the egress policy refuses is counted with the reason; it never reached its server.
    [blocked] = model["omitted"]["frames"]
    assert blocked["origin"] == origins.canary.origin and blocked["reason"].startswith("origin not allowed")
    assert "PLING_ALLOW_HOSTS" in blocked["reason"]
    assert "steal" not in actions and origins.canary.requests == []
    # The card's number leaves its frame only as a reference; the page's own bridge never held it.
    assert CARD not in json.dumps(model)
    assert model["records"]["card"]["items"][0]["fields"]["number"].startswith("<secret>")
    assert model["state"]["bridge_leak"]["value"] is False


def test_the_brief_model_says_what_a_frame_declared(checkout: Any, origins: Origins) -> None:
    # The brief model keeps each state key's value only, and of a region its id and more(); what a frame
    # of another origin declared must still say so there, or it reads as the page's own (the whole
    # model marks it `frame`).
    page = checkout(pay="1")
    _settled_model(page, lambda m: "status" in m["state"])
    brief = page.model(detail="brief")
    assert brief["state"]["status"] == "ready" and brief["state"]["paid"] is False, brief["state"]
    pay = origins.pay.origin
    assert brief["state_frames"] == {"status": pay, "cardholder": pay, "refreshed": pay}, brief
    assert brief["regions"] == [{"id": "card_form", "more": "older cards are not shown", "frame": pay}], brief


def test_an_action_in_a_same_site_frame_of_another_origin(checkout: Any, origins: Origins) -> None:
    page = checkout(pay="1")
    _settled_model(page, lambda m: any(f["id"] == "payment" for f in m["frames"]))
    receipt = page.invoke("pay")
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    assert receipt["action"] == {"id": "pay", "description": "Pay with the card", "frame": origins.pay.origin}
    # The diff is the frame's document's: its own state changed; the page's records did not.
    assert receipt["changed"]["state"]["changed"] == {"status": {"from": "ready", "to": "paid"}}
    codes = page.codes()
    assert [(e["control"], e["gesture"]) for e in codes.events(LogEvent.OPERATED)] == [("button", None)], codes.log
    assert [e["origin"] for e in codes.events(LogEvent.FRAME_DECLARES)] == [origins.pay.origin], codes.log
    after = page.model()
    assert after["state"]["status"]["value"] == "paid"
    assert after["state"]["paid"]["value"] is True  # the page heard the frame's postMessage


def test_a_text_field_in_a_frame_of_another_origin_is_filled(checkout: Any, origins: Origins) -> None:
    # A frame's bridge takes the reveal's arguments as the page's does (direct input on: the default),
    # and fills with Playwright's fill there: the page's keyboard does not reach the frame's focus.
    page = checkout(pay="1")
    _settled_model(page, lambda m: any(f["id"] == "payment" for f in m["frames"]))
    receipt = page.invoke("name_on_card", {"text": "Ada Lovelace"})
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    assert receipt["action"]["frame"] == origins.pay.origin
    assert receipt["changed"]["state"]["changed"] == {"cardholder": {"from": "", "to": "Ada Lovelace"}}
    assert page.model()["state"]["cardholder"]["value"] == "Ada Lovelace"


def test_a_frames_danger_action_keeps_its_risk(checkout: Any) -> None:
    page = checkout(pay="1")
    _settled_model(page, lambda m: any(f["id"] == "payment" for f in m["frames"]))
    receipt = page.invoke("remove_card@c1")
    assert receipt["ok"] is False and receipt["error"]["code"] == "PERMISSION_DENIED", receipt
    assert receipt["error"]["started"] is False
    assert page.model()["records"]["card"]["ids"] == ["c1"]


def test_the_pages_own_id_stands_against_a_frames(checkout: Any) -> None:
    page = checkout(pay="1")
    _settled_model(page, lambda m: any(f["id"] == "payment" for f in m["frames"]))
    receipt = page.invoke("refresh")
    assert receipt["ok"] is True and "frame" not in receipt["action"], receipt
    assert page.model()["state"]["refreshed"]["value"] == 0  # the frame's refresh never ran


def test_an_adapter_and_a_webmcp_tool_in_an_out_of_process_frame(checkout: Any, origins: Origins) -> None:
    page = checkout(widget="1")
    _settled_model(page, lambda m: any(f["id"] == "newsletter" for f in m["frames"]))
    rate = page.invoke("lookup_rate", {"currency": "GBP"})
    assert rate["ok"] is True, rate
    assert rate["action"]["frame"] == origins.widget.origin
    assert rate["data"] == {"currency": "GBP", "rate": 1.27}
    subscribed = page.invoke("subscribe")
    assert subscribed["ok"] is True and subscribed["verified"] is True, subscribed
    assert subscribed["changed"]["state"]["changed"] == {"subscribed": {"from": False, "to": True}}
    assert page.model()["state"]["subscribed"] == {"value": True, "description": "Whether the visitor subscribed",
                                                   "frame": origins.widget.origin}
