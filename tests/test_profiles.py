"""Profiles (sign-ins that last): a person signs in once, in a session's page, and saves it; a later
session opened with the profile is signed in. A real Chromium, a real app on port 0 that sets an
HttpOnly cookie, local and session storage and IndexedDB (tests/signin_app.py), and a service with
callers of each role."""

from __future__ import annotations

import base64
import logging
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.fernet import Fernet

from pling_browser.errors import BadRequest, ProfileUnreadable
from pling_browser.runtime.profiles import Profiles

from .conftest import ServiceThread, problem, serving
from .signin_app import SignInApp, signed_in

KEY = Fernet.generate_key().decode()
AGENT = "profiles-agent-token-0123456789"
PERSON = "profiles-person-token-0123456789"


def _tokens(folder: Path) -> str:
    path = folder / "tokens.toml"
    path.write_text(f'[[caller]]\nname = "bot"\nrole = "agent"\ntoken = "{AGENT}"\n\n'
                    f'[[caller]]\nname = "ada"\nrole = "person"\ntoken = "{PERSON}"\n')
    return str(path)


@pytest.fixture(scope="module")
def app() -> Iterator[SignInApp]:
    server = SignInApp().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    with serving(tokens_file=_tokens(tmp_path_factory.mktemp("tokens")), approve=(),
                 confirm="http", confirm_timeout_s=30.0, profiles_key=KEY) as svc:
        yield svc


def _as(svc: ServiceThread, token: str) -> httpx.Client:
    return httpx.Client(base_url=svc.url, timeout=60, headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def agent(keyed: ServiceThread) -> Iterator[httpx.Client]:
    with _as(keyed, AGENT) as client:
        yield client
        for session in client.get("/sessions").json():
            client.delete(f"/sessions/{session['id']}")


@pytest.fixture
def person(keyed: ServiceThread) -> Iterator[httpx.Client]:
    with _as(keyed, PERSON) as client:
        yield client


class Logged(logging.Handler):
    """Every log line of the service while a test runs (its loggers at DEBUG)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def logged() -> Iterator[Logged]:
    handler = Logged()
    package = logging.getLogger("pling_browser")
    level = package.level
    package.setLevel(logging.DEBUG)
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)
    package.setLevel(level)


def _open(client: httpx.Client, url: str, **body: Any) -> dict[str, Any]:
    answer = client.post("/sessions", json={"url": url, **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def _sign_in_as_a_person(svc: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> str:
    """The agent opens the sign-in page and hands the sign-in to a person, who types in the page (as
    through the console's live view: trusted input) and says done. Answers the session id."""
    sid = _open(agent, app.url("/signin"))["session"]["id"]
    result: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: result.update(agent.post(
        f"/sessions/{sid}/invoke", json={"action": "sign_in"}).json()), daemon=True)
    worker.start()
    pending: list[dict[str, Any]] = []
    deadline = time.monotonic() + 20
    while not pending and time.monotonic() < deadline:
        pending = person.get(f"/sessions/{sid}/pending").json()["pending"]
        time.sleep(0.05)
    assert pending and pending[0]["kind"] == "handoff"

    async def type_and_submit(runtime: Any) -> None:
        page = runtime.sessions.get(sid).page
        await page.locator("#user").click()
        await page.keyboard.type("ada")
        await page.locator("#go").click()
        await page.locator("#status").filter(has_text="Signed in as ada").wait_for()

    svc.in_service(type_and_submit)
    answered = person.post(f"/sessions/{sid}/handoffs/{pending[0]['id']}", json={"outcome": "done"})
    assert answered.status_code in (200, 409, 410), answered.text  # the page's done() may have ended it first
    worker.join(30)
    assert result["result"]["ok"] is True, result
    return sid


def _no_value_in(text: str | bytes, app: SignInApp) -> None:
    raw = text.encode() if isinstance(text, str) else text
    for value in app.values:
        for form in (value.encode(), base64.b64encode(value.encode()), base64.urlsafe_b64encode(value.encode())):
            assert form not in raw, value


def test_a_person_signs_in_once_and_a_new_session_opens_signed_in(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp, logged: Logged) -> None:
    before = _open(agent, app.url("/app"))
    assert signed_in(agent, before) == {"cookie": None, "local": False, "session": False, "indexeddb": False}

    sid = _sign_in_as_a_person(keyed, agent, person, app)
    saved = person.post(f"/sessions/{sid}/profile", json={"name": "ada"})
    assert saved.status_code == 201, saved.text
    assert set(saved.json()) == {"name", "saved"} and saved.json()["name"] == "ada"

    listed = agent.get("/profiles")  # an agent may see which profiles there are: names and dates only
    assert listed.status_code == 200
    assert listed.json()["profiles"] == [saved.json()]

    opened = _open(agent, app.url("/app"), profile="ada")
    assert signed_in(agent, opened) == {"cookie": "ada", "local": True, "session": True, "indexeddb": True}
    assert opened["session"]["profile"] == "ada" and before["session"]["profile"] is None

    # Nothing the service answered or logged holds a value of the sign-in.
    for text in (saved.text, listed.text, str(opened), agent.get(f"/sessions/{opened['session']['id']}").text,
                 agent.get(f"/sessions/{sid}/receipts").text, "\n".join(logged.lines)):
        _no_value_in(text, app)


def test_the_profile_file_is_private_and_holds_no_readable_value(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    sid = _sign_in_as_a_person(keyed, agent, person, app)
    assert person.post(f"/sessions/{sid}/profile", json={"name": "private"}).status_code == 201
    folder = keyed.settings.data_dir / "profiles"
    path = folder / "private.profile"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    raw = path.read_bytes()
    _no_value_in(raw, app)
    for word in (b"127.0.0.1", b"cookies", b"localStorage", b"sessionStorage", b"HttpOnly"):
        assert word not in raw
    # It is the sign-in all the same: the key opens it.
    state = Profiles(keyed.settings.data_dir, KEY).load("private")
    assert [c["value"] for c in state["cookies"] if c["name"] == "sid"] == [app.cookie]
    assert [c["httpOnly"] for c in state["cookies"] if c["name"] == "sid"] == [True]
    assert person.delete("/profiles/private").status_code == 200


def test_an_agent_can_neither_save_nor_delete_a_profile(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    sid = _open(agent, app.url("/signin"))["session"]["id"]
    refused = agent.post(f"/sessions/{sid}/profile", json={"name": "bot"})
    assert refused.status_code == 403 and problem(refused)["code"] == "FORBIDDEN", refused.text
    assert "agent role" in problem(refused)["detail"]
    assert not (keyed.settings.data_dir / "profiles" / "bot.profile").exists()
    assert person.post(f"/sessions/{sid}/profile", json={"name": "bot"}).status_code == 201
    deleting = agent.delete("/profiles/bot")
    assert deleting.status_code == 403 and problem(deleting)["code"] == "FORBIDDEN"
    assert (keyed.settings.data_dir / "profiles" / "bot.profile").exists()
    assert person.delete("/profiles/bot").status_code == 200


def test_delete_removes_the_file_and_an_unknown_profile_is_a_clear_404(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    sid = _open(agent, app.url("/signin"))["session"]["id"]
    assert person.post(f"/sessions/{sid}/profile", json={"name": "gone"}).status_code == 201
    path = keyed.settings.data_dir / "profiles" / "gone.profile"
    assert path.exists()
    deleted = person.delete("/profiles/gone")
    assert deleted.status_code == 200 and deleted.json() == {"deleted": "gone"}
    assert not path.exists()
    assert "gone" not in [p["name"] for p in agent.get("/profiles").json()["profiles"]]
    again = person.delete("/profiles/gone")
    assert again.status_code == 404 and problem(again)["code"] == "PROFILE_NOT_FOUND"
    unknown = agent.post("/sessions", json={"url": app.url("/app"), "profile": "gone"})
    assert unknown.status_code == 404 and problem(unknown)["code"] == "PROFILE_NOT_FOUND", unknown.text
    assert "GET /profiles" in problem(unknown)["hint"]


@pytest.mark.parametrize("name", ["../escape", ".hidden", "a/b", "a\\b", "", "x" * 65, "-flag"])
def test_a_profile_name_cannot_leave_the_profiles_folder(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp, name: str) -> None:
    sid = _open(agent, app.url("/app"))["session"]["id"]
    answer = person.post(f"/sessions/{sid}/profile", json={"name": name})
    assert answer.status_code == 400 and problem(answer)["code"] == "BAD_REQUEST", answer.text
    opening = agent.post("/sessions", json={"url": app.url("/app"), "profile": name})
    assert opening.status_code == 400 and problem(opening)["code"] == "BAD_REQUEST", opening.text
    data = keyed.settings.data_dir
    assert not list(data.glob("*.profile"))
    with pytest.raises(BadRequest):
        Profiles(data, KEY).path(name)


def test_a_tampered_profile_is_a_clear_error_not_a_500(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    sid = _sign_in_as_a_person(keyed, agent, person, app)
    assert person.post(f"/sessions/{sid}/profile", json={"name": "tampered"}).status_code == 201
    assert person.post(f"/sessions/{sid}/profile", json={"name": "copied"}).status_code == 201
    folder = keyed.settings.data_dir / "profiles"
    raw = bytearray((folder / "tampered.profile").read_bytes())
    raw[len(raw) // 2] ^= 0x01
    (folder / "tampered.profile").write_bytes(bytes(raw))
    # A profile's file copied over another name is refused too (the plaintext names its profile).
    (folder / "copied.profile").write_bytes(_sealed_as("elsewhere"))
    for name in ("tampered", "copied"):
        answer = agent.post("/sessions", json={"url": app.url("/app"), "profile": name})
        assert answer.status_code == 409, answer.text
        error = problem(answer)
        assert error["code"] == "PROFILE_UNREADABLE" and "PLING_PROFILES_KEY" in error["hint"]
        _no_value_in(answer.text, app)
    assert [s["id"] for s in agent.get("/sessions").json()] == [sid]  # nothing was opened half-signed-in
    for name in ("tampered", "copied"):
        person.delete(f"/profiles/{name}")


def _sealed_as(name: str) -> bytes:
    import json

    return Fernet(KEY.encode()).encrypt(json.dumps({"v": 1, "name": name, "state": {"cookies": []}}).encode())


def test_another_key_cannot_open_a_profile_and_several_keys_rotate(tmp_path: Path) -> None:
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    Profiles(tmp_path, old).save("ada", {"cookies": [{"name": "sid", "value": "v"}]})
    with pytest.raises(ProfileUnreadable):
        Profiles(tmp_path, new).load("ada")
    rotated = Profiles(tmp_path, f"{new},{old}")  # the first encrypts, every one decrypts
    assert rotated.load("ada") == {"cookies": [{"name": "sid", "value": "v"}]}
    rotated.save("ada", rotated.load("ada"))
    assert Profiles(tmp_path, new).load("ada")["cookies"][0]["value"] == "v"


def test_without_the_key_saving_is_refused_with_a_clear_error(
        tmp_path_factory: pytest.TempPathFactory, app: SignInApp) -> None:
    with serving(tokens_file=_tokens(tmp_path_factory.mktemp("tokens")),
                 profiles_key=None) as svc:
        with _as(svc, AGENT) as agent, _as(svc, PERSON) as person:
            sid = _open(agent, app.url("/signin"))["session"]["id"]
            answer = person.post(f"/sessions/{sid}/profile", json={"name": "ada"})
            assert answer.status_code == 409, answer.text
            error = problem(answer)
            assert error["code"] == "PROFILES_KEY_MISSING"
            assert "PLING_PROFILES_KEY" in error["detail"] and "Set PLING_PROFILES_KEY" in error["hint"]
            assert not (svc.settings.data_dir / "profiles").exists()
            assert agent.get("/profiles").json() == {"profiles": []}


def test_over_mcp_open_page_takes_a_profile(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    import asyncio
    import json

    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    sid = _sign_in_as_a_person(keyed, agent, person, app)
    assert person.post(f"/sessions/{sid}/profile", json={"name": "mcp"}).status_code == 201

    async def conversation() -> dict[str, Any]:
        client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {AGENT}"}, timeout=60)
        async with client, Client(streamable_http_client(f"{keyed.url}/mcp", http_client=client)) as mcp:
            tools = {tool.name: tool for tool in (await mcp.list_tools()).tools}
            listed = await mcp.call_tool("list_profiles", {})
            opened = await mcp.call_tool("open_page", {"url": app.url("/app"), "profile": "mcp"})
            unknown = await mcp.call_tool("open_page", {"url": app.url("/app"), "profile": "nobody"})
            return {"schema": tools["open_page"].input_schema, "opened": opened, "unknown": unknown, "listed": listed,
                    "annotations": tools["list_profiles"].annotations}

    out = asyncio.run(asyncio.wait_for(conversation(), 60))
    assert "profile" in out["schema"]["properties"]
    # An agent learns which sign-ins exist (names and dates, never contents) before it opens with one.
    assert out["listed"].is_error is False and out["annotations"].read_only_hint is True
    listed = out["listed"].structured_content["profiles"]
    assert [p["name"] for p in listed] == [p["name"] for p in agent.get("/profiles").json()["profiles"]]
    assert "mcp" in [p["name"] for p in listed] and set(listed[0]) == {"name", "saved"}
    assert not out["opened"].is_error, out["opened"]
    opened = out["opened"].structured_content
    assert signed_in(agent, opened) == {"cookie": "ada", "local": True, "session": True, "indexeddb": True}
    assert out["unknown"].is_error is True
    assert json.loads(out["unknown"].content[0].text)["code"] == "PROFILE_NOT_FOUND"
    _no_value_in(str(out["opened"].content), app)
    person.delete("/profiles/mcp")


def test_no_trace_is_recorded_in_a_session_opened_with_a_profile(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    """A Playwright trace records the page's requests, cookies and all: a session signed in from a
    profile gets none, and the receipt says why."""
    sid = _sign_in_as_a_person(keyed, agent, person, app)
    assert person.post(f"/sessions/{sid}/profile", json={"name": "traced"}).status_code == 201
    plain = _open(agent, app.url("/app"))["session"]["id"]
    signed = _open(agent, app.url("/app"), profile="traced")["session"]["id"]
    receipts = {}
    for name, session in (("plain", plain), ("signed", signed)):
        answer = agent.post(f"/sessions/{session}/invoke", json={"action": "nothing_here", "trace": True})
        assert answer.status_code == 200, answer.text
        receipts[name] = answer.json()["result"]
    assert receipts["plain"].get("trace")  # a trace is recorded where no profile was given
    assert "trace" not in receipts["signed"]
    assert "opened with a profile" in receipts["signed"]["warning"]
    person.delete("/profiles/traced")


def test_the_python_client_saves_lists_opens_with_and_deletes_profiles(
        keyed: ServiceThread, agent: httpx.Client, person: httpx.Client, app: SignInApp) -> None:
    from pling_browser import Client
    from pling_browser.errors import Forbidden, ProfileNotFound

    sid = _sign_in_as_a_person(keyed, agent, person, app)
    with Client(keyed.url, token=PERSON) as people, Client(keyed.url, token=AGENT) as bot:
        saved = people.save_profile(sid, "client")
        assert saved.name == "client"
        with pytest.raises(Forbidden):
            bot.save_profile(sid, "bot")
        assert "client" in [p.name for p in bot.profiles()]
        with bot.open(app.url("/app"), profile="client") as page:
            assert page.info.profile == "client"
            assert page.read_model().state["signed_in"].value["cookie"] == "ada"
        people.delete_profile("client")
        with pytest.raises(ProfileNotFound):
            bot.open(app.url("/app"), profile="client")


def test_a_scenario_names_the_profile_it_needs(keyed: ServiceThread, agent: httpx.Client, person: httpx.Client,
                                              app: SignInApp, tmp_path: Path) -> None:
    """`profile` in a scenario file opens its page signed in as the profile was saved; a session opened with
    a profile records it in its scenario file."""
    import io
    import json

    from pling_browser.ci.progress import Progress
    from pling_browser.ci.scenarios import ScenarioFileError, load_suite, run_suite

    sid = _sign_in_as_a_person(keyed, agent, person, app)
    assert person.post(f"/sessions/{sid}/profile", json={"name": "replayed"}).status_code == 201
    opened = _open(agent, app.url("/app"), profile="replayed")["session"]["id"]
    assert agent.post(f"/sessions/{opened}/invoke", json={"action": "whoami"}).json()["result"]["data"] == "ada"
    recorded = agent.get(f"/sessions/{opened}/scenario").json()
    assert recorded["profile"] == "replayed" and recorded["url"] == app.url("/app")

    def run(profile: str | None) -> Any:
        scenario: dict[str, Any] = {"name": "who", "steps": [{"invoke": "whoami", "expect": {"data": "ada"}}]}
        file: dict[str, Any] = {"url": app.url("/app"), "scenarios": [scenario]}
        if profile is not None:
            file["profile"] = profile
        path = tmp_path / f"{profile}.json"
        path.write_text(json.dumps(file))
        suite = load_suite(path)
        assert suite.scenarios[0].profile == profile
        return keyed.in_service(lambda runtime: run_suite(runtime, suite, Progress(io.StringIO(), live=False)), 60)[0]

    signed, anonymous, unknown = run("replayed"), run(None), run("nobody")
    assert signed.status == "passed", signed.ledger()
    assert anonymous.status == "failed" and "expected data" in anonymous.message  # the profile made the difference
    assert unknown.status == "error" and "PROFILE_NOT_FOUND" in unknown.message
    (tmp_path / "bad.json").write_text(json.dumps({"url": app.url("/app"), "profile": "../etc",
                                                   "scenarios": [{"steps": [{"invoke": "whoami"}]}]}))
    with pytest.raises(ScenarioFileError, match="profile"):
        load_suite(tmp_path / "bad.json")
    person.delete("/profiles/replayed")
