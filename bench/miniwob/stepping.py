"""Sliders set by steps, for the generic policy (policy_generic.py): a slider is a pair of valueless
actions the model offers, ``increase_X`` and ``decrease_X`` (one step each, a key the widget listens to),
and the number it is at is whatever state its step changes. When the instruction gives as many numbers as
the model has sliders, each slider in the model's order is stepped until the number the page shows for it
is the instruction's number at the same place ("Select 15 with the slider", "the combination [3, 10, 7]").
Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError
from .page_reading import NUMBER


def sliders(model: dict[str, Any]) -> list[tuple[str, str]]:
    """(increase, decrease) action ids, in the model's order: plain, available, valueless, paired by name."""
    ids = [a["id"] for a in model.get("actions") or [] if not a.get("record") and not a.get("params") and a.get("available", True)]
    return [(i, "decrease" + i[len("increase"):]) for i in ids if i.startswith("increase_") and "decrease" + i[len("increase"):] in ids]


def shown_numbers(model: dict[str, Any]) -> dict[str, float]:
    """Every state that is one number now, by key, and every item of a list state that is one (by key[i])."""
    out: dict[str, float] = {}
    for key, entry in (model.get("state") or {}).items():
        value = entry.get("value") if isinstance(entry, dict) else None
        for at, one in ([(key, value)] if not isinstance(value, list) else [(f"{key}[{i}]", v) for i, v in enumerate(value)]):
            if isinstance(one, str) and re.fullmatch(NUMBER, one.strip()):
                out[at] = float(one)
    return out


async def _press(agent: PlingAgent, ref: str, invoked: list[str]) -> None:
    result = await agent.invoke(ref, {})
    invoked.append(ref)
    if not result.get("ok"):
        error = result.get("error") or {}
        raise PolicyError(f"{ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")


async def _which(agent: PlingAgent, model: dict[str, Any], pair: tuple[str, str], invoked: list[str]) -> tuple[str | None, dict[str, Any]]:
    """The state a slider moves: one step up (else down, at its top) and the one number that changed."""
    for ref in pair:
        before = shown_numbers(model)
        await _press(agent, ref, invoked)
        model = await agent.model()
        after = shown_numbers(model)
        moved = [k for k in after if k in before and after[k] != before[k]]
        if len(moved) == 1:
            return moved[0], model
    return None, model


async def set_sliders(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str],
                      rounds: int = 6, most: int = 400) -> tuple[dict[str, Any], list[str]]:
    """Each slider stepped to its number: as many presses as the distance (one step each), then the model
    read again and the rest corrected, up to `rounds` times. Answers the model last read and the refs
    now done (the policy plans nothing more on them)."""
    pairs = sliders(model)
    numbers = [n for _, n in ins.numbers]
    if not pairs or len(pairs) != len(numbers):
        return model, []
    done: list[str] = []
    for (up, down), want in zip(pairs, numbers, strict=True):
        key, model = await _which(agent, model, (up, down), invoked)
        done += [up, down]
        if key is None:
            continue
        for _ in range(rounds):
            now = shown_numbers(model).get(key)
            if now is None or now == want:
                break
            ref = up if now < want else down
            for _ in range(min(int(abs(want - now) + 0.5) or 1, most)):
                await _press(agent, ref, invoked)
            model = await agent.model()
    return model, done
