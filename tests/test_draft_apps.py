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

Django's admin is drafted and operated the same way in tests/test_draft_django.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench.miniwob import policy_generic
from bench.miniwob.agent_pling import PlingAgent
from pling_browser.ci.check import check

from .conftest import ServiceThread, serving
from .datasette_app import DatasetteApp
from .drafts import Draft, draft_all, errors
from .server import FixtureServer

TODOMVC = "/apps/todomvc-react/index.html"


@pytest.fixture(scope="module")
def datasette() -> Iterator[DatasetteApp]:
    app = DatasetteApp().start()
    yield app
    app.stop()


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory, fixtures: FixtureServer, datasette: DatasetteApp) -> Iterator[ServiceThread]:
    folder = tmp_path_factory.mktemp("drafts")
    draft_all([Draft(fixtures.url(TODOMVC), folder / "todomvc.js",
                     ('enter_new_todo_input {"value": "Buy milk"}', 'enter_new_todo_input {"value": "Call Ada"}')),
               Draft(datasette.url("/library/books"), folder / "datasette.js")])
    with serving(adapters=str(folder), approve=("danger",)) as service:
        yield service


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
    assert errors(drafted.in_service(lambda runtime: check(runtime, url, adapter="todomvc.js"), 120)) == []
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
    assert errors(drafted.in_service(lambda runtime: check(runtime, url, adapter="datasette.js"), 120)) == []
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


