"""A draft from a person's demonstration: "Record" in the console's live view, the person's input
through the live view's own input route (the path the console's page uses), "Stop", and the draft:
it passes `pling-browser check` unedited, and its actions work through Pling with true receipts on
the page it was recorded on (fixtures/pages/demonstration/order.html, which declares nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from pling_browser.lifecycle import LogEvent

from . import command_line
from .conftest import Pages, ServiceThread, problem, serving
from .server import FixtureServer

ORDER = "pages/demonstration/order.html"
CONTROLS = ("#title", "select", "#gift", "#code", "#tag-input-4711", "#add", "[data-testid=clear-tags]")


def boxes(service: ServiceThread, sid: str) -> dict[str, tuple[float, float]]:
    async def measure(runtime: Any) -> dict[str, tuple[float, float]]:
        page = runtime.sessions.get(sid).page
        out = {}
        for selector in CONTROLS:
            box = await page.locator(selector).bounding_box()
            out[selector] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return out
    return service.in_service(measure)


def order_of(service: ServiceThread, sid: str) -> dict[str, Any]:
    async def read(runtime: Any) -> dict[str, Any]:
        return await runtime.sessions.get(sid).page.evaluate("() => window.order")
    return service.in_service(read)


class Person:
    """The person at the live view: each gesture goes through POST /console/sessions/{sid}/input."""

    def __init__(self, client: httpx.Client, sid: str, at: dict[str, tuple[float, float]]) -> None:
        self.client, self.url, self.at = client, f"/console/sessions/{sid}/input", at

    def send(self, **gesture: Any) -> None:
        answer = self.client.post(self.url, json=gesture)
        assert answer.status_code == 200 and answer.json() == {"ok": True}, answer.text

    def click(self, selector: str) -> None:
        x, y = self.at[selector]
        self.send(type="down", x=x, y=y, clicks=1)
        self.send(type="up", x=x, y=y, clicks=1)

    def type(self, text: str) -> None:
        for character in text:
            self.send(type="text", text=character)


SECRET = "gc-77-secret-code"
STEPS = ["typed “Sunset” into the textbox “Title of the print”",
         "chose “Medium” in the combobox “Size”",
         "ticked the checkbox “Gift wrap”",
         "typed a secret (not kept) into the textbox “Gift card code”",
         "typed “sea” into the textbox “Tag”, then pressed Enter",
         "clicked the button “Add to basket”",
         "clicked the button “Clear”"]
ACTIONS = {"fill_title_of_the_print", "choose_size", "set_gift_wrap", "fill_gift_card_code", "fill_tag",
           "click_add_to_basket", "click_clear"}


def test_a_recorded_demonstration_becomes_a_draft_that_checks_and_works(
        service: ServiceThread, client: httpx.Client, pages: Pages, fixtures: FixtureServer, tmp_path: Path) -> None:
    page = pages.open(ORDER)
    person = Person(client, page.id, boxes(service, page.id))
    base = f"/console/sessions/{page.id}/recording"
    assert problem(client.get(base))["code"] == "NOT_FOUND"  # nothing recorded yet
    started = client.post(base)
    assert started.status_code == 200 and started.json()["recording"] is True and started.json()["steps"] == []

    async def page_script(runtime: Any) -> None:  # the page's own clicks and events are not the person's
        await runtime.sessions.get(page.id).page.evaluate(
            "() => { document.querySelector('#add').click(); document.querySelector('#title').dispatchEvent(new Event('change')); }")
    service.in_service(page_script)

    person.click("#title")
    person.type("Sunset")
    person.send(type="key", key="Tab")  # to the size select; ArrowDown chooses the next size
    person.send(type="key", key="ArrowDown")
    person.click("#gift")
    person.click("#code")
    person.type(SECRET)
    person.click("#tag-input-4711")
    person.type("sea")
    person.send(type="key", key="Enter")
    person.click("#add")
    person.click("[data-testid=clear-tags]")
    assert order_of(service, page.id)["basket"][-1] == {"title": "Sunset", "size": "Medium", "gift": True}

    shown = client.get(base).json()
    assert [step["said"] for step in shown["steps"]] == STEPS, shown
    stopped = client.post(f"{base}/stop").json()
    assert stopped["recording"] is False and stopped["filename"] == "draft-127.0.0.1.js"
    download = client.get(f"{base}/draft")
    assert download.status_code == 200
    assert download.headers["content-disposition"] == 'attachment; filename="draft-127.0.0.1.js"'
    draft = download.text
    assert draft == stopped["draft"] and SECRET not in draft and SECRET not in str(stopped)
    assert '"examples": ["Sunset"]' in draft and '"enum": ["Small", "Medium", "Large"]' in draft
    # Two buttons are named Clear: the one the person pressed is found by its data-testid.
    assert 'target: () => P.one({"css": "button[data-testid=\\"clear-tags\\"]"})' in draft
    assert "// TODO: the person typed a secret here" in draft
    assert_draft_works(draft, fixtures, tmp_path)


def assert_draft_works(draft: str, fixtures: FixtureServer, tmp_path: Path, with_secret: bool = True) -> None:
    """The draft, unedited: `check` passes it, and an operator who installs it gets actions that
    operate the page the person showed, with receipts that say so."""
    assert draft.startswith("// ==UserScript==\n// @name         DRAFT: Order a print\n")
    folder = tmp_path / "adapters"
    folder.mkdir()
    (folder / "order.js").write_text(draft)
    url = fixtures.url(ORDER)
    # `check` in this process (tests/command_line.py): its verdict is what is checked, not its process.
    checked = command_line.run("check", url, "--adapter", str(folder / "order.js"))
    assert checked.returncode == 0, checked.stdout + checked.stderr

    with serving(adapters=str(folder), approve=("danger",)) as adapted:
        with httpx.Client(base_url=adapted.url, timeout=60) as other:
            opened = Pages(other, fixtures)
            shop = opened.open(ORDER)
            model = shop.model()
            assert model["page"]["adapter"] == ["order.js"] and model["problems"] == []
            actions = {action["id"]: action for action in model["actions"]}
            assert set(actions) == (ACTIONS if with_secret else ACTIONS - {"fill_gift_card_code"})
            assert all(action["available"] is True for action in actions.values())
            assert actions["choose_size"]["params"]["properties"]["value"]["examples"] == ["Medium"]
            logs = {}
            for action, args in [("fill_title_of_the_print", {"value": "Dawn"}), ("choose_size", {"value": "Large"}),
                                 ("set_gift_wrap", {"checked": True}), ("fill_tag", {"value": "sky"}),
                                 ("click_add_to_basket", None)]:
                receipt = shop.invoke(action, args)
                assert receipt["ok"] is True, receipt
                logs[action] = shop.codes().events(LogEvent.OPERATED)
            assert order_of(adapted, shop.id) == {"basket": [{"title": "Dawn", "size": "Large", "gift": True}],
                                                 "tags": ["sky"], "cleared": 0}
            assert [(e["control"], (e["gesture"] or {}).get("press")) for e in logs["fill_tag"]] == [("text", "Enter")], logs
            assert [(e["control"], e["gesture"]) for e in logs["click_add_to_basket"]] == [("button", None)], logs
            cleared = shop.invoke("click_clear")  # the Clear of the tags, found by its data-testid
            assert cleared["ok"] is True, cleared
            after = order_of(adapted, shop.id)
            assert after["tags"] == [] and len(after["basket"]) == 1, after
            opened.close_all()
