"""The model as agent tools: one tool per declared action, a family as one tool with a record-id
parameter, in OpenAI (Chat Completions and Responses), Anthropic or MCP form; and the way back from a
tool call to ``ACTION@RECORD`` with its arguments. The rules are in docs/agents.md; in short:

Names. An action id that is a valid tool name (`[a-zA-Z0-9_-]`, at most 64 characters) is its own
name. Any other id gets a stable mangled name: each other character becomes `_`, the result is cut to
57 characters and `_` and the first 6 hex digits of the SHA-256 of the id are appended
(`cart.add` -> `cart_add_<hash>`), so it cannot collide with an id that is spelled that way (`cart_add`)
nor with another long id sharing its first 64 characters. `tool_names()` maps names back to ids.

Record parameter. A family's tool takes the record id as `record`; when the family's own params
already have a `record` property, the id goes in `record_id` (then `_record_id`, …) and `record` stays
the page's own.

OpenAI strict mode: its schema and the way back from its calls are in ``strict.py``."""

from __future__ import annotations

import copy
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import InvalidArgs
from ..lifecycle.decode import parse_args
from ..models import ActionInfo, ActionSummary, PageModel, Receipt
from .strict import drop_nulls, strict_parameters

Format = Literal["openai", "openai-responses", "anthropic", "mcp"]
FORMATS: tuple[str, ...] = ("openai", "openai-responses", "anthropic", "mcp")
RECORD_ENUM_MAX = 50
NAME_LIMIT = 64
_VALID = re.compile(r"[a-zA-Z0-9_-]+")
_INVALID = re.compile(r"[^a-zA-Z0-9_-]")


# ---- names ---------------------------------------------------------------------------------------------


def _digest(text: str, n: int) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:n]


def tool_name(action_id: str, limit: int = NAME_LIMIT) -> str:
    """The stable tool name of an action id (see the module docstring)."""
    if _VALID.fullmatch(action_id) and len(action_id) <= limit:
        return action_id
    return f"{_INVALID.sub('_', action_id)[: limit - 7]}_{_digest(action_id, 6)}"


def tool_names(action_ids: list[str], limit: int = NAME_LIMIT) -> dict[str, str]:
    """Tool name -> action id for the actions of one model, every name unique. A clash left (a valid id
    spelled like another's mangled name, or two 6-digit hashes alike) gives the mangled one 12 digits."""
    out: dict[str, str] = {}
    mangled = []
    for action_id in dict.fromkeys(action_ids):
        name = tool_name(action_id, limit)
        if name == action_id:
            out[name] = action_id
        else:
            mangled.append((name, action_id))
    for name, action_id in sorted(mangled, key=lambda pair: pair[1]):
        if name in out:
            name = f"{_INVALID.sub('_', action_id)[: limit - 13]}_{_digest(action_id, 12)}"
        out[name] = action_id
    return out


def record_param(action: ActionInfo) -> str | None:
    """The parameter that carries a family's record id (None for a plain action)."""
    if not action.record:
        return None
    properties = (action.params or {}).get("properties") if isinstance(action.params, dict) else None
    taken = set(properties) if isinstance(properties, dict) else set()
    name = "record"
    while name in taken:
        name = "record_id" if name == "record" else "_" + name
    return name


# ---- schemas -------------------------------------------------------------------------------------------


def _input_schema(action: ActionInfo, model: PageModel) -> dict[str, Any]:
    schema = copy.deepcopy(action.params) if isinstance(action.params, dict) else {}
    schema.pop("$schema", None)
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    param = record_param(action)
    if param:
        records = model.records.get(action.record or "")
        ids = records.ids if records else []
        prop: dict[str, Any] = {"type": "string", "description": f"The id of the {action.record} to act on."}
        if records and records.total <= RECORD_ENUM_MAX and ids:
            prop["enum"] = list(ids)
        elif records:
            prop["description"] += f" One of the {records.total} ids in the model's records.{action.record}.ids."
        schema["properties"] = {param: prop, **schema["properties"]}
        schema["required"] = [param, *[r for r in schema.get("required", []) if r != param]]
    return schema


# ---- tools ---------------------------------------------------------------------------------------------


def _description(action: ActionInfo) -> str:
    text = (action.description or action.id).rstrip()
    if text[-1:] not in ".!?":
        text += "."
    if action.kind == "flow":
        text += f" (several steps: {', '.join(action.steps or [])}; not a transaction)"
    if action.kind == "handoff":
        text += " (a person does this step in the page; the call waits for them)"
    if action.risk == "danger":
        text += " Risk: danger — a person or the operator must approve it."
    elif action.risk == "write":
        text += " Risk: write."
    if not action.available:
        text += f" Unavailable now: {action.reason or 'the page gives no reason'}."
    return text


@dataclass
class ToolSpec:
    """One action as a tool, before it is put in a format's shape."""

    name: str
    action: ActionInfo
    record_param: str | None
    schema: dict[str, Any]
    description: str
    title: str = ""
    annotations: dict[str, bool] = field(default_factory=dict)


def specs(model: PageModel, limit: int = NAME_LIMIT) -> list[ToolSpec]:
    names = {action_id: name for name, action_id in tool_names([a.id for a in model.actions], limit).items()}
    out = []
    for action in model.actions:
        if action.id not in names:
            continue  # a duplicate id: the first declaration is the tool
        name = names.pop(action.id)
        # Only claims that hold: read-only for read, destructive for danger; a write claims neither way
        # (no destructiveHint or openWorldHint the page never declared). The title is WebMCP's when it gave one.
        annotations = {"readOnlyHint": True} if action.risk == "read" else (
            {"readOnlyHint": False, "destructiveHint": True} if action.risk == "danger" else {"readOnlyHint": False})
        out.append(ToolSpec(name=name, action=action, record_param=record_param(action),
                            schema=_input_schema(action, model), description=_description(action),
                            title=action.title or action.description or action.id, annotations=annotations))
    return out


def _openai(spec: ToolSpec) -> tuple[dict[str, Any], str, bool]:
    parameters, notes, why = strict_parameters(spec.schema)
    description = spec.description
    if parameters is None:
        return spec.schema, description + f" (Not strict: {why}.)", False
    if notes:
        description += " Constraints: " + "; ".join(notes) + "."
    return parameters, description, True


def tools(model: PageModel, fmt: Format) -> list[dict[str, Any]]:
    out = []
    for spec in specs(model):
        if fmt in ("openai", "openai-responses"):
            parameters, description, strict = _openai(spec)
            if fmt == "openai":
                out.append({"type": "function", "function": {"name": spec.name, "description": description,
                                                             "parameters": parameters, "strict": strict}})
            else:
                out.append({"type": "function", "name": spec.name, "description": description,
                            "parameters": parameters, "strict": strict})
        elif fmt == "anthropic":
            out.append({"name": spec.name, "description": spec.description, "input_schema": spec.schema})
        else:
            out.append({"name": spec.name, "title": spec.title, "description": spec.description,
                        "inputSchema": spec.schema, "annotations": spec.annotations})
    return out


def names(model: PageModel) -> dict[str, dict[str, str | None]]:
    """Tool name -> the action it calls and the parameter that carries the record id."""
    return {spec.name: {"action": spec.action.id, "record_param": spec.record_param} for spec in specs(model)}


# ---- calls ---------------------------------------------------------------------------------------------


def resolve_call(model: PageModel, name: str, arguments: dict[str, Any] | str | None,
                 limit: int = NAME_LIMIT) -> tuple[str, dict[str, Any]] | None:
    """The action reference and arguments a tool call means, or None when no tool has that name.
    `arguments` may be the JSON text a model returns (OpenAI's function calls carry text); text that is
    not a JSON object raises InvalidArgs, as invoke's `args` does (``refused_call`` answers it)."""
    for spec in specs(model, limit):
        if spec.name != name:
            continue
        args = dict(parse_args(arguments))
        ref = spec.action.id
        if spec.record_param:
            record = args.pop(spec.record_param, None)
            ref = f"{spec.action.id}@{record}" if record is not None else spec.action.id
        if isinstance(spec.action.params, dict):
            args = drop_nulls(spec.action.params, args)
        else:
            args = {key: value for key, value in args.items() if value is not None}
        return ref, args
    return None


def refused_call(model: PageModel, name: str, error: InvalidArgs, limit: int = NAME_LIMIT) -> Receipt:
    """The receipt of a tool call whose arguments could not be decoded: nothing resolved, nothing ran
    (a family's record id was inside the arguments, so the receipt names the family)."""
    spec = next((s for s in specs(model, limit) if s.name == name), None)
    action = spec.action if spec is not None else None
    return Receipt(ok=False, action=ActionSummary(id=action.id if action else name, description=action.description if action else None),
                   error=error.to_dict(), log=[f"tool {name}: {error.message}; nothing ran"])
