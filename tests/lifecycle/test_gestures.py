"""Trusted clicks by two paths (pling_browser/core/gestures.py), each named in the receipt's log: the
direct path clicks the point the bridge hit-tested in the reveal call; when the page moves between
that test and the click, the bridge's guard swallows the click's events (nothing of the page's runs)
and Playwright's actionability checks click instead; when the centre is covered from the start, the
direct path is not taken at all. Every click that reaches an element is counted by the page itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pling_browser.lifecycle import LogEvent

from ..conftest import Pages, serving
from ..server import FixtureServer

PAGE = "pages/lifecycle/gestures.html"


def state(page: Any) -> dict[str, Any]:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def executed(page: Any) -> dict[str, Any]:
    """The last invocation's trusted input, as its log's code says: which path it took (``direct``: at
    the centre the bridge hit-tested; ``playwright``: Playwright's actionability checks), whether the
    target was scrolled into view, and why the direct path was not taken."""
    entries = page.codes().events(LogEvent.OPERATED)
    assert len(entries) == 1, page.codes().log
    entry: dict[str, Any] = entries[0]
    return entry


def test_a_plain_button_is_clicked_by_the_direct_path_once(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("press_plain")
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    assert executed(page)["path"] == "direct" and executed(page)["scrolled"] is False
    assert state(page)["clicks"]["plain"] == 1


def test_a_click_the_page_moved_away_from_is_swallowed_then_made_by_playwright(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("press_jumpy")
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    line = executed(page)
    assert line["path"] == "playwright" and "hit another element" in line["why"], line
    clicks = state(page)["clicks"]
    # The cover jumped over the button as the pointer arrived: the direct click's events reached
    # neither the cover nor the button; Playwright's click, once the cover was gone, the button once.
    assert state(page)["covers"] == 1
    assert clicks["cover"] == 0 and clicks["jumpy"] == 1, clicks


def test_a_covered_centre_takes_playwrights_path_and_nothing_is_clicked(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("press_covered")
    assert receipt["ok"] is False, receipt
    assert receipt["error"]["code"] == "ACTION_UNAVAILABLE" and receipt["error"]["started"] is False, receipt
    gave_up = page.codes().events(LogEvent.ACTIONABILITY_GAVE_UP)
    assert [entry["direct_why"] for entry in gave_up] == ["another element covers its centre (div)"], gave_up
    clicks = state(page)["clicks"]
    assert clicks["covered"] == 0 and clicks["lid"] == 0, clicks


def test_a_target_below_the_fold_is_scrolled_into_view_and_clicked_directly(pages: Pages) -> None:
    page = pages.open(PAGE)
    assert state(page)["scrolled"] is False
    receipt = page.invoke("press_faraway")
    assert receipt["ok"] is True, receipt
    assert executed(page)["path"] == "direct" and executed(page)["scrolled"] is True
    assert state(page)["clicks"]["faraway"] == 1 and state(page)["scrolled"] is True


def test_a_checkbox_is_set_directly_and_left_alone_when_already_set(pages: Pages) -> None:
    page = pages.open(PAGE)
    ticked = page.invoke("set_agree", {"checked": True})
    assert ticked["ok"] is True and executed(page)["path"] == "direct", ticked
    assert state(page)["agree"] is True and state(page)["clicks"]["agree"] == 1
    again = page.invoke("set_agree", {"checked": True})  # already ticked: Playwright's set_checked clicks nothing
    assert again["ok"] is True and executed(page)["path"] == "playwright", again
    assert state(page)["agree"] is True and state(page)["clicks"]["agree"] == 1
    toggled = page.invoke("set_agree")  # no value: a toggle
    assert toggled["ok"] is True and executed(page)["path"] == "direct"
    assert state(page)["agree"] is False and state(page)["clicks"]["agree"] == 2


def test_a_click_after_an_invocation_is_not_swallowed(pages: Pages) -> None:
    """The guard lives for one click: a later click on another element reaches it (here, the next
    invocation's target through Playwright's path would fail if the guard still swallowed events)."""
    page = pages.open(PAGE)
    assert page.invoke("press_plain")["ok"] is True
    assert page.invoke("press_faraway")["ok"] is True
    assert page.invoke("press_plain")["ok"] is True
    clicks = state(page)["clicks"]
    assert clicks["plain"] == 2 and clicks["faraway"] == 1, clicks


@pytest.mark.parametrize("action", ["press_slowcheck", "write_slowcheck"])
def test_the_frame_after_the_action_counts_when_it_rendered_before_settling(pages: Pages, action: str) -> None:
    """The bridge asks for the first frame after a direct click reached its target (or run() answered);
    an expectation that takes 250 ms to answer outlasts that frame, and settling, finding it rendered
    and nothing changed since, waits for no other (observe.js, frameAfterAction)."""
    page = pages.open(PAGE)
    receipt = page.invoke(action)
    assert receipt["ok"] is True and receipt["verified"] is True, receipt
    settled = page.codes().events(LogEvent.PAGE_SETTLED)
    assert [(entry["frames"], round(entry["ms"])) for entry in settled] == [(0, 0)], settled
    assert receipt["changed"]["state"]["changed"]["clicks"]["to"]["slowcheck"] == 1, receipt["changed"]


@pytest.fixture(scope="module")
def playwright_only() -> Iterator[httpx.Client]:
    with serving(direct_input=False) as svc, httpx.Client(base_url=svc.url, timeout=60) as client:
        yield client


def test_direct_input_off_sends_every_click_through_playwright(playwright_only: httpx.Client,
                                                                fixtures: FixtureServer) -> None:
    pages = Pages(playwright_only, fixtures)
    try:
        page = pages.open(PAGE)
        receipt = page.invoke("press_plain")
        assert receipt["ok"] is True and executed(page)["path"] == "playwright" and executed(page)["why"] is None
        assert state(page)["clicks"]["plain"] == 1
    finally:
        pages.close_all()
