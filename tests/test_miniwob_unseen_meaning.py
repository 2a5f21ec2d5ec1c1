"""Words picked by meaning in the unseen MiniWoB++ suite: the bench's thesaurus (bench/miniwob/thesaurus.py,
Princeton WordNet as Debian's wordnet-base installs it) and the generic policy's rule over it
(bench/miniwob/similar_words.py), on click-checkboxes-soft's unedited draft: a real Chromium, the task server
and the Pling service on port 0, scored by the task's own reward, each ok receipt held against the page's
own input events. `make test` installs wordnet-base (as root); where it cannot, this file is skipped saying
so, except in CI, where that is a failure."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.miniwob import instruction, similar_words, thesaurus
from bench.miniwob.server import TaskServer
from bench.miniwob.unseen import generic_episodes, unseen_service, write_drafts

if not thesaurus.available():
    if os.environ.get("CI"):
        pytest.fail("WordNet is not installed: `make test` installs Debian's wordnet-base (apt-get, as root)", pytrace=False)
    pytest.skip("WordNet is not installed and could not be (make test installs wordnet-base with apt-get as root)",
                allow_module_level=True)


def test_words_are_as_alike_as_the_fewest_links_between_their_meanings(tmp_path: Path) -> None:
    similarity = thesaurus.similarity
    assert similarity("Weird", "weird") == 3.0
    assert similarity("stop", "cease") == 2.0                # one synset
    assert similarity("TVs", "television") == 2.0            # an inflected form is its base's
    assert similarity("huge", "big") == 1.5                  # similar to: one link
    assert similarity("bunnies", "rabbit") == 1.5            # a narrower meaning
    assert similarity("joyful", "gleeful") > similarity("joyful", "funny") > similarity("joyful", "launch") == 0.0
    assert similarity("xyzzy", "big") == 0.0                 # a word WordNet does not have
    assert thesaurus.similarity("weird", "odd", root=tmp_path) == 0.0      # no WordNet: nothing is alike


def test_the_words_asked_for_get_the_label_closest_in_meaning() -> None:
    assert similar_words.asked_words("Select words similar to joyful, peaceful, like and click Submit.") == ["joyful", "peaceful", "like"]
    assert similar_words.asked_words("Select words similar to nothing and click Submit.") == []
    assert similar_words.asked_words("Click the words that mean the same as stop.") == ["stop"]
    assert similar_words.asked_words("Select the word big and click Submit.") == []

    def word(label: str) -> dict[str, Any]:
        return {"id": label, "label": label, "fields": {}}
    check = {"id": "check", "record": "item", "risk": "write",
             "params": {"type": "object", "properties": {"checked": {"type": "boolean"}}, "required": ["checked"]}}
    model = {"actions": [check, {"id": "click_submit", "risk": "write"}],
             "records": {"item": {"items": [word("launch"), word("funny"), word("gleeful"), word("cease")]}}}
    read = instruction.read_instruction
    assert similar_words.similar(model, read("Select words similar to joyful, stop and click Submit.")) == [
        ("check@gleeful", {"checked": True}), ("check@cease", {"checked": True})]
    assert similar_words.similar(model, read("Select words similar to xyzzy and click Submit.")) == []   # nothing guessed
    assert similar_words.similar(model, read("Select words similar to nothing and click Submit.")) == []


def test_checkboxes_similar_in_meaning_to_the_words_asked_for_are_ticked(tmp_path: Path) -> None:
    """click-checkboxes-soft: "Select words similar to happy, chop and click Submit." over boxes labelled
    'delighted', 'preserve', 'like', 'wrong', 'cut'. The policy ticked only a box whose label is a word of the
    instruction (0 of 3 seeds: reward -0.33 to 0.6); now it ticks the label closest in meaning to each word."""
    folder = tmp_path / "drafts"
    folder.mkdir()
    cases = [("click-checkboxes-soft", seed) for seed in (1, 2, 3)]
    with TaskServer(patient=True) as tasks:
        asyncio.run(write_drafts(tasks, ["click-checkboxes-soft"], folder, lambda _: None))

        async def play(url: str) -> list[dict[str, Any]]:
            async with httpx.AsyncClient(base_url=url, timeout=120) as client:
                return await generic_episodes(client, tasks, cases, lambda _: None)
        with unseen_service(tmp_path / "service.log", folder) as service:
            episodes = asyncio.run(play(service.url))
    invoked = [[s["call"].removeprefix("invoke ") for s in e["steps"] if s["call"].startswith("invoke ")] for e in episodes]
    for episode in episodes:
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    assert invoked[0] == ["check@gleeful", "click_submit"]
    assert invoked[2] == ["check@delighted", "check@cut", "click_submit"]
