"""Fills by two paths (pling_browser/core/gestures.py, js_bridge/fill.js), each named in the receipt's
log: a plain text field (an input taking typed text, a textarea) given a value is focused and selected
in the reveal call and gets the text as one trusted insertion, then is left (the browser's `change`);
other fields take Playwright's fill. Every trusted input and change event is counted by the page."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from pling_browser.core import fills
from pling_browser.core.answers import Landed
from pling_browser.core.bridge import Bridge
from pling_browser.lifecycle import LogEvent

from ..conftest import Pages

PAGE = "pages/lifecycle/fill.html"


def state(page: Any) -> dict[str, Any]:
    return {key: entry["value"] for key, entry in page.model()["state"].items()}


def operated(page: Any) -> dict[str, Any]:
    entries = page.codes().events(LogEvent.OPERATED)
    assert len(entries) == 1, page.codes().log
    entry: dict[str, Any] = entries[0]
    return entry


def test_a_text_field_is_filled_directly_and_left(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_name", {"value": "Grace Hopper"})
    assert receipt["ok"] is True, receipt
    assert operated(page)["path"] == "direct", page.codes().log
    assert any("(direct: into the field the bridge focused)" in line for line in receipt["log"]), receipt["log"]
    assert receipt["changed"]["state"]["changed"]["values"]["to"]["name"] == "Grace Hopper", receipt
    assert state(page)["events"]["name"] == {"input": 1, "change": 1}
    # What the field held is replaced, as Playwright's fill replaces it.
    again = page.invoke("set_name", {"value": "Ada"})
    assert again["ok"] is True and operated(page)["path"] == "direct", again
    assert state(page)["values"]["name"] == "Ada" and state(page)["events"]["name"] == {"input": 2, "change": 2}


def test_an_insertion_the_page_sees_after_typed_stopped_waiting_still_lands(pages: Pages,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # core/fills.py sends the insertion with the `typed` call, which waits in the page for it. Here the
    # insertion is held back until that call has answered: it answers `waiting` (the guard kept) and is
    # asked again once the insertion answered, and the fill is reported as the one that landed.
    answered: list[str] = []
    typed, insert = Bridge.typed, fills._insert

    async def recorded(self: Bridge, expect: dict[str, Any] | None = None, wait_ms: float = 0) -> Landed:
        landed = await typed(self, expect, wait_ms)
        answered.append(landed.landed)
        return landed

    async def held_back(bridge: Bridge, text: str, timeout_ms: float) -> None:
        deadline = time.monotonic() + 30
        while not answered and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await insert(bridge, text, timeout_ms)

    monkeypatch.setattr(fills, "INSERTION_WAIT_MS", 50)
    monkeypatch.setattr(fills, "_insert", held_back)
    monkeypatch.setattr(Bridge, "typed", recorded)
    page = pages.open(PAGE)
    receipt = page.invoke("set_name", {"value": "Grace Hopper"})
    assert answered == ["waiting", "landed"], answered
    assert receipt["ok"] is True and operated(page)["path"] == "direct", receipt
    assert receipt["changed"]["state"]["changed"]["values"]["to"]["name"] == "Grace Hopper", receipt
    assert state(page)["events"]["name"] == {"input": 1, "change": 1}


def test_a_textarea_is_filled_directly(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_bio", {"value": "line one\nline two"})
    assert receipt["ok"] is True and operated(page)["path"] == "direct", receipt
    assert state(page)["values"]["bio"] == "line one\nline two"


def test_other_fields_and_an_empty_value_take_playwrights_fill(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_qty", {"value": 7})
    assert receipt["ok"] is True, receipt
    line = operated(page)
    assert line["path"] == "playwright" and line["why"] == "an input of type number is filled by Playwright", line
    assert state(page)["values"]["qty"] == "7"
    assert page.invoke("set_name", {"value": "Ada"})["ok"] is True
    emptied = page.invoke("set_name", {"value": ""})  # nothing to insert: Playwright's fill deletes
    assert emptied["ok"] is True and operated(page)["path"] == "playwright", emptied
    assert state(page)["values"]["name"] == ""


def test_a_select_is_set_directly_by_value_or_label(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_size", {"value": "l"})
    assert receipt["ok"] is True and operated(page)["path"] == "direct", receipt
    assert receipt["changed"]["state"]["changed"]["values"]["to"]["size"] == "l", receipt
    assert state(page)["events"]["size"] == {"input": 1, "change": 1}
    by_label = page.invoke("set_size", {"value": "Small"})
    assert by_label["ok"] is True and operated(page)["path"] == "direct", by_label
    spaced = page.invoke("set_size", {"value": "Large size"})  # the label's spaces normalized, as Playwright does
    assert spaced["ok"] is True and operated(page)["path"] == "direct" and state(page)["values"]["size"] == "l"


def test_a_multiple_select_takes_playwrights_path(pages: Pages) -> None:
    page = pages.open(PAGE)
    receipt = page.invoke("set_toppings", {"value": ["Cheese", "Olives"]})
    assert receipt["ok"] is True, receipt
    assert operated(page)["path"] == "playwright", page.codes().log
    assert state(page)["values"]["toppings"] == ["Cheese", "Olives"]
    one = page.invoke("set_toppings", {"value": "Olives"})
    line = operated(page)
    assert one["ok"] is True and line["path"] == "playwright", one
    assert line["why"] == "a multiple select is chosen in by Playwright", line


def test_a_decoy_the_page_types_itself_does_not_let_the_text_into_another_field(pages: Pages) -> None:
    # fill_decoy.html types into the focused field itself (execCommand: a trusted input event, no
    # beforeinput) and moves the focus to another field before the controller's insertion arrives.
    page = pages.open("pages/lifecycle/fill_decoy.html")
    receipt = page.invoke("set_name", {"value": "Grace Hopper"})
    values = state(page)["values"]
    assert values["note"] == "", (values, state(page)["seen"], receipt["log"])
    assert receipt["ok"] is True and values["name"] == "Grace Hopper", (values, receipt)
    # The insertion's beforeinput went to the note field: cancelled, and Playwright's fill typed the text.
    assert operated(page)["path"] == "playwright", page.codes().log
