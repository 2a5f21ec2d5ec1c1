"""A spot found by the page's hotter-and-colder answers, for the generic policy (policy_generic.py), as a
person plays the game: when the instruction asks to find (and click) a spot it names by a word of
temperature ("Find and click on the HOT area") and the model offers a read action that takes two numbers
with bounds (the pointer to a point x, y of an area) and a write action with the same two params (a click
there), the pointer visits a grid over the area; after each visit the state that changed says how hot it
is there (ICE COLD < COLD < COOL < WARM < HOT). The next grid is finer (half the spacing) around the centre of
the hottest points found so far, until the state says the word the instruction names: the click goes there.
Hotter means closer; nothing else about the page is assumed (no distances, no task).

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError

SCALE = {"freezing": 0, "ice cold": 0, "icy": 0, "cold": 1, "cool": 2, "lukewarm": 3, "warm": 3, "hot": 4,
         "very hot": 5, "burning": 5, "boiling": 5}
_WORD = re.compile(r"\b(" + "|".join(sorted(SCALE, key=len, reverse=True)) + r")\b", re.I)
FIND = re.compile(r"\b(find|locate|search for|look for)\b", re.I)
Point = tuple[float, float]


def level(text: Any) -> int | None:
    """How hot a text says it is (the hottest word in it), or None when it says nothing of it."""
    found = [SCALE[m.lower()] for m in _WORD.findall(str(text))] if isinstance(text, str) else []
    return max(found) if found else None


def _bounds(action: dict[str, Any]) -> tuple[list[str], list[tuple[float, float]]] | None:
    """The two required number params with a minimum and a maximum, in the schema's order."""
    params = action.get("params") or {}
    props = params.get("properties") or {}
    names = [n for n in params.get("required") or [] if (props.get(n) or {}).get("type") in ("number", "integer")]
    if len(names) != 2 or len(params.get("required") or []) != 2:
        return None
    if any(not isinstance(props[n].get(k), (int, float)) for n in names for k in ("minimum", "maximum")):
        return None
    return names, [(float(props[n]["minimum"]), float(props[n]["maximum"])) for n in names]


def probe_and_click(model: dict[str, Any]) -> tuple[str, str, list[str], list[tuple[float, float]]] | None:
    """(probe action, click action, the two params, their bounds): a read action and a write action
    taking the same two bounded numbers."""
    actions = [a for a in model.get("actions") or [] if not a.get("record") and a.get("available", True) is not False]
    probes = [(a, _bounds(a)) for a in actions if a.get("risk") == "read" and _bounds(a)]
    clicks = [a for a in actions if a.get("risk") in ("write", None) and _bounds(a)]
    if len(probes) != 1 or len(clicks) != 1:
        return None
    probe, bounds = probes[0]
    assert bounds is not None
    if (_bounds(clicks[0]) or ([], []))[0] != bounds[0]:
        return None
    return probe["id"], clicks[0]["id"], bounds[0], bounds[1]


def grid(centre: Point, step: Point, per_side: int, bounds: list[tuple[float, float]]) -> list[Point]:
    """per_side x per_side points around centre, step apart, kept inside the bounds, whole pixels."""
    half = (per_side - 1) / 2
    points = []
    for j in range(per_side):
        for i in range(per_side):
            x = min(max(centre[0] + (i - half) * step[0], bounds[0][0]), bounds[0][1])
            y = min(max(centre[1] + (j - half) * step[1], bounds[1][0]), bounds[1][1])
            points.append((float(round(x)), float(round(y))))
    return list(dict.fromkeys(points))


def _said(result: dict[str, Any], key: str | None) -> tuple[str | None, int | None]:
    """The state key the hotness is in, and the level a probe's receipt says (None: unchanged)."""
    changed = ((result.get("changed") or {}).get("state") or {}).get("changed") or {}
    for name, change in changed.items():
        if (key is None or name == key) and level((change or {}).get("to")) is not None:
            return name, level(change["to"])
    return key, None


async def seek(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str],
               most: int = 48) -> tuple[dict[str, Any], list[str]]:
    """Find the spot the instruction names by its temperature, then click it; answers the model and the refs."""
    wanted = level(ins.text)
    found = probe_and_click(model) if wanted is not None and FIND.search(ins.text) else None
    if found is None:
        return model, []
    probe, click, names, bounds = found
    seen: dict[Point, int] = {}
    key, now = None, None
    span = (bounds[0][1] - bounds[0][0], bounds[1][1] - bounds[1][0])
    step, per_side = (span[0] / 4, span[1] / 4), 4
    centre = ((bounds[0][0] + bounds[0][1]) / 2, (bounds[1][0] + bounds[1][1]) / 2)
    while len(seen) < most and max(step) >= 1:
        for point in grid(centre, step, per_side, bounds):
            if point in seen or len(seen) >= most:
                continue
            result = await agent.invoke(probe, dict(zip(names, point, strict=True)))
            invoked.append(probe)
            if not result.get("ok"):
                error = result.get("error") or {}
                raise PolicyError(f"{probe}: {error.get('code')} {str(error.get('message', ''))[:200]}")
            key, said = _said(result, key)
            now = said if said is not None else now
            if now is None:
                continue
            seen[point] = now
            if now >= wanted:
                return await _click(agent, click, names, point, invoked), [probe, click]
        if not seen:
            break
        best = max(seen.values())
        hottest = [p for p, v in seen.items() if v == best]
        centre = (sum(p[0] for p in hottest) / len(hottest), sum(p[1] for p in hottest) / len(hottest))
        step, per_side = (step[0] / 2, step[1] / 2), 3
    raise PolicyError(f"{probe}: {len(seen)} points visited, none {ins.text[:60]!r} asks for (hottest {max(seen.values(), default=None)})")


async def _click(agent: PlingAgent, click: str, names: list[str], point: Point, invoked: list[str]) -> dict[str, Any]:
    result = await agent.invoke(click, dict(zip(names, point, strict=True)))
    invoked.append(click)
    if not result.get("ok"):
        error = result.get("error") or {}
        raise PolicyError(f"{click}: {error.get('code')} {str(error.get('message', ''))[:200]}")
    return await agent.model()
