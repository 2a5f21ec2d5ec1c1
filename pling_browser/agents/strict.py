"""OpenAI strict mode admits a subset of JSON Schema: every object closes (`additionalProperties:
false`) and lists every property as required; optional properties become nullable (`null` added to
`type` and, for an enum, to `enum`), at every depth and inside `$defs`; `oneOf` becomes `anyOf`;
keywords it does not take are dropped from the schema and said in the description instead (the
service still validates the arguments against the page's own schema). A schema strict mode cannot
express honestly (a map-style object `additionalProperties: {schema}`, a free-form object, `patternProperties`,
`not`, `if`, several `allOf` parts) makes that tool non-strict (`strict: false`, the page's schema as is)
and its description says why. When a call comes back, nulls the strict form made up are dropped at
every depth before validation (a null the page's schema itself accepts is kept)."""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["NotStrict", "drop_nulls", "strict_parameters"]

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
# Keywords whose meaning strict mode cannot carry, and that dropping would turn into a lie.
_NOT_STRICT = {"patternProperties": "keys matching a pattern", "not": "a `not` condition",
               "if": "a conditional (`if`)", "dependentSchemas": "dependent schemas",
               "propertyNames": "constrained key names", "unevaluatedProperties": "unevaluated properties"}


class NotStrict(Exception):
    """The schema has something strict mode cannot express honestly."""


class _Strict:
    """One conversion of a tool's schema to strict form, with the notes of what was dropped."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.notes: list[str] = []

    def convert(self) -> dict[str, Any]:
        root = copy.deepcopy(self.root)
        defs = {**(root.pop("definitions", None) or {}), **(root.pop("$defs", None) or {})}
        out = self.node(root, "")
        if defs:
            out["$defs"] = {name: self.node(sub, f"$defs.{name}") for name, sub in defs.items()}
        return out

    def _ref(self, ref: str) -> str:
        return "#/$defs/" + ref.removeprefix("#/definitions/") if ref.startswith("#/definitions/") else ref

    def _lookup(self, ref: str) -> Any:
        if not ref.startswith("#/"):
            raise NotStrict(f"a reference outside the schema ({ref[:60]})")
        node: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise NotStrict(f"a reference that does not resolve ({ref[:60]})")
            node = node[part]
        return node

    def node(self, schema: Any, path: str) -> Any:
        where = path or "arguments"
        if schema is True or schema == {}:
            raise NotStrict(f"{where} accepts any value")
        if not isinstance(schema, dict):
            raise NotStrict(f"{where} is not a schema object")
        if "$ref" in schema and len(schema) > 1:
            # A reference with siblings: strict mode takes `$ref` alone, so the target is inlined.
            target = copy.deepcopy(self._lookup(schema["$ref"]))
            if "$ref" in target:
                raise NotStrict(f"{where} chains references")
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            return self.node({**target, **siblings}, path)
        for key, reason in _NOT_STRICT.items():
            if key in schema:
                raise NotStrict(f"{where} has {reason}")
        schema = dict(schema)
        if "oneOf" in schema:
            schema["anyOf"] = [*schema.get("anyOf", []), *schema.pop("oneOf")]
            self.notes.append(f"{where}: exactly one of the alternatives")
        if "allOf" in schema:
            parts = schema.pop("allOf")
            if len(parts) != 1 or not isinstance(parts[0], dict):
                raise NotStrict(f"{where} combines several schemas (allOf)")
            schema = {**parts[0], **schema}
            return self.node(schema, path)
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key in _DESCRIBED:
                self.notes.append(f"{where}: " + _DESCRIBED[key].format(value))
            elif key == "format" and value not in _STRICT_FORMATS:
                self.notes.append(f"{where}: format {value}")
            elif key == "$ref":
                out[key] = self._ref(value)
            elif key in _STRICT_KEYWORDS:
                out[key] = value
            elif key not in ("$schema", "$id", "$comment", "examples", "deprecated", "readOnly", "writeOnly"):
                self.notes.append(f"{where}: {key} {value!r}"[:200])
        if "anyOf" in out:
            out["anyOf"] = [self.node(item, f"{path}|{i}") for i, item in enumerate(out["anyOf"])]
        if "items" in out:
            out["items"] = self.node(out["items"], f"{path}[]")
        kinds = out.get("type") if isinstance(out.get("type"), list) else [out.get("type")]
        if "object" in kinds or "properties" in out:
            extra = out.get("additionalProperties")
            properties = out.get("properties")
            if isinstance(extra, dict) or extra is True:
                raise NotStrict(f"{where} is a map (additionalProperties: a schema), which strict mode cannot express")
            if properties is None and extra is not False:
                raise NotStrict(f"{where} is a free-form object, which strict mode cannot express")
            required = set(out.get("required") or [])
            strict_props = {}
            for name, sub in (properties or {}).items():
                sub = self.node(sub, f"{path}.{name}".lstrip("."))
                strict_props[name] = sub if name in required else _nullable(sub)
            out["type"] = "object" if out.get("type") in (None, "object") else out["type"]
            out["properties"] = strict_props
            out["required"] = list(strict_props)
            out["additionalProperties"] = False
        if "array" in kinds and "items" not in out:
            raise NotStrict(f"{where} is an array of anything")
        return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema that also accepts null, as strict mode spells an optional property."""
    out = dict(schema)
    kind = out.get("type")
    if "$ref" in out or "const" in out or ("anyOf" in out and kind is None):
        branches = out.get("anyOf") if set(out) == {"anyOf"} else [out]
        if any(b.get("type") == "null" for b in branches):
            return out
        return {"anyOf": [*branches, {"type": "null"}]}
    if isinstance(kind, str) and kind != "null":
        out["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        out["type"] = [*kind, "null"]
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    if kind is None and "enum" not in out:
        return {"anyOf": [out, {"type": "null"}]}
    return out


def strict_parameters(schema: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str], str | None]:
    """(strict schema, notes, None), or (None, [], why strict mode cannot express the schema)."""
    converter = _Strict(schema)
    try:
        return converter.convert(), converter.notes, None
    except NotStrict as why:
        return None, [], str(why)


def _lookup(root: dict[str, Any], ref: str) -> Any:
    node: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def drop_nulls(root: Any, value: Any) -> Any:
    """The arguments without the nulls a strict caller sent for optional properties it left out, at
    every depth; a null the page's own schema accepts there is kept."""
    if not isinstance(root, dict):
        return value
    from jsonschema import Draft202012Validator

    return _Nulls(root, Draft202012Validator(root)).drop(root, value, 0)


class _Nulls:
    def __init__(self, root: dict[str, Any], validator: Any) -> None:
        self.root = root
        self.validator = validator

    def accepts(self, schema: Any, value: Any) -> bool:
        # evolve() keeps the root's resolver, so `#/$defs/…` inside a subschema still resolves.
        return bool(self.validator.evolve(schema=schema).is_valid(value))

    def drop(self, schema: Any, value: Any, depth: int) -> Any:
        if depth > 32 or not isinstance(schema, dict):
            return value
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target = _lookup(self.root, ref)
            if isinstance(target, dict):
                schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        if value is not None:
            for key in ("anyOf", "oneOf"):
                branches = schema.get(key)
                if isinstance(branches, list):
                    for branch in branches:
                        cleaned = self.drop(branch, value, depth + 1)
                        if self.accepts(branch, cleaned):
                            return cleaned
        for part in schema.get("allOf") or []:
            value = self.drop(part, value, depth + 1)
        if isinstance(value, dict):
            properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
            required = set(schema.get("required") or [])
            out = {}
            for key, item in value.items():
                sub = properties.get(key)
                if item is None and key not in required and not (isinstance(sub, (dict, bool)) and self.accepts(sub, None)):
                    continue
                out[key] = self.drop(sub, item, depth + 1) if sub is not None else item
            return out
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            return [self.drop(schema["items"], item, depth + 1) for item in value]
        return value
