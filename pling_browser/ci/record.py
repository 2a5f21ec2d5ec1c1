"""A session's receipt log turned into a scenario file (GET /sessions/{sid}/scenario): each
successful invocation a step, its assertions read from its receipt (`pling-browser record` writes one
without a service: cli.py). Ids the runtime created during
the session (the task an `add` made) are not written literally: a later step that names one says
`{stepN.added.I}` (the I-th record step N added), so the replay follows the ids the page makes then.

What a step asserts: the records added (a count), removed and updated (ids), by type when one type
changed; the state keys it changed (their new values, when they are plain JSON values); a feedback
entry it added (its text); that it warned or not. Failed invocations are left out: a replay checks
what worked. A recording is a starting point to read and trim, not a test written by a person."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["added_ids", "fill", "parse_step", "scenario_from"]

_SCALAR = (str, int, float, bool, type(None))


def _placeholders(value: Any, created: dict[str, str]) -> Any:
    if isinstance(value, str):
        if value in created:
            return created[value]
        ref, at, rid = value.partition("@")
        return f"{ref}@{created[rid]}" if at and rid in created else value
    if isinstance(value, list):
        return [_placeholders(item, created) for item in value]
    if isinstance(value, dict):
        return {key: _placeholders(item, created) for key, item in value.items()}
    return value


def _request_of(request: Any, receipt: dict[str, Any]) -> tuple[str, Any] | None:
    """(action, args) as the caller sent them, or None for what a replay cannot repeat (a resume)."""
    if isinstance(request, list) and request and request[0] == "invoke" and isinstance(request[1], dict):
        return str(request[1].get("action")), request[1].get("args")
    if isinstance(request, list) and request and request[0] == "tool":
        return str(receipt.get("action", {}).get("id")), None if len(request) < 3 else _tool_args(request, receipt)
    return None


def _tool_args(request: list[Any], receipt: dict[str, Any]) -> Any:
    arguments = dict((request[2] or {}).get("arguments") or {})
    if "@" in str(receipt.get("action", {}).get("id")):
        arguments.pop("record_id", None)  # the family's record is in the action id
    return {key: value for key, value in arguments.items() if value is not None}


def _expect(receipt: dict[str, Any], created: dict[str, str]) -> dict[str, Any]:
    expect: dict[str, Any] = {}
    changed = receipt.get("changed")
    if changed:
        records = changed.get("records") or {}
        if len(records) == 1:
            [(record_type, change)] = records.items()
            expect["type"] = record_type
            if change.get("added") or change.get("omitted", {}).get("added"):
                expect["added"] = len(change.get("added") or []) + change.get("omitted", {}).get("added", 0)
            for key in ("removed", "updated"):
                ids = change.get(key) or []
                ids = [entry["id"] if isinstance(entry, dict) else entry for entry in ids]
                if ids and not change.get("omitted", {}).get(key):
                    expect[key] = _placeholders(ids, created)
        elif not records:
            expect["added"] = 0
            expect["removed"] = 0
        state = {key: change.get("to") for key, change in ((changed.get("state") or {}).get("changed") or {}).items()
                 if isinstance(change.get("to"), _SCALAR)}
        if state:
            expect["state"] = state
        added = (changed.get("feedback") or {}).get("added") or []
        if added and isinstance(added[0].get("text"), str):
            expect["feedback"] = added[0]["text"][:200]
    expect["warning"] = bool(receipt.get("warning"))
    return expect


def added_ids(receipt: dict[str, Any]) -> list[str]:
    """The record ids a receipt (as JSON) says its invocation added, all types in order."""
    return [rid for change in ((receipt.get("changed") or {}).get("records") or {}).values()
            for rid in change.get("added") or []]


def scenario_from(url: str, entries: list[tuple[int, Any, dict[str, Any]]], *, name: str = "recorded",
                  profile: str | None = None) -> dict[str, Any]:
    """The scenario file for one session's log: (seq, request, receipt) in order; a session opened with a
    profile names it, so the replay opens signed in as the recording was."""
    created: dict[str, str] = {}
    steps: list[dict[str, Any]] = []
    approved: set[str] = set()
    for _, request, receipt in entries:
        asked = _request_of(request, receipt)
        if asked is None or not receipt.get("ok"):
            continue
        action, args = asked
        if any(str(line).startswith(("confirmed by", "approved by")) for line in receipt.get("log") or []):
            approved.add(action.partition("@")[0])
        step: dict[str, Any] = {"invoke": _placeholders(action, created)}
        if args not in (None, {}, ""):
            step["args"] = _placeholders(args, created)
        step["expect"] = _expect(receipt, created)
        steps.append(step)
        number = len(steps)
        for index, rid in enumerate(added_ids(receipt)):
            created.setdefault(rid, f"{{step{number}.added.{index}}}")
    scenario: dict[str, Any] = {"name": name, "url": url}
    if profile:
        scenario["profile"] = profile
    if approved:  # the replay has no person to ask: the file approves what was approved while recording
        scenario["approve"] = sorted(approved)
    scenario["scenarios"] = [{"name": f"{name} session", "steps": steps}]
    return scenario


PLACEHOLDER = re.compile(r"\{step(\d+)\.added\.(\d+)\}")


def fill(value: Any, added_by_step: dict[int, list[str]]) -> Any:
    """`value` with each `{stepN.added.I}` replaced by the I-th id step N added in this run (left as
    is when that step added fewer: the step then fails on its own assertions, saying so)."""
    if isinstance(value, str):
        def one(match: re.Match[str]) -> str:
            ids = added_by_step.get(int(match.group(1))) or []
            index = int(match.group(2))
            return ids[index] if index < len(ids) else match.group(0)
        return PLACEHOLDER.sub(one, value)
    if isinstance(value, list):
        return [fill(item, added_by_step) for item in value]
    if isinstance(value, dict):
        return {key: fill(item, added_by_step) for key, item in value.items()}
    return value


class StepError(ValueError):
    """A step given to `pling-browser record` that is not `ACTION` or `ACTION {JSON args}`."""


def parse_step(text: str) -> tuple[str, Any]:
    """`add {"title": "Buy milk"}` → ("add", {"title": "Buy milk"}); `toggle@t3` → ("toggle@t3", None).
    An action id holds no white space, so the first one ends it; the rest is the arguments as JSON."""
    import json

    action, _, rest = text.strip().partition(" ")
    if not action:
        raise StepError(f"empty step {text!r}: give ACTION, ACTION@RECORD or 'ACTION {{JSON args}}'")
    if not rest.strip():
        return action, None
    try:
        return action, json.loads(rest)
    except ValueError as error:
        raise StepError(f"step {text[:120]!r}: the arguments after {action!r} are not JSON ({error})") from None
