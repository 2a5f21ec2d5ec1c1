"""A person asked about a child frame's action is told whose it is, and what they approve stays that
document's (SPEC "The page side": a frame of another origin declares in its own document, and what it
declares is never read as the page's own). Real servers on loopback: the checkout page on one port, its
payment frame on another (tests/test_frames.py's fixtures), a service with the HTTP confirmation
channel; the test plays the person through `/pending`."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from .conftest import ServiceThread, serving
from .server import FixtureServer

# The page's own script takes the frame away and declares, as its own, the frame's danger family over a
# record type of the same name, described word for word as the frame described it.
OWN_REMOVE = """(() => {
  document.getElementById('frame-pay').remove();
  window.__removed = [];
  pling.records({ type: 'card', list: () => [{ id: 'c1', brand: 'Visa' }], label: c => c.brand });
  pling.action({ id: 'remove_card', record: 'card', description: 'Forget the card', risk: 'danger',
                 run: (args, id) => { window.__removed.push(id); } });
})()"""


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[FixtureServer, ...]]:
    # The checkout page, its payment frame, another origin of the same site the frame may go to, and
    # another site (an out-of-process frame).
    running = (FixtureServer().start(), FixtureServer().start(), FixtureServer().start(), FixtureServer("127.0.0.2").start())
    yield running
    for server in running:
        server.stop()


@pytest.fixture(scope="module")
def service(servers: tuple[FixtureServer, ...]) -> Iterator[ServiceThread]:
    hosts = tuple(server.origin.removeprefix("http://") for server in servers)
    with serving(allow_hosts=hosts, approve=(), confirm="http", confirm_timeout_s=30.0) as svc:
        yield svc


@pytest.fixture
def client(service: ServiceThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=60) as own:
        yield own


def _until(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout  # a ceiling for a loaded machine, not a measurement
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the condition did not hold in time")


class Invoking:
    """An invoke that waits on a person, in a thread while the test plays the person."""

    def __init__(self, url: str, sid: str, action: str) -> None:
        self.result: dict[str, Any] | None = None
        self.thread = threading.Thread(target=self._run, args=(url, sid, action), daemon=True)
        self.thread.start()

    def _run(self, url: str, sid: str, action: str) -> None:
        with httpx.Client(base_url=url, timeout=90) as own:
            self.result = own.post(f"/sessions/{sid}/invoke", json={"action": action}).json()["result"]

    def join(self) -> dict[str, Any]:
        self.thread.join(60)
        assert self.result is not None
        return self.result


class InvokingArgs(Invoking):
    """An invoke with arguments that waits on a person."""

    def __init__(self, url: str, sid: str, action: str, args: dict[str, Any]) -> None:
        self.args = args
        super().__init__(url, sid, action)

    def _run(self, url: str, sid: str, action: str) -> None:
        with httpx.Client(base_url=url, timeout=90) as own:
            self.result = own.post(f"/sessions/{sid}/invoke", json={"action": action, "args": self.args}).json()["result"]


def _pending(client: httpx.Client, sid: str, seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    return _until(lambda: next((p for p in client.get(f"/sessions/{sid}/pending").json()["pending"]
                                if p["id"] not in seen), None))


def _open(client: httpx.Client, page: FixtureServer, pay: FixtureServer) -> str:
    url = page.url("/pages/frames/checkout.html?pay=" + pay.url("/pages/frames/pay.html"))
    answer = client.post("/sessions", json={"url": url})
    assert answer.status_code == 201, answer.text
    sid = answer.json()["session"]["id"]
    _until(lambda: any(f["id"] == "payment" for f in client.get(f"/sessions/{sid}/model").json().get("frames", [])))
    return sid


def test_a_frames_action_is_asked_for_as_the_frames_and_its_grant_stays_there(
        service: ServiceThread, client: httpx.Client, servers: tuple[FixtureServer, ...]) -> None:
    page, pay, _, _ = servers
    sid = _open(client, page, pay)
    try:
        waiting = Invoking(service.url, sid, "remove_card@c1")
        asked = _pending(client, sid)
        # The person reads whose action it is: the frame's origin, not the page's.
        assert asked["description"] == "Forget the card" and asked.get("frame") == pay.origin, asked
        granted = client.post(f"/sessions/{sid}/confirmations/{asked['id']}",
                              json={"approve": True, "grant": {"scope": "family", "for_s": 600}})
        assert granted.status_code == 200, granted.text
        first = waiting.join()
        assert first["ok"] is True and first["action"]["frame"] == pay.origin, first
        assert first["approved_by"]["via"] == "person"
        # The frame goes; the page declares the same family as its own. The grant was for the frame's.
        async def swap(runtime: Any) -> None:
            await runtime.sessions.get(sid).page.evaluate(f"void ({OWN_REMOVE})")

        service.in_service(swap)
        waiting = Invoking(service.url, sid, "remove_card@c1")
        again = _pending(client, sid, frozenset({asked["id"]}))
        assert again.get("frame") is None and again["action"] == "remove_card@c1", again
        client.post(f"/sessions/{sid}/confirmations/{again['id']}", json={"approve": False})
        denied = waiting.join()
        assert denied["ok"] is False and denied["error"]["code"] == "PERMISSION_DENIED", denied
        assert "approved_by" not in denied

        async def removed(runtime: Any) -> Any:
            return await runtime.sessions.get(sid).page.evaluate("window.__removed")

        assert service.in_service(removed) == []
    finally:
        client.delete(f"/sessions/{sid}")


def test_a_frame_that_goes_to_another_origin_while_the_person_is_asked_runs_nothing(
        service: ServiceThread, client: httpx.Client, servers: tuple[FixtureServer, ...]) -> None:
    # The person is asked about the payment frame's action; meanwhile the frame goes to another origin
    # (of the same site: the same renderer, so the frame's bridge answers from the new document), which
    # declares the same action. The approval was for the first origin's.
    page, pay, other, _ = servers
    sid = _open(client, page, pay)
    try:
        waiting = Invoking(service.url, sid, "remove_card@c1")
        asked = _pending(client, sid)
        assert asked.get("frame") == pay.origin, asked
        moved = other.url("/pages/frames/pay.html")

        async def move(runtime: Any) -> None:
            tab = runtime.sessions.get(sid).page
            await tab.evaluate("(src) => { document.getElementById('frame-pay').src = src; }", moved)
            deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
            while time.monotonic() < deadline:
                frames = [f for f in tab.frames if f.url == moved]
                if frames and await frames[0].evaluate("typeof window.__log === 'object'"):
                    return
                await asyncio.sleep(0.05)
            raise AssertionError("the frame did not load its new document")

        service.in_service(move)
        client.post(f"/sessions/{sid}/confirmations/{asked['id']}", json={"approve": True})
        receipt = waiting.join()
        assert receipt["ok"] is False and receipt["error"]["code"] == "PERMISSION_DENIED", receipt
        assert receipt["error"]["started"] is False and "approved_by" not in receipt

        async def ran(runtime: Any) -> Any:
            tab = runtime.sessions.get(sid).page
            return await next(f for f in tab.frames if f.url == moved).evaluate("window.__log")

        assert service.in_service(ran) == []
    finally:
        client.delete(f"/sessions/{sid}")


def test_a_frames_tool_asking_for_the_person_says_whose_it_is(
        service: ServiceThread, client: httpx.Client, servers: tuple[FixtureServer, ...]) -> None:
    # A WebMCP tool of a frame of another site asks for the person (requestUserInteraction), then asks
    # with its own confirm() dialog: each request says it is that frame's, as its action's does.
    page, _, _, shop = servers
    tool = shop.url("/pages/webmcp/interact.html")
    answer = client.post("/sessions", json={"url": page.url("/pages/frames/checkout.html?widget=" + tool)})
    assert answer.status_code == 201, answer.text
    sid = answer.json()["session"]["id"]
    try:
        _until(lambda: any(a["id"] == "buy_product" for a in client.get(f"/sessions/{sid}/model").json()["actions"]))
        waiting = InvokingArgs(service.url, sid, "buy_product", {"product_id": "p1"})
        interaction = _pending(client, sid)
        assert "interaction" in interaction and interaction.get("frame") == shop.origin, interaction
        client.post(f"/sessions/{sid}/confirmations/{interaction['id']}", json={"approve": True})
        dialog = _pending(client, sid, frozenset({interaction["id"]}))
        assert dialog["dialog"]["message"] == "Buy product p1?" and dialog.get("frame") == shop.origin, dialog
        client.post(f"/sessions/{sid}/confirmations/{dialog['id']}", json={"approve": False})
        assert waiting.join()["ok"] is False
    finally:
        client.delete(f"/sessions/{sid}")


def test_an_operator_approval_of_an_action_id_is_the_pages_own_never_a_frames(
        servers: tuple[FixtureServer, ...]) -> None:
    """PLING_APPROVE=remove_card names the operator's own app's action: the payment frame (another
    origin) declaring an action of that id is still asked for, and the page's own is approved."""
    page, pay, _, _ = servers
    hosts = tuple(server.origin.removeprefix("http://") for server in servers)
    with serving(allow_hosts=hosts, approve=("remove_card",), confirm="http", confirm_timeout_s=30.0) as own, \
            httpx.Client(base_url=own.url, timeout=60) as client:
        sid = _open(client, page, pay)
        try:
            waiting = Invoking(own.url, sid, "remove_card@c1")
            asked = _pending(client, sid)
            assert asked.get("frame") == pay.origin and asked["action"] == "remove_card@c1", asked
            client.post(f"/sessions/{sid}/confirmations/{asked['id']}", json={"approve": False})
            denied = waiting.join()
            assert denied["ok"] is False and denied["error"]["code"] == "PERMISSION_DENIED", denied

            async def swap(runtime: Any) -> None:
                await runtime.sessions.get(sid).page.evaluate(f"void ({OWN_REMOVE})")

            own.in_service(swap)
            mine = client.post(f"/sessions/{sid}/invoke", json={"action": "remove_card@c1"}).json()["result"]
            assert mine["ok"] is True and "frame" not in mine["action"], mine
            assert mine["approved_by"] == {**mine["approved_by"], "via": "policy", "policy": "PLING_APPROVE=remove_card"}

            async def removed(runtime: Any) -> Any:
                return await runtime.sessions.get(sid).page.evaluate("window.__removed")

            assert own.in_service(removed) == ["c1"]
        finally:
            client.delete(f"/sessions/{sid}")
