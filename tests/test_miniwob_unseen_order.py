"""Records pressed in the order the page displayed them (bench/miniwob/repeating.py), over simon-says's edited
draft (bench/miniwob/edited/simon-says.js, 2 lines: a state that lists the buttons by id as each lights up):
a real Chromium, the task server and the Pling service (a child process) on port 0, scored by the task's own
reward, each ok receipt held against the page's own input events."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from bench.miniwob import instruction, repeating
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


def test_the_buttons_are_pressed_in_the_order_the_page_lit_them(tmp_path: Path) -> None:
    """"Push the buttons in the order displayed.": the buttons have no text and the order is shown once, by
    lighting them up one after another. The draft's buttons were records the policy had no word for (0 of 3).
    The edited draft keeps the order lit as a state of ids; the policy waits until that list stops growing,
    then presses each button in it, in its order, a repeat again (seed 3 lights button-4 twice)."""
    assert edited_drafts(EDITED, ["simon-says"]) == {"simon-says": {"edited_lines": 2}}
    model = {"records": {"button": {"items": [{"id": "b1"}, {"id": "b2"}]}},
             "actions": [{"id": "click", "record": "button"}], "state": {"lit": {"value": ["b2", "b1", "b2"]}, "x": {"value": ["b3"]}}}
    assert repeating.shown_order(model) == ("button", ["b2", "b1", "b2"]) and repeating.press_action(model, "button") == "click"
    assert repeating.ORDER.search(instruction.read_instruction("Push the buttons in the order displayed.").text)
    done = _played(tmp_path, [("simon-says", 1), ("simon-says", 3)])
    for episode in done:
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    calls = [[s["call"].removeprefix("invoke ") for s in e["steps"] if s["call"].startswith("invoke ")] for e in done]
    assert calls == [["click@button-1", "click@button-4", "click@button-2", "click@button-3"],
                     ["click@button-3", "click@button-4", "click@button-4"]], calls


def test_an_operation_the_instruction_begins_with_that_is_no_button_press_keeps_its_place(tmp_path: Path) -> None:
    """"Highlight the text in the paragraph below and click submit.": the edited draft's highlight_text (2 lines:
    a run() that selects the paragraph) is named by the instruction's first word, and the rule that presses a
    button so named last ("Order …": click_order) pressed Submit first (reward -1). A button drafted as
    click_/press_ still goes last; an operation that is no button press keeps the instruction's order."""
    from bench.miniwob import policy_generic

    def candidate(ref: str, start: int) -> policy_generic.Candidate:
        return policy_generic.Candidate(ref, {"id": ref, "risk": "write"}, None, start=start, end=start + 1)
    assert [c.ref for c in instruction.verb_last([candidate("highlight_text", 0), candidate("click_submit", 8)])] == ["highlight_text", "click_submit"]
    assert [c.ref for c in instruction.verb_last([candidate("click_order", 0), candidate("click_x", 5)])] == ["click_x", "click_order"]
    done = _played(tmp_path, [("highlight-text", 1)])
    assert done[0]["error"] is None and done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]
    assert [s["call"] for s in done[0]["steps"]] == ["open", "invoke highlight_text", "invoke click_submit"]
