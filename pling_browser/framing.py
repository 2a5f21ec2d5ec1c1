"""A page's model joined with its frames' (SPEC "The page side": a frame declares in its own document).
Each frame's bridge answers its own model (core/frames.py); they are joined here, in Python, so the
page's script never holds what a frame declared. Part of the vocabulary: plain data in, plain data out.

How ids are kept apart. Action ids, record types, region ids and state keys name things across the
whole model (an agent invokes ``pay`` or ``remove@t9`` without saying where), so each must mean one
declaration:

- the page's own declarations always stand: a frame cannot declare over them. A frame's action, record
  type, region or state key whose id the page declares too is left out of the model, and a problem says
  so (``where: "frame ORIGIN"``);
- an id that two frames declare is left out of both (neither can take it from the other, whatever
  order the frames load in), each with a problem;
- a frame's action family over a record type left out is left out with it (its instances would name
  records the model does not show as that frame's).

Everything a frame contributes carries ``frame: ORIGIN``; the frames read are listed in ``frames``
(origin, URL, their page id, name and adapters) and those not read in ``omitted.frames`` with the
reason. No declaration is left out without a problem or an entry saying so.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

__all__ = ["merge", "owner", "declares"]

KINDS = ("actions", "records", "regions", "state")
NOUN = {"actions": "action", "records": "record type", "regions": "region", "state": "state key"}


def _ids(model: dict[str, Any], kind: str) -> list[str]:
    part = model.get(kind)
    if kind in ("records", "state"):
        return [str(key) for key in part] if isinstance(part, dict) else []
    return [str(entry.get("id")) for entry in part if isinstance(entry, dict)] if isinstance(part, list) else []


def declares(model: dict[str, Any]) -> bool:
    """Whether a document's model declares anything at all (a frame that declares nothing is not listed)."""
    return bool((model.get("page") or {}).get("id") or model.get("feedback") or model.get("problems")
                or any(_ids(model, k) for k in KINDS))


def _left_out(top: dict[str, Any], frames: list[dict[str, Any]]) -> list[dict[str, dict[str, str]]]:
    """Per frame, per kind: the ids left out of the model and why."""
    out: list[dict[str, dict[str, str]]] = [{kind: {} for kind in KINDS} for _ in frames]
    for kind in KINDS:
        page = set(_ids(top, kind))
        counts = Counter(x for frame in frames for x in set(_ids(frame, kind)))
        for i, frame in enumerate(frames):
            for x in _ids(frame, kind):
                if x in page:
                    out[i][kind][x] = f"the page declares {NOUN[kind]} {x!r} too; the page's stands, the frame's is left out"
                elif counts[x] > 1:
                    out[i][kind][x] = (f"{NOUN[kind]} {x!r} is declared by more than one frame; "
                                       "each frame's is left out (ids are kept apart)")
    for i, frame in enumerate(frames):
        for action in frame.get("actions") or []:
            record = action.get("record") if isinstance(action, dict) else None
            if record and record in out[i]["records"] and action.get("id") not in out[i]["actions"]:
                out[i]["actions"][str(action.get("id"))] = (f"action {action.get('id')!r} acts on record type {record!r}, "
                                                            "which is left out of the model; so is the action")
    return out


def owner(top: dict[str, Any], frames: list[dict[str, Any]], action_id: str) -> tuple[int | None, str | None]:
    """Which frame's declaration of ``action_id`` is in the model: its index, or None with why none is
    (None, None: no frame declares it)."""
    if action_id in _ids(top, "actions"):
        return None, None
    left = _left_out(top, frames)
    holders = [i for i, frame in enumerate(frames) if action_id in _ids(frame, "actions")]
    kept = [i for i in holders if action_id not in left[i]["actions"]]
    if len(kept) == 1:
        return kept[0], None
    if holders:
        return None, left[holders[0]]["actions"].get(action_id)
    return None, None


def _marked(entry: Any, origin: str) -> Any:
    return {**entry, "frame": origin} if isinstance(entry, dict) else entry


def merge(top: dict[str, Any], frames: list[tuple[str, dict[str, Any]]], skipped: list[dict[str, str]]) -> dict[str, Any]:
    """The page's model with each frame's declarations (``frames``: (origin, that frame's model)) and
    the frames not read (``skipped``: ``{origin, reason}``)."""
    frames = [(origin, model) for origin, model in frames if declares(model)]
    left = _left_out(top, [model for _, model in frames])
    merged = dict(top)
    merged["actions"] = list(top.get("actions") or [])
    merged["regions"] = list(top.get("regions") or [])
    merged["records"] = dict(top.get("records") or {})
    merged["state"] = dict(top.get("state") or {})
    merged["feedback"] = list(top.get("feedback") or [])
    merged["problems"] = list(top.get("problems") or [])
    omitted = dict(top.get("omitted") or {})
    listed = []
    for (origin, model), out in zip(frames, left, strict=True):
        where = f"frame {origin}"
        page = model.get("page") or {}
        listed.append({"origin": origin, "url": page.get("url", ""), "id": page.get("id"), "name": page.get("name"),
                       **({"adapter": page["adapter"]} if page.get("adapter") else {})})
        for action in model.get("actions") or []:
            if isinstance(action, dict) and str(action.get("id")) not in out["actions"]:
                if action.get("region") in out["regions"]:
                    action = {**action, "region": None}  # that region is another's in this model
                merged["actions"].append(_marked(action, origin))
        for region in model.get("regions") or []:
            if isinstance(region, dict) and str(region.get("id")) not in out["regions"]:
                merged["regions"].append(_marked(region, origin))
        for type_, records in (model.get("records") or {}).items():
            if type_ not in out["records"]:
                merged["records"][type_] = _marked(records, origin)
        for key, entry in (model.get("state") or {}).items():
            if key not in out["state"]:
                merged["state"][key] = _marked(entry, origin)
        merged["feedback"].extend(_marked(entry, origin) for entry in model.get("feedback") or [])
        for problem in model.get("problems") or []:
            if isinstance(problem, dict):
                merged["problems"].append({"where": f"{where}: {problem.get('where')}", "problem": problem.get("problem")})
        for kind in KINDS:
            merged["problems"].extend({"where": where, "problem": why} for why in out[kind].values())
        for key, count in (model.get("omitted") or {}).items():
            if isinstance(count, int) and isinstance(omitted.get(key, 0), int):
                omitted[key] = omitted.get(key, 0) + count
    omitted["frames"] = [*(omitted.get("frames") or []), *skipped]
    merged["omitted"] = omitted
    merged["frames"] = [*(top.get("frames") or []), *listed]
    return merged
