"""Drafts of real apps nobody here wrote, used unedited: each passes `check` (no error finding), and the
generic policy of the bench (bench/miniwob/policy_generic.py, the stand-in for an LLM: it reads only the
model and receipts, here with the task in words since an app does not state one) adds something and
removes it again, each with a receipt that says what the page shows.

- TodoMVC (the React build vendored in fixtures/apps): its list is empty until something is added, so the
  draft is written with `--do` after two todos were added through a first draft's own action; adding is
  that action, removing is ticking a todo and pressing the app's "Clear completed".
- Datasette 0.65 (PyPI; tests/datasette_app.py) has no write UI of its own: what a person adds and removes
  there is a filter on a table (its filter form, then the "- remove filter -" choice the form offers once
  a filter is on). A filter changes the view, not the data: the draft names a page by its path and the
  names of its query parameters, so the filtered view is another page id.
- Django 5.2's admin (PyPI; tests/django_app.py, the same server the shipped adapter is tested on),
  server-rendered, each page a document of its own, behind its sign-in. The sign-in page is drafted as
  it is; the group list, the add form, a group's page and its delete confirmation are drafted with
  `--do` after the sign-in draft's own "Log in" (a draft matches its own path, with any query, not the
  pages below it). The generic policy signs in, adds a group with the add form's Save (a POST answered
  by a redirect to the list) and removes one with the list's link to it, its Delete link and "Yes, I'm
  sure"; each receipt says which page the action left for, the list the session then shows has the
  group or has it no more, and the database agrees. `check` opens the pages signed in (a saved profile).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.miniwob import policy_generic
from bench.miniwob.agent_pling import PlingAgent
from pling_browser.ci.check import check

from .conftest import ServiceThread, serving
from .datasette_app import DatasetteApp
from .django_app import PASSWORD, USER, DjangoAdmin
from .server import FixtureServer

TODOMVC = "/apps/todomvc-react/index.html"
# Django admin pages behind the sign-in, each drafted after it: the group list, the add form, the page
# of the group "Reviewers" (id 2) and its delete confirmation.
ADMIN = {"list.js": "/admin/auth/group/", "add.js": "/admin/auth/group/add/", "change.js": "/admin/auth/group/2/change/",
         "delete.js": "/admin/auth/group/2/delete/"}


def _draft(url: str, out: Path, *steps: str) -> str:
    command = [sys.executable, "-m", "pling_browser", "draft", url, "--out", str(out)]
    for step in steps:
        command += ["--do", step]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out.read_text()


@pytest.fixture(scope="module")
def datasette() -> Iterator[DatasetteApp]:
    app = DatasetteApp().start()
    yield app
    app.stop()


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory, fixtures: FixtureServer, datasette: DatasetteApp) -> Iterator[ServiceThread]:
    folder = tmp_path_factory.mktemp("drafts")
    _draft(fixtures.url(TODOMVC), folder / "todomvc.js",
           'enter_new_todo_input {"value": "Buy milk"}', 'enter_new_todo_input {"value": "Call Ada"}')
    _draft(datasette.url("/library/books"), folder / "datasette.js")
    with serving(adapters=str(folder), approve=("danger",)) as service:
        yield service


def _errors(findings: list[Any]) -> list[str]:
    return [str(f) for f in findings if f.severity == "error"]


def _solve(service: ServiceThread, url: str, *instructions: str) -> list[list[dict[str, Any]]]:
    """Each instruction in turn, on one session; the receipts of each."""
    async def go() -> list[list[dict[str, Any]]]:
        async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
            receipts: list[dict[str, Any]] = []
            agent = PlingAgent(client)
            original = agent.invoke

            async def invoke(action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
                receipts.append(await original(action, args))
                return receipts[-1]
            agent.invoke = invoke  # type: ignore[method-assign]
            model = await agent.open(url)
            out = []
            try:
                for instruction in instructions:
                    receipts.clear()
                    await policy_generic.solve(agent, model, instruction=instruction)
                    out.append(list(receipts))
                    model = await agent.model()
            finally:
                await agent.close()
            return out
    return asyncio.run(go())


def test_todomvc_draft_passes_check_and_the_generic_policy_adds_and_removes(drafted: ServiceThread, fixtures: FixtureServer) -> None:
    url = fixtures.url(TODOMVC)
    assert _errors(drafted.in_service(lambda runtime: check(runtime, url, adapter="todomvc.js"), 120)) == []
    added, ticked, cleared = _solve(drafted, url, 'Type "Water the plants" into the new todo input and press Enter',
                                    'Tick the todo "Water the plants"', 'Press "Clear completed"')
    assert [r["action"]["id"] for r in added] == ["enter_new_todo_input"]
    assert added[0]["ok"] and added[0]["changed"]["records"]["todo"]["added"] == ["Water the plants"], added
    assert [r["action"]["id"] for r in ticked] == ["check@Water the plants"] and ticked[0]["ok"], ticked
    assert ticked[0]["changed"]["records"]["todo"]["updated"][0]["id"] == "Water the plants"
    assert [r["action"]["id"] for r in cleared] == ["click_clear_completed"], cleared
    assert cleared[0]["ok"] and cleared[0]["changed"]["records"]["todo"]["removed"] == ["Water the plants"], cleared


def test_datasette_draft_passes_check_and_the_generic_policy_adds_and_removes_a_filter(drafted: ServiceThread, datasette: DatasetteApp) -> None:
    url = datasette.url("/library/books")
    assert _errors(drafted.in_service(lambda runtime: check(runtime, url, adapter="datasette.js"), 120)) == []
    added, removed = _solve(drafted, url, 'Show the rows where "title" is "=" to "Dune", then Apply',
                            'Choose "- remove filter -" and Apply')
    assert [r["action"]["id"] for r in added] == ["apply"] and added[0]["ok"], added
    change = added[0]["changed"]
    assert "title__exact=Dune" in change["page"]["to"]["url"] and change["page"]["to"]["id"] != change["page"]["from"]["id"]
    # The rows the filter hides left the view the receipt describes (another page id: the query's names);
    # leaving a view is not a deletion (SPEC, "Actions that leave the document").
    assert all(not r.get("removed") for r in change["records"].values()), change
    gone = {i for r in change["records"].values() for i in r.get("left") or []}
    assert {"2", "3"} <= gone, change
    assert all(r["ok"] for r in removed) and removed, removed
    back = removed[-1]["changed"]
    assert "__exact" not in back["page"]["to"]["url"]
    assert all(not r.get("added") for r in back["records"].values()), back
    back_in = {i for r in back["records"].values() for i in r.get("entered") or []}
    assert {"2", "3"} <= back_in, back


@pytest.fixture(scope="module")
def django_admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DjangoAdmin, ServiceThread]]:
    app = DjangoAdmin().start()
    app.reset()
    folder = tmp_path_factory.mktemp("django-drafts")
    try:
        _draft(app.url("/admin/login/"), folder / "login.js")
        sign_in = "log_in " + json.dumps({"username": USER, "password": PASSWORD})
        for name, path in ADMIN.items():
            _draft(app.url("/admin/login/?next=" + path), folder / name, sign_in)
        from cryptography.fernet import Fernet  # the sign-in is kept as a profile, and profiles only encrypted

        with serving(adapters=str(folder), approve=("danger",),
                     profiles_key=Fernet.generate_key().decode()) as service:
            yield app, service
    finally:
        app.stop()


def _groups(model: dict[str, Any]) -> list[str]:
    """The list's rows as the model shows them (their labels)."""
    rows = [r for r in (model.get("records") or {}).values() if any(i.get("label") == "Editors" for i in r.get("items") or [])]
    assert len(rows) == 1, model.get("records")
    return sorted(i["label"] for i in rows[0]["items"])


def test_django_admin_drafts_pass_check_and_the_generic_policy_adds_and_removes_a_group(
        django_admin: tuple[DjangoAdmin, ServiceThread]) -> None:
    app, service = django_admin

    async def go() -> None:
        async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
            agent = PlingAgent(client)
            receipts: list[dict[str, Any]] = []
            original = agent.invoke

            async def invoke(action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
                receipts.append(await original(action, args))
                return receipts[-1]
            agent.invoke = invoke  # type: ignore[method-assign]
            model = await agent.open(app.url("/admin/login/?next=/admin/auth/group/add/"))
            try:
                await policy_generic.solve(agent, model, instruction=f'Log in with the username "{USER}" and the password "{PASSWORD}"')
                assert [r["action"]["id"] for r in receipts] == ["log_in"] and receipts[0]["ok"], receipts
                assert receipts[0]["changed"]["page"]["to"]["url"] == app.url("/admin/auth/group/add/")
                saved = await client.post(f"/sessions/{agent.sid}/profile", json={"name": "django-admin"})
                assert saved.status_code == 201, saved.text
                for name, path in ADMIN.items():   # each draft, unedited, on its page signed in
                    found = service.in_service(lambda runtime: check(runtime, app.url(path), adapter=name, profile="django-admin"), 120)  # noqa: B023 (run before the next)
                    assert _errors(found) == [], (name, _errors(found))
                assert _errors(service.in_service(lambda runtime: check(runtime, app.url("/admin/login/"), adapter="login.js"), 120)) == []

                receipts.clear()
                await policy_generic.solve(agent, await agent.model(), instruction='Save the name "Translators"')
                assert [r["action"]["id"] for r in receipts] == ["save"] and receipts[0]["ok"], json.dumps(receipts)[:2000]
                # The POST answered with a redirect to the list: the receipt says the page it left for.
                assert receipts[0]["changed"]["page"]["to"]["url"] == app.url("/admin/auth/group/"), receipts[0]["changed"]
                model = await agent.model()
                assert _groups(model) == ["Authors", "Editors", "Reviewers", "Translators"]
                assert sorted((await asyncio.to_thread(app.groups)).values()) == ["Authors", "Editors", "Reviewers", "Translators"]

                steps = []
                for instruction in ('Open the group "Reviewers"', 'Press "Delete"', 'Press "Yes, I’m sure"'):
                    receipts.clear()
                    await policy_generic.solve(agent, model, instruction=instruction)
                    assert len(receipts) == 1 and receipts[0]["ok"], json.dumps(receipts)[:2000]
                    steps.append(receipts[0])
                    model = await agent.model()
                assert [(s["changed"]["page"]["from"]["url"], s["changed"]["page"]["to"]["url"]) for s in steps] == [
                    (app.url("/admin/auth/group/"), app.url("/admin/auth/group/2/change/")),
                    (app.url("/admin/auth/group/2/change/"), app.url("/admin/auth/group/2/delete/")),
                    (app.url("/admin/auth/group/2/delete/"), app.url("/admin/auth/group/"))]
                assert _groups(model) == ["Authors", "Editors", "Translators"]
                assert sorted((await asyncio.to_thread(app.groups)).values()) == ["Authors", "Editors", "Translators"]
            finally:
                await agent.close()
    asyncio.run(go())
