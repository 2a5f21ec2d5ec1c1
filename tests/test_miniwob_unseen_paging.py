"""Search results the generic policy reaches by their ordinal (bench/miniwob/paging.py and the ordinal
mention of policy_generic.py), over search-engine's edited draft (bench/miniwob/edited/search-engine.js, 5
lines: the results as records keyed by their data-result, a click on each, the pagination's next page): a
real Chromium, the task server and the Pling service (a child process) on port 0, scored by the task's own
reward, each ok receipt held against the page's own input events."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from bench.miniwob import instruction, paging
from bench.miniwob.server import TaskServer
from bench.miniwob.unseen import edited_drafts, generic_episodes, unseen_service

EDITED = Path(__file__).resolve().parent.parent / "bench" / "miniwob" / "edited"


def _played(tmp_path: Path, cases: list[tuple[str, int]]) -> list[dict[str, Any]]:
    folder = tmp_path / "edited"
    folder.mkdir()
    for name in {name for name, _ in cases}:
        (folder / f"{name}.js").write_text((EDITED / f"{name}.js").read_text(encoding="utf-8"), encoding="utf-8")

    async def play(url: str) -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=url, timeout=120) as client:
            return await generic_episodes(client, tasks, cases, lambda _: None)
    with TaskServer(patient=True) as tasks, unseen_service(tmp_path / "service.log", folder) as service:
        return asyncio.run(play(service.url))


def test_the_nth_result_is_clicked_on_the_page_it_is_on_even_when_its_label_is_the_quoted_search(tmp_path: Path) -> None:
    """'Use the textbox to enter "Michel" and press "Search", then find and click the 1st search result.' The
    result asked is labelled like the quoted search, so its mention was the quote the fill had taken and it
    was never clicked (seeds 1 and 2); the 7th result is on the third page of three results each (seed 3).
    Now a record the quote names keeps the ordinal said of its kind as a second mention, and the policy turns
    pages (a read-only action named next) until the ordinal is among the results shown."""
    assert edited_drafts(EDITED, ["search-engine"]) == {"search-engine": {"edited_lines": 5}}
    ins = instruction.read_instruction('Enter "Ann", then find and click the 7th search result.')
    model = {"actions": [{"id": "next_page", "description": "Show the next page", "risk": "read"},
                         {"id": "click", "record": "result", "risk": "write"}],
             "records": {"result": {"items": [{"id": "0"}, {"id": "1"}, {"id": "2"}]}}}
    assert paging.next_page(model) == "next_page" and paging.beyond(model, ins) == 3
    ins.skipped = 6
    assert paging.beyond(model, ins) == 0
    done = _played(tmp_path, [("search-engine", 1), ("search-engine", 3)])
    for episode in done:
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    calls = [[s["call"].removeprefix("invoke ") for s in e["steps"] if s["call"].startswith("invoke ")] for e in done]
    assert calls == [["fill_search_text", "click_search", "click@0"],
                     ["fill_search_text", "click_search", "next_page", "next_page", "click@6"]], calls


def test_a_name_the_page_does_not_show_is_sought_on_the_next_pages(tmp_path: Path) -> None:
    """phone-book: "Find Mabelle in the contact book and click on their address." over a book of five
    contacts, one a page. The policy clicked the address of the contact shown (Violetta's: reward -0.4, seed 3).
    The edited draft (2 lines) declares the pagination's “>” as a read-only next page; the policy turns pages
    while a name the instruction gives (capitalised, not quoted, not starting a sentence) shows nowhere else
    in the model, then acts on the page that shows it (seed 1: the first contact is the one, no page turned)."""
    def model(shown: str) -> dict[str, Any]:
        return {"state": {"instructions": {"value": "Find Mabelle in the contact book and click on their address."},
                          "headings": {"value": [shown]}},
                "records": {}, "actions": [{"id": "click_next", "description": "Click the link “>”", "risk": "read"}]}
    read = instruction.read_instruction("Find Mabelle in the contact book and click on their address.")
    assert paging.names_unseen(model("Violetta"), read) == ["Mabelle"]
    assert paging.names_unseen(model("Mabelle"), read) == []
    assert paging.names_unseen(model("Violetta"), instruction.read_instruction('Enter "Mabelle" in the box.')) == []
    assert paging.next_page(model("Violetta")) == "click_next"
    first, third = _played(tmp_path, [("phone-book", 1), ("phone-book", 3)])
    for episode in (first, third):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    calls = [[s["call"].removeprefix("invoke ") for s in e["steps"] if s["call"].startswith("invoke ")] for e in (first, third)]
    assert calls == [["click_phone"], ["click_next", "click_next", "click_next", "click_address"]], calls
