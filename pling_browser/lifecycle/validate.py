"""Stage 3, validate: the arguments against the action's JSON Schema (draft 2020-12), defaults
applied, so the page always receives one shape. Issues name the field and the problem and never
repeat the value (it may be a restored secret)."""

from __future__ import annotations

import functools
import json
from typing import Any

from ..errors import ActionUnavailable, InvalidParams
from .codes import LogEvent
from .context import Invocation
from .results import Validated

_PROBLEMS = {
    "type": "must be of type {v}",
    "required": "is required",
    "enum": "must be one of {v}",
    "const": "must equal {v}",
    "minLength": "must be at least {v} characters long",
    "maxLength": "must be at most {v} characters long",
    "minimum": "must be at least {v}",
    "maximum": "must be at most {v}",
    "exclusiveMinimum": "must be greater than {v}",
    "exclusiveMaximum": "must be less than {v}",
    "multipleOf": "must be a multiple of {v}",
    "pattern": "must match the pattern {v}",
    "format": "must be a valid {v}",
    "minItems": "must have at least {v} items",
    "maxItems": "must have at most {v} items",
    "uniqueItems": "must not repeat items",
    "additionalProperties": "is not a parameter of this action",
    "minProperties": "must have at least {v} keys",
    "maxProperties": "must have at most {v} keys",
}


def apply_defaults(schema: Any, value: Any) -> Any:
    """Fill declared defaults of missing object properties, recursively, without touching the input."""
    if not isinstance(schema, dict) or not isinstance(value, dict):
        return value
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return value
    out = dict(value)
    for name, sub in properties.items():
        if not isinstance(sub, dict):
            continue
        if name not in out and "default" in sub:
            out[name] = sub["default"]
        elif name in out:
            out[name] = apply_defaults(sub, out[name])
    return out


def _issues(error: Any) -> list[dict[str, str]]:
    """One issue per field; the value is never repeated (it may be a restored secret)."""
    path = "/".join(str(part) for part in error.absolute_path)
    keyword = error.validator
    if keyword == "required":
        # One error per missing name; its message starts with repr(name), quotes and all.
        names = [n for n in error.validator_value if isinstance(n, str) and isinstance(error.instance, dict)
                 and n not in error.instance] if isinstance(error.validator_value, list) else []
        missing = next((n for n in names if error.message.startswith(repr(n))), names[0] if names else "?")
        return [{"path": f"{path}/{missing}".lstrip("/"), "problem": "is required"}]
    if keyword == "additionalProperties" and isinstance(error.instance, dict):
        known = set((error.schema.get("properties") or {}).keys())
        extra = [name for name in error.instance if name not in known]
        return [{"path": f"{path}/{name}".lstrip("/")[:200], "problem": _PROBLEMS[keyword]} for name in extra] or \
            [{"path": path, "problem": _PROBLEMS[keyword]}]
    template = _PROBLEMS.get(keyword, f"does not satisfy {keyword}")
    shown = error.validator_value
    if keyword == "enum" and isinstance(shown, list):
        shown = ", ".join(repr(item) for item in shown[:20])
    return [{"path": path, "problem": template.format(v=shown)}]


@functools.lru_cache(maxsize=256)
def _validator(schema_text: str) -> Any:
    """The validator of one params schema (by its JSON text), or the SchemaError's message: checking a
    schema against the meta-schema costs more than validating the arguments (1.6 ms of an `add`)."""
    from jsonschema import Draft202012Validator, FormatChecker
    from jsonschema.exceptions import SchemaError

    schema = json.loads(schema_text)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        return error.message[:200]
    return Draft202012Validator(schema, format_checker=FormatChecker())


def validate(inv: Invocation) -> Validated:
    assert inv.decl is not None
    schema = inv.decl.params
    if schema is None:
        if inv.args:
            issues = [{"path": name[:100], "problem": "is not a parameter of this action (it takes none)"} for name in list(inv.args)[:20]]
            raise InvalidParams(f"{inv.decl.id} takes no arguments", issues=issues)
        inv.note(LogEvent.NO_PARAMS)
        return Validated(args=inv.args)
    if not isinstance(schema, dict):
        raise ActionUnavailable("The page declares params that are not a JSON Schema object", stage="validate",
                                reason="The page's declaration is broken (params is not an object)")
    validator = _validator(json.dumps(schema, sort_keys=True))
    if isinstance(validator, str):
        raise ActionUnavailable("The page declares params that are not valid JSON Schema", stage="validate",
                                reason=f"The page's params schema is invalid: {validator}")
    args = apply_defaults(schema, inv.args)
    errors = sorted(validator.iter_errors(args), key=lambda e: [str(part) for part in e.absolute_path])
    if errors:
        issues = [issue for error in errors for issue in _issues(error)]
        raise InvalidParams(f"{len(issues)} problem(s) with the arguments of {inv.decl.id}", issues=issues[:20],
                            omitted=max(0, len(issues) - 20))
    inv.note(LogEvent.ARGS_VALID)
    return Validated(args=args)
