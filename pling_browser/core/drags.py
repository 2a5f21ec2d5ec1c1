"""A declared drag (``{ drag: id }``, docs/adapters.md's gestures table): Playwright's ``drag_to`` from the
target onto another record's element, in DRAG_STEPS pointer moves, let go a quarter past the
destination's centre the way it travels (the default, ``drop: 'past'``) or at the centre (``drop:
'centre'``); core/gestures.py runs it with the actionability checks and budget of any gesture."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

DRAG_STEPS = 10  # pointer moves per drag (Playwright's 1): a sortable list reorders as one passes another's centre


async def drag(step: Callable[[Any], Awaitable[None]], target: Any, destination: Any, timeout_ms: float, force: bool, drop: str | None) -> None:
    """The drag, let go where ``_drop_point`` says. When the dragged element already covers that point
    (a box lying over part of the one it goes into), the destination's hit test could only ever find
    the dragged element, and Playwright would wait for the whole budget: the target's own checks run
    alone (a trial hover), then the drag goes without the destination's."""
    source, box = await target.bounding_box(), await destination.bounding_box()
    point = _drop_point(source, box, drop)
    if source and box and not force and _covers(source, box, point):
        await target.hover(trial=True, timeout=timeout_ms)
        force = True
    await step(target.drag_to(destination, timeout=timeout_ms, force=force, steps=DRAG_STEPS, target_position=point))


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
