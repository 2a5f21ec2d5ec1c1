"""A declared drag (``{ drag: id }``, docs/adapters.md's gestures table): the pointer down on the target,
DRAG_STEPS moves onto another record's element, up a quarter past the destination's centre the way it
travels (the default, ``drop: 'past'``) or at the centre (``drop: 'centre'``), with Playwright's
actionability checks on both ends first; Playwright's mouse drives an HTML5 drag in Chromium as its
``drag_to`` does. core/gestures.py runs it within the budget of any gesture."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

DRAG_STEPS = 10  # pointer moves per drag (Playwright's 1): a sortable list reorders as one passes another's centre


async def drag(step: Callable[[Any], Awaitable[None]], target: Any, destination: Any, timeout_ms: float, force: bool,
               drop: str | None) -> None:
    """The drag, let go where ``_drop_point`` says. The destination's checks run first with nothing
    dispatched (a trial hover at that point), then the target's (its hover, which brings the pointer to
    its centre), then the pointer goes down, travels in DRAG_STEPS moves and comes up. Its last moves
    (``_last_leg``) go straight along the axis the list reads on: a sortable in a grid of floats puts the
    item before or after the one under the pointer by the way the pointer last went (right or down:
    after), so a diagonal arrival from below-left put it one place too far (drag-items-grid, 6 of 20
    seeds). When the dragged element already covers the drop point (a box lying over part of the one it
    goes into), the destination's hit test could only ever find the dragged element: it is skipped."""
    source, box = await target.bounding_box(), await destination.bounding_box()
    if not source or not box:  # not laid out: Playwright's own drag says why
        await step(target.drag_to(destination, timeout=timeout_ms, force=force, steps=DRAG_STEPS))
        return
    point = _drop_point(source, box, drop) or {"x": box["width"] / 2, "y": box["height"] / 2}
    if not force and not _covers(source, box, point):
        await destination.hover(trial=True, timeout=timeout_ms, position=point)
    await step(target.hover(timeout=timeout_ms, force=force))
    mouse = target.page.mouse
    end = (box["x"] + point["x"], box["y"] + point["y"])
    turn = _last_leg(source, box, end)
    await step(mouse.down())
    await step(mouse.move(*turn, steps=DRAG_STEPS - 2))
    await step(mouse.move(*end, steps=2))
    await step(mouse.up())


def _last_leg(source: dict[str, float], box: dict[str, float], end: tuple[float, float]) -> tuple[float, float]:
    """Where the last leg starts: half the destination's height below or above the end when the drag
    goes to another row (it then ends going up or down), else half its width beside it."""
    dy = (box["y"] + box["height"] / 2) - (source["y"] + source["height"] / 2)
    dx = (box["x"] + box["width"] / 2) - (source["x"] + source["width"] / 2)
    if abs(dy) >= box["height"] / 2:
        return end[0], end[1] + (box["height"] / 2 if dy < 0 else -box["height"] / 2)
    return end[0] + (box["width"] / 2 if dx < 0 else -box["width"] / 2), end[1]


def _covers(source: dict[str, float], box: dict[str, float], point: dict[str, float] | None) -> bool:
    x, y = box["x"] + (point["x"] if point else box["width"] / 2), box["y"] + (point["y"] if point else box["height"] / 2)
    return source["x"] <= x <= source["x"] + source["width"] and source["y"] <= y <= source["y"] + source["height"]


def _drop_point(source: dict[str, float] | None, box: dict[str, float] | None,
                drop: str | None = None) -> dict[str, float] | None:
    """Where a drag lets go: a quarter past the destination's centre the way it travels, as a hand does
    (a sortable list reorders as the dragged item passes the other's centre), or, declared ``drop:
    'centre'``, at the centre itself (a box put inside another lands where it was aimed)."""
    if drop == "centre" or not source or not box:
        return None  # Playwright's centre
    point = {"x": box["width"] / 2, "y": box["height"] / 2}
    for axis, size in (("x", "width"), ("y", "height")):
        travel = (box[axis] + box[size] / 2) - (source[axis] + source[size] / 2)
        point[axis] += box[size] / 4 * ((travel >= 1) - (travel <= -1))
    return point
