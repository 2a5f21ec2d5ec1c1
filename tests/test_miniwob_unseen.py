"""The unseen MiniWoB++ suite (bench/miniwob/unseen.py) on a few of its tasks, end to end: each page's
draft written by `draft` at the start (unedited) is the operator's adapter, the generic policy reads only
the model and receipts, and the task's own reward says whether it was solved. A real Chromium, the task
server and the Pling service (a child process) on port 0."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.miniwob import (
    arranging,
    guessing,
    instruction,
    marking,
    page_reading,
    paging,
    picking,
    policy_generic,
    repeating,
    revealing,
    similar_words,
    stepping,
    thesaurus,
)
from bench.miniwob.server import TaskServer
from bench.miniwob.suite import TASKS, episode
from bench.miniwob.unseen import (
    CheckedAgent,
    edited_drafts,
    edited_lines,
    generic_episodes,
    unseen_service,
    unseen_tasks,
    write_drafts,
)

# Tasks of the unseen rule whose drafts work today with gestures every control has (no declared gesture).
CASES = [("click-test-2", 1), ("enter-date", 2), ("click-scroll-list", 1), ("click-menu", 1)]
# A function action named like a click that never clicks: its ok receipt is a lie the bench must count.
LIAR = """// @match http://*/miniwob/enter-date.html*
pling.action({ id: 'click_nothing', description: 'Says it clicked', risk: 'write', run: () => true });
pling.action({ id: 'odd_nothing', description: 'Press the button “Odd” (says so; presses nothing)', risk: 'write', run: () => true });
"""


# Every task the tests below play, drafted once for the module: one browser writes the drafts (each from its
# own page alone, DRAFT_SEED, whatever is drafted beside it) and one service serves them, instead of a
# drafting browser, a service process and a task server per test. EDITED_PLAYED are played with the
# operator's edited draft (bench/miniwob/edited) in place of one written here.
DRAFTED = ("buy-ticket", "click-menu", "click-menu-2", "click-scroll-list", "click-test-2", "click-widget",
           "copy-paste", "copy-paste-2", "drag-items", "drag-sort-numbers", "email-inbox-noscroll", "enter-date",
           "find-word", "form-sequence", "generate-number", "guess-number", "multi-orderings", "odd-or-even", "read-table",
           "read-table-2", "scroll-text", "simple-algebra", "simple-arithmetic", "text-transform", "use-slider",
           "use-slider-2")
EDITED_PLAYED = ("form-sequence-2", "unicode-test")


class Unseen:
    """The module's task server, the service over the drafts (the liar's adapter beside them), the
    folder of drafts, and what `write_drafts` said of each task."""

    def __init__(self, tasks: TaskServer, service: str, folder: Path, written: dict[str, Any]) -> None:
        self.tasks, self.service, self.folder, self.written = tasks, service, folder, written

    def played(self, cases: list[tuple[str, int]]) -> tuple[dict[str, str], list[dict[str, Any]]]:
        """The drafts of these tasks (each written without error, unedited), then their episodes played
        by the generic policy over the drafts: each draft's text by task, and the episodes."""
        names = sorted({name for name, _ in cases})
        assert set(names) <= set(DRAFTED), f"{sorted(set(names) - set(DRAFTED))}: add to DRAFTED"
        assert all("error" not in self.written[name] for name in names), {name: self.written[name] for name in names}
        drafts = {name: (self.folder / f"{name}.js").read_text() for name in names}
        done = _run(self.service, lambda client: generic_episodes(client, self.tasks, cases, lambda _: None))
        return drafts, done

    def edited(self, cases: list[tuple[str, int]]) -> list[dict[str, Any]]:
        """Episodes of EDITED_PLAYED tasks, over the operator's edited drafts."""
        assert {name for name, _ in cases} <= set(EDITED_PLAYED), cases
        return _run(self.service, lambda client: generic_episodes(client, self.tasks, cases, lambda _: None))


@pytest.fixture(scope="module")
def unseen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Unseen]:
    folder = tmp_path_factory.mktemp("drafts")
    assert not set(DRAFTED) & set(EDITED_PLAYED)
    with TaskServer(patient=True) as tasks:
        written = asyncio.run(write_drafts(tasks, list(DRAFTED), folder, lambda _: None))
        for name in EDITED_PLAYED:
            (folder / f"{name}.js").write_text((EDITED / f"{name}.js").read_text(encoding="utf-8"), encoding="utf-8")
        (folder / "zz-liar.js").write_text(LIAR, encoding="utf-8")
        with unseen_service(tmp_path_factory.mktemp("unseen") / "service.log", folder) as service:
            yield Unseen(tasks, service.url, folder, written)


def _run(service: str, work: Any) -> Any:
    async def go() -> Any:
        async with httpx.AsyncClient(base_url=service, timeout=120) as client:
            return await work(client)
    return asyncio.run(go())


def test_the_rule_chooses_tasks_without_adapters_variants_or_drawings() -> None:
    names = unseen_tasks()
    assert len(names) >= 30 and names == sorted(names)
    assert not set(names) & set(TASKS)
    assert not [n for n in names if re.search(r"-(nodelay|easy|medium|hard|nl|nl-turk|transfer)$", n)]
    assert "ascending-numbers" not in names and "draw-circle" not in names   # drawn in <svg>
    assert {"book-flight", "click-test-2", "enter-date", "use-spinner", "visual-addition"} <= set(names)


def test_unedited_drafts_and_the_generic_policy_solve_tasks_with_true_receipts(unseen: Unseen) -> None:
    drafts, episodes = unseen.played(CASES)
    for name, _ in CASES:
        assert drafts[name].startswith("// ==UserScript==") and "DRAFT" in drafts[name]
    for ep in episodes:
        assert ep["error"] is None, ep
        assert ep["raw"] == 1.0, ep                       # the task's own reward
        assert ep["lies"] == [], ep                        # every ok gesture reached the page
        assert all(step["ok"] for step in ep["steps"] if step["ok"] is not None), ep


def test_a_receipt_that_says_ok_for_a_click_that_never_happened_is_counted_as_a_lie(unseen: Unseen) -> None:
    tasks, service = unseen.tasks, unseen.service

    async def work(client: httpx.AsyncClient) -> list[dict[str, Any]]:
        agents: list[CheckedAgent] = []

        async def play(url, after):  # type: ignore[no-untyped-def]
            agent = CheckedAgent(client, after, tasks, url.split("run=", 1)[1])
            agents.append(agent)
            model = await agent.open(url)
            assert "click_nothing" in {a["id"] for a in model["actions"]}
            assert (await agent.invoke("click_nothing"))["ok"] is True
            assert (await agent.invoke("odd_nothing"))["ok"] is True    # its verb is in its description
            await agent.close()
            return agent.steps
        await episode("pling", "enter-date", 1, tasks, play)
        return agents[0].lies
    lies = _run(service, work)
    assert [lie["step"] for lie in lies] == ["click_nothing", "odd_nothing"]


def test_the_generic_policy_names_no_task() -> None:
    names = set(unseen_tasks()) | set(TASKS)
    for module in (policy_generic, instruction, page_reading, stepping, arranging, marking, picking, revealing, similar_words,
                   thesaurus, guessing, paging, repeating):
        source = Path(module.__file__).read_text()
        assert not [n for n in names if n in source], module.__name__


EDITED = Path(__file__).resolve().parent.parent / "bench" / "miniwob" / "edited"


def test_edited_lines_count_a_changed_line_once() -> None:
    diff = "--- a/x.js\n+++ b/x.js\n@@ -1,3 +1,4 @@\n keep\n-old\n+new\n+added\n@@ -9,2 +10,1 @@\n-gone\n keep\n"
    assert edited_lines(diff) == 3   # old -> new, added, gone


def test_each_edited_draft_is_its_diff_of_at_most_five_lines() -> None:
    drafts = sorted(EDITED.glob("*.js"))
    assert drafts, "bench/miniwob/edited holds the edited drafts"
    for draft in drafts:
        assert draft.stem in unseen_tasks(), draft.name
        diff = draft.with_suffix(".diff").read_text(encoding="utf-8")
        assert 1 <= edited_lines(diff) <= 5, (draft.name, edited_lines(diff))
        text = draft.read_text(encoding="utf-8")
        added = [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
        assert added and all(line in text.splitlines() for line in added), draft.name
    assert edited_drafts(EDITED, ["unicode-test", "click-test-2"]) == {"unicode-test": {"edited_lines": 3}}


def test_an_edited_draft_solves_what_its_unedited_draft_could_not(unseen: Unseen) -> None:
    """unicode-test's draft, written where the page had one button, declared that button; three lines make
    the page's buttons a record type, and the generic policy clicks the one the instruction quotes."""
    assert (unseen.folder / "unicode-test.js").read_text(encoding="utf-8") == (EDITED / "unicode-test.js").read_text(encoding="utf-8")
    done = unseen.edited([("unicode-test", 2)])
    assert done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]


# Tasks whose value is not quoted but shown: an equation beside its field (in an inline-block that also
# holds the field), a paragraph with no id of its own, a table's row, a text area to copy, a text to retype,
# fields labelled like a table's keys.
READ_CASES = [("simple-arithmetic", 1), ("simple-algebra", 1), ("find-word", 1), ("read-table", 1), ("copy-paste", 1),
              ("text-transform", 1), ("read-table-2", 2), ("copy-paste-2", 1), ("scroll-text", 1)]


def test_values_the_page_shows_are_read_off_the_model_and_typed(unseen: Unseen) -> None:
    drafts, episodes = unseen.played(READ_CASES)
    # The draft reads the problem beside the field and the paragraph under #area as state, live.
    assert 'P.textOf({"css": "#math-problem"})' in drafts["simple-arithmetic"]
    assert 'P.textOf({"css": "#area > p"})' in drafts["find-word"]
    # A text area's text is longer than the model's state shows: a read action answers it whole.
    assert 'id: "read_text_area"' in drafts["scroll-text"]
    # Text areas that are records say what each holds ("the 2nd text area"): a field's text is its value.
    assert "value: P.valueOf(el.matches('input, textarea')" in drafts["copy-paste-2"]
    for ep in episodes:
        assert ep["error"] is None and ep["raw"] == 1.0 and ep["lies"] == [], ep
    # scroll-text's last word is past what the state shows: the policy read the text whole first.
    assert [s["call"] for s in episodes[-1]["steps"]][1] == "invoke read_text_area"


def test_the_generic_policy_solves_an_equation_and_finds_a_row_or_a_word() -> None:
    solve = page_reading.solve_equation
    assert [solve("3 x 4 ="), solve("x + 2 = 9"), solve("5 - x = 2"), solve("x - 3 = 4"), solve("8 / x = 2")] == ["12", "7", "3", "7", "4"]
    assert solve("1 + 1 = 2") is None and solve("x + x = 2") is None and solve("Submit") is None
    model = {"state": {"instructions": {"value": "Enter the value of Year of Birth into the text field and press Submit."}},
             "records": {"row": {"items": [{"id": "a", "label": "Year 2000"}, {"id": "b", "label": "Year of Birth 1987"}]}}}
    ins = policy_generic.read_instruction(policy_generic.instruction_of(model))
    assert [v for _, v, _ in policy_generic.read_values(model, ins)] == ["1987"]
    model["state"] = {"instructions": {"value": 'Find the last word in the paragraph, type it and press "Submit".'},
                      "p": {"value": "Lorem ipsum. Dolor sit amet."}, "cut": {"value": "Lorem…(+900 chars)"}}
    ins = policy_generic.read_instruction(policy_generic.instruction_of(model))
    ins.names = {"submit"}
    assert policy_generic.read_values(model, ins) == [(2, "amet", "p")]
    # A quoted value is the instruction's own: nothing is read off the page then.
    ins = policy_generic.read_instruction('Type "amet" below and press Submit.')
    assert policy_generic.read_values(model, ins) == []


def test_a_field_labelled_like_a_key_gets_the_value_a_row_says_after_that_key() -> None:
    model = {"state": {"instructions": {"value": "Enter the value that corresponds with each label into the form and submit."}},
             "records": {"row": {"items": [{"id": "r1", "label": "Year of Birth 1955"}, {"id": "r2", "label": "Gender Female"}]},
                         "item": {"items": [{"id": "Gender:", "label": "Gender:"}, {"id": "Year of Birth:", "label": "Year of Birth:"},
                                            {"id": "Language:", "label": "Language:"}]}},
             "actions": [{"id": "fill", "record": "item", "description": "Type into the textbox of the item",
                          "params": {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]}}]}
    ins = policy_generic.read_instruction(policy_generic.instruction_of(model))
    chosen = {c.ref: c.args for c in policy_generic.plan(model, ins, {})}
    # No row says a language: that field gets nothing rather than a guess.
    assert chosen == {"fill@Gender:": {"value": "Female"}, "fill@Year of Birth:": {"value": "1955"}}


def test_an_operation_is_repeated_until_the_number_it_shows_is_the_one_asked_for(unseen: Unseen) -> None:
    """generate-number, seed 2: the first number generated is not less than the bound (the policy without
    the repetition submitted it: reward -1); Generate is pressed again until it is, then Submit."""
    wanted = policy_generic.wanted_number
    assert wanted("Generate a number less than 8, then press submit.")(7) and not wanted("a number less than 8")(8)
    assert wanted("a number greater than 3")(4) and wanted("an odd number")(3) and not wanted("an even number")(3)
    assert wanted("Click the button 3 times") is None
    _, done = unseen.played([("generate-number", 2)])
    calls = [s["call"] for s in done[0]["steps"]]
    assert done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]
    assert calls.count("invoke click@Generate") >= 2 and calls[-2:] == ["invoke click@Submit", "model"], calls


def test_the_values_an_instruction_stresses_go_to_the_fields_its_words_name_then_the_one_submit(unseen: Unseen) -> None:
    """multi-orderings (seed 1): fields labelled Genre, Year, Director; the instruction's bold words are a list
    the page shows ("horror", "Booth", "2016"); "directed by" names Director, "year" Year, the one value left
    goes to the one field left, and the one submit button, which the instruction calls "Search", is pressed last."""
    model = {"state": {"instructions": {"value": "Search for horror movies directed by Booth from year 2016."},
                       "query": {"value": ["horror", "Booth", "2016"]}},
             "records": {"row": {"items": [{"id": n, "label": n} for n in ("Genre", "Year", "Director")]}},
             "actions": [{"id": "fill", "record": "row", "description": "Type into the textbox of the row",
                          "params": {"type": "object", "properties": {"value": {"type": "string"}}, "required": ["value"]}}]}
    ins = policy_generic.read_instruction(policy_generic.instruction_of(model))
    assert {c.ref: c.args["value"] for c in policy_generic.plan(model, ins, {})} == {
        "fill@Genre": "horror", "fill@Director": "Booth", "fill@Year": "2016"}
    model["state"]["query"]["value"] = ["horror", "Smith"]        # not the instruction's words: nothing is stressed
    ins = policy_generic.read_instruction(policy_generic.instruction_of(model))
    assert policy_generic.plan(model, ins, {}) == []
    _, done = unseen.played([("multi-orderings", 1)])
    assert done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]
    assert [s["call"] for s in done[0]["steps"]][-1] == "invoke click_submit"


def test_a_wait_between_two_gestures_counts_the_calls_that_carry_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Click ONE, wait 1 seconds, then click TWO": each click happens inside its call, so the policy sleeps the
    wait less the last call's length and the time since it ended (a clock of its own here: no wall time)."""
    clock = {"now": 100.0}
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(round(seconds, 3))
        clock["now"] += seconds

    class Agent:
        async def invoke(self, action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
            clock["now"] += 0.3              # each call takes 0.3 s on this clock
            return {"ok": True, "changed": {}}

        async def model(self) -> dict[str, Any]:
            raise AssertionError("nothing changed: the model is not read again")

    monkeypatch.setattr(policy_generic.time, "perf_counter", lambda: clock["now"])
    monkeypatch.setattr(policy_generic.asyncio, "sleep", sleep)
    model = {"state": {"instructions": {"value": "Click button ONE, wait 1 seconds, then click button TWO."}},
             "actions": [{"id": "click_one", "description": "Press the button “ONE”"},
                         {"id": "click_two", "description": "Press the button “TWO”"}]}
    done = asyncio.run(policy_generic.solve(Agent(), model))   # type: ignore[arg-type]
    assert done == ["click_one", "click_two"] and slept == [0.7]


def test_a_slider_handle_without_a_role_is_drafted_as_a_guess_and_stepped_to_each_number(unseen: Unseen) -> None:
    """jQuery UI's slider handle is a <span tabindex=0> with no role or name: the draft guesses a slider from
    the word in its class (a TODO says so) and names it by its container's id; the generic policy steps each
    slider, in the model's order, to the instruction's number at the same place, read off the state its step
    changed (use-slider: one slider and #val; use-slider-2: three, and the values in a list under #area;
    form-sequence: #val is an inline-block in a box of no id beside the slider, read by its own id)."""
    drafts, done = unseen.played([("use-slider", 2), ("use-slider-2", 1), ("form-sequence", 1)])
    assert 'P.textOf({"css": "#val"})' in drafts["form-sequence"]
    one = drafts["use-slider"]
    assert 'id: "increase_slider"' in one and 'id: "decrease_slider"' in one
    assert "a slider guessed from the word “ui-slider-handle”" in one
    three = drafts["use-slider-2"]
    assert all(f'id: "{verb}_slider_{i}"' in three for verb in ("increase", "decrease") for i in (1, 2, 3))
    for ep in done:
        assert ep["error"] is None and ep["raw"] == 1 and ep["lies"] == [], ep
        calls = [s["call"] for s in ep["steps"]]
        assert calls[-1] == "invoke click_submit" and calls.count("invoke click_submit") == 1, calls
    assert {c for s in done[1]["steps"] for c in [s["call"]] if c.startswith("invoke increase")} >= {"invoke increase_slider_1", "invoke increase_slider_2"}


def test_a_list_reordered_by_dragging_is_a_record_type_with_a_drag_and_the_policy_moves_or_sorts_it(unseen: Unseen) -> None:
    """jQuery UI's sortable list (ul#sortable.ui-sortable > li.ui-sortable-handle, no control inside) was a
    state of texts; the draft now makes it a record type with drag@ITEM {onto} ({drag: '{onto}'}, a TODO
    says the guess). drag-items (seed 1: "Drag Julee to the 4th position", from the 5th): Julee dragged onto
    the 4th item; drag-sort-numbers (seed 1): the lowest number left dragged onto each place in turn, the
    model read after each, then the one Submit. Each drag's ok is held against the page's own mousedown/up."""
    place = arranging.place_wanted
    assert [place("Drag A to the top.", 3, 5), place("Drag A to the bottom.", 1, 5), place("Drag A up by one position.", 2, 5),
            place("Drag A down by one position.", 2, 5), place("Drag A to the 4th position.", 0, 5), place("Drag A somewhere", 0, 5)] == [
        0, 4, 1, 3, 3, None]
    drafts, done = unseen.played([("drag-items", 1), ("drag-sort-numbers", 1)])
    for name, text in drafts.items():
        assert 'pling.action({ id: "drag", record: "item"' in text and 'gesture: {"drag": "{onto}"}' in text, name
        assert "TODO: a guess from ui-sortable" in text or "TODO: a guess from sortable" in text, name
    for ep in done:
        assert ep["error"] is None and ep["raw"] == 1 and ep["lies"] == [], ep
    assert [s["call"] for s in done[0]["steps"]][:2] == ["open", "invoke drag@Julee"]
    calls = [s["call"] for s in done[1]["steps"]]
    assert calls.count("invoke click_submit") == 1 and calls[-1] == "invoke click_submit" and any(c.startswith("invoke drag@") for c in calls), calls


def test_items_of_several_kinds_are_clicked_by_the_kind_their_control_says(unseen: Unseen) -> None:
    """click-widget: div.widget items each hold one control of another kind (radio, checkbox, text field, text
    area, button), the kind in the control's data-type. The draft had no action on them, and the text field's
    item (no text of its own) no id; now the kind is a field (`type`), the item is clicked (a TODO says the
    guess), and an item showing only a field is known by the value its page wrote. Seed 2 asks for a "text"
    widget: the policy clicks the item whose field says so (failed before: nothing matched)."""
    drafts, done = unseen.played([("click-widget", 2), ("click-widget", 1)])
    text = drafts["click-widget"]
    assert 'type: P.attrIn(el, "data-type")' in text and 'pling.action({ id: "click", record: "item"' in text
    for ep in done:
        assert ep["error"] is None and ep["raw"] == 1 and ep["lies"] == [], ep
        assert [s["call"] for s in ep["steps"]][1].startswith("invoke click@"), ep["steps"]


def test_an_icon_in_each_row_is_an_action_named_by_its_class_and_a_row_is_found_by_the_name_it_begins_with(unseen: Unseen) -> None:
    """email-inbox-noscroll: each email row (clickable) holds a trash and a star, <span>s whose picture is CSS
    `content: url(…)`, no text, no name: the draft skipped them (inside something clickable). Now each is a
    family named by its class (trash@ID, star@ID; a TODO says the guess), found by tag and class inside the
    row. Seed 2 says "Find the email by Cathy and click the star icon": the row whose label begins with that
    name, the family the instruction names (failed before: nothing matched)."""
    drafts, done = unseen.played([("email-inbox-noscroll", 2)])
    text = drafts["email-inbox-noscroll"]
    assert 'pling.action({ id: "star", record: "item"' in text and 'pling.action({ id: "trash", record: "item"' in text
    assert "TODO: no name: named by its class “star” (a picture with no name), a guess" in text
    assert done[0]["error"] is None and done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]
    assert [s["call"] for s in done[0]["steps"]][1].startswith("invoke star@Cathy "), done[0]["steps"]


@pytest.mark.parametrize("seed", [4, 11])
def test_an_item_dragged_down_a_sortable_list_lands_in_the_place_asked(unseen: Unseen, seed: int) -> None:
    """drag-items asking for a move down (seed 4: "Drag Estell to the 3rd position." from the 1st; seed 11:
    "Drag Carilyn down by one position."). A drag dropped on the destination's centre in one move never
    moved an item down jQuery UI's sortable list: it reorders when the dragged item passes the centre of the
    one it goes over, which a drop on that centre does not. The drag now moves in steps to a point past the
    destination's centre in the direction of travel, as a person's hand does. The reward is the task's own,
    the drag's ok held against the page's own mousedown/up."""
    _, done = unseen.played([("drag-items", seed)])
    assert done[0]["error"] is None and done[0]["lies"] == [], done[0]
    assert done[0]["raw"] == 1, [s["call"] for s in done[0]["steps"]]


def test_each_record_is_marked_by_the_property_its_number_has_then_the_one_submit(unseen: Unseen) -> None:
    """odd-or-even: rows each showing a number between an “Odd” and an “Even” button, drafted as a record
    type with the families odd@ROW and even@ROW; "Mark the numbers below as odd or even and press submit".
    The policy pressed only Submit (reward -1 on seeds 1-3): nothing named a row. Now each row whose label
    shows one number gets the family named by the property that number has, then the one Submit."""
    ins = instruction.read_instruction("Mark the numbers as odd or even.")
    model = {"actions": [{"id": "odd", "record": "row", "description": "Press the button “Odd” of the row"},
                         {"id": "even", "record": "row", "description": "Press the button “Even” of the row"}],
             "records": {"row": {"items": [{"id": "a", "label": "Odd -3 Even"}, {"id": "b", "label": "Odd 0 Even"},
                                           {"id": "c", "label": "Odd 1 2 Even"}, {"id": "d", "label": "Odd 2.5 Even"}]}}}
    assert marking.marks(model, ins) == ["odd@a", "even@b"]
    assert marking.marks(model, instruction.read_instruction("Press the buttons.")) == []
    _, done = unseen.played([("odd-or-even", 1), ("odd-or-even", 2)])
    for ep in done:
        assert ep["error"] is None and ep["raw"] == 1 and ep["lies"] == [], ep
        calls = [s["call"] for s in ep["steps"] if s["call"].startswith("invoke ")]
        assert len(calls) == 4 and calls[-1] == "invoke click_submit", calls
        assert all(c.split("@")[0] in ("invoke odd", "invoke even") for c in calls[:3]), calls


def test_a_menu_item_that_opens_a_submenu_is_pointed_at_to_find_what_the_instruction_quotes(unseen: Unseen) -> None:
    """click-menu-2 (seed 1: "Click the "Menu" button, and then find and click on the item labeled "Stop"."):
    jQuery UI's menu, hidden until "Menu" is pressed; "Stop" is in the submenu of "Playback" (aria-haspopup).
    The draft declared choose_playback, a write, so the policy never tried it and stopped after "Menu" (no
    reward). Now such an item is point_playback (gesture hover, risk read: it only shows the submenu); the
    policy, finding nothing named "Stop", points at it, reads the model again and chooses Stop. The hover's
    ok is held against the page's own mouseover."""
    drafts, done = unseen.played([("click-menu-2", 1)])
    assert 'pling.action({ id: "point_playback"' in drafts["click-menu-2"] and 'gesture: "hover"' in drafts["click-menu-2"]
    assert done[0]["error"] is None and done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]
    calls = [s["call"] for s in done[0]["steps"] if s["call"].startswith("invoke ")]
    assert calls == ["invoke click_menu", "invoke point_playback", "invoke choose@Stop"], calls


def test_the_record_a_superlative_picks_is_found_by_the_quantity_its_fields_say(unseen: Unseen) -> None:
    """buy-ticket: four flights, each a record with a `price` field (data-price) and a text saying "Duration:
    6h 19m Book for $1085", and click@ID on its Book button; "Buy the ticket with the cheapest cost." (or the
    shortest / longest duration, the most expensive cost). Nothing was mentioned: the policy stopped with
    nothing matched on seeds 1-3. Now the record with the extreme quantity, read from the field named like
    it (cost: price) or after the word in its text (a duration in minutes), gets the type's one family."""
    def item(i: str, price: str, text: str) -> dict[str, Any]:
        return {"id": i, "label": i, "fields": {"price": price, "text": text}}
    model = {"actions": [{"id": "click", "record": "item", "risk": "write"}],
             "records": {"item": {"items": [item("a", "1085", "Duration: 6h 19m Book for $1085"),
                                            item("b", "713", "Duration: 18h 5m Book for $713"),
                                            item("c", "803", "Duration: 45m Book for $803")]}}}
    read = instruction.read_instruction
    assert picking.picks(model, read("Buy the ticket with the cheapest cost.")) == ["click@b"]
    assert picking.picks(model, read("Buy the ticket with the most expensive cost.")) == ["click@a"]
    assert picking.picks(model, read("Buy the ticket with the shortest duration.")) == ["click@c"]
    assert picking.picks(model, read("Buy the ticket with the longest duration.")) == ["click@b"]
    assert picking.picks(model, read("Buy the ticket with the fewest stops.")) == []      # no record says stops
    labels_only = {"actions": model["actions"], "records": {"item": {"items": [{"id": "1", "label": "1"}, {"id": "7", "label": "7"}]}}}
    assert picking.picks(labels_only, read("Pick the card with the greatest number.")) == []
    _, done = unseen.played([("buy-ticket", 1), ("buy-ticket", 2)])
    for ep in done:
        assert ep["error"] is None and ep["raw"] == 1 and ep["lies"] == [], ep
        assert [s["call"] for s in ep["steps"] if s["call"].startswith("invoke ")][0].startswith("invoke click@"), ep["steps"]


def test_an_ordinal_goes_to_the_kind_it_is_said_of_and_a_filled_form_is_submitted(unseen: Unseen) -> None:
    """form-sequence-2: "Check the 2nd radio button and enter the number "-5" into the 3rd textbox." Every
    record type took the instruction's first ordinal (the 2nd textbox got the value), and after a fill the
    page's one Submit, not named, was left unpressed. Now an ordinal goes to the record type whose word
    follows it, and the one submit is pressed after a fill. The draft is the operator's edit (5 lines: the
    radios keyed by their value, the text fields by their id, with a fill)."""
    read = instruction.read_instruction
    ins = read('Check the 2nd radio button and enter the number "-5" into the 3rd textbox.')
    assert instruction.ordinal_for(ins, {"radio"}) == (2, 2) and instruction.ordinal_for(ins, {"choice", "textbox"}) == (3, 12)
    assert instruction.ordinal_for(ins, {"row"}) == (2, 2) and instruction.ordinal_for(read("Click the 3rd field."), {"textbox"}) == (3, 2)
    assert edited_drafts(EDITED, ["form-sequence-2"]) == {"form-sequence-2": {"edited_lines": 5}}
    assert (unseen.folder / "form-sequence-2.js").read_text(encoding="utf-8") == (EDITED / "form-sequence-2.js").read_text(encoding="utf-8")
    done = unseen.edited([("form-sequence-2", 1)])
    assert done[0]["raw"] == 1 and done[0]["lies"] == [], done[0]
    assert [s["call"] for s in done[0]["steps"]] == ["open", "invoke choose@2", "invoke fill@input-3", "invoke click_submit"]


def test_an_icon_whose_picture_has_not_loaded_is_still_found_in_its_row() -> None:
    """email-inbox's star is a <span class="star"> whose picture is CSS `content: url(…)`: until it loads
    the span has no size, so the draft's `P.inside(row, {css: 'span.star', name: 'star'})` found nothing and
    star@ROW was unavailable; under load the policy then clicked the row instead (email-inbox-star-reply
    seeds 2 and 3 failed on some runs, passed on others). An icon found by its class that is displayed
    inside a shown element is found now; one that is not displayed, or in a hidden row, is not."""
    from playwright.sync_api import sync_playwright

    from pling_browser.config import find_chromium
    from pling_browser.core.browsers import chromium_args
    prelude = (Path(policy_generic.__file__).resolve().parents[2] / "pling_browser" / "ci" / "prelude.js").read_text(encoding="utf-8")
    page_html = """<div id="a" style="cursor:pointer">Cathy <span class="star"></span></div>
      <div id="b">Mae <span class="star" style="display:none"></span></div>
      <div id="c" style="display:none">Fifi <span class="star"></span></div>"""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(None), args=chromium_args())
        try:
            page = browser.new_page()
            page.set_content(page_html)
            page.add_script_tag(content=prelude + "\nwindow.P = P;")
            found = page.evaluate("""() => ['a', 'b', 'c'].map((id) => {
                const star = P.inside(document.getElementById(id), { css: 'span.star', name: 'star' });
                return star ? star.getBoundingClientRect().width : null; })""")
        finally:
            browser.close()
    assert found == [0, None, None]


def test_a_number_is_guessed_by_halving_with_the_answer_a_message_box_shows(unseen: Unseen) -> None:
    """guess-number: a form whose button's click handler answers (and stops the submission), and a box of
    messages shown one at a time (#feedback: "Waiting…", hidden "The number is lower than …"). The draft
    submitted with requestSubmit() (the click handler never ran: the page navigated away) and read only the
    one message shown when it was written. Now the form's button is pressed, the box is the state, and the
    policy halves the instruction's range on what the box answers."""
    ins = instruction.read_instruction("Guess the number between 0-9 and press Submit. Use the feedback below.")
    assert guessing.guess_range(ins) == (0, 9) and guessing.guess_range(instruction.read_instruction("Pick 3 between 0-9.")) is None
    said = {"state": {"instructions": {"value": ins.text}, "feedback": {"value": "The number is lower than 4."}}}
    assert guessing.answer_to(said, 4, ins.text) == -1 and guessing.answer_to(said, 5, ins.text) == 0
    drafts, done = unseen.played([("guess-number", 1), ("guess-number", 2)])
    assert 'P.textOf({"css": "#feedback"})' in drafts["guess-number"] and "button.click()" in drafts["guess-number"]
    for ep in done:
        assert ep["error"] is None and ep["raw"] == 1 and ep["lies"] == [], ep
        submits = [s["call"] for s in ep["steps"] if s["call"].startswith("invoke ")]
        assert set(submits) == {"invoke submit"} and 2 <= len(submits) <= 4, ep["steps"]
