"""Commands (runtime/commands.py): what a caller asks, typed, fingerprinted once by the pipeline. What the
fingerprint covers is the request; who asks, whether they are still there and their trace context are
not part of it. The requests are stored beside their receipts and read back into scenario files, so the
scenario reader is checked to read each command's request. (The pipeline itself runs in
tests/test_idempotency.py, tests/receipts/, test_mcp.py and test_tools.py against a real browser.)"""

from __future__ import annotations

import dataclasses

import pytest

from pling_browser.callers import OPERATOR, Caller
from pling_browser.ci.record import _request_of
from pling_browser.runtime.commands import CallTool, Invoke, Resume


async def _gone() -> bool:
    return True


def test_the_fingerprint_is_the_request_with_its_session() -> None:
    asked = Invoke(session="s1", key="k", action="remove@t9", args={"note": "x"})
    again = Invoke(session="s1", key="k", action="remove@t9", args={"note": "x"}, caller=OPERATOR, gone=_gone,
                   parent=None)
    assert again.fingerprint() == asked.fingerprint()  # a retry from another connection is the same request
    assert Invoke(session="s2", key="k", action="remove@t9", args={"note": "x"}).fingerprint() != asked.fingerprint()
    assert Invoke(session="s1", key="k", action="remove@t9", args={"note": "y"}).fingerprint() != asked.fingerprint()
    assert Invoke(session="s1", key="k", action="remove@t9", args={"note": "x"}, trace=True).fingerprint() \
        != asked.fingerprint()
    assert len({asked.fingerprint(), Resume(session="s1", handle="remove@t9").fingerprint(),
                CallTool(session="s1", name="remove", arguments={"note": "x"}).fingerprint()}) == 3


def test_a_key_is_scoped_to_its_caller() -> None:
    agent = Caller("a", "agent")
    assert Invoke(session="s", key="k", action="x").scoped_key() == "k"  # the service itself: the operator's scope
    assert Invoke(session="s", key="k", action="x", caller=OPERATOR).scoped_key() == "k"
    assert Invoke(session="s", key="k", action="x", caller=agent).scoped_key() == "a:k"
    assert Invoke(session="s", action="x", caller=agent).scoped_key() is None


def test_commands_are_frozen() -> None:
    command = Resume(session="s", handle="h")
    with pytest.raises(dataclasses.FrozenInstanceError):
        command.handle = "other"  # type: ignore[misc]


def test_the_scenario_reader_reads_each_request() -> None:
    invoked = Invoke(session="s", action="add_todo", args={"text": "milk"}, via="a page")
    assert _request_of(invoked.request(), {"action": {"id": "add_todo"}}) == ("add_todo", {"text": "milk"})
    called = CallTool(session="s", name="remove", arguments={"record_id": "t9", "note": None})
    assert _request_of(called.request(), {"action": {"id": "remove@t9"}}) == ("remove@t9", {})
    assert _request_of(Resume(session="s", handle="h").request(), {"action": {"id": "flow"}}) is None
