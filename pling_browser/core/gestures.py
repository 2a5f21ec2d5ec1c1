"""Trusted input on the target the bridge marked, by one of two paths; the receipt's log says which.

The direct path (buttons, links and checkboxes in the action's own document): reveal already found
the target visible and enabled, scrolled it into view and hit-tested the centre of its first box in
the same bridge call (js_bridge/gesture.js), so the click goes straight to that point as trusted
mouse input, without Playwright's actionability waits. The page may move between the hit test and
the click: a guard the bridge put on the window, ahead of every listener of the page's, lets the
click's events through only when the first of them lands in the target. When it does not (or when the
direct path does not apply: another gesture, a frame, a closed shadow root, a covered centre)
Playwright's own actionability checks run: visible, stable, enabled, receives events.

A plain text field (an input taking typed text, or a textarea) given a value has a direct path too
(js_bridge/fill.js, issue 31): the reveal call focuses it and selects its text after the before
snapshot, the text goes in as one trusted insertion (what Playwright's fill sends), and a guard lets
it through only when its ``beforeinput`` is the field's (cancelled otherwise: Playwright's fill then
runs); landed, the field is left as a person leaves it (``change``). Other inputs and
contenteditable take Playwright's path. A select asked for one option is set by the bridge as
Playwright's select_option sets it (its ``input`` and ``change`` are untrusted there too), in one call
(js_bridge/choose.js); a multiple select, a list, or an option not there yet takes Playwright's path.

A declared gesture (``Gesture``: the element itself clicked, double-clicked, focused or hovered, at its
centre or at a declared point; a drag onto another record's element, in steps (core/drags.py); the
value typed key by key, a key pressed, a fill that ends with blur, Enter or nothing) always takes Playwright's path, with the
actionability each of its calls checks. A gesture of several steps (type, then press, then commit) has
started once its first step went out: a later step that gives up is the page not answering, never
"nothing ran".

Errors come out as ``TargetNotOperable`` (nothing was dispatched), ``PageUnresponsive`` (dispatched,
then the page did not answer) or another Pling error (core/playwright.py)."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import PageNavigated, PageUnresponsive
from .answers import Aim, Gesture, Landed
from .bridge import Bridge
from .drags import drag
from .fills import type_in
from .playwright import translate_playwright_errors

Path = Literal["direct", "playwright"]


class TargetNotOperable(Exception):
    """Playwright gave up on the target before dispatching anything: nothing ran."""

    def __init__(self, reason: str, direct_why: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.direct_why = direct_why  # why the direct path was not taken (or refused at the click)


class CheckboxUnchanged(Exception):
    """The direct click reached the checkbox, and its state is not the one asked for."""


@dataclass(frozen=True)
class Operated:
    path: Path
    why: str | None = None  # why the direct path was not taken, or was refused at the click
    released: bool = False  # the bridge already unmarked the target
    expected: dict[str, Any] | Exception | None = None  # a direct fill's expectation, asked with it


ValueNeed = Literal["required", "optional", "no"]


def value_need(control: str, gesture: Gesture | None) -> ValueNeed:
    """Whether operating the target types or selects a value: the control's own gesture fills a text
    field and selects in a select; a declared one types when it says ``type`` or ``commit`` (a fill),
    and a lone key press on a text field is after the fill when a value is given."""
    if gesture is None:
        return "required" if control in ("text", "select") else "no"
    if gesture.act or gesture.drag:
        return "no"
    if gesture.type or gesture.commit:
        return "required"
    return "optional" if control == "text" else "no"


def direct_applies(control: str, value: Any, gesture: Any, aim: Aim | None) -> bool:
    if aim is None or aim.x is None or aim.y is None or gesture is not None:
        return False
    if control in ("button", "link"):
        return True
    # A checkbox already in the state asked for is left to Playwright's set_checked (it clicks nothing).
    return control == "checkbox" and (value is None or (isinstance(value, bool) and aim.checked is not value))


async def operate(bridge: Bridge, mark: str, control: str, value: Any, timeout_ms: float, where: str = "document",
                  gesture: Gesture | None = None, aim: Aim | None = None, doc: str | None = None,
                  drop: str | None = None, expect: dict[str, Any] | None = None) -> Operated:
    """Operate the marked target as a person would: click a button or link, set a checkbox (``value``
    True/False) or toggle it (``value`` None), fill a text field (and leave it, so the page gets
    ``change``), select options, or the declared gesture (``drop``: the mark on a drag's destination).
    ``doc`` is the bridge id of the action's document: another one answering after a direct click
    means the click navigated (``PageNavigated``, an outcome). ``expect``: asked of a direct fill
    that landed in the same call (fill.js); its answer (or the error its hang raised) in ``expected``."""
    why = aim.why if aim is not None else None
    if _fills_directly(bridge, control, value, gesture, aim):
        landed, hung = await type_in(bridge, str(value), timeout_ms, expect)
        if doc is not None and landed.doc is not None and landed.doc != doc:
            raise PageNavigated("The direct fill replaced the document (another document answered after it)")
        if landed.landed == "landed":
            return Operated("direct", released=True, expected=hung or landed.expected)
        why = {"missed": "the text's input event went to another element (the focus moved); it was cancelled",
               "nowhere": "the text reached no element of this document",
               "unarmed": "the guard had lapsed before the text was typed"}[landed.landed]
    elif _chooses_directly(bridge, control, value, gesture, where):
        chosen = await bridge.choose(str(value))
        if chosen.chosen:
            return Operated("direct", released=True)
        why = chosen.why
    elif direct_applies(control, value, gesture, aim):
        assert aim is not None and aim.x is not None and aim.y is not None
        landed = await _click_at(bridge, aim.x, aim.y, timeout_ms)
        if doc is not None and landed.doc is not None and landed.doc != doc:
            raise PageNavigated("The direct click replaced the document (another document answered after it)")
        if landed.landed == "landed":
            if control == "checkbox" and isinstance(value, bool) and landed.checked is not value:
                raise CheckboxUnchanged(f"clicking the checkbox left it {'checked' if landed.checked else 'unchecked'}")
            return Operated("direct", released=True)
        why = {"missed": "the click's first event hit another element (the page moved); its events were swallowed",
               "nowhere": "the click reached no element of this document",
               "unarmed": "the guard had lapsed before the click"}[landed.landed]
    try:
        await _playwright(bridge, mark, control, value, timeout_ms, where, gesture, drop)
    except TargetNotOperable as error:
        error.direct_why = why
        raise
    return Operated("playwright", why)


def _fills_directly(bridge: Bridge, control: str, value: Any, gesture: Any, aim: Aim | None) -> bool:
    """A plain text field the bridge focused and selected (fill.js), with text to type."""
    return (control == "text" and gesture is None and aim is not None and aim.fill and not bridge.frame_hosted
            and value is not None and str(value) != "")


def _chooses_directly(bridge: Bridge, control: str, value: Any, gesture: Any, where: str) -> bool:
    """A select in the action's own document, one option asked by its value or label (choose.js)."""
    return control == "select" and gesture is None and where == "document" and not bridge.frame_hosted \
        and isinstance(value, (str, int, float)) and not isinstance(value, bool)


async def _click_at(bridge: Bridge, x: float, y: float, timeout_ms: float) -> Landed:
    """A trusted click at a viewport point; then the guard's answer, asked whatever happened, so a
    guard never outlives its click."""
    try:
        async with translate_playwright_errors():
            try:
                # The browser answers the click once the page handled its events: a handler that
                # outlasts the action's budget is a page that did not answer (dispatched: started).
                await asyncio.wait_for(bridge.page.mouse.click(x, y), timeout_ms / 1000)
            except asyncio.TimeoutError:
                raise PageUnresponsive(f"The click was sent and did not finish within {timeout_ms:.0f} ms") from None
    except BaseException:
        with contextlib.suppress(Exception):
            await bridge.landed()
        raise
    return await bridge.landed()


class _Steps:
    """How far a gesture of several Playwright calls got: once one finished, the write path may have run."""

    def __init__(self) -> None:
        self.done = 0

    async def __call__(self, call: Any) -> None:
        await call
        self.done += 1


async def _playwright(bridge: Bridge, mark: str, control: str, value: Any, timeout_ms: float, where: str,
                      gesture: Gesture | None, drop: str | None) -> None:
    """Playwright's trusted input with its full actionability checks. The target is found where the
    bridge says it lives: by its mark in this document or in the same-origin frame holding it, or,
    behind a closed shadow root that no selector enters, by a handle on the element itself (then
    Playwright's hit-target check cannot see into the root: the bridge has checked visibility and
    disabled state, and the click is forced)."""
    wait_s = timeout_ms / 1000 + 5
    steps = _Steps()

    def timed_out(call_log: str) -> Exception:  # Playwright's own deadline passed: its call log says how far it got
        if steps.done or _dispatched(call_log):  # the gesture went out; the page's handler was still busy
            return PageUnresponsive(f"Playwright dispatched the {control} gesture, then gave up waiting "
                                    f"within {timeout_ms:.0f} ms")
        return TargetNotOperable(_why_not_operable(call_log))

    async with translate_playwright_errors():
        scope, target, force = await _find_target(bridge, mark, where)
        destination = scope.locator(f'[data-pling-target="{drop}"]') if drop and scope is not None else None
    try:
        async with translate_playwright_errors(on_timeout=timed_out):
            await asyncio.wait_for(_gesture(steps, target, control, value, timeout_ms, force, gesture, destination),
                                   wait_s)
    except asyncio.TimeoutError:
        raise PageUnresponsive(f"Operating the target did not finish within {timeout_ms:.0f} ms") from None


async def _find_target(bridge: Bridge, mark: str, where: str) -> tuple[Any, Any, bool]:
    """The scope (page or frame) holding the marked target, the target, and whether to force past a
    hit-target check that cannot see it."""
    selector = f'[data-pling-target="{mark}"]'
    if where == "closed_shadow":
        handle = await bridge.target_handle()
        if handle is None:
            raise TargetNotOperable("the target is gone")
        return None, handle, True
    if where == "frame" or bridge.frame_hosted:  # a same-origin frame's target, or the target of a frame's own action
        for frame in bridge.page.frames[1:]:
            try:
                if await frame.locator(selector).count():
                    return frame, frame.locator(selector), False
            except Exception:  # a frame that went away or that Playwright cannot enter
                continue
        raise TargetNotOperable("the target is in no frame Playwright can reach (the frame went away?)")
    return bridge.page, bridge.page.locator(selector), False


async def _gesture(step: _Steps, target: Any, control: str, value: Any, timeout_ms: float, force: bool,
                   gesture: Gesture | None, destination: Any) -> None:
    if gesture is None:
        await _own(step, target, control, value, timeout_ms, force)
    elif gesture.act == "hover":
        await step(target.hover(timeout=timeout_ms, force=force, position=_position(gesture)))
    elif gesture.act == "dblclick":
        await step(target.dblclick(timeout=timeout_ms, force=force))
    elif gesture.act == "click":
        await step(target.click(timeout=timeout_ms, force=force, position=_position(gesture)))
    elif gesture.act == "focus":
        await step(target.focus(timeout=timeout_ms))
    elif gesture.drag:
        if destination is None:
            raise TargetNotOperable("a drag needs its destination where Playwright can locate it")
        await drag(step, target, destination, timeout_ms, force, gesture.drop)
    else:
        await _keys(step, target, control, value, timeout_ms, force, gesture)


def _position(gesture: Gesture) -> dict[str, float] | None:
    """A declared point of the element (the bridge resolved it and found it inside), else its centre."""
    return {"x": gesture.at.x, "y": gesture.at.y} if gesture.at else None


async def _own(step: _Steps, target: Any, control: str, value: Any, timeout_ms: float, force: bool) -> None:
    """The control's own gesture: click a button or link, set or toggle a checkbox, fill a text field
    (and leave it), select options."""
    if control in ("button", "link", "gesture"):
        await step(target.click(timeout=timeout_ms, force=force))
    elif control == "checkbox":
        if isinstance(value, bool):
            await step(target.set_checked(value, timeout=timeout_ms, force=force))
        else:
            await step(target.click(timeout=timeout_ms, force=force))
    elif control == "text":
        await step(target.fill(str(value), timeout=timeout_ms, force=force))
        await _commit(step, target, "blur", timeout_ms)
    elif control == "select":
        option = value if isinstance(value, list) else str(value)
        await step(target.select_option(option, timeout=timeout_ms, force=force))
    else:
        raise ValueError(f"no trusted input operates a {control} control")


async def _keys(step: _Steps, target: Any, control: str, value: Any, timeout_ms: float, force: bool,
                gesture: Gesture) -> None:
    """Typing, a key, and how the typing ends. ``type`` sends the value as keystrokes (over what the
    field held: its text is selected first); otherwise a text field is filled when a value is given
    (always with ``commit``). Then the key, then the commit (default ``blur``: the browser fires
    ``change`` as after a person's typing)."""
    typed = False
    if gesture.type:
        text = _text(value)
        if control == "text":
            await step(target.select_text(timeout=timeout_ms, force=force))
        if text:
            await step(target.press_sequentially(text, timeout=timeout_ms))
        elif control == "text":  # nothing to type: the selected text is deleted, as a person would
            await step(target.press("Backspace", timeout=timeout_ms))
        else:
            await step(target.focus(timeout=timeout_ms))
        typed = True
    elif fills(control, gesture, value):
        await step(target.fill(_text(value), timeout=timeout_ms, force=force))
        typed = True
    if gesture.press:
        await step(target.press(gesture.press, timeout=timeout_ms))
    if typed:
        await _commit(step, target, gesture.commit or "blur", timeout_ms)


async def _commit(step: _Steps, target: Any, commit: str, timeout_ms: float) -> None:
    if commit == "enter":
        await step(target.press("Enter", timeout=timeout_ms))
    elif commit == "blur":
        # A person's typing ends when they leave the field: the browser fires its own `change` on
        # blur (Vue's .lazy, onchange handlers). Playwright's fill fires `input` only.
        await step(target.evaluate("element => element.blur()"))


def _text(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    return str(value)


def fills(control: str, gesture: Gesture, value: Any) -> bool:
    """Whether a key gesture (not ``type``) fills the text field first: always with ``commit``, and
    with a lone ``press`` when a value is given."""
    return control == "text" and not gesture.type and (gesture.commit is not None or value is not None)


def words(control: str, gesture: Gesture | None, value: Any = None, drop_id: str | None = None) -> str:
    """What ran, for the receipt's log: ``<verb> the <control>`` then, for a declared gesture, its
    steps and the declaration itself (values are never written: they may be secrets)."""
    verb = {"button": "clicked", "link": "clicked", "checkbox": "toggled", "text": "filled",
            "select": "selected an option in", "gesture": "clicked"}.get(control, "operated")
    if gesture is None:
        return f"{verb} the {control}"
    control = "element" if control == "gesture" else control  # not a native control: the element itself
    act = {"hover": "hovered over", "dblclick": "double-clicked", "click": "clicked", "focus": "focused"}
    typed = not gesture.act and not gesture.drag and fills(control, gesture, value)
    if gesture.act:
        head = f"{act[gesture.act]} the {control}" + (f" at ({gesture.at.x:g}, {gesture.at.y:g}) px from its top left"
                                                      if gesture.at else "")
    elif gesture.drag:
        head = f"dragged the {control} onto {gesture.dragType + ' ' if gesture.dragType else 'record '}{drop_id}"
    elif gesture.type:
        head = f"typed the value key by key into the {control}"
    elif typed:
        head = f"filled the {control}"
    else:
        head = f"pressed {gesture.press} on the {control}"
    tail = []
    if (gesture.type or typed) and gesture.press:
        tail.append(f"then pressed {gesture.press}")
    if gesture.type or typed:
        tail.append({"blur": "then left it (blur)", "enter": "then pressed Enter (commit)",
                     "none": "and kept the focus (commit 'none')"}[gesture.commit or "blur"])
    return head + (", " + ", ".join(tail) if tail else "") + f" (declared gesture {gesture.declared()})"


def _dispatched(message: str) -> bool:
    """Whether Playwright's call log says the input events were sent ("performing click action",
    "click action done", "fill action done"…): then the write path may have run."""
    lines = [line.strip(" -").lower() for line in message.splitlines()]
    if any("action done" in line for line in lines):
        return True
    performing = [i for i, line in enumerate(lines) if line.startswith("performing ")]
    if not performing:
        return False
    # Playwright's hit-target check refuses the events of an attempt whose point another element
    # covers ("… intercepts pointer events", then "retrying"): that attempt dispatched nothing.
    after = lines[performing[-1] + 1:]
    return not any("intercepts pointer events" in line or line.startswith("retrying") for line in after)


def _why_not_operable(message: str) -> str:
    """The last check that failed in Playwright's call log ("element is not enabled", "… intercepts
    pointer events"), whichever attempt the deadline fell in: a retry cut short after its checks
    passed ("element is visible, enabled and stable") says nothing new. Without a failed check, the
    last thing it waited for."""
    reasons = [line.strip(" -") for line in message.splitlines() if line.strip().startswith("-")]

    def failed(line: str) -> bool:
        if line.startswith("element is"):
            return " not " in f" {line} " or "outside" in line
        return line.startswith("<") or "intercepts pointer events" in line

    for pick in (failed, lambda line: line.startswith(("element is", "waiting for element"))):
        found = [line for line in reasons if pick(line)]
        if found:
            return found[-1][:200]
    return reasons[-1][:200] if reasons else "it never became operable"
