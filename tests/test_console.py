"""The operator console (/console), played by a person in a real browser: a second Chromium, launched
here, opens the console of a gated service (the HTTP confirmation channel, no approvals, an operator
secret) while an agent's invocations wait in threads."""

from __future__ import annotations

import io
import json
import os
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from pling_browser.config import find_chromium
from pling_browser.core.browsers import chromium_args
from pling_browser.server.access import AccessGuard, cookie_name
from pling_browser.server.console import recording as console_recording
from pling_browser.server.console import streams as console_streams

from . import patient
from .conftest import Pages, PageSession, ServiceThread, problem, service_settings, serving
from .server import FixtureServer
from .signin_app import SignInApp, signed_in

CARD = "4111111111111111"
CHECKOUT = "pages/gates/checkout.html"
TODOS = "demo/todos.html"
TOKEN = "console-token-for-tests"
DOCS = Path(__file__).resolve().parent.parent / "docs"
PROFILES_KEY = "hJ2n0cP0m5Qk3mB7cF6yR1tW9xZ4aL8sD2vG5jK7nQ0="  # a Fernet key for the tests only


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    secrets = tmp_path_factory.mktemp("secrets") / "secrets.env"
    secrets.write_text(f"CARD={CARD}\n")
    with serving(approve=(), confirm="http", confirm_timeout_s=20.0,
                 secrets_file=str(secrets), profiles_key=PROFILES_KEY) as svc:
        yield svc


@pytest.fixture(scope="module", autouse=True)
def patient_expect() -> Iterator[None]:
    """What the person sees is awaited with a generous ceiling (30 s), never Playwright's 5 s: the
    other worker takes half the machine, and a live view drawn late is no failure."""
    expect.set_options(timeout=30_000)
    yield
    expect.set_options(timeout=5_000)  # Playwright's default, for whatever runs next in this process


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=find_chromium(None), args=chromium_args())
        yield launched
        launched.close()


@pytest.fixture
def agent(gated: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=gated.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


@pytest.fixture
def person(browser: Browser, gated: ServiceThread) -> Iterator[Page]:
    """The console, open in the person's browser, on a laptop-sized window."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(gated.url + "/console")
    expect(page.locator("#connection")).to_have_text("Live")
    yield page
    context.close()
    assert problems == [], problems


class Background:
    """An agent's invoke that waits on a person, in a thread while the test plays the person."""

    def __init__(self, page: PageSession, action: str, args: Any = None) -> None:
        self.result: dict[str, Any] | None = None
        self.thread = threading.Thread(target=self._run, args=(page, action, args), daemon=True)
        self.thread.start()

    def _run(self, page: PageSession, action: str, args: Any) -> None:
        with httpx.Client(base_url=str(page.client.base_url), timeout=60) as own:
            body: dict[str, Any] = {"action": action}
            if args is not None:
                body["args"] = args
            self.result = own.post(f"/sessions/{page.id}/invoke", json=body).json()["result"]

    def join(self) -> dict[str, Any]:
        self.thread.join(30)
        assert self.result is not None
        return self.result


def _choose(person: Page, sid: str) -> None:
    person.locator(f'button.session[data-session="{sid}"]').click()
    expect(person.locator(f'button.session[data-session="{sid}"]')).to_have_attribute("aria-current", "true")
    expect(person.locator("#screen-img")).to_be_visible()


def _newest_receipt(person: Page, action: str) -> Any:
    receipt = person.locator("#receipts > li").first
    expect(receipt.locator(".r-head code")).to_have_text(action)
    return receipt


def test_the_guard_takes_the_token_out_of_the_query() -> None:
    """What the app (and uvicorn's access log, which reads the same scope) sees of `?token=`."""
    seen: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope)

    scope = {"type": "http", "method": "GET", "path": "/console", "query_string": f"token={TOKEN}&a=1".encode(),
             "headers": [(b"host", b"127.0.0.1:8000")]}
    with pytest.raises(StopIteration):  # nothing in the guard waits: run it without an event loop
        AccessGuard(app, TOKEN)(scope, None, None).send(None)  # type: ignore[arg-type]
    assert seen[0]["query_string"] == b"a=1" and seen[0]["state"]["token_in_query"] is True


def test_a_person_sees_a_confirmation_arrive_approves_it_and_reads_the_receipt(person: Page, agent: Pages) -> None:
    page = agent.open(CHECKOUT)
    _choose(person, page.id)
    # Landmarks and labels a screen reader finds.
    expect(person.get_by_role("banner")).to_be_visible()
    expect(person.get_by_role("navigation", name="Sessions")).to_be_visible()
    expect(person.get_by_role("main")).to_be_visible()
    expect(person.get_by_role("application", name="Live view of Checkout")).to_be_visible()
    expect(person.get_by_text("Nothing is waiting for you.")).to_be_visible()

    waiting = Background(page, "wipe")
    card = person.get_by_role("article", name="wipe Empty the cart")
    expect(card).to_be_visible()
    expect(card).to_contain_text("Confirmation")
    expect(card).to_contain_text("danger")
    expect(card).to_contain_text("The cart is empty")  # the declared expectation
    expect(person.locator("#announcer")).to_contain_text("Confirmation needed: wipe")
    expect(person).to_have_title("(1) Pling operator console")
    assert waiting.result is None  # the agent still waits for the person

    person.get_by_role("button", name="Approve wipe").click()
    receipt = waiting.join()
    assert receipt["ok"] is True and receipt["changed"]["state"]["changed"]["wiped"] == {"from": False, "to": True}

    shown = _newest_receipt(person, "wipe")
    expect(shown.locator(".status")).to_have_text("✓ ok")
    expect(shown).to_contain_text("Empty the cart")
    expect(shown).to_contain_text("item removed: sku-1, sku-2")
    expect(shown).to_contain_text("wiped: false → true")
    expect(person.get_by_text("Nothing is waiting for you.")).to_be_visible()
    # The raw receipt is one click away, and it is the agent's receipt.
    shown.get_by_text("Raw JSON").click()
    assert json.loads(shown.locator("pre").inner_text()) == receipt
    # The sessions list shows the last receipts.
    expect(person.locator(f'button.session[data-session="{page.id}"] .chip').first).to_have_text("✓ wipe")


def test_a_person_denies_a_dangerous_action_and_cancels_a_handoff_from_the_keyboard(person: Page, agent: Pages) -> None:
    todos = agent.open(TODOS)
    _choose(person, todos.id)
    waiting = Background(todos, "remove@t9")
    card = person.get_by_role("article", name="remove@t9 Delete the task")
    expect(card).to_contain_text("task t9")  # the record, by its business id and label
    expect(card).to_contain_text("Send birthday card to Grandma")
    deny = person.get_by_role("button", name="Deny remove@t9")
    deny.focus()
    person.keyboard.press("Enter")
    error = waiting.join()["error"]
    assert error["code"] == "PERMISSION_DENIED" and error["stage"] == "confirm" and error["started"] is False
    assert "t9" in todos.model()["records"]["task"]["ids"]  # nothing ran
    shown = _newest_receipt(person, "remove@t9")
    expect(shown.locator(".status")).to_have_text("✗ PERMISSION_DENIED at confirm")
    expect(shown).to_contain_text("was not confirmed (a person, through the confirmation channel)")
    # The answered card is gone, and focus did not fall off the page.
    expect(person.locator("#pending-heading")).to_be_focused()

    checkout = agent.open(CHECKOUT)
    waiting = Background(checkout, "enter_otp")
    cancel = person.get_by_role("button", name="Cancel enter_otp")
    expect(person.get_by_role("article", name="enter_otp Type the code sent to your phone")).to_contain_text("Handoff")
    cancel.focus()
    person.keyboard.press("Space")
    assert waiting.join()["error"]["code"] == "HANDOFF_CANCELLED"


def test_a_key_pressed_on_a_card_as_another_request_arrives_is_not_lost(person: Page, agent: Pages) -> None:
    """A button is clicked by Space on the key's release: a card built again in between (another request
    arriving re-renders the list) took the focus, and the press, with it."""
    checkout = agent.open(CHECKOUT)
    _choose(person, checkout.id)
    handoff = Background(checkout, "enter_otp")
    person.get_by_role("button", name="Cancel enter_otp").focus()
    person.keyboard.down("Space")
    todos = agent.open(TODOS)
    other = Background(todos, "remove@t9")
    expect(person.locator("#pending > li")).to_have_count(2)  # the list was rendered with the new card
    expect(person.get_by_role("button", name="Cancel enter_otp")).to_be_focused()
    person.keyboard.up("Space")
    assert handoff.join()["error"]["code"] == "HANDOFF_CANCELLED"
    person.get_by_role("button", name="Deny remove@t9").click()
    assert other.join()["error"]["code"] == "PERMISSION_DENIED"


def test_a_person_does_the_one_time_code_handoff_by_typing_into_the_live_view(
        person: Page, agent: Pages, gated: ServiceThread) -> None:
    page = agent.open(CHECKOUT)

    async def spy(runtime: Any) -> dict[str, Any]:
        # Record whether the page sees trusted events (a person's input, not script-made events).
        target = runtime.sessions.get(page.id).page
        await target.evaluate("""() => { window.__trusted = []; document.body.style.minHeight = '3000px';
            for (const type of ['pointerdown', 'click', 'keydown', 'input'])
              document.addEventListener(type, (e) => window.__trusted.push(e.isTrusted), true); }""")
        return {name: await target.locator(name).bounding_box() for name in ("#otp", "#verify")}

    boxes = gated.in_service(spy)
    waiting = Background(page, "enter_otp")
    handoff = person.get_by_role("article", name="enter_otp Type the code sent to your phone")
    expect(handoff).to_contain_text("Do this step yourself in the live view")
    handoff.get_by_role("button", name="Show the page").click()
    screen = person.locator("#screen")
    expect(screen).to_be_focused()
    expect(person.locator("#screen-img")).to_be_visible()
    picture = person.locator("#screen-img").bounding_box()
    assert picture is not None

    def at(name: str) -> tuple[float, float]:
        box = boxes[name]
        scale = picture["width"] / 1280
        return picture["x"] + (box["x"] + box["width"] / 2) * scale, picture["y"] + (box["y"] + box["height"] / 2) * scale

    person.mouse.click(*at("#otp"))
    person.keyboard.type("1234567")
    person.keyboard.press("Backspace")  # keys that are not characters reach the page too
    person.mouse.click(*at("#verify"))
    receipt = waiting.join()
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["state"]["changed"]["otp_accepted"] == {"from": False, "to": True}

    async def seen(runtime: Any) -> Any:
        target = runtime.sessions.get(page.id).page
        return await target.evaluate("() => [document.querySelector('#otp').value, window.__trusted]")

    value, trusted = gated.in_service(seen)
    assert value == "123456" and len(trusted) >= 8 and all(trusted)

    async def scrolled(runtime: Any) -> Any:
        return await runtime.sessions.get(page.id).page.evaluate("() => window.scrollY")

    person.mouse.wheel(0, 400)  # the wheel, over the view, scrolls the page
    deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
    while gated.in_service(scrolled) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gated.in_service(scrolled) > 0
    shown = _newest_receipt(person, "enter_otp")
    expect(shown.locator(".status")).to_have_text("✓ ok")
    expect(shown).to_contain_text('feedback (success): “Code accepted”')


def test_a_person_signs_in_through_the_live_view_and_saves_it_as_a_profile(
        person: Page, agent: Pages, gated: ServiceThread) -> None:
    """The documented way to a profile: an agent hands the sign-in to a person, who signs in in the
    console's live view and presses "Save as profile"; a later session opened with it is signed in."""
    app = SignInApp().start()
    try:
        opened = agent.client.post("/sessions", json={"url": app.url("/signin")}).json()
        sid = opened["session"]["id"]
        agent.opened.append(sid)

        async def boxes(runtime: Any) -> dict[str, Any]:
            target = runtime.sessions.get(sid).page
            return {name: await target.locator(name).bounding_box() for name in ("#user", "#go")}

        box = gated.in_service(boxes)
        waiting = Background(PageSession(agent.client, sid, opened["model"]), "sign_in")
        handoff = person.get_by_role("article", name="sign_in Sign in to the example app")
        handoff.get_by_role("button", name="Show the page").click()
        expect(person.locator("#screen-img")).to_be_visible()
        picture = person.locator("#screen-img").bounding_box()
        assert picture is not None

        def at(name: str) -> tuple[float, float]:
            scale = picture["width"] / 1280
            return (picture["x"] + (box[name]["x"] + box[name]["width"] / 2) * scale,
                    picture["y"] + (box[name]["y"] + box[name]["height"] / 2) * scale)

        person.mouse.click(*at("#user"))
        person.keyboard.type("ada")
        person.mouse.click(*at("#go"))
        assert waiting.join()["ok"] is True  # the page's done() said the person signed in

        form = person.locator("#save-profile")
        expect(form).to_be_visible()
        form.get_by_label("Profile name").fill("console-ada")
        form.get_by_role("button", name="Save as profile").click()
        expect(person.locator("#profile-status")).to_contain_text("Saved as profile “console-ada”")
        assert [p["name"] for p in agent.client.get("/profiles").json()["profiles"]] == ["console-ada"]

        later = agent.client.post("/sessions", json={"url": app.url("/app"), "profile": "console-ada"}).json()
        agent.opened.append(later["session"]["id"])
        assert signed_in(agent.client, later) == {"cookie": "ada", "local": True, "session": True, "indexeddb": True}
        shown = person.content()
        assert not [value for value in app.values if value in shown]  # the console never held the sign-in
        agent.client.delete("/profiles/console-ada")
    finally:
        app.stop()


def _read_stream(url: str, path: str, until: str, cookies: dict[str, str] | None = None) -> str:
    text = ""
    with httpx.Client(base_url=url, timeout=20, cookies=cookies) as client:
        with client.stream("GET", path) as answer:
            assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
            for line in answer.iter_lines():
                text += line + "\n"
                if until in text and line == "":
                    break
    return text


def _watchers(gated: ServiceThread) -> int:
    async def count(runtime: Any) -> int:
        return len(runtime.events._watchers)

    return int(gated.in_service(count))


def test_nothing_secret_reaches_the_console(person: Page, agent: Pages, gated: ServiceThread) -> None:
    page = agent.open(CHECKOUT)
    assert page.invoke("fill_card", {"value": "<secret>CARD</secret>"})["ok"] is True
    paid = page.invoke("pay")
    assert paid["ok"] is True and paid["changed"]["state"]["changed"]["paid_with"]["to"].startswith("<secret>")
    _choose(person, page.id)
    # The page shows the card in its field and in its text: the live view is masked screenshots.
    expect(person.locator("#screen")).to_have_attribute("data-masked", "true")
    for summary in person.locator("#receipts summary").all():
        summary.click()
    expect(person.locator("#receipts pre").first).to_be_visible()
    written = [person.content(), person.locator("body").inner_text()]
    written.append(patient.get(gated.url + "/console/state").text)
    written.append(patient.get(f"{gated.url}/console/sessions/{page.id}/receipts").text)
    written.append(_read_stream(gated.url, "/console/events", "event: state"))
    view = _read_stream(gated.url, f"/console/sessions/{page.id}/view", "event: frame")
    frame = json.loads(view.split("event: frame\ndata: ")[1].split("\n")[0])
    assert frame["masked"] is True
    written.append(view)
    assert all(CARD not in text and CARD[-8:] not in text for text in written)
    # The streams read above ended when their client went away: only the console's own stream is left.
    deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
    while _watchers(gated) > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _watchers(gated) == 1


def test_the_token_opens_a_console_session_and_its_csrf_token_keeps_it_open(browser: Browser) -> None:
    with serving(token=TOKEN) as svc:
        url = svc.url
        name = cookie_name(f"127.0.0.1:{svc.port}")
        assert patient.get(f"{url}/console").status_code == 401
        assert patient.get(f"{url}/console/events").status_code == 401
        assert patient.get(f"{url}/console?token=wrong").status_code == 401
        opened = patient.get(f"{url}/console?token={TOKEN}")
        assert opened.status_code == 303
        location = urlsplit(opened.headers["location"])
        assert location.path == "console" and location.fragment.startswith("csrf=")
        csrf = location.fragment.removeprefix("csrf=")
        cookie = opened.headers["set-cookie"]
        assert cookie.startswith(f"{name}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert "Max-Age=" in cookie and TOKEN not in cookie and csrf not in cookie  # a random session id
        again = patient.get(f"{url}/console?token={TOKEN}")
        assert again.cookies[name] != opened.cookies[name]  # a new session each time, not a function of the token
        jar = {name: opened.cookies[name]}
        page = patient.get(f"{url}/console", cookies=jar)
        assert page.status_code == 200 and "frame-ancestors 'none'" in page.headers["content-security-policy"]
        # The cookie alone opens the page only; reads and writes need the session's CSRF token too.
        assert patient.get(f"{url}/sessions", cookies=jar).status_code == 401
        assert patient.get(f"{url}/sessions", cookies=jar, headers={"X-Pling-CSRF": csrf}).status_code == 200
        assert patient.get(f"{url}/sessions?token={TOKEN}").status_code == 200
        assert "event: state" in _read_stream(url, f"/console/events?csrf={csrf}", "event: state", cookies=jar)
        answer = f"{url}/sessions/s_none/confirmations/c_none"
        assert patient.post(answer, json={"approve": True}, cookies=jar).status_code == 401
        assert patient.post(answer, json={"approve": True}, cookies=jar, headers={"Origin": url}).status_code == 401
        assert patient.post(answer, json={"approve": True}, cookies=jar,
                          headers={"Origin": "http://localhost:1", "X-Pling-CSRF": csrf}).status_code == 401
        assert patient.post(answer, json={"approve": True}, cookies=jar,
                          headers={"Origin": url, "X-Pling-CSRF": csrf}).status_code == 404
        assert patient.post(answer, json={"approve": True}, cookies={name: "0" * 43},
                          headers={"Origin": url, "X-Pling-CSRF": csrf}).status_code == 401
        # A session is bound to the Host it was opened on.
        assert patient.get(f"http://localhost:{svc.port}/sessions", cookies={cookie_name(f"localhost:{svc.port}"): jar[name]},
                         headers={"X-Pling-CSRF": csrf}).status_code == 401

        context = browser.new_context()
        person = context.new_page()
        person.goto(f"{url}/console?token={TOKEN}")
        expect(person.locator("#connection")).to_have_text("Live")
        assert person.url == f"{url}/console"  # the token and the CSRF token left the address bar
        # The console's own writes carry the cookie and the CSRF token: authorized (then not found here).
        status = person.evaluate("""() => fetch('sessions/s_none/confirmations/c_none', {method: 'POST',
            headers: {'content-type': 'application/json',
                      'x-pling-csrf': sessionStorage.getItem('pling-console-csrf')},
            body: '{"approve": true}'}).then((r) => r.status)""")
        assert status == 404
        # Without it, the browser's cookie is not enough.
        status = person.evaluate("""() => fetch('sessions/s_none/confirmations/c_none', {method: 'POST',
            headers: {'content-type': 'application/json'}, body: '{"approve": true}'}).then((r) => r.status)""")
        assert status == 401
        # Signing out ends the session: the console says so and its cookie no longer counts.
        person.get_by_role("button", name="Sign out").click()
        expect(person.locator("#connection")).to_contain_text("Signed out")
        cookies = {c["name"]: c["value"] for c in context.cookies()}
        assert name not in cookies
        assert patient.get(f"{url}/sessions", cookies=jar, headers={"X-Pling-CSRF": csrf}).status_code == 200  # another sign-in
        context.close()


def test_event_streams_end_when_the_service_stops(monkeypatch: pytest.MonkeyPatch, fixtures: FixtureServer) -> None:
    monkeypatch.setattr(console_streams, "STREAM_S", 1.5)
    svc = ServiceThread(service_settings()).start()
    with httpx.Client(base_url=svc.url, timeout=60) as client:
        sid = client.post("/sessions", json={"url": fixtures.url(CHECKOUT)}).json()["session"]["id"]
    ended: dict[str, str] = {}

    def listen(path: str) -> None:
        ended[path] = ""
        with httpx.Client(base_url=svc.url, timeout=20) as client, client.stream("GET", path) as answer:
            for chunk in answer.iter_text():
                ended[path] += chunk

    paths = ("/console/events", f"/console/sessions/{sid}/view")
    readers = [threading.Thread(target=listen, args=(path,), daemon=True) for path in paths]
    for reader in readers:
        reader.start()
    try:
        deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
        while not ("event: state" in ended.get(paths[0], "") and "event: frame" in ended.get(paths[1], "")):
            assert time.monotonic() < deadline, ended
            time.sleep(0.05)
    finally:
        started = time.monotonic()
        svc.stop()
        stopped_in = time.monotonic() - started
    for reader in readers:
        reader.join(30)
    # Stopping waits for the streams, which end by themselves within STREAM_S (1.5 s here) with "bye":
    # 12 s is a ceiling eight times that, still under the default 15 s a stream left unshortened
    # would hold the stop for (< 5 s was near a measurement on a loaded machine).
    assert not svc.thread.is_alive() and stopped_in < 12, stopped_in
    assert not any(reader.is_alive() for reader in readers)
    assert all(ended[path].rstrip().split("\n")[-2] == "event: bye" for path in paths), ended


def test_console_screenshot_for_the_readme(person: Page, agent: Pages, tmp_path: Path) -> None:
    """The picture in the README; written to docs/console.png with PLING_UPDATE_SNAPSHOTS=1."""
    checkout = agent.open(CHECKOUT)
    checkout.invoke("message_buyer", {"email": checkout.first_model["records"]["item"]["items"][0]["fields"]["buyer_email"]})
    todos = agent.open(TODOS)
    assert todos.invoke("add_todo", {"text": "Renew the car insurance", "due": "2026-12-04"})["ok"] is True
    assert todos.invoke("toggle@t3")["ok"] is True
    denied = Background(todos, "clear_done")
    person.get_by_role("button", name="Deny clear_done").click()
    assert denied.join()["error"]["code"] == "PERMISSION_DENIED"
    _choose(person, todos.id)
    waiting = Background(todos, "remove@t9")
    expect(person.get_by_role("button", name="Approve remove@t9")).to_be_visible()
    expect(person.locator("#receipts > li")).to_have_count(3)
    person.mouse.move(0, 0)
    time.sleep(0.3)  # the newest receipt's highlight fades
    target = DOCS / "console.png" if os.environ.get("PLING_UPDATE_SNAPSHOTS") == "1" else tmp_path / "console.png"
    person.screenshot(path=str(target))
    person.get_by_role("button", name="Deny remove@t9").click()
    assert waiting.join()["error"]["code"] == "PERMISSION_DENIED"
    assert target.stat().st_size > 20_000


def test_the_persons_keys_reach_the_page_and_an_unknown_key_is_the_persons_mistake(client: httpx.Client, pages: Pages) -> None:
    todos = pages.open(TODOS)
    url = f"/console/sessions/{todos.id}/input"
    assert client.post(url, json={"type": "key", "key": "Tab"}).json() == {"ok": True}
    # Playwright's "Unknown key" error, translated at the boundary, answers 400 naming the key.
    answer = client.post(url, json={"type": "key", "key": "NoSuchKey"})
    assert answer.status_code == 400, answer.text
    error = problem(answer)
    assert error["code"] == "BAD_REQUEST" and "NoSuchKey" in error["detail"]
    assert error["issues"] == [{"path": "key", "problem": "not a key name Playwright knows"}]


def test_a_receipt_with_a_trace_links_to_it(browser: Browser, fixtures: FixtureServer, service: ServiceThread) -> None:
    """An invocation that asked for `trace: true` shows a link to its Playwright trace; the link
    downloads the zip the trace viewer reads, with the console's own sign-in. (A service without
    operator secrets: with PLING_SECRETS set no session is traced, as a trace records the page. The
    run's shared service is one: its console shows this test's session alone once it is chosen.)"""
    svc = service
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            agent = Pages(client, fixtures)
            page = agent.open("demo/todos.html")
            person = context.new_page()
            person.goto(svc.url + "/console")
            expect(person.locator("#connection")).to_have_text("Live")
            _choose(person, page.id)
            plain = page.invoke("toggle@t3")
            assert plain["ok"] is True and "trace" not in plain
            traced = page.invoke("toggle@t4", trace=True)
            assert traced["ok"] is True and traced["trace"], traced
            shown = person.locator("#receipts > li")
            expect(shown).to_have_count(2)
            link = shown.first.get_by_role("link", name="Playwright trace")
            expect(link).to_be_visible()
            expect(shown.nth(1).get_by_role("link", name="Playwright trace")).to_have_count(0)  # the untraced one
            answer = person.request.get(urljoin(person.url, str(link.get_attribute("href"))))
            assert answer.status == 200 and answer.headers["content-type"] == "application/zip", answer.status
            assert "trace.trace" in zipfile.ZipFile(io.BytesIO(answer.body())).namelist()
            agent.close_all()
    finally:
        context.close()


def test_a_person_records_a_draft_in_the_live_view(person: Page, agent: Pages, gated: ServiceThread,
                                                   fixtures: FixtureServer, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Record, the task done once through the live view (pointer and keys on the picture), Stop: the
    steps and the draft are shown, the download is that draft, and the draft works unedited
    (tests/test_demonstration.py runs `check` on it and its actions through Pling)."""
    from .test_demonstration import ORDER, assert_draft_works

    # The page's 2 s to say what an input reached is the product's; here a loaded machine gets a
    # generous ceiling, so a step is never "unread" for want of speed.
    monkeypatch.setattr(console_recording, "ASK_S", 30.0)

    page = agent.open(ORDER)
    _choose(person, page.id)

    async def measure(runtime: Any) -> dict[str, Any]:
        target = runtime.sessions.get(page.id).page
        return {name: await target.locator(name).bounding_box()
                for name in ("#title", "#gift", "#tag-input-4711", "#add", "[data-testid=clear-tags]")}

    boxes = gated.in_service(measure)
    person.get_by_role("button", name="Record").click()
    expect(person.locator("#record-status")).to_have_text("Recording: 0 steps")
    expect(person.locator("#screen")).to_be_focused()
    picture = person.locator("#screen-img").bounding_box()
    assert picture is not None

    def at(name: str) -> tuple[float, float]:
        box = boxes[name]
        scale = picture["width"] / 1280
        return picture["x"] + (box["x"] + box["width"] / 2) * scale, picture["y"] + (box["y"] + box["height"] / 2) * scale

    person.mouse.click(*at("#title"))
    person.keyboard.type("Sunset")
    person.keyboard.press("Tab")
    person.keyboard.press("ArrowDown")
    person.mouse.click(*at("#gift"))
    person.mouse.click(*at("#tag-input-4711"))
    person.keyboard.type("sea")
    person.keyboard.press("Enter")
    person.mouse.click(*at("#add"))
    person.mouse.click(*at("[data-testid=clear-tags]"))
    steps = person.get_by_role("list", name="Recorded steps").locator("li")
    expect(steps).to_have_text(["typed “Sunset” into the textbox “Title of the print”",
                                "chose “Medium” in the combobox “Size”",
                                "ticked the checkbox “Gift wrap”",
                                "typed “sea” into the textbox “Tag”, then pressed Enter",
                                "clicked the button “Add to basket”",
                                "clicked the button “Clear”"])
    person.get_by_role("button", name="Stop").click()
    expect(person.locator("#record-status")).to_have_text("Recorded: 6 steps")
    shown = person.get_by_label("The draft adapter")
    expect(shown).to_contain_text('target: () => P.one({"role": "textbox", "name": "Title of the print"})')
    with person.expect_download() as downloading:
        person.get_by_role("link", name="Download the draft").click()
    download = downloading.value
    assert download.suggested_filename == "draft-127.0.0.1.js"
    draft = Path(download.path()).read_text()
    assert draft == shown.text_content()
    assert_draft_works(draft, fixtures, tmp_path, with_secret=False)


def test_a_person_grants_from_the_console_and_sees_who_approved(person: Page, agent: Pages) -> None:
    """Issue 27: "Approve, and allow this for 10 minutes" answers with a grant; the console's receipts
    say who approved each call (the person, then the person's grant), as the receipts do."""
    page = agent.open("pages/security/consent.html")
    _choose(person, page.id)
    waiting = Background(page, "note", {"text": "first"})
    card = person.get_by_role("article", name="note Write a note")
    expect(card).to_be_visible()
    card.get_by_role("button", name="Approve, and allow this for 10 minutes note").click()
    expect(person.locator("#announcer")).to_contain_text("Approved, and allowed for 10 minutes: note")
    first = waiting.join()
    assert first["approved_by"]["via"] == "person" and first["approved_by"]["caller"] == "operator"
    expect(_newest_receipt(person, "note")).to_contain_text("approved by operator, a person")
    second = page.invoke("note", {"text": "second"})  # the grant answers: nobody is asked
    assert second["ok"] is True and second["approved_by"]["via"] == "grant", second
    expect(person.locator("#receipts > li")).to_have_count(2)
    expect(_newest_receipt(person, "note")).to_contain_text("approved by a grant operator made (until")
    expect(person.get_by_text("Nothing is waiting for you.")).to_be_visible()
