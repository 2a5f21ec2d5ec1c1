"""A React 18 page and a Vue 3 page declared only through the declaration package (js/; the hooks and
the composables), driven through the service as an agent drives any page: the receipts say what the
apps did (records added and removed, state changed, actions added and removed as a component mounts
and unmounts), and the apps' own logs agree.

The pages are fixtures/pages/declare/{react,vue}.html, built from their TypeScript sources by
js/build.mjs (tests/test_declare_package.py checks the built files are fresh)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Pages, PageSession, ServiceThread

FRAMEWORKS = ["react", "vue"]


def _log(service: ServiceThread, page: PageSession) -> list[str]:
    """The app's own record of what it did (window.__log), read from the session's page."""
    async def read(runtime: Any) -> list[str]:
        return await runtime.sessions.get(page.id).page.evaluate("() => window.__log")
    return service.in_service(read)


@pytest.fixture(params=FRAMEWORKS)
def reading(request: pytest.FixtureRequest, pages: Pages) -> PageSession:
    return pages.open(f"pages/declare/{request.param}.html")


def test_the_model_is_what_the_hooks_declared(reading: PageSession) -> None:
    model = reading.first_model
    assert model["page"]["id"] == "reading" and model["page"]["name"] == "Reading list"
    assert [r["id"] for r in model["regions"]] == ["toolbar", "list"]
    assert [a["id"] for a in model["actions"]] == ["add_book", "remove", "mark_read", "show_stats"]
    add = next(a for a in model["actions"] if a["id"] == "add_book")
    assert add["params"]["required"] == ["title"] and add["risk"] == "write" and add["region"] == "toolbar"
    books = model["records"]["book"]
    assert books["ids"] == ["b1", "b2"] and books["total"] == 2
    assert books["items"][0] == {"id": "b1", "label": "Middlemarch", "region": "list", "fields": {"read": True},
                                 "unavailable": {"mark_read": "Already read"}}
    assert {key: value["value"] for key, value in model["state"].items()} == {"count": 2, "unread": 1, "draft": ""}
    assert model["problems"] == []


def test_adding_marking_and_removing_books(reading: PageSession, service: ServiceThread) -> None:
    added = reading.invoke("add_book", {"title": "Dune"})
    assert added["ok"] is True and added["verified"] is True, added
    assert added["data"] == {"id": "b3"}
    changed = added["changed"]
    assert changed["records"]["book"]["added"] == ["b3"]
    assert changed["records"]["book"]["total"] == {"from": 2, "to": 3}
    assert sorted(changed["actions"]["added"]) == ["mark_read@b3", "remove@b3"]
    assert changed["state"]["changed"] == {"count": {"from": 2, "to": 3}, "unread": {"from": 1, "to": 2}}
    assert changed["feedback"]["added"] == [{"kind": "success", "text": "Added “Dune”"}]

    read = reading.invoke("mark_read@b3")
    assert read["ok"] is True and read["verified"] is True, read
    assert read["changed"]["records"]["book"]["updated"] == [{"id": "b3", "changes": {"read": {"from": False, "to": True}}}]
    assert read["changed"]["state"]["changed"] == {"unread": {"from": 2, "to": 1}}
    # The availability the hook was given reads the latest state: b3 is read now.
    again = reading.invoke("mark_read@b3")
    assert again["ok"] is False and again["error"]["code"] == "ACTION_UNAVAILABLE"
    assert again["error"]["started"] is False and again["error"]["reason"] == "Already read"

    removed = reading.invoke("remove@b1")  # an element action: the row's own Remove button, clicked
    assert removed["ok"] is True and removed["verified"] is True, removed
    assert removed["changed"]["records"]["book"]["removed"] == ["b1"]
    assert sorted(removed["changed"]["actions"]["removed"]) == ["mark_read@b1", "remove@b1"]
    assert removed["changed"]["state"]["changed"] == {"count": {"from": 3, "to": 2}}

    assert _log(service, reading) == ["add:b3:Dune", "read:b3", "remove:b1"]  # the refused call ran nothing
    model = reading.model()
    assert model["records"]["book"]["ids"] == ["b2", "b3"]
    assert [item["fields"]["read"] for item in model["records"]["book"]["items"]] == [False, True]
    assert model["problems"] == []


def test_a_component_adds_its_declarations_on_mount_and_removes_them_on_unmount(reading: PageSession,
                                                                               service: ServiceThread) -> None:
    shown = reading.invoke("show_stats")  # clicks the toggle: the Stats component mounts
    assert shown["ok"] is True, shown
    assert shown["changed"]["actions"]["added"] == ["clear_read"]
    assert shown["changed"]["state"]["changed"] == {"read_share": {"from": None, "to": "1 of 2"}}
    model = reading.model()
    assert [r["id"] for r in model["regions"]] == ["toolbar", "list", "stats"]
    clear = next(a for a in model["actions"] if a["id"] == "clear_read")
    assert clear["available"] is True and clear["region"] == "stats"
    # A new description is a new declaration (the toggle says what it will do next).
    assert next(a for a in model["actions"] if a["id"] == "show_stats")["description"] == "Hide the statistics"

    cleared = reading.invoke("clear_read")
    assert cleared["ok"] is True and cleared["verified"] is True, cleared
    assert cleared["changed"]["records"]["book"]["removed"] == ["b1"]
    assert cleared["changed"]["state"]["changed"]["read_share"] == {"from": "1 of 2", "to": "0 of 1"}
    # The mounted component's availability follows its props: nothing is read any more.
    assert next(a for a in reading.model()["actions"] if a["id"] == "clear_read")["reason"] == "No book is read yet"

    hidden = reading.invoke("show_stats")  # the Stats component unmounts
    assert hidden["ok"] is True, hidden
    assert hidden["changed"]["actions"]["removed"] == ["clear_read"]
    assert hidden["changed"]["state"]["changed"] == {"read_share": {"from": "0 of 1", "to": None}}
    model = reading.model()
    assert "clear_read" not in [a["id"] for a in model["actions"]]
    assert [r["id"] for r in model["regions"]] == ["toolbar", "list"]
    assert "read_share" not in model["state"]
    gone = reading.invoke("clear_read")
    assert gone["ok"] is False and gone["error"]["code"] == "ACTION_NOT_FOUND"
    assert _log(service, reading) == ["clear_read"]


def test_bad_arguments_are_refused_before_the_app_runs(reading: PageSession, service: ServiceThread) -> None:
    refused = reading.invoke("add_book", {"title": ""})
    assert refused["ok"] is False and refused["error"]["code"] == "INVALID_PARAMS"
    assert refused["error"]["started"] is False
    assert reading.model()["records"]["book"]["ids"] == ["b1", "b2"]
    assert _log(service, reading) == []


def test_the_served_react_script_without_a_bundler(pages: Pages, service: ServiceThread) -> None:
    # fixtures/pages/declare/react-script.html: React's UMD build, htm, and /js/pling-react.js.
    notes = pages.open("pages/declare/react-script.html")
    assert [a["id"] for a in notes.first_model["actions"]] == ["add_note", "open_panel"]
    added = notes.invoke("add_note", {"text": "Water the plants"})
    assert added["ok"] is True and added["verified"] is True, added
    assert added["changed"]["records"]["note"]["added"] == ["n2"] and added["data"] == {"id": "n2"}
    assert added["changed"]["state"]["changed"] == {"count": {"from": 1, "to": 2}}

    opened = notes.invoke("open_panel")
    assert opened["ok"] is True, opened
    assert opened["changed"]["actions"]["added"] == ["close_panel"]
    assert opened["changed"]["state"]["changed"] == {"panel": {"from": None, "to": "details"}}
    refused = notes.invoke("open_panel")  # its availability, a value, follows the render
    assert refused["ok"] is False and refused["error"]["reason"] == "The details are shown"

    closed = notes.invoke("close_panel")
    assert closed["ok"] is True, closed
    assert closed["changed"]["actions"]["removed"] == ["close_panel"]
    assert closed["changed"]["state"]["changed"] == {"panel": {"from": "details", "to": None}}
    assert _log(service, notes) == ["add:n2"]
