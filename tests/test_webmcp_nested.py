"""Exports called from inside the page (runtime/exported.py): a WebMCP tool whose `execute` calls one of
Pling's exports while Pling runs that tool gets a receipt, not SESSION_BUSY (the call is part of the
running invocation), and a popup tab's exports are answered on that tab."""

from __future__ import annotations

import time
from typing import Any

from pling_browser.lifecycle import LogEvent

from .conftest import Pages, ServiceThread
from .webmcp_fixtures import where  # noqa: F401

PAGE = "pages/webmcp/nested.html"


def _in_tab(svc: ServiceThread, sid: str, tab: str, script: str) -> Any:
    async def run(runtime: Any) -> Any:
        return await runtime.sessions.get(sid).tabs.get(tab).page.evaluate(script)
    return svc.in_service(run, timeout=60)


def test_a_tool_calling_an_export_during_its_run_is_answered(where: tuple[ServiceThread, Pages]) -> None:
    svc, pages = where
    page = pages.open(PAGE)
    receipt = page.invoke("import_notes", {"texts": ["Call mum", "Water plants"]})
    assert receipt["ok"] is True, receipt
    # Each nested call got its own receipt (no SESSION_BUSY), as the tool's result shows.
    assert receipt["data"] == [{"ok": True, "id": "n2"}, {"ok": True, "id": "n3"}]
    # Part of this invocation: what they changed is in its receipt, and its log names them.
    assert receipt["changed"]["records"]["note"]["added"] == ["n2", "n3"]
    assert receipt["changed"]["state"]["changed"] == {"count": {"from": 1, "to": 3}}
    called = page.codes().events(LogEvent.EXPORT_CALLED)
    assert [(entry["action"], entry["outcome"]) for entry in called] == [("add_note", "ok")] * 2, called
    # The nested calls are in the receipt log, each verified in the page.
    logged = [r for r in pages.client.get(f"/sessions/{page.id}/receipts").json()["receipts"]
              if r["receipt"]["action"]["id"] == "add_note"]
    assert [r["receipt"]["verified"] for r in logged] == [True, True]
    assert page.model()["records"]["note"]["ids"] == ["n1", "n2", "n3"]


def test_a_popup_tabs_exports_are_answered_on_that_tab(where: tuple[ServiceThread, Pages]) -> None:
    svc, pages = where
    page = pages.open(PAGE)
    opened = page.invoke("open_popup")
    assert opened["ok"] is True and [t["id"] for t in opened["changed"]["tabs"]["opened"]] == ["t2"], opened
    deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
    while True:  # the popup's document declares itself after it loads
        answer = _in_tab(svc, page.id, "t2", "() => typeof window.inPageCall === 'function' && inPageCall('add_note', {text: 'From the popup'})")
        if answer or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert answer["ok"]["ok"] is True and answer["ok"]["data"] == {"id": "n2"}, answer
    assert page.model(tab="t2")["records"]["note"]["ids"] == ["n1", "n2"]
    assert page.model(tab="t1")["records"]["note"]["ids"] == ["n1"]  # the call ran on its own tab
