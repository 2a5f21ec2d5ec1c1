"""The bridge's contract, one operation at a time: each operation of js_bridge/operations.json is called
in a real page (fixtures/pages/contract/bridge.html, in a session of the real service) and its answer
validated against the model the table names (core/answers.py; ``model``: models.PageModel), tagged
``{"ok": true, …}``, or ``{"ok": false, "code"}`` validated as a ``Refusal`` with the expected code. An
answer may carry no field its model does not read (a field Python would drop without a word). And the
Python side names exactly the table's operations."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pling_browser.core.answers import Refusal, ran_from
from pling_browser.core.bridge import Bridge, operations
from pling_browser.errors import PlingError
from pling_browser.models import PageModel

from .conftest import Pages, ServiceThread
from .server import FixtureServer

ROOT = Path(__file__).resolve().parent.parent
PAGE = "pages/contract/bridge.html"
Answers = list[tuple[str, str]]  # (operation, the answer's JSON text as the page wrote it)


@pytest.fixture
def contract(shim_service: ServiceThread, fixtures: FixtureServer) -> Iterator[Callable[..., Any]]:
    """Runs ``case(bridge)`` on the service's loop against a new session on the contract page. The shim's
    WebMCP (PLING_BROWSER_WEBMCP=0): the page calls its exported tools through its `executeTool`."""
    with httpx.Client(base_url=shim_service.url, timeout=60) as client:
        opened = Pages(client, fixtures)

        def run(case: Callable[[Bridge], Awaitable[Answers]]) -> Answers:
            sid = opened.open(PAGE).id
            return shim_service.in_service(lambda runtime: case(runtime.sessions.get(sid).bridge), timeout=60)

        yield run
        opened.close_all()


async def _until(probe: Callable[[], Awaitable[Any]], what: str, deadline_s: float = 20) -> Any:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        found = await probe()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


async def _page(bridge: Bridge, expression: str) -> None:
    """A page script of the test's own, run in the page's world (as the page's own script would)."""
    await bridge.cdp.send("Runtime.evaluate", {"expression": expression})


# ---- one case per operation: its answers, ok and (where the page can refuse) refused -------------

async def _model(b: Bridge) -> Answers:
    return [("model", await b.raw("model", {})), ("model", await b.raw("model", {"limit": 0, "type": "item"}))]


async def _describe(b: Bridge) -> Answers:
    answers = [("describe", await b.raw("describe", {"ref": ref})) for ref in ("save", "toggle@a", "nope", "toggle")]
    # Asked with `reveal`: a function action is revealed in the same call (its answer as reveal's);
    # an element action is not (its reveal marks and aims at the target: the reveal stage's own call).
    asked = {"capMs": 500, "evidence": True, "nested": False}
    function = await b.raw("describe", {"ref": "save", "reveal": asked})
    revealed = json.loads(function)["revealed"]
    assert revealed["ok"] is True and revealed["control"] == "function" and revealed["evidence"] is True, function
    await b.raw("diff", {})  # the before snapshot it took, dropped
    element = await b.raw("describe", {"ref": "press", "reveal": asked})
    assert "revealed" not in json.loads(element), element
    closed = json.loads(await b.raw("describe", {"ref": "closed", "reveal": asked}))["revealed"]
    assert closed["ok"] is False and closed["code"] == "unavailable", closed
    return [*answers, ("describe", function), ("describe", element)]


async def _reveal(b: Bridge) -> Answers:
    ok = await b.raw("reveal", {"ref": "press", "capMs": 1000, "evidence": True, "aim": True, "args": {}, "nested": False})
    await b.raw("release", {})
    unavailable = await b.raw("reveal", {"ref": "closed", "capMs": 500, "evidence": False, "aim": False, "args": {},
                                         "nested": False})
    # Named as a declaration the page no longer holds so (lifecycle/known.py): stale, nothing marked.
    described = json.loads(await b.raw("describe", {"ref": "press"}))
    held = {"doc": described["doc"], "seq": described["seq"] + 1, "risk": described["action"]["risk"]}
    stale = await b.raw("reveal", {"ref": "press", "capMs": 500, "evidence": False, "aim": False, "args": {},
                                   "nested": False, "known": held})
    still = await b.raw("reveal", {"ref": "press", "capMs": 500, "evidence": False, "aim": False, "args": {},
                                   "nested": False, "known": {**held, "seq": described["seq"]}})
    assert json.loads(still)["ok"] is True, still
    await b.raw("release", {})
    return [("reveal", ok), ("reveal", unavailable), ("reveal", stale)]


async def _release(b: Bridge) -> Answers:
    await b.raw("reveal", {"ref": "press", "capMs": 1000, "evidence": False, "aim": False, "args": {}, "nested": False})
    return [("release", await b.raw("release", {})), ("release", await b.raw("release", {}))]


async def _landed(b: Bridge) -> Answers:
    return [("landed", await b.raw("landed", {}))]  # no direct click armed: `unarmed`


async def _typed(b: Bridge) -> Answers:
    # No direct fill armed (`unarmed`); then one armed by reveal on the note field, typed into with one
    # trusted insertion: `landed`.
    unarmed = await b.raw("typed", {})
    await _page(b, "pling.action({ id: 'write_note', description: 'Write the note', risk: 'write', "
                   "target: () => document.getElementById('note') })")
    ok = json.loads(await b.raw("reveal", {"ref": "write_note", "capMs": 1000, "evidence": False, "aim": True,
                                           "args": {}, "nested": False, "fill": True}))
    assert ok["aim"] == {"fill": True}, ok
    # Asked to wait for an insertion that is not sent: `waiting` once the wait is over, the guard kept.
    waiting = await b.raw("typed", {"waitMs": 50})
    assert json.loads(waiting)["landed"] == "waiting", waiting
    await b.page.keyboard.insert_text("typed")
    landed = await b.raw("typed", {})
    assert json.loads(landed)["landed"] == "landed", landed
    # Sent with the insertion (core/fills.py), in whichever order they reach the page: the call waits
    # for it, and answers once the insertion's input event went by (the field holds the text).
    await b.raw("reveal", {"ref": "write_note", "capMs": 1000, "evidence": False, "aim": True, "args": {},
                           "nested": False, "fill": True})
    together, _ = await asyncio.gather(b.raw("typed", {"waitMs": 20_000}), b.page.keyboard.insert_text("typed"))
    assert json.loads(together)["landed"] == "landed", together
    assert await b.page.evaluate("document.getElementById('note').value") == "typed"
    # The focus moved between the reveal and the insertion: the guard cancels it, nothing is typed.
    await b.raw("reveal", {"ref": "write_note", "capMs": 1000, "evidence": False, "aim": True, "args": {},
                           "nested": False, "fill": True})
    await _page(b, "document.body.append(Object.assign(document.createElement('input'), { id: 'other' })); "
                   "document.getElementById('other').focus()")
    await b.page.keyboard.insert_text("lost")
    missed = await b.raw("typed", {})
    assert json.loads(missed)["landed"] == "missed", missed
    values = await b.page.evaluate("[document.getElementById('note').value, document.getElementById('other').value]")
    assert values == ["typed", ""], values
    await b.raw("release", {})
    return [("typed", unarmed), ("typed", waiting), ("typed", landed), ("typed", together), ("typed", missed)]


async def _sent(b: Bridge, call: Awaitable[str]) -> asyncio.Future[str]:
    """``call`` started and its message written to the driver: what is sent after it on the bridge's CDP
    session reaches the page after it."""
    callbacks = b.cdp._impl_obj._connection._callbacks  # type: ignore[attr-defined]
    pending = len(callbacks)
    started = asyncio.ensure_future(call)
    while len(callbacks) == pending and not started.done():
        await asyncio.sleep(0)
    return started


def test_a_typed_call_left_waiting_neither_hangs_nor_takes_the_next_fills_guard(contract: Callable[..., Any]) -> None:
    # A `typed` sent with its insertion waits in the page on the guard it found (fill.js). One left
    # waiting there (its controller gave up on it) while the next fill arms its own guard and sends its
    # own `typed` with its insertion: the left one answers `waiting` at its own bound, and the next
    # fill's answers `landed`. Before, the one waiting slot was the newest call's: the left call either
    # never answered (its wake-up was the newer one's) or was woken by the new insertion and took the
    # new guard (`landed` for text it was not waiting for), the next fill then answering `unarmed`.
    reveal = {"ref": "write_note", "capMs": 1000, "evidence": False, "aim": True, "args": {}, "nested": False,
              "fill": True}

    async def case(b: Bridge) -> Answers:
        await _page(b, "pling.action({ id: 'write_note', description: 'Write the note', risk: 'write', "
                       "target: () => document.getElementById('note') })")
        await b.raw("reveal", reveal)
        left = await _sent(b, b.raw("typed", {"waitMs": 4_000}, budget_ms=30_000))
        await b.raw("reveal", reveal)  # the next fill's guard
        own, _ = await asyncio.gather(b.raw("typed", {"waitMs": 20_000}), b.page.keyboard.insert_text("typed"))
        return [("left", await left), ("own", own)]

    answers = {name: json.loads(text)["landed"] for name, text in contract(case)}
    assert answers == {"left": "waiting", "own": "landed"}, answers


async def _choose(b: Bridge) -> Answers:
    # A select reveal marked: the option asked by its label is set (input and change dispatched); one
    # that is not there says why (Playwright's path then runs).
    await _page(b, "document.body.insertAdjacentHTML('beforeend', '<select id=size><option value=s>Small</option>"
                   "<option value=l>Large</option></select>'); pling.action({ id: 'pick_size', description: 'Pick', "
                   "risk: 'write', target: () => document.getElementById('size') })")
    reveal = {"ref": "pick_size", "capMs": 1000, "evidence": False, "aim": False, "args": {}, "nested": False}
    await b.raw("reveal", reveal)
    missing = await b.raw("choose", {"value": "Huge"})
    assert json.loads(missing) == {"ok": True, "chosen": False, "why": "no option has that value or label now"}, missing
    chosen = await b.raw("choose", {"value": "Large"})
    assert json.loads(chosen)["chosen"] is True and await b.page.evaluate("document.getElementById('size').value") == "l"
    return [("choose", missing), ("choose", chosen)]


async def _run(b: Bridge) -> Answers:
    return [("run", await b.raw("run", {"ref": "save", "args": {"note": "n1"}, "timeoutMs": 2000, "nested": False})),
            ("run", await b.raw("run", {"ref": "fails", "args": {}, "timeoutMs": 2000, "nested": False})),
            *await _run_with_expect(b)]


async def _run_with_expect(b: Bridge) -> Answers:
    """run asked with its expectation: both answers in one, the expectation's as expect gives it."""
    held = await b.raw("run", {"ref": "save", "args": {"note": "n3"}, "timeoutMs": 2000, "nested": False,
                               "expect": {"timeoutMs": 1000, "settleMs": 500, "diff": False}})
    never = await b.raw("run", {"ref": "never", "args": {}, "timeoutMs": 2000, "nested": False,
                                "expect": {"timeoutMs": 100, "settleMs": 100, "diff": False}})
    assert json.loads(held)["expected"]["ok"] is True and json.loads(held)["expected"]["declared"] is True, held
    refused = json.loads(never)["expected"]
    assert refused["ok"] is False and refused["code"] == "never", never
    Refusal.model_validate(refused)
    return [("run", held), ("run", never)]


async def _known(b: Bridge) -> Answers:
    """An action described before (its document, declaration seq and risk), revealed, run and checked
    in one call; named as another declaration, document or risk, it is `stale` and nothing ran."""
    await _page(b, "window.counted = 0; pling.action({ id: 'count', description: 'Count', risk: 'read', "
                   "run: () => ({ n: ++window.counted }) })")
    described = json.loads(await b.raw("describe", {"ref": "count", "reveal": {"capMs": 500, "evidence": False}}))
    known = {"ref": "count", "doc": described["revealed"]["doc"], "seq": described["seq"], "risk": "read", "args": {},
             "capMs": 500, "evidence": True, "timeoutMs": 2000, "expect": {"timeoutMs": 1000, "settleMs": 500, "diff": True}}
    ran = await b.raw("known", known)
    body = json.loads(ran)
    assert body["ran"]["data"] == {"n": 1} and body["ran"]["expected"]["diffed"]["changed"]["observed"] is False, ran
    stale = await b.raw("known", {**known, "seq": described["seq"] + 1})
    other_doc = await b.raw("known", {**known, "doc": "another"})
    other_risk = await b.raw("known", {**known, "risk": "write"})
    assert json.loads(other_doc)["code"] == json.loads(other_risk)["code"] == "stale", (other_doc, other_risk)
    assert await b.page.evaluate("window.counted") == 1
    return [("known", ran), ("known", stale)]


async def _ran(b: Bridge) -> Answers:
    # run()'s answer is kept while its expectation is polled in the same call: asked meanwhile, `ran`
    # hands it over once (what the controller asks when that call hangs), then has none. Asked until
    # run() has answered (before, `gone`), however loaded the machine; the expectation (never met) keeps
    # the call open 10 s, room for the asking.
    running = asyncio.ensure_future(b.raw("run", {"ref": "never", "args": {}, "timeoutMs": 2000, "nested": False,
                                                  "expect": {"timeoutMs": 10_000, "settleMs": 100, "diff": False}},
                                          budget_ms=30_000))

    async def handed_over() -> str | None:
        answer = await b.raw("ran", {})
        return answer if json.loads(answer)["ok"] is True else None
    kept = await _until(handed_over, "run()'s answer kept while its expectation is polled")
    again = await b.raw("ran", {})
    assert json.loads(kept)["ok"] is True and "expected" not in json.loads(kept), kept
    assert json.loads(await running)["expected"]["code"] == "never"
    return [("ran", kept), ("ran", again)]


async def _synthetic(b: Bridge) -> Answers:
    await b.raw("reveal", {"ref": "press", "capMs": 1000, "evidence": False, "aim": False, "args": {}, "nested": False})
    return [("synthetic", await b.raw("synthetic", {}))]


async def _expect(b: Bridge) -> Answers:
    await b.raw("run", {"ref": "save", "args": {"note": "n2"}, "timeoutMs": 2000, "nested": False})
    held = await b.raw("expect", {"ref": "save", "args": {"note": "n2"}, "timeoutMs": 1000, "settleMs": 500, "diff": False})
    never = await b.raw("expect", {"ref": "never", "args": {}, "timeoutMs": 100, "settleMs": 100, "diff": False})
    return [("expect", held), ("expect", never)]


async def _settle(b: Bridge) -> Answers:
    return [("settle", await b.raw("settle", {"capMs": 500}))]


async def _diff(b: Bridge) -> Answers:
    refused = await b.raw("diff", {})  # no before snapshot yet
    await b.raw("begin", {"evidence": True})
    await b.raw("run", {"ref": "toggle@a", "args": {}, "timeoutMs": 2000, "nested": False})
    return [("diff", refused), ("diff", await b.raw("diff", {}))]


async def _whoami(b: Bridge) -> Answers:
    return [("whoami", await b.raw("whoami", {}))]


async def _begin(b: Bridge) -> Answers:
    return [("begin", await b.raw("begin", {"evidence": True})), ("begin", await b.raw("begin", {"evidence": False}))]


async def _adopt(b: Bridge) -> Answers:
    return [("adopt", await b.raw("adopt", {}))]


async def _diff_from(b: Bridge) -> Answers:
    # The real path: a before snapshot taken, the document replaced, the snapshot it handed over as it
    # left (navigate.js, through the controller's binding) diffed in the new document.
    _, carried = await _carried_to_a_new_document(b)
    return [("diffFrom", await b.raw("diffFrom", text=carried)), ("diffFrom", await b.raw("diffFrom", {}))]


async def _hold(b: Bridge) -> Answers:
    # As diffFrom's: the new document is handed the snapshot the one before carried (named by its id).
    doc, carried = await _carried_to_a_new_document(b)
    held = '{"from":' + json.dumps(doc) + "," + carried[1:]
    return [("hold", await b.raw("hold", text=held)), ("hold", await b.raw("hold", {"from": doc}))]


async def _carried_to_a_new_document(b: Bridge) -> tuple[str, str]:
    """The document's id and the before snapshot it carried as it was replaced (a reload)."""
    doc = json.loads(await b.raw("whoami", {}))["doc"]
    await b.raw("begin", {"evidence": True})
    await _page(b, "location.reload()")
    carried = await _until(lambda: asyncio.sleep(0, b.carried(doc)), "the leaving document's before snapshot")

    async def new_document() -> bool:
        try:
            return json.loads(await b.raw("whoami", {}, budget_ms=1_000, terminate=False))["doc"] != doc
        except PlingError:  # the new document has no bridge yet
            return False

    await _until(new_document, "the new document")
    return doc, carried


async def _handoff(b: Bridge) -> Answers:
    return [("handoff", await b.raw("handoff", {"ref": "person"})), ("handoff", await b.raw("handoff", {"ref": "nope"}))]


async def _restore(b: Bridge) -> Answers:
    token = json.loads(await b.raw("model", {}))["state"]["token"]["value"]
    name = re.fullmatch(r"<secret>(\w+)</secret>", token)
    assert name, token
    return [("restore", await b.raw("restore", {"names": [name.group(1), "unknown"]}))]


async def _configure(b: Bridge) -> Answers:
    return [("configure", await b.raw("configure", {"risks": {"save": "danger"}}))]


async def _protect(b: Bridge) -> Answers:
    return [("protect", await b.raw("protect", {"values": ["typed-4242"]}))]


async def _mask(b: Bridge) -> Answers:
    return [("mask", await b.raw("mask", {"on": True})), ("mask", await b.raw("mask", {"on": False}))]


async def _interaction(b: Bridge) -> Answers:
    # A WebMCP tool asks for the person during its run; the test answers for the controller.
    asked: list[dict[str, Any]] = []
    b.listeners["interact"] = lambda message: asked.append(message) if message.get("phase") == "ask" else None
    running = asyncio.ensure_future(b.raw("run", {"ref": "ask_person", "args": {}, "timeoutMs": 10_000, "nested": False},
                                          budget_ms=10_000))
    await _until(lambda: asyncio.sleep(0, bool(asked)), "the tool's requestUserInteraction")
    answered = await b.raw("interaction", {"id": asked[0]["id"], "approve": True, "reason": "the test"})
    ran = json.loads(await running)
    assert ran["ok"] is True and ran["data"] == "asked", ran
    return [("interaction", answered), ("interaction", await b.raw("interaction", {"id": "none", "approve": True}))]


async def _tool_answer(b: Bridge) -> Answers:
    # The page calls one of its exported tools; the test answers for the controller with a receipt.
    calls: list[dict[str, Any]] = []
    b.listeners["call"] = calls.append
    await _page(b, "window.callExported().then((r) => { window.toolResult = r; })")
    await _until(lambda: asyncio.sleep(0, bool(calls)), "the page's call of its exported tool")
    answered = await b.raw("toolAnswer", {"cid": calls[0]["cid"], "receipt": {"ok": True, "result": "done"}})
    return [("toolAnswer", answered), ("toolAnswer", await b.raw("toolAnswer", {"cid": "none", "receipt": {}}))]


async def _pointed_at(b: Bridge) -> Answers:
    box = json.loads(await b.raw("reveal", {"ref": "press", "capMs": 1000, "evidence": False, "aim": True,
                                            "args": {}, "nested": False}))["aim"]
    await b.raw("release", {})
    return [("pointedAt", await b.raw("pointedAt", {"x": box["x"], "y": box["y"]})),
            ("pointedAt", await b.raw("pointedAt", {"x": -10, "y": -10}))]


async def _pointed_again(b: Bridge) -> Answers:
    return [("pointedAgain", await b.raw("pointedAgain", {}))]


async def _focused(b: Bridge) -> Answers:
    await _page(b, "document.getElementById('note').focus()")
    return [("focused", await b.raw("focused", {}))]


CASES: dict[str, tuple[Callable[[Bridge], Awaitable[Answers]], list[str]]] = {
    # operation: (its case, the refusal codes it shows, in order)
    "model": (_model, []),
    "describe": (_describe, ["not_found", "record_required"]),
    "reveal": (_reveal, ["unavailable", "stale"]),
    "release": (_release, []),
    "landed": (_landed, []),
    "typed": (_typed, []),
    "choose": (_choose, []),
    "run": (_run, ["threw"]),
    "known": (_known, ["stale"]),
    "ran": (_ran, ["gone"]),
    "synthetic": (_synthetic, []),
    "expect": (_expect, ["never"]),
    "settle": (_settle, []),
    "diff": (_diff, ["no_snapshot"]),
    "whoami": (_whoami, []),
    "begin": (_begin, []),
    "adopt": (_adopt, []),
    "diffFrom": (_diff_from, ["no_snapshot"]),
    "hold": (_hold, ["no_snapshot"]),
    "handoff": (_handoff, ["gone"]),
    "restore": (_restore, []),
    "configure": (_configure, []),
    "protect": (_protect, []),
    "mask": (_mask, []),
    "interaction": (_interaction, ["gone"]),
    "toolAnswer": (_tool_answer, ["gone"]),
    "pointedAt": (_pointed_at, []),
    "pointedAgain": (_pointed_again, []),
    "focused": (_focused, []),
}


def _fields(model: Any) -> set[str]:
    return set(model.model_fields)


def test_every_operation_has_a_contract_case() -> None:
    assert sorted(CASES) == sorted(operations())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_operation_answers_its_model(contract: Callable[..., Any], name: str) -> None:
    case, refusals = CASES[name]
    answers = [(op, json.loads(text)) for op, text in contract(case) if op == name]
    model = operations()[name]
    refused: list[str] = []
    for payload in answers:
        body = payload[1]
        assert isinstance(body, dict), body
        if model is PageModel:  # the one untagged answer: the model, passed on as the page wrote it
            assert "ok" not in body
            PageModel.model_validate(body)
        elif body.get("ok") is True:
            assert set(body) <= _fields(model) | {"ok"}, sorted(set(body) - _fields(model))
            model.model_validate(ran_from(body) if name == "run" else body)
        else:
            assert body.get("ok") is False, body
            assert set(body) <= _fields(Refusal), sorted(set(body) - _fields(Refusal))
            refused.append(Refusal.model_validate(body).code.value)
    assert any(body.get("ok") is True or model is PageModel for _, body in answers)
    assert refused == refusals


def test_a_dom_node_in_page_data_is_named_by_tag_and_id(contract: Callable[..., Any]) -> None:
    # bound.js's describeElement: once replaced, in the one closure, by demonstration.js's function of
    # the same name, which answered {ok, found, kind…} for the node instead.
    (_, text), _ = contract(_model)
    assert json.loads(text)["state"]["button"]["value"] == "<button#press>"


def _named_in_python() -> set[str]:
    """Every operation name the package's Python passes to the bridge: the first argument of
    ``_call``/``raw``, and ``__plingBridge.call('…')`` in scripts it writes."""
    names: set[str] = set()
    for path in (ROOT / "pling_browser").rglob("*.py"):
        text = path.read_text()
        names |= set(re.findall(r"__plingBridge\.call\('(\w+)'", text))
        for node in ast.walk(ast.parse(text)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("_call", "raw")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                names.add(node.args[0].value)
    return names


def test_python_names_exactly_the_tables_operations() -> None:
    assert sorted(_named_in_python()) == sorted(operations())
