"""The model as agent tools: one tool per declared action, a family as one tool with a `record`
parameter, in OpenAI, Anthropic or MCP form; and the way back from a tool call to ``ACTION@RECORD``.

OpenAI's strict mode admits a subset of JSON Schema: every object closes (`additionalProperties:
false`) and lists every property as required, optional properties become nullable, and keywords it
does not take are dropped from the schema and said in the description instead."""

from __future__ import annotations

import copy
import re
from typing import Any, Literal

from ..models import ActionInfo, PageModel

Format = Literal["openai", "anthropic", "mcp"]
RECORD_ENUM_MAX = 50
_NAME = re.compile(r"[^a-zA-Z0-9_-]")

# Keywords OpenAI strict mode accepts; anything else is described instead.
_STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "description",
    "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems", "$defs", "$ref", "title",
}
_STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
_DESCRIBED = {
    "minLength": "at least {} characters", "maxLength": "at most {} characters", "default": "default {!r}",
    "minProperties": "at least {} keys", "maxProperties": "at most {} keys", "uniqueItems": "unique items",
}


def tool_name(action_id: str) -> str:
    return _NAME.sub("_", action_id)[:64] or "action"


def _input_schema(action: ActionInfo, model: PageModel) -> dict[str, Any]:
    schema = copy.deepcopy(action.params) if isinstance(action.params, dict) else {}
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    if action.record:
        records = model.records.get(action.record)
        ids = records.ids if records else []
        prop: dict[str, Any] = {"type": "string", "description": f"The id of the {action.record} to act on."}
        if records and records.total <= RECORD_ENUM_MAX and ids:
            prop["enum"] = list(ids)
        elif records:
            prop["description"] += f" One of the {records.total} ids in the model's records.{action.record}.ids."
        schema["properties"] = {"record": prop, **schema["properties"]}
        schema["required"] = ["record", *[r for r in schema.get("required", []) if r != "record"]]
    return schema


def _strict(schema: Any, notes: list[str], path: str = "") -> Any:
    """Rewrite a JSON Schema node into OpenAI strict form, collecting what was dropped."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DESCRIBED:
            notes.append(f"{path or 'arguments'}: " + _DESCRIBED[key].format(value))
        elif key == "format" and value not in _STRICT_FORMATS:
            notes.append(f"{path or 'arguments'}: format {value}")
        elif key in _STRICT_KEYWORDS:
            out[key] = value
        elif key not in ("$schema", "$id", "examples"):
            notes.append(f"{path or 'arguments'}: {key} {value!r}")
    if "anyOf" in out:
        out["anyOf"] = [_strict(item, notes, path) for item in out["anyOf"]]
    if "items" in out:
        out["items"] = _strict(out["items"], notes, f"{path}[]")
    if out.get("type") == "object" or "properties" in out:
        properties = out.get("properties") or {}
        required = set(out.get("required") or [])
        strict_props = {}
        for name, sub in properties.items():
            sub = _strict(sub, notes, f"{path}.{name}".lstrip("."))
            if name not in required:
                sub = _nullable(sub)
            strict_props[name] = sub
        out["type"] = "object"
        out["properties"] = strict_props
        out["required"] = list(strict_props)
        out["additionalProperties"] = False
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]} if kind != "null" else schema
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if "enum" in schema and None not in schema["enum"]:
        return {**schema, "enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


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


def tools(model: PageModel, fmt: Format) -> list[dict[str, Any]]:
    out = []
    for action in model.actions:
        name = tool_name(action.id)
        schema = _input_schema(action, model)
        description = _description(action)
        if fmt == "openai":
            notes: list[str] = []
            parameters = _strict(schema, notes)
            if notes:
                description += " Constraints: " + "; ".join(notes) + "."
            out.append({"type": "function", "function": {"name": name, "description": description,
                                                         "parameters": parameters, "strict": True}})
        elif fmt == "anthropic":
            out.append({"name": name, "description": description, "input_schema": schema})
        else:
            out.append({"name": name, "title": action.description or action.id, "description": description,
                        "inputSchema": schema,
                        "annotations": {"readOnlyHint": action.risk == "read",
                                        "destructiveHint": action.risk == "danger",
                                        "openWorldHint": False}})
    return out


def resolve_call(model: PageModel, name: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The action reference and arguments a tool call means, or None when no tool has that name."""
    for action in model.actions:
        if tool_name(action.id) != name:
            continue
        args = dict(arguments)
        ref = action.id
        if action.record:
            record = args.pop("record", None)
            ref = f"{action.id}@{record}" if record is not None else action.id
        required = set((action.params or {}).get("required") or []) if isinstance(action.params, dict) else set()
        # Strict callers send null for an optional parameter they leave out.
        args = {key: value for key, value in args.items() if value is not None or key in required}
        return ref, args
    return None
