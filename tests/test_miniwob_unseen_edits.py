"""Edited drafts of the unseen MiniWoB++ suite (bench/miniwob/edited/, each at most 5 lines off the draft
`draft` wrote), and unedited ones where a policy rule made an edit unneeded, and what the generic policy
does with them: a real Chromium, the task server and the Pling
service (a child process) on port 0, scored by the task's own reward, each ok receipt held against the
page's own input events. One task server and one service serve every test here (each draft @matches its
own task's page only): the edited drafts of EDITED_PLAYED and the unedited drafts of DRAFTED, written once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.miniwob import arranging, colours, instruction, page_reading, picking, policy_generic, revealing, seeking
from bench.miniwob.server import TaskServer
from bench.miniwob.unseen import generic_episodes, unseen_service, write_drafts

EDITED = Path(__file__).resolve().parent.parent / "bench" / "miniwob" / "edited"


# The tasks played here over their edited drafts (bench/miniwob/edited), and those played over a draft
# written unedited at the start: a new test adds its tasks to one of them (`_played` says so).
EDITED_PLAYED = ("use-autocomplete", "order-food", "visual-addition", "click-shades", "find-greatest", "drag-box",
                 "hot-cold", "navigate-tree", "email-inbox-noscroll", "email-inbox-star-reply", "text-editor")
DRAFTED = ("use-colorwheel",)


@dataclass(frozen=True)
class Served:
    tasks: TaskServer
    url: str
    written: dict[str, Any]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("edited")
    assert not set(DRAFTED) & set(EDITED_PLAYED)
    for name in EDITED_PLAYED:
        (folder / f"{name}.js").write_text((EDITED / f"{name}.js").read_text(encoding="utf-8"), encoding="utf-8")
    with TaskServer(patient=True) as tasks:
        written = asyncio.run(write_drafts(tasks, list(DRAFTED), folder, lambda _: None))
        with unseen_service(tmp_path_factory.mktemp("service") / "service.log", folder) as service:
            yield Served(tasks, service.url, written)


def _played(served: Served, cases: list[tuple[str, int]], kind: tuple[str, ...] = EDITED_PLAYED) -> list[dict[str, Any]]:
    """The cases played by the generic policy over their tasks' edited drafts (or, kind DRAFTED, the drafts
    written here unedited, each without error)."""
    names = {name for name, _ in cases}
    assert names <= set(kind), f"{sorted(names - set(kind))}: add to EDITED_PLAYED or DRAFTED"
    assert all("error" not in served.written.get(name, {}) for name in names), served.written

    async def play() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            return await generic_episodes(client, served.tasks, cases, lambda _: None)
    return asyncio.run(play())


def _invoked(episode: dict[str, Any]) -> list[str]:
    return [s["call"].removeprefix("invoke ") for s in episode["steps"] if s["call"].startswith("invoke ")]


def test_the_suggestion_that_starts_and_ends_as_the_instruction_says_is_chosen(served: Served) -> None:
    """use-autocomplete: "Enter an item that starts with "Gu" and ends with "ana"." over jQuery UI's
    autocomplete. The policy typed the first quote and submitted it (reward -1 whenever an ending was asked).
    The edited draft keeps the focus after typing (commit 'none') and lists the suggestions as records; the
    policy now chooses the one whose label has both the start and the end the instruction quotes (seeds 1
    and 2), or the start alone when only that is asked (seed 3: the suggestions' menu, left open, covered
    the Submit button before any was chosen)."""
    read = instruction.read_instruction('Enter an item that starts with "Gu" and ends with "ana".')
    assert instruction.affix_span(read, "Guyana") == (9, 10)      # "with", before the last quote ("ana")
    assert instruction.affix_span(read, "Guinea") is None and instruction.affix_span(read, "Ghana") is None
    assert instruction.affix_span(instruction.read_instruction('Enter "Guyana".'), "Guyana") is None
    assert instruction.affix_span(instruction.read_instruction('Enter an item that starts with "Gu".'), "Guam") == (5, 6)
    for episode in _played(served, [("use-autocomplete", 1), ("use-autocomplete", 2), ("use-autocomplete", 3)]):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        calls = _invoked(episode)
        assert calls[0] == "fill_tags" and calls[1].startswith("choose@") and calls[2:] == ["click_submit"], calls


def test_the_button_the_instruction_begins_with_is_pressed_last_and_a_count_of_records_is_added(served: Served) -> None:
    """order-food: "Order one of each item: Garlic bread, Coconut mango tart" or "Order 3 items that are
    dairy", and a button “Order!”. The policy pressed Order! first (its name is the instruction's first word,
    so it came first in the instruction's order) and nothing after counted (0 of 6, seeds 1-6). Now a plain
    button named by the first word goes after the other operations (a view-only one keeps its place), and a
    count of records with a property adds that many, over the records whose fields say it."""
    def candidate(ref: str, start: int, risk: str = "write", record: dict[str, Any] | None = None) -> policy_generic.Candidate:
        return policy_generic.Candidate(ref, {"id": ref, "risk": risk}, record, start=start, end=start + 1)
    order, bread = candidate("click_order", 0), candidate("add@bread", 5, record={"id": "bread"})
    assert [c.ref for c in instruction.verb_last([order, bread])] == ["add@bread", "click_order"]
    assert [c.ref for c in instruction.verb_last([candidate("expand", 0, "read"), bread])] == ["expand", "add@bread"]
    assert [c.ref for c in instruction.verb_last([candidate("click_menu", 2), bread])] == ["click_menu", "add@bread"]

    def food(name: str, types: str) -> dict[str, Any]:
        return {"id": name, "label": name, "fields": {"types": types}}
    model = {"actions": [{"id": "add", "record": "food", "risk": "write"}, {"id": "click_order", "risk": "write"}],
             "records": {"food": {"items": [food("Cake", "dairy"), food("Salad", "vegan, gluten-free"), food("Wheel", "dairy, gluten-free")]}}}
    read = instruction.read_instruction
    assert picking.counted(model, read("Order 3 items that are dairy")) == ["add@Cake", "add@Wheel", "add@Cake"]
    assert picking.counted(model, read("Order 2 items that are gluten-free")) == ["add@Salad", "add@Wheel"]
    assert picking.counted(model, read("Order 2 items that are meat")) == []
    assert picking.counted(model, read("Order one of each item: Cake, Salad")) == []
    for episode in _played(served, [("order-food", 1), ("order-food", 2)]):      # by names; by a type
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        calls = _invoked(episode)
        assert calls[-1] == "click_order" and len(calls) >= 3 and all(c.startswith("add@") for c in calls[:-1]), calls


def test_a_total_asked_for_is_read_off_the_equation_the_page_shows(served: Served) -> None:
    """visual-addition: "Type the total number of blocks into the textbox and press Submit." beside two
    groups of blocks. The edited draft (1 line) counts each group into the state it had (#math-problem:
    "4 + 1 ="); "total" now asks for a value read off the page, as "answer" or "solve" do, so the equation's
    result is typed (before, the policy pressed Submit with the field empty: 0 of 6)."""
    model = {"state": {"math_problem": {"value": "4 + 1 ="}, "math_answer": {"value": ""}}}
    read = instruction.read_instruction("Type the total number of blocks into the textbox and press Submit.")
    assert page_reading.read_values(model, read) == [(2, "5", "math_problem")]
    for episode in _played(served, [("visual-addition", 1), ("visual-addition", 2)]):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        assert _invoked(episode) == ["fill_math_answer", "click_submit"], episode["steps"]


def test_all_the_records_an_instruction_names_alike_are_each_done(served: Served) -> None:
    """click-shades: "Select all the shades of green and press Submit." over twelve shades, each labelled by
    its colour's name (the edited draft, 3 lines: records keyed by their shade, with a click). Every green
    shade is mentioned by the same word, so the policy took the first and the others clashed with it (0 of 6);
    now, when the instruction says "all", each record mentioned where a taken one is, by the same action, is
    done too."""
    def candidate(ref: str, label: str) -> policy_generic.Candidate:
        return policy_generic.Candidate(ref, {"id": "click", "record": "shade"}, {"id": ref, "label": label}, score=2.1, start=5, end=6)
    first, second = candidate("click@a", "green"), candidate("click@b", "green")
    assert instruction.alike(second, [first], instruction.read_instruction("Select all the shades of green and press Submit."))
    assert not instruction.alike(second, [first], instruction.read_instruction("Select the shade of green and press Submit."))
    for episode in _played(served, [("click-shades", 1), ("click-shades", 2)]):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        calls = _invoked(episode)
        assert calls[-1] == "click_submit" and len(calls) >= 4 and all(c.startswith("click@") for c in calls[:-1]), calls


def test_a_colour_named_in_words_is_typed_as_the_colour_field_writes_its_value(served: Served) -> None:
    """use-colorwheel, drafted unedited: "Select teal with the color picker and hit Submit." beside a jscolor
    field holding "AB2567". No value was quoted, so the policy focused the field and submitted what it held
    (raw 0.69-0.79, never 1). Now a CSS colour named in words, when the instruction speaks of a colour, is
    typed as the field writes its own value (6 hex digits, its case, '#' only if it has one)."""
    read = instruction.read_instruction
    field = {"state": {"color": {"value": "AB2567"}}}
    assert colours.colour_value(field, read("Select teal with the color picker and hit Submit.")) == [(1, "008080", "")]
    assert colours.colour_value({"state": {"c": {"value": "#ab2567"}}}, read("Pick the colour gold.")) == [(3, "#ffd700", "")]
    assert colours.colour_value(field, read("Click on the teal colored box.")) == []      # no colour field asked of
    assert colours.colour_value({"state": {}}, read("Select teal with the color picker.")) == []
    for episode in _played(served, [("use-colorwheel", 1), ("use-colorwheel", 2)], DRAFTED):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        assert _invoked(episode) == ["fill_color", "click_submit"], episode["steps"]


def test_cards_lying_face_down_are_each_turned_and_the_greatest_picked(served: Served) -> None:
    """find-greatest: "Find and pick the card with the greatest number, then press submit." over three cards
    lying face down; clicking one turns it up (and the others down). The draft's labels were the face-down
    numbers (text the page hides at font-size 0), and an edit that read them was taken out. The edited draft
    shows a card's number only while it is face up (a field `number`, empty face down); the policy turns each
    card, notes the number it then shows, turns the greatest up again and presses submit (it pressed submit
    with no card turned: reward -1)."""
    def card(n: int, shown: str) -> dict[str, Any]:
        return {"id": str(n), "label": "a card", "fields": {"number": shown}}
    model = {"actions": [{"id": "click", "record": "item", "risk": "write"}, {"id": "click_submit", "risk": "write"}],
             "records": {"item": {"items": [card(0, ""), card(1, ""), card(2, "")]}}}
    read = instruction.read_instruction
    found = revealing.hidden_quantity(model, read("Find and pick the card with the greatest number, then press submit."))
    assert found == ("click", ["0", "1", "2"], ("number",), True)
    assert revealing.hidden_quantity(model, read("Pick the card with the smallest number."))[3] is False  # type: ignore[index]
    assert revealing.hidden_quantity(model, read("Pick the card with the greatest price.")) is None      # no record says price
    assert revealing.hidden_quantity(model, read("Pick the second card.")) is None
    shown = {**model, "records": {"item": {"items": [card(0, "4"), card(1, "9"), card(2, "")]}}}
    assert revealing.hidden_quantity(shown, read("Pick the card with the greatest number.")) is None    # shown: picking.py's
    assert picking.picks({**model, "records": {"item": {"items": [card(0, "4"), card(1, "9"), card(2, "1")]}}},
                         read("Pick the card with the greatest number.")) == ["click@1"]
    for episode in _played(served, [("find-greatest", 1), ("find-greatest", 2)]):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        calls = _invoked(episode)
        assert calls[:3] == ["click@0", "click@1", "click@2"] and calls[-1] == "click_submit", calls


def test_a_box_named_by_its_size_is_dragged_into_the_other_and_let_go_at_its_centre(served: Served) -> None:
    """drag-box: "Drag the smaller box so that it is completely inside the larger box." over two jQuery UI
    draggables labelled 's' and 'L'. Nothing in the model matched (0 of 3). The edited draft (2 lines) gives
    each box its on-screen size as a field and lets its drag go at the destination's centre (drop:
    'centre'); the policy reads "drag A into|inside|onto B", each named by a comparative of size or its
    label, drags A onto B and presses Submit. Seed 6 starts with the small box over the large one's centre
    (the drag waited for the destination's hit test until its budget ran out, before)."""
    boxes = [{"id": "s", "label": "s", "fields": {"size": 784}}, {"id": "L", "label": "L", "fields": {"size": "3364"}}]
    assert arranging._named(boxes, "smaller box") is boxes[0] and arranging._named(boxes, "larger box") is boxes[1]
    assert arranging._named(boxes, "bigger one") is boxes[1] and arranging._named(boxes, "s") is boxes[0]
    assert arranging._named([{"id": "a", "label": "a"}, {"id": "b", "label": "b"}], "smaller box") is None   # no size: no guess
    assert arranging._named(boxes + [{"id": "t", "label": "t", "fields": {"size": 784}}], "smaller box") is None  # a tie
    put = arranging._PUT.search("Drag the smaller box so that it is completely inside the larger box.")
    assert put and (put[1], put[2]) == ("smaller box", "larger box")
    for episode in _played(served, [("drag-box", 1), ("drag-box", 6)]):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        assert _invoked(episode) == ["drag@s", "click_submit"], episode["steps"]


def test_the_hot_spot_is_found_by_moving_the_pointer_toward_hotter_and_clicked(served: Served) -> None:
    """hot-cold: "Find and click on the HOT area." over a div that says HOT, WARM, COLD or ICE COLD as the
    pointer moves over it. No gesture went to a point (0 of 3). The edited draft (4 lines) shows what the page
    says under the area as state and declares point_at / click_at x, y (bounded numbers; gestures { hover |
    click: { x: '{x}', y: '{y}' } }); the policy visits a grid, then finer grids around the hottest points,
    and clicks where the state says HOT. Each hover's ok is held against the page's own mousemove."""
    assert [seeking.level(t) for t in ("ICE COLD", "COLD", "WARM", "HOT", "", None)] == [0, 1, 3, 4, None, None]
    bounded = {"type": "object", "required": ["x", "y"], "properties": {"x": {"type": "number", "minimum": 0, "maximum": 100},
                                                                       "y": {"type": "number", "minimum": 0, "maximum": 50}}}
    model = {"actions": [{"id": "point_at", "risk": "read", "params": bounded}, {"id": "click_at", "risk": "write", "params": bounded},
                         {"id": "click_submit", "risk": "write"}]}
    assert seeking.probe_and_click(model) == ("point_at", "click_at", ["x", "y"], [(0.0, 100.0), (0.0, 50.0)])
    unbounded = {**bounded, "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}
    assert seeking.probe_and_click({"actions": [{"id": "p", "risk": "read", "params": unbounded},
                                                {"id": "c", "risk": "write", "params": unbounded}]}) is None
    assert seeking.grid((50, 25), (25, 12.5), 4, [(0, 100), (0, 50)])[:4] == [(12.0, 6.0), (38.0, 6.0), (62.0, 6.0), (88.0, 6.0)]
    assert seeking.grid((0, 0), (10, 10), 3, [(0, 100), (0, 50)]) == [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0), (10.0, 10.0)]
    for episode in _played(served, [("hot-cold", 1), ("hot-cold", 2)]):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        calls = _invoked(episode)
        assert calls[-1] == "click_at" and len(calls) > 2 and set(calls[:-1]) == {"point_at"}, calls


def test_closed_folders_of_a_tree_are_opened_until_the_name_asked_for_shows(served: Served) -> None:
    """navigate-tree: 'Find and click on the folder or file named "Nathalie".' over a jQuery treeview whose
    folders start closed. The draft, written where the tree had no folder, listed only the top items: seed 2's
    Nathalie, inside the closed folder Truman, was in no record (PolicyError; navigate-tree was 2/3). The
    edited draft (5 lines) lists every shown item of the tree by its own text and declares opening a closed
    folder (risk read: it only shows what is in it); the policy, not finding the quoted name, opens folders one
    at a time (what it does with any view-only action) until it shows, then clicks it."""
    second, fifth = _played(served, [("navigate-tree", 2), ("navigate-tree", 5)])
    for episode in (second, fifth):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    assert _invoked(second) == ["open@Truman", "click@Nathalie"]
    assert _invoked(fifth)[-1] == "click@Keli" and all(c.startswith("open@") for c in _invoked(fifth)[:-1])


def test_an_email_is_replied_to_or_forwarded_from_the_view_that_opens(served: Served) -> None:
    """email-inbox-noscroll 'Find the email by Fifi and forward that email to Vitia.' and email-inbox-star-reply
    'Find the email by Fifi and reply to them with the text "Diam. Ultrices amet facilisi.".' The drafts were
    written on the inbox: the opened email's Reply and Forward, their fields and the send picture appear only
    after a click, so the policy opened the email and stopped (seed 1 of each; both were 2/3). The edits
    declare them (star-reply 3 lines; noscroll 5: one field for whichever of the two is shown, and the
    instruction with its bold names quoted, as the page stresses them: "to Vitia" was said in no quotes)."""
    forward, reply = _played(served, [("email-inbox-noscroll", 1), ("email-inbox-star-reply", 1)])
    for episode in (forward, reply):
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
    assert _invoked(forward)[1:] == ["click_forward", "fill_message", "click_send"]
    assert _invoked(reply)[1:] == ["click_reply", "fill_reply", "click_send"]


def test_a_style_quoted_with_another_ending_names_the_toolbar_button(served: Served) -> None:
    """text-editor: "Using the text editor, give the text ut. the style italics and press Submit." over a Quill
    editor whose toolbar buttons have no text (the draft named them '', so their ids collided) and nothing to
    select text with (reward -1: it pressed Submit alone). The edited draft (4 lines) quotes what the instruction
    shows in bold, names each button by its class (bold, italic, underline) and selects a word or everything
    with a small run(); the policy now takes a quoted word for a label that is the same but for an ending of
    number or tense ("italics": italic), as a person reads it."""
    assert instruction.same_word("italics", "italic") and instruction.same_word("underlined", "Underline")
    assert instruction.same_word("boxes", "box") and instruction.same_word("Bold", "bold")
    assert not instruction.same_word("bolder", "bold") and not instruction.same_word("as", "a")
    assert not instruction.same_word("red box", "red boxes")
    for episode in _played(served, [("text-editor", 1), ("text-editor", 6)]):     # a word in italics; everything bold
        assert episode["error"] is None and episode["raw"] == 1 and episode["lies"] == [], episode
        calls = _invoked(episode)
        assert calls[0] == "select_text" and calls[1] in ("click@italic", "click@bold") and calls[2:] == ["click_submit"], calls
