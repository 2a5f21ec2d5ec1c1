"""Actions that leave the document (SPEC: "Actions that leave the document"): a form posted and
redirected, a link, a reload, a refused address, an SPA route that declares another page. Each runs
with the app's model scripts on time and served 150 ms late: the receipt comes back only once the new
document declared itself, and says what changed across the two documents on business ids."""

from __future__ import annotations

import json
from typing import Any

from ..apps import SsrApp
from .conftest import CARD, Opener


def records(changed: dict[str, Any], type_: str) -> dict[str, Any]:
    """One record type's change (``changed.records`` keyed by type, or the older flat form)."""
    recs = changed["records"]
    return recs if "added" in recs else recs.get(type_, {"added": [], "removed": [], "updated": []})


def page(app: SsrApp, id_: str | None, path: str, title: str) -> dict[str, Any]:
    ref: dict[str, Any] = {"url": app.url(path), "title": title}
    if id_ is not None:
        ref["id"] = id_
    return ref


def test_add_by_element_actions_posts_once_and_diffs_across_documents(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    typed = tab.invoke("title", {"value": "Water the plants"})
    assert typed["ok"] is True and "page" not in typed["changed"], typed
    receipt = tab.invoke("submit")
    assert receipt["ok"] is True, receipt
    assert receipt["verified"] is True  # its expectation, checked on the document the redirect led to
    changed = receipt["changed"]
    assert changed["page"] == {"from": page(app, "tasks", "/tasks", "Tasks"), "to": page(app, "tasks", "/tasks", "Tasks")}
    task = records(changed, "task")
    assert task["added"] == ["task-4"] and task["removed"] == [] and task["updated"] == []
    assert task["total"] == {"from": 3, "to": 4}
    assert changed["feedback"]["added"] == [{"kind": "success", "text": "Task added"}]
    assert changed["state"]["changed"] == {"count": {"from": 3, "to": 4}, "open_count": {"from": 2, "to": 3}}
    assert sorted(changed["actions"]["added"]) == ["complete@task-4", "delete@task-4", "open@task-4", "remove@task-4"]
    assert "warning" not in receipt and "refused" not in changed
    assert app.posts("/tasks") == 1
    assert [r.form for r in app.requests if r.method == "POST"] == [{"title": "Water the plants"}]
    # The new document had declared itself before the receipt came back: the next read sees it.
    assert "task-4" in tab.model()["records"]["task"]["ids"]


def test_a_run_that_submits_the_form_is_verified_on_the_new_document(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    receipt = tab.invoke("add", {"title": "Via run"})
    assert receipt["ok"] is True, receipt
    assert receipt["verified"] is True
    assert records(receipt["changed"], "task")["added"] == ["task-4"]
    assert receipt["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Task added"}]
    assert receipt["changed"]["page"]["to"]["id"] == "tasks"
    assert [r.form for r in app.requests if r.method == "POST"] == [{"title": "Via run"}]
    assert app.titles()[-1] == "Via run"


def test_delete_posts_once_and_reports_the_removed_record(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    receipt = tab.invoke("delete@task-2")
    assert receipt["ok"] is True, receipt
    assert receipt["verified"] is True
    task = records(receipt["changed"], "task")
    assert task["removed"] == ["task-2"] and task["added"] == [] and task["total"] == {"from": 3, "to": 2}
    assert receipt["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Task deleted"}]
    assert sorted(receipt["changed"]["actions"]["removed"]) == ["complete@task-2", "delete@task-2", "open@task-2", "remove@task-2"]
    assert app.posts("/tasks/task-2/delete") == 1 and app.task("task-2") is None


def test_the_server_refusing_a_title_is_its_error_message_not_a_stuck_page(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    assert tab.invoke("title", {"value": "   "})["ok"] is True
    receipt = tab.invoke("submit")
    # The expectation was checked on the new document and does not hold there: a real failure, with
    # the server's own message in the feedback, never PAGE_UNRESPONSIVE or "no longer declared".
    assert receipt["ok"] is False
    assert receipt["error"]["code"] == "EXPECTATION_FAILED" and receipt["error"]["started"] is True
    assert "on the new document" in receipt["error"]["message"]
    assert receipt["changed"]["feedback"]["added"] == [{"kind": "error", "text": "Title is required"}]
    assert receipt["changed"]["page"]["to"]["id"] == "tasks"
    assert app.posts("/tasks") == 1 and len(app.titles()) == 3


def test_a_link_to_a_detail_page_then_acting_there_and_back(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    opened = tab.invoke("open@task-1")
    assert opened["ok"] is True, opened
    assert opened["changed"]["page"] == {"from": page(app, "tasks", "/tasks", "Tasks"),
                                         "to": page(app, "task", "/tasks/task-1", "Task: Buy milk")}
    # `open` is not declared on the task page: not verified, and the warning says why.
    assert opened["verified"] is False
    assert "could not be checked on the new page" in opened["warning"] and "does not declare open" in opened["warning"]
    # Another page (task, not tasks): leaving the list is not a deletion. The two tasks the detail page
    # does not show left the view; nothing is claimed added or removed.
    assert opened["changed"]["records"]["task"] == {
        "entered": [], "left": ["task-2", "task-3"], "updated": [],
        "omitted": {"entered": 0, "left": 0, "updated": 0}, "total": {"from": 3, "to": 1}}
    assert "mark_done" in opened["changed"]["actions"]["added"]
    assert not any("@" in a for a in opened["changed"]["actions"]["removed"])  # instances follow the records

    done = tab.invoke("mark_done")
    assert done["ok"] is True and done["verified"] is True, done
    assert done["changed"]["page"]["from"] == done["changed"]["page"]["to"] == page(app, "task", "/tasks/task-1", "Task: Buy milk")
    assert records(done["changed"], "task")["updated"] == [{"id": "task-1", "changes": {"done": {"from": False, "to": True}}}]
    assert done["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Task marked done"}]
    assert done["changed"]["actions"]["availability"] == {"mark_done": {"from": True, "to": "The task is done already"}}
    assert app.posts("/tasks/task-1/done") == 1

    back = tab.invoke("back")
    assert back["ok"] is True and "verified" not in back and "error" not in back, back
    assert back["changed"]["page"]["to"] == page(app, "tasks", "/tasks", "Tasks")
    assert back["changed"]["records"]["task"]["entered"] == ["task-2", "task-3"]
    assert "added" not in back["changed"]["records"]["task"] and back["changed"]["records"]["task"]["left"] == []


def test_a_reload_is_a_navigation_with_nothing_else_changed(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    gets = sum(1 for r in app.requests if r.method == "GET" and r.path == "/tasks")
    receipt = tab.invoke("refresh")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["page"] == {"from": page(app, "tasks", "/tasks", "Tasks"), "to": page(app, "tasks", "/tasks", "Tasks")}
    assert records(receipt["changed"], "task")["added"] == [] and receipt["changed"]["state"]["changed"] == {}
    assert sum(1 for r in app.requests if r.method == "GET" and r.path == "/tasks") == gets + 1


def test_a_refused_navigation_is_reported(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    receipt = tab.invoke("external")
    assert receipt["ok"] is True, receipt
    refused = receipt["changed"]["refused"]
    assert refused[0]["target"] == f"GET {app.external_url}"
    assert "PLING_ALLOW_HOSTS" in refused[0]["reason"]
    assert receipt["changed"]["page"]["from"]["id"] == "tasks"
    assert receipt["changed"]["page"]["to"]["url"] == app.external_url and "id" not in receipt["changed"]["page"]["to"]
    assert not any(r.path == "/external" for r in app.requests)


def test_an_spa_route_that_declares_another_page(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    entered = tab.invoke("open_spa")
    assert entered["ok"] is True, entered
    assert entered["changed"]["page"]["to"]["id"] == "inbox"
    routed = tab.invoke("go_settings")  # history.pushState: the same document, another declared page
    assert routed["ok"] is True, routed
    assert routed["changed"]["page"]["from"]["id"] == "inbox" and routed["changed"]["page"]["to"]["id"] == "settings"
    assert routed["changed"]["page"]["to"]["url"] == app.url("/spa/settings")
    assert "set_theme" in routed["changed"]["actions"]["added"]
    assert "warning" not in routed
    assert sum(1 for r in app.requests if r.path.startswith("/spa")) == 1  # one document for both routes


def test_masking_outlives_the_navigation(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    receipt = tab.invoke("add", {"title": "<secret>CARD</secret>"})
    assert receipt["ok"] is True, receipt
    assert records(receipt["changed"], "task")["added"] == ["task-4"]
    assert app.titles()[-1] == CARD  # the page got the real value …
    # … and the document the redirect led to shows it only as a reference, as the first one would.
    model = tab.model()
    label = next(item["label"] for item in model["records"]["task"]["items"] if item["id"] == "task-4")
    assert CARD not in json.dumps(model) and "<secret>" in label
    assert CARD not in json.dumps(receipt)


def test_a_delete_on_another_page_reports_records_that_left_the_view_not_removed(app: SsrApp, opener: Opener) -> None:
    # From the task page, deleting lands on the list (another page id): task-2 was really deleted, but
    # the receipt does not claim it from the view; it left the view, and the list's other tasks entered.
    tab = opener.open(app.url("/tasks/task-2"))
    receipt = tab.invoke("delete_task")
    assert receipt["ok"] is True, receipt
    assert app.task("task-2") is None and app.posts("/tasks/task-2/delete") == 1
    changed = receipt["changed"]
    assert changed["page"]["from"]["id"] == "task" and changed["page"]["to"]["id"] == "tasks"
    assert changed["records"]["task"] == {"entered": ["task-1", "task-3"], "left": ["task-2"], "updated": [],
                                          "omitted": {"entered": 0, "left": 0, "updated": 0}, "total": {"from": 1, "to": 2}}
    # The state keys of the two pages differ: none is diffed against a key the other page never had.
    assert changed["state"]["changed"] == {}
    assert changed["state"]["declared"] == {"done": "before", "count": "after", "open_count": "after"}
    assert changed["feedback"]["added"] == [{"kind": "success", "text": "Task deleted"}]
    # The list does not declare delete_task: its expectation is not verified, never a claimed failure.
    assert receipt["verified"] is False and "does not declare delete_task" in receipt["warning"]


def test_a_failed_flow_that_lands_on_another_page_claims_nothing_removed(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    app.drop_task("task-2")  # someone else deleted it meanwhile: the list shown still has it
    receipt = tab.invoke("remove@task-2")
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "STEP_FAILED" and error["step"] == 2
    assert error["step_error"]["code"] == "ACTION_NOT_FOUND"  # the 404 page declares no delete_task
    changed = receipt["changed"]
    assert changed["page"]["from"]["id"] == "tasks" and changed["page"]["to"]["id"] == "not_found"
    # The 404 page declares no task records: the type is not diffed, nothing is claimed removed.
    assert changed["records"] == {"task": {"declared": "before"}}
    assert changed["state"]["declared"] == {"count": "before", "open_count": "before"}
    assert not any("@" in a for a in changed["actions"]["removed"])
    assert app.posts("/tasks/task-2/delete") == 0
