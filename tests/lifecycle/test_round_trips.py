"""Bridge calls per invocation (issue 31): each is a round trip through the service, Playwright's
driver and Chromium. A function action is described and revealed in one call (revealed.js) and run
and checked in another (ran.js); described before, in one (known.js); an element action reveals and
checks in calls of their own. Counted on the real bridge of a session in the service (Bridge.raw,
through which every call goes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pling_browser.core.bridge import Bridge
from pling_browser.lifecycle.codes import LogEvent

from ..conftest import Pages, ServiceThread, serving

PAGE = "bench/list.html?n=12"


@pytest.fixture(scope="module")
def service() -> Iterator[ServiceThread]:
    """A service of its own: on the shared one, an MCP client of another test may have listed tools,
    and then each receipt makes the service read the page's model (a call that is not the invocation's)."""
    with serving() as own:
        yield own


@pytest.fixture(scope="module")
def client(service: ServiceThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=60) as c:
        yield c


@pytest.fixture
def calls(service: ServiceThread, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Bridge, str]]:
    """The bridge operations called while the test runs (on the service's loop), with the bridge
    that made each (the warm pool prepares other sessions' bridges meanwhile)."""
    names: list[tuple[Bridge, str]] = []
    raw = Bridge.raw

    async def counted(self: Bridge, name: str, *args: Any, **kwargs: Any) -> str:
        names.append((self, name))
        return await raw(self, name, *args, **kwargs)

    monkeypatch.setattr(Bridge, "raw", counted)
    return names


def _invoke(page: Any, calls: list[tuple[Bridge, str]], action: str, args: Any = None,
            **extra: Any) -> tuple[dict[str, Any], list[str]]:
    """The receipt, and the calls the invocation's bridge (the one it described or read the action on) made."""
    calls.clear()
    receipt = page.invoke(action, args, **extra)
    own = next(bridge for bridge, name in calls if name in ("describe", "known", "reveal"))
    return receipt, [name for bridge, name in calls if bridge is own]


def test_a_function_action_takes_two_bridge_calls(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    receipt, made = _invoke(page, calls, "add", {"text": "two calls"})
    assert receipt["ok"] is True and receipt["changed"]["records"]["item"]["added"] == ["t13"], receipt
    assert receipt["verified"] is True
    assert made == ["describe", "run"]
    receipt, made = _invoke(page, calls, "summary")
    assert receipt["ok"] is True and receipt["data"]["total"] == 13, receipt
    assert made == ["describe", "run"]


def test_a_pre_check_failing_after_the_early_reveal_drops_its_snapshot(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    receipt, made = _invoke(page, calls, "add", {"text": ""})
    assert receipt["ok"] is False and receipt["error"]["code"] == "INVALID_PARAMS", receipt
    assert receipt["error"]["started"] is False and "changed" not in receipt
    assert made == ["describe", "diff"]  # revealed with the describe call, its before snapshot dropped
    # The next invocation diffs against its own before snapshot, not the dropped one.
    receipt, _ = _invoke(page, calls, "add", {"text": "after"})
    assert receipt["changed"]["records"]["item"]["added"] == ["t13"], receipt


def test_an_element_action_reveals_in_a_call_of_its_own(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    receipt, made = _invoke(page, calls, "remove@t9")
    assert receipt["ok"] is True and receipt["changed"]["records"]["item"]["removed"] == ["t9"], receipt
    assert made[:2] == ["describe", "reveal"] and "expect" in made and "run" not in made


def test_a_direct_fill_is_checked_in_its_typed_call(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    receipt, made = _invoke(page, calls, "type_new", {"text": "three calls"})
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    assert made == ["describe", "reveal", "typed"], made  # the expectation and the after snapshot in `typed`
    assert [e["path"] for e in page.codes().events(LogEvent.OPERATED)] == ["direct"]
    assert page.codes().events(LogEvent.EXPECTATION_HELD), page.codes().log
    # The next one without the describe (known.py: its reveal names the declaration), the field holding
    # the text the first one typed.
    receipt, made = _invoke(page, calls, "type_new", {"text": "again"})
    assert receipt["ok"] is True and receipt["verified"] is True and made == ["reveal", "typed"], (receipt, made)


def test_a_read_described_before_takes_one_bridge_call(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    first, made = _invoke(page, calls, "summary")
    assert made == ["describe", "run"], made  # the full path: the session's bridge holds the declaration now
    first_log = [entry["code"] for entry in page.codes().log]
    again, made = _invoke(page, calls, "summary")
    assert made == ["known"], made
    # The receipt says what the full path's says: the data, nothing changed, the page settled.
    assert again["data"] == first["data"] == {"total": 12, "done": 4}, again
    assert again["changed"] == first["changed"] and again["changed"]["observed"] is False, again
    assert [entry["code"] for entry in page.codes().log] == first_log


def _in_page(service: ServiceThread, sid: str, expression: str) -> None:
    """A script of the page's own (as the page's code would run it), in the session's page."""
    service.in_service(lambda runtime: runtime.sessions.get(sid).bridge.cdp.send("Runtime.evaluate", {"expression": expression}))


def test_a_read_that_changed_the_page_says_what_changed(service: ServiceThread, pages: Pages,
                                                        calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    _invoke(page, calls, "summary")
    _in_page(service, page.id, "pling.action({ id: 'summary', description: 'Count, and mark t1 done', region: 'list', "
                               "risk: 'read', run: () => { items[0].done = !items[0].done; return summary(); } })")
    receipt, made = _invoke(page, calls, "summary")
    # Declared again: the one call answers stale before anything runs, and the full path runs it once.
    assert made == ["known", "describe", "run"], made
    assert receipt["action"]["description"] == "Count, and mark t1 done", receipt
    assert receipt["changed"]["records"]["item"]["updated"][0]["id"] == "t1", receipt
    receipt, made = _invoke(page, calls, "summary")
    assert made == ["known"], made  # held again: a read that writes still has its changes said
    assert receipt["changed"]["records"]["item"]["updated"][0]["id"] == "t1", receipt


def test_a_read_in_a_new_document_is_described_again(service: ServiceThread, pages: Pages,
                                                     calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    _invoke(page, calls, "summary")
    service.in_service(lambda runtime: runtime.sessions.get(page.id).bridge.page.reload())
    receipt, made = _invoke(page, calls, "summary")
    assert made[0] == "known" and made[-2:] == ["describe", "run"], made  # stale: another document
    assert receipt["ok"] is True and receipt["data"]["total"] == 12, receipt


def test_a_read_that_wrote_nothing_settles_without_a_frame(service: ServiceThread, pages: Pages,
                                                           calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    _invoke(page, calls, "summary")
    _invoke(page, calls, "summary")
    settled = page.codes().events(LogEvent.PAGE_SETTLED)
    assert settled and settled[0]["frames"] == 0, settled  # nothing written, nothing to render
    receipt, made = _invoke(page, calls, "summary", evidence=False)
    assert made == ["known"] and "changed" not in receipt, (made, receipt)
    settled = page.codes().events(LogEvent.PAGE_SETTLED)
    assert settled and settled[0]["frames"] == 0, settled  # without evidence too
    # A read that writes the DOM waits for its frame as any action does, and says what it changed.
    _in_page(service, page.id, "pling.action({ id: 'summary', description: 'Count', region: 'list', risk: 'read', "
                               "run: () => { count.textContent = 'counted'; items[0].done = !items[0].done; "
                               "return summary(); } })")
    _invoke(page, calls, "summary")
    receipt, made = _invoke(page, calls, "summary")
    assert made == ["known"], made
    settled = page.codes().events(LogEvent.PAGE_SETTLED)
    assert settled and settled[0]["frames"] >= 1, settled
    assert receipt["changed"]["records"]["item"]["updated"][0]["id"] == "t1", receipt


def test_a_write_described_before_takes_one_bridge_call(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    first, made = _invoke(page, calls, "add", {"text": "one"})
    assert made == ["describe", "run"], made
    again, made = _invoke(page, calls, "add", {"text": "two"})
    assert made == ["known"], made
    # The receipt says what the full path's says: the record added, the expectation held.
    assert again["ok"] is True and again["verified"] is True, again
    assert first["changed"]["records"]["item"]["added"] == ["t13"], first
    assert again["changed"]["records"]["item"]["added"] == ["t14"], again
    assert again["data"] == {"id": "t14"}, again
    assert page.codes().events(LogEvent.EXPECTATION_HELD), page.codes().log


def test_a_write_declared_again_at_a_higher_risk_is_confirmed_on_the_full_path(
        service: ServiceThread, pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    _invoke(page, calls, "add", {"text": "one"})
    _in_page(service, page.id, "pling.action({ id: 'add', description: 'Add an item', region: 'list', risk: 'danger', "
                               "params: { type: 'object', properties: { text: { type: 'string' } } }, "
                               "run: ({ text }) => ({ id: addItem(text).id }) })")
    receipt, made = _invoke(page, calls, "add", {"text": "two"})
    # The one call answers stale before run(); the full path asks for a person, and none is configured.
    assert made[:2] == ["known", "describe"] and "run" not in made, made
    assert receipt["ok"] is False and receipt["error"]["code"] == "PERMISSION_DENIED", receipt
    assert receipt["error"]["started"] is False, receipt
    receipt, _ = _invoke(page, calls, "summary")
    assert receipt["data"]["total"] == 13, receipt  # only the first add ran


def test_arguments_the_held_declaration_refuses_are_checked_on_the_full_path(
        service: ServiceThread, pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    _invoke(page, calls, "add", {"text": "one"})
    _in_page(service, page.id, "pling.action({ id: 'add', description: 'Add an item, marked', region: 'list', "
                               "risk: 'write', params: { type: 'object', properties: { text: { type: 'string' }, "
                               "done: { type: 'boolean' } }, required: ['text'], additionalProperties: false }, "
                               "run: ({ text, done }) => { const item = addItem(text); item.done = !!done; "
                               "return { id: item.id }; } })")
    # The held declaration has no `done`: the page's declaration now decides, on the full path.
    receipt, made = _invoke(page, calls, "add", {"text": "two", "done": True})
    assert made == ["describe", "run"], made
    assert receipt["ok"] is True and receipt["action"]["description"] == "Add an item, marked", receipt
    assert receipt["changed"]["records"]["item"]["added"] == ["t14"], receipt
    # Arguments no declaration accepts are refused as before, after the page's declaration was read.
    receipt, made = _invoke(page, calls, "add", {"text": "three", "colour": "red"})
    assert made[0] == "describe" and "known" not in made and "run" not in made, made
    assert receipt["ok"] is False and receipt["error"]["code"] == "INVALID_PARAMS", receipt


def test_a_navigating_action_diffs_across_documents_in_its_expect_call(pages: Pages, calls: list[tuple[Bridge, str]]) -> None:
    # The new document is handed the carried before snapshot as it settles (hold, sent with the settle
    # call) and its expect call diffs against it the moment the page settled (expect.js withAfter), so
    # the diff stage makes no diffFrom call of its own.
    page = pages.open("pages/lifecycle/carried_list.html")
    receipt, made = _invoke(page, calls, "drop@y")
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    book = receipt["changed"]["records"]["book"]
    assert book["removed"] == ["y"] and book["added"] == [] and book["updated"] == [], book
    assert book["total"] == {"from": 3, "to": 2}, book
    assert receipt["changed"]["page"]["to"]["url"].endswith("?ids=x,constructor"), receipt["changed"]["page"]
    assert made[-3:] == ["settle", "hold", "expect"] and "diffFrom" not in made, made
    # Without evidence nothing is carried: the same calls, none of them a diff.
    receipt, made = _invoke(page, calls, "drop@x", evidence=False)
    assert receipt["ok"] is True and receipt["verified"] is True and "changed" not in receipt, receipt
    assert made[-2:] == ["settle", "expect"] and "hold" not in made and "diffFrom" not in made, made


def test_an_element_action_declared_again_is_described_again(service: ServiceThread, pages: Pages,
                                                            calls: list[tuple[Bridge, str]]) -> None:
    page = pages.open(PAGE)
    _invoke(page, calls, "type_new", {"text": "one"})
    _in_page(service, page.id, "pling.action({ id: 'type_new', description: 'Type the text of a new item, again', "
                               "region: 'list', risk: 'write', params: { type: 'object', properties: { text: "
                               "{ type: 'string' } }, required: ['text'] }, "
                               "target: () => document.querySelector('#new > input[name=\"text\"]') })")
    receipt, made = _invoke(page, calls, "type_new", {"text": "two"})
    # The reveal names the held declaration: stale before anything is touched, then the full path.
    assert made[:3] == ["reveal", "describe", "reveal"] and made.count("typed") == 1, made
    assert receipt["ok"] is True and receipt["action"]["description"] == "Type the text of a new item, again", receipt
    _, made = _invoke(page, calls, "type_new", {"text": "three"})
    assert made == ["reveal", "typed"], made  # held again
