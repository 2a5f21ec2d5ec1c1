"""Deterministic policies through Pling (the suite reads brief models): read the task from the model's
state, find the records it names, invoke the declared actions; read what changed from the receipts. No
DOM, no page script."""

from __future__ import annotations

from typing import Any

from .agent_pling import PlingAgent
from .goals import POST_BUTTONS, read


class PolicyError(RuntimeError):
    pass


def _items(model: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return (model.get("records", {}).get(kind) or {}).get("items", [])


def _state(model: dict[str, Any], key: str) -> Any:
    """A state value, from the brief model (`{key: value}`) or the whole one (`{key: {value, description}}`)."""
    entry = model.get("state", {}).get(key)
    return entry if model.get("detail") == "brief" else (entry or {}).get("value")


def _fields(item: dict[str, Any]) -> dict[str, Any]:
    return item.get("fields") or {}  # the brief model leaves out empty fields


def _by_label(model: dict[str, Any], kind: str, label: str) -> str:
    for item in _items(model, kind):
        if item["label"] == label or item["id"] == label:
            return item["id"]
    raise PolicyError(f"no {kind} labelled {label!r} in the model")


def _check(result: dict[str, Any]) -> dict[str, Any]:
    if not result.get("ok"):
        error = result.get("error", {})
        raise PolicyError(f"{result.get('action', {}).get('id')}: {error.get('code')} {error.get('message', '')[:200]}")
    return result


async def solve(task: str, agent: PlingAgent, model: dict[str, Any]) -> None:
    goal = read(task, _state(model, "task"))
    if goal.kind == "click":
        if goal.names:                                  # a sequence of buttons
            for name in goal.names:
                _check(await agent.invoke(f"click@{_by_label(model, 'button', name)}"))
            return
        kind, action = {"click-button": ("button", "click"), "click-link": ("link", "follow"),
                        "click-tab": ("tab", "open")}.get(task, ("dialog_button", "press"))
        _check(await agent.invoke(f"{action}@{_by_label(model, kind, goal.target)}"))
    elif goal.kind == "expand":
        if not (_state(model, "section") or {}).get("expanded"):
            _check(await agent.invoke("toggle_section"))
        _check(await agent.invoke("submit"))
    elif goal.kind == "type":
        _check(await agent.invoke("enter", {"text": goal.text}))
    elif goal.kind == "password":
        _check(await agent.invoke("set_password", {"password": goal.secret}))
    elif goal.kind == "login":
        await _log_in(agent, goal.text, goal.secret)
    elif goal.kind == "choose":
        if task == "choose-list":
            _check(await agent.invoke("choose_and_submit", {"choice": goal.target}))
        else:
            _check(await agent.invoke(f"choose_and_submit@{_by_label(model, 'choice', goal.target)}"))
    elif goal.kind == "tick":
        ticked = [item["id"] for item in _items(model, "choice") if item["label"] in goal.names]
        _check(await agent.invoke("tick_and_submit", {"ticked": ticked}))
    elif goal.kind == "post":
        action = POST_BUTTONS[goal.button]
        posts = [p for p in _items(model, "post") if _fields(p).get("user") == goal.target]
        if not posts:
            raise PolicyError(f"no post by {goal.target} in the model")
        for post in posts[: goal.amount] if goal.amount is not None else posts:
            _check(await agent.invoke(f"{action}@{post['id']}"))
        if task != "social-media":
            _check(await agent.invoke("submit"))
    elif goal.kind == "email":
        email = next((e["id"] for e in _items(model, "email") if _fields(e).get("from") == goal.target), None)
        if email is None:
            raise PolicyError(f"no email from {goal.target} in the model")
        if goal.button == "reply":
            _check(await agent.invoke(f"reply_with@{email}", {"text": goal.text}))
        elif goal.button == "forward":
            _check(await agent.invoke(f"forward_to_person@{email}", {"to": goal.text}))
        else:
            _check(await agent.invoke(f"{goal.button}@{email}"))
    else:
        raise PolicyError(f"no policy for {goal.kind}")


async def _log_in(agent: PlingAgent, username: str, password: str) -> None:
    """A popup may open in front of the form when a field is focused: the receipt says so (state
    `popup`, or a step that failed); answer it with Cancel (OK would leave the page), then log in again."""
    for _ in range(3):
        result = await agent.invoke("log_in", {"username": username, "password": password})
        popup = ((result.get("changed") or {}).get("state", {}).get("changed", {}).get("popup") or {}).get("to")
        if result.get("ok") and not popup:
            return
        if not popup and "popup" not in str(result.get("error", {})).lower():
            _check(result)
        _check(await agent.invoke("popup_cancel"))
    raise PolicyError("the login popup kept coming back")
