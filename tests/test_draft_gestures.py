"""Drafts whose actions need a declared gesture, on real widgets that declare nothing
(fixtures/pages/widgets/undeclared/: the autocomplete and the slider of ../autocomplete.html and
../slider.html, from npm, and a tag field that adds a tag on Enter). `draft` (tests/drafts.py) writes each
unedited (the autocomplete after typing in it, with `--do`, so its suggestions are there to read); each
draft passes `check`, and through the service each gesture's receipt says what the page then shows:
- a field with suggestions is filled with { commit: 'none' } (it keeps the focus, so they open), and a
  suggestion is chosen with a trusted click;
- a slider's handle moves with { press: 'ArrowRight' | 'ArrowLeft' };
- a field alone (no form, no button) is committed with { commit: 'enter' }."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pling_browser.ci.check import check

from .conftest import Pages, ServiceThread, serving
from .drafts import Draft, draft_all
from .server import FixtureServer

PAGES = "pages/widgets/undeclared/"


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory, fixtures: FixtureServer) -> Iterator[ServiceThread]:
    folder = tmp_path_factory.mktemp("gesture-drafts")
    draft_all([Draft(fixtures.url(PAGES + "tags.html"), folder / "tags.js"),
               Draft(fixtures.url(PAGES + "slider.html"), folder / "slider.js"),
               Draft(fixtures.url(PAGES + "autocomplete.html"), folder / "autocomplete.js", ('fill_country {"value": "G"}',))])
    with serving(adapters=str(folder)) as service:
        yield service


@pytest.fixture
def pages(drafted: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=drafted.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def _passes_check(service: ServiceThread, url: str, adapter: str) -> None:
    errors = [str(f) for f in service.in_service(lambda runtime: check(runtime, url, adapter=adapter), 120) if f.severity == "error"]
    assert errors == [], errors


def _operated(receipt: dict[str, Any]) -> str:
    lines = [line for line in receipt["log"] if "with trusted input" in line]
    assert len(lines) == 1, receipt["log"]
    return lines[0]


def test_a_field_alone_is_committed_with_enter_and_the_receipt_lists_the_new_tag(drafted: ServiceThread, fixtures: FixtureServer,
                                                                               pages: Pages) -> None:
    _passes_check(drafted, fixtures.url(PAGES + "tags.html"), "tags.js")
    page = pages.open(PAGES + "tags.html")
    receipt = page.invoke("enter_new_tag", {"value": "Urgent"})
    assert receipt["ok"] is True and "then pressed Enter (commit)" in _operated(receipt), receipt["log"]
    assert receipt["changed"]["records"]["tags_of_the_note"]["added"] == ["urgent"], receipt["changed"]
    assert page.model()["state"]["new_tag"]["value"] == ""   # the page took the tag and emptied the field
    plain = page.invoke("fill_new_tag", {"value": "later"})     # the same field filled without Enter adds nothing
    assert plain["ok"] is True, plain
    assert not (plain["changed"].get("records") or {}).get("tags_of_the_note", {}).get("added"), plain["changed"]
    assert [t["id"] for t in page.model()["records"]["tags_of_the_note"]["items"]] == ["home", "todo", "urgent"]


def test_a_slider_handle_moves_with_the_arrow_keys_the_draft_declared(drafted: ServiceThread, fixtures: FixtureServer,
                                                                      pages: Pages) -> None:
    _passes_check(drafted, fixtures.url(PAGES + "slider.html"), "slider.js")
    page = pages.open(PAGES + "slider.html")
    up = page.invoke("increase_volume")
    assert up["ok"] is True and "pressed ArrowRight" in _operated(up), up["log"]
    assert up["changed"]["state"]["changed"]["volume"] == {"from": "20.0", "to": "30.0"}, up["changed"]
    assert [f["text"] for f in up["changed"]["feedback"]["added"]] == ["30"], up["changed"]   # the page's own output
    down = page.invoke("decrease_volume")
    assert down["ok"] is True and down["changed"]["state"]["changed"]["volume"] == {"from": "30.0", "to": "20.0"}


def test_an_autocomplete_keeps_the_focus_so_its_suggestions_open_and_one_is_chosen(drafted: ServiceThread, fixtures: FixtureServer,
                                                                                   pages: Pages) -> None:
    _passes_check(drafted, fixtures.url(PAGES + "autocomplete.html"), "autocomplete.js")
    page = pages.open(PAGES + "autocomplete.html")
    typed = page.invoke("fill_country", {"value": "Gh"})
    assert typed["ok"] is True and "kept the focus (commit 'none')" in _operated(typed), typed["log"]
    suggestions = typed["changed"]["records"]["where_do_you_live"]
    assert suggestions["added"] == ["Ghana"], suggestions   # what the widget suggests for what was typed
    chosen = page.invoke("choose@Ghana")
    assert chosen["ok"] is True and "clicked" in _operated(chosen), chosen["log"]
    assert chosen["changed"]["state"]["changed"]["country"] == {"from": "Gh", "to": "Ghana"}, chosen["changed"]
    assert "Ghana" in [f["text"] for f in chosen["changed"]["feedback"]["added"]], chosen["changed"]
