"""A grid of items reordered by dragging (drag-items-grid), drafted unedited and played by the generic policy:
a real Chromium, the task server and the Pling service (a child process) on port 0, scored by the task's own
reward, each ok receipt held against the page's own input events."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from bench.miniwob.arranging import place_wanted
from bench.miniwob.server import TaskServer
from bench.miniwob.unseen import generic_episodes, unseen_service, write_drafts


def test_a_grid_of_floating_items_is_drafted_as_records_and_an_item_is_dragged_to_the_place_named(tmp_path: Path) -> None:
    """jQuery UI's sortable grid is a <ul> of no height whose <li> float: the draft saw no list there (0 of 3).
    Now a box of no height whose floating children are shown is seen where they are, and the policy reads
    "to the bottom left", "to the center right" in nine items as three rows of three (seed 3), "left by one"
    as before (seed 1). Seeds 2, 5 and 6 move an item diagonally (up and right, down and left): the drag arrived
    going right or down, which a floating sortable reads as "after", so the item landed one place too far;
    now the drag's last moves go straight up or down to another row (core/drags.py), and it lands there."""
    assert [place_wanted(f"Drag Ted to the {where}.", 0, 9) for where in ("top left", "center", "center right", "bottom right")] == [0, 4, 5, 8]
    assert place_wanted("Drag Ted to the top.", 4, 9) == 0 and place_wanted("Drag Ted to the bottom.", 0, 5) == 4
    folder = tmp_path / "drafts"
    folder.mkdir()

    async def play(url: str) -> list[dict]:
        async with httpx.AsyncClient(base_url=url, timeout=120) as client:
            return await generic_episodes(client, tasks, [("drag-items-grid", seed) for seed in (1, 3, 2, 5, 6)], lambda _: None)
    with TaskServer(patient=True) as tasks:
        asyncio.run(write_drafts(tasks, ["drag-items-grid"], folder, lambda _: None))
        assert 'pling.action({ id: "drag", record: "item"' in (folder / "drag-items-grid.js").read_text(encoding="utf-8")
        with unseen_service(tmp_path / "service.log", folder) as service:
            done = asyncio.run(play(service.url))
    for episode in done:
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    assert [[s["call"] for s in e["steps"] if s["call"].startswith("invoke ")] for e in done][:2] == [["invoke drag@Gratiana"], ["invoke drag@Ted"]]
