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
- Django 5.2's admin (PyPI; tests/django_app.py), server-rendered, each page a document of its own: the
  book list, the add form, a book's change page and its delete confirmation are each drafted (a draft
  matches its own path, with any query, not the pages below it). Adding is the add form's Save (a POST
  answered by a redirect to the list); removing is the list's link to the book, its Delete link and
  "Yes, I'm sure" (a POST, a redirect to the list). Each receipt says which page the action left for, and
  the list the session then shows has the book, or has it no more."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from bench.miniwob import policy_generic
from bench.miniwob.agent_pling import PlingAgent
from pling_browser.ci.check import check

from .conftest import ServiceThread, service_settings
from .datasette_app import DatasetteApp
from .django_app import DjangoApp
from .server import FixtureServer

TODOMVC = "/apps/todomvc-react/index.html"
# Django admin pages, each drafted: the book list, the add form, Emma's change page and delete confirmation (id 57).
ADMIN = {"list.js": "/admin/library/book/", "add.js": "/admin/library/book/add/", "change.js": "/admin/library/book/57/change/",
         "delete.js": "/admin/library/book/57/delete/"}


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
    service = ServiceThread(service_settings(adapters=str(folder), approve=("danger",))).start()
    yield service
    service.stop()


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
    # The rows the filter hides are out of the view the receipt describes (another page id: the query's names).
    gone = {i for r in change["records"].values() for i in (r.get("left") or []) + (r.get("removed") or [])}
    assert {"2", "3"} <= gone, change
    assert all(r["ok"] for r in removed) and removed, removed
    back = removed[-1]["changed"]
    assert "__exact" not in back["page"]["to"]["url"]
    back_in = {i for r in back["records"].values() for i in (r.get("entered") or []) + (r.get("added") or [])}
    assert {"2", "3"} <= back_in, back


@pytest.fixture(scope="module")
def django_admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DjangoApp, ServiceThread]]:
    app = DjangoApp().start()
    folder = tmp_path_factory.mktemp("django-drafts")
    try:
        for name, path in ADMIN.items():
            _draft(app.url(path), folder / name)
        service = ServiceThread(service_settings(adapters=str(folder), approve=("danger",))).start()
        try:
            yield app, service
        finally:
            service.stop()
    finally:
        app.stop()


def _books(model: dict[str, Any]) -> dict[str, str]:
    """The list's rows as the model shows them: id -> label."""
    rows = [r for r in (model.get("records") or {}).values() if any("Dune" == i.get("label") for i in r.get("items") or [])]
    assert len(rows) == 1, model.get("records")
    return {i["id"]: i["label"] for i in rows[0]["items"]}


def test_django_admin_drafts_pass_check_and_the_generic_policy_adds_and_removes_a_book(django_admin: tuple[DjangoApp, ServiceThread]) -> None:
    app, service = django_admin
    for name, path in ADMIN.items():
        assert _errors(service.in_service(lambda runtime: check(runtime, app.url(path), adapter=name), 120)) == [], name

    async def go() -> None:
        async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
            agent = PlingAgent(client)
            receipts: list[dict[str, Any]] = []
            original = agent.invoke

            async def invoke(action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
                receipts.append(await original(action, args))
                return receipts[-1]
            agent.invoke = invoke  # type: ignore[method-assign]
            model = await agent.open(app.url(ADMIN["add.js"]))
            try:
                await policy_generic.solve(agent, model, instruction='Save a new book with the title "Kindred", the author "Octavia E. Butler" and the year 1979')
                assert len(receipts) == 1, json.dumps(receipts)[:3000]
                saved = receipts[0]
                assert saved["action"]["id"] == "save" and saved["ok"], saved
                # The POST answered with a redirect to the list: the receipt says the page it left for.
                assert saved["changed"]["page"]["to"]["url"] == app.url("/admin/library/book/"), saved["changed"]
                model = await agent.model()
                books = _books(model)
                assert sorted(books.values()) == ["Dune", "Emma", "Kindred"], books
                kindred = next(r for r in model["records"].values() for i in r["items"] if i["label"] == "Kindred")
                assert {k: v for k, v in next(i for i in kindred["items"] if i["label"] == "Kindred")["fields"].items()
                        if k in ("author", "year")} == {"author": "Octavia E. Butler", "year": "1979"}
                emma = next(i for i, label in books.items() if label == "Emma")
                assert emma == "57"   # the row's key is the app's own (its selection box's value), not its text
                for instruction in ('Open the book "Emma"', 'Press "Delete"', 'Press "Yes, I’m sure"'):
                    receipts.clear()
                    await policy_generic.solve(agent, model, instruction=instruction)
                    assert len(receipts) == 1 and receipts[0]["ok"], receipts
                    model = await agent.model()
                confirmed = receipts[0]
                assert confirmed["action"]["id"] == "yes_i_m_sure", confirmed
                assert confirmed["changed"]["page"]["from"]["url"] == app.url("/admin/library/book/57/delete/")
                assert confirmed["changed"]["page"]["to"]["url"] == app.url("/admin/library/book/"), confirmed["changed"]
                assert sorted(_books(model).values()) == ["Dune", "Kindred"], model["records"]
            finally:
                await agent.close()
    asyncio.run(go())
