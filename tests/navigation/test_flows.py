"""Flows across documents (SPEC: "Flows across documents"): each step resolves on the document the
previous step left; the ledger says per step whether it started; resume never silently repeats a step
that started (the server's request log counts the POSTs)."""

from __future__ import annotations

from ..apps import SsrApp
from ..conftest import problem
from .conftest import Opener
from .test_documents import records


def test_a_fill_then_submit_flow_posts_once(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    receipt = tab.invoke("add_task", {"title": "Flow task"})
    assert receipt["ok"] is True, receipt
    assert [(s["action"], s["ok"], s["started"], s.get("navigated", False)) for s in receipt["steps"]] == [
        ("title", True, True, False), ("submit", True, True, True)]
    changed = receipt["changed"]
    assert records(changed, "task")["added"] == ["task-4"]
    assert changed["feedback"]["added"] == [{"kind": "success", "text": "Task added"}]
    assert changed["page"]["from"]["id"] == changed["page"]["to"]["id"] == "tasks"
    assert [r.form for r in app.requests if r.method == "POST"] == [{"title": "Flow task"}]


def test_a_flow_spanning_two_documents_succeeds(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    receipt = tab.invoke("complete@task-1")
    assert receipt["ok"] is True, receipt
    # Step 2 resolved on the task page that step 1's link led to.
    assert [(s["action"], s["ok"], s["started"], s.get("navigated", False)) for s in receipt["steps"]] == [
        ("open@task-1", True, True, True), ("mark_done", True, True, True)]
    assert receipt["changed"]["page"]["from"]["id"] == "tasks"
    assert receipt["changed"]["page"]["to"] == {"id": "task", "url": app.url("/tasks/task-1"), "title": "Task: Buy milk"}
    assert receipt["changed"]["feedback"]["added"] == [{"kind": "success", "text": "Task marked done"}]
    assert app.posts("/tasks/task-1/done") == 1 and app.task("task-1")["done"] is True


def test_a_failed_step_that_started_is_not_repeated_by_resume(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    # The server refuses a blank title: step 2 posted the form and navigated, then its expectation
    # ("Task added") did not hold on the new document.
    failed = tab.invoke("add_task", {"title": "   "})
    error = failed["error"]
    assert failed["ok"] is False and error["code"] == "STEP_FAILED" and error["started"] is True
    assert error["step"] == 2 and error["step_error"]["code"] == "EXPECTATION_FAILED"
    assert [(s["action"], s["ok"], s["started"]) for s in error["steps"]] == [("title", True, True), ("submit", False, True)]
    assert failed["changed"]["feedback"]["added"] == [{"kind": "error", "text": "Title is required"}]
    assert app.posts("/tasks") == 1

    refused = tab.resume(error["resume"])
    assert refused.status_code == 409, refused.text
    details = problem(refused)
    assert details["code"] == "STEP_STARTED" and "Step 2 (submit)" in details["detail"]
    assert "repeat_started_step" in details["hint"]
    assert app.posts("/tasks") == 1  # nothing was posted again

    # Asked explicitly, it runs the step again (the handle stayed valid): a second POST, on purpose.
    again = tab.resume(error["resume"], repeat_started_step=True)
    assert again.status_code == 200, again.text
    receipt = again.json()["result"]
    assert receipt["ok"] is False and receipt["error"]["code"] == "STEP_FAILED"
    assert app.posts("/tasks") == 2
    assert tab.resume(error["resume"]).status_code == 404  # used once


def test_resume_continues_a_step_that_did_not_start(app: SsrApp, opener: Opener) -> None:
    tab = opener.open(app.url("/tasks"))
    assert tab.invoke("open@task-3")["ok"] is True  # done already: mark_done is unavailable there
    assert tab.invoke("back")["ok"] is True
    failed = tab.invoke("complete@task-3")
    error = failed["error"]
    assert error["code"] == "STEP_FAILED" and error["step_error"]["code"] == "ACTION_UNAVAILABLE"
    assert [(s["action"], s["started"]) for s in error["steps"]] == [("open@task-3", True), ("mark_done", False)]
    # The step did not start: resume may run it (it is still unavailable, and says so again).
    resumed = tab.resume(error["resume"])
    assert resumed.status_code == 200, resumed.text
    assert resumed.json()["result"]["error"]["step_error"]["code"] == "ACTION_UNAVAILABLE"
    assert app.posts("/tasks/task-3/done") == 0
