"""Codes inside, words at the edge (lifecycle/codes.py, lifecycle/words.py): every log event and
warning has its words, written once, and they read as the receipts' log and warnings read before the
codes (the receipt contract is unchanged). Tests elsewhere assert codes; the sentences are pinned here."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest

from pling_browser.lifecycle.codes import Entry, LogEvent, ReceiptWarning
from pling_browser.lifecycle.words import LOG, WARNINGS, say


def said(code: LogEvent | ReceiptWarning, /, **params: Any) -> str:
    return say(Entry(code, MappingProxyType(params)))


def test_every_code_has_its_words() -> None:
    assert set(LOG) == set(LogEvent) and set(WARNINGS) == set(ReceiptWarning)


@pytest.mark.parametrize(("entry", "words"), [
    ((LogEvent.PAGE_SETTLED, {"ms": 0.2, "frames": 0}), "page settled in 0 ms (frames waited: 0)"),
    ((LogEvent.PAGE_NOT_SETTLED, {"ms": 2000.4, "pending": 2, "timers": 1}),
     "page had not settled after 2000 ms (2 requests, 1 timers pending)"),
    ((LogEvent.RESOLVED, {"ref": "remove@t9", "what": "Delete the task", "record_type": "task", "label": "Buy milk"}),
     "resolved remove@t9: Delete the task on the task 'Buy milk'"),
    ((LogEvent.RESOLVED, {"ref": "add", "what": "add", "record_type": None, "label": None}), "resolved add: add"),
    ((LogEvent.AVAILABLE, {"control": "function", "tag": None}), "available"),
    ((LogEvent.AVAILABLE, {"control": "button", "tag": "button"}), "available; target is a visible button (button)"),
    ((LogEvent.RAN, {"data": True}), "ran the page's run() and kept its result as data"),
    ((LogEvent.OPERATED, {"control": "button", "gesture": None, "valued": False, "drop_id": None, "path": "direct",
                          "why": None, "scrolled": True}),
     "clicked the button with trusted input (direct: at the centre the bridge hit-tested; scrolled into view)"),
    ((LogEvent.OPERATED, {"control": "text", "gesture": {"commit": "enter"}, "valued": True, "drop_id": None,
                          "path": "playwright", "why": "it is covered", "scrolled": False}),
     "filled the text, then pressed Enter (commit) (declared gesture {commit: 'enter'}) with trusted input "
     "(Playwright's actionability checks; direct path not taken: it is covered)"),
    ((LogEvent.OPERATED_THEN_REPLACED, {"control": "gesture", "gesture": {"drag": "m40", "dragType": "mark"},
                                        "valued": False, "drop_id": "40"}),
     "dragged the element onto mark 40 (declared gesture {drag: 'm40', record: 'mark'}) with trusted input; the "
     "document was replaced"),
    ((LogEvent.FLOW_RISK, {"risk": "danger", "steps": [["a", "write"], ["b", "danger"]]}),
     "flow risk danger (steps resolvable now: a: write, b: danger)"),
    ((LogEvent.FLOW_RISK, {"risk": "write", "steps": []}), "flow risk write (steps resolvable now: none)"),
    ((LogEvent.CHANGED_WHILE_ASKED, {"changed": ["description", "risk"]}),
     "the page changed the action's description, risk while the person was asked: the approval is for what was "
     "shown, so the person is asked again"),
    ((LogEvent.APPROVED_BY_GRANT, {"by": "ada", "scope": "action", "what": "note", "until": 0}),
     "approved by a grant of ada for the action note until 1970-01-01T00:00:00Z"),
    ((LogEvent.DIFF, {"records": {"task": {"added": 1, "removed": 0, "updated": 2, "reordered": True},
                                  "order": {"declared": "before"}},
                      "state": ["open"], "page": ["list", "detail"], "feedback": 1}),
     "diff: task 1 added, 2 updated, reordered; order declared only before; state open; page list -> detail; 1 feedback"),
    ((LogEvent.DIFF, {"records": {}, "state": [], "page": None, "feedback": 0}), "diff: nothing declared changed"),
    ((LogEvent.FAILED, {"stage": "reveal", "code": "ACTION_UNAVAILABLE"}), "failed at reveal: ACTION_UNAVAILABLE"),
    ((LogEvent.EXPECTATION_NOT_VERIFIED, {"reason": "not_declared", "action": "save"}),
     "expectation not verified: the page the action led to does not declare save"),
    ((ReceiptWarning.NOT_SETTLED, {"ms": 2000, "pending": 3, "timers": 0}),
     "The page had not settled after 2000 ms (3 requests still pending); later changes are not in this receipt."),
    ((ReceiptWarning.EXPECTATION_UNVERIFIED, {"expectation": "Saved", "reason": "navigated_again", "action": "save"}),
     "The action navigated, and its expectation (Saved) could not be checked on the new page: the page navigated "
     "again while it was checked."),
    ((ReceiptWarning.NO_NEW_DOCUMENT, {"budget_s": 5.0}),
     "The page started to navigate but no new document arrived within 5 s; what changed there is not in this receipt."),
])
def test_codes_read_as_the_receipts_read(entry: tuple[Any, dict[str, Any]], words: str) -> None:
    code, params = entry
    assert said(code, **params) == words


def test_an_entry_keeps_its_parameters_as_data() -> None:
    entry = Entry(LogEvent.EXPORT_CALLED, MappingProxyType({"action": "add_note", "outcome": "ok"}))
    assert entry.as_json() == {"code": "export_called", "action": "add_note", "outcome": "ok"}
    with pytest.raises(TypeError):
        entry.params["action"] = "other"  # type: ignore[index]
