"""Stage 2, decode: ``args`` arrives as a JSON object or JSON text of one. Sensitive references
(``<secret>NAME</secret>``) are restored to their real values here, after decoding and before
validation; the restored values are remembered only so that nothing written later repeats them."""

from __future__ import annotations

import json
import re
from typing import Any

from ..core import tracing
from ..errors import InvalidArgs, InvalidParams
from .codes import LogEvent
from .context import Invocation
from .results import Decoded

SECRET_REF = re.compile(r"<secret>([A-Za-z0-9_.-]{1,64})</secret>")
MAX_ARGS_CHARS = 1_000_000


def decode(inv: Invocation) -> Decoded:
    """The JSON alone (a flow's step: references in it are the page's own, never restored)."""
    args = sendable_args(inv.request.raw_args)
    inv.note(LogEvent.DECODED, keys=len(args))
    return Decoded(args=args)


def sendable_args(raw: object) -> dict[str, Any]:
    """The arguments as an object the page can receive, else INVALID_ARGS."""
    args = parse_args(raw)
    problem = unsendable(args)
    if problem:
        raise InvalidArgs(f"args cannot be sent to the page: {problem}")
    return args


def parse_args(raw: object) -> dict[str, Any]:
    """Arguments as an agent sends them (an object, JSON text of one, or nothing) as an object; anything
    else is INVALID_ARGS. Invoke's args and a tool call's arguments (REST and MCP) alike."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        if len(raw) > MAX_ARGS_CHARS:
            raise InvalidArgs(f"args is {len(raw)} characters long; at most {MAX_ARGS_CHARS} are accepted")
        try:
            value = json.loads(raw, parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            raise InvalidArgs(f"args is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}",
                              position=error.pos) from None
        except ValueError as error:
            raise InvalidArgs(f"args is not valid JSON: {error}") from None
        except RecursionError:
            raise InvalidArgs(f"args nests deeper than {MAX_DEPTH} levels") from None
        if not isinstance(value, dict):
            raise InvalidArgs(f"args must be a JSON object, not {type(value).__name__}")
        return value
    if isinstance(raw, dict):
        return raw
    raise InvalidArgs(f"args must be a JSON object, not {type(raw).__name__}")


MAX_DEPTH = 64


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def unsendable(value: Any) -> str | None:
    """What in ``value`` the page could not receive as JSON (NaN, Infinity, a lone UTF-16 surrogate,
    nesting deeper than MAX_DEPTH), named by its path; None when everything can be sent."""
    stack: list[tuple[Any, str, int]] = [(value, "args", 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"{path} nests deeper than {MAX_DEPTH} levels"
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            return f"{path} is {item!r}, which JSON cannot carry"
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"{path} holds a lone UTF-16 surrogate"
        elif isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str):
                    try:
                        key.encode("utf-8")
                    except UnicodeEncodeError:
                        return f"a key in {path} holds a lone UTF-16 surrogate"
                stack.append((child, f"{path}.{key}"[:200], depth + 1))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]", depth + 1) for i, child in enumerate(item))
    return None


def references(value: Any, found: set[str]) -> None:
    if isinstance(value, str):
        found.update(SECRET_REF.findall(value))
    elif isinstance(value, dict):
        for item in value.values():
            references(item, found)
    elif isinstance(value, list):
        for item in value:
            references(item, found)


def substitute(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        return SECRET_REF.sub(lambda m: values[m.group(1)], value)
    if isinstance(value, dict):
        return {key: substitute(item, values) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute(item, values) for item in value]
    return value


async def decode_args(inv: Invocation) -> Decoded:
    """The decode stage: the JSON, then the sensitive references in it."""
    return await restore_references(inv, decode(inv))


async def restore_references(inv: Invocation, decoded: Decoded) -> Decoded:
    operator_secrets = inv.request.operator_secrets
    names: set[str] = set()
    references(decoded.args, names)
    if not names:
        return decoded
    # A trace records what the driver reads and sends: it is dropped before any value is (SPEC: a trace
    # never holds a restored value), and the invocation goes on untraced.
    if inv.session.recording is not None:
        await tracing.discard(inv.session.recording, "this invocation restored a secret reference, and a trace "
                              "records what the page is given")
        inv.note(LogEvent.TRACE_DISCARDED)
    values = {name: operator_secrets[name] for name in names if operator_secrets and name in operator_secrets}
    missing = sorted(names - values.keys())
    if missing:
        values.update(await inv.session.bridge.restore(missing))
    unknown = [name for name in names if name not in values]
    if unknown:
        raise InvalidParams(f"{len(unknown)} secret reference(s) in args do not resolve in this session",
                            stage="decode", issues=[{"path": "", "problem": "a <secret> reference is unknown, expired or from another session"}])
    secret_values = tuple(value for value in values.values() if value)
    # The page receives these values; from now on the bridge shows them only as references.
    await inv.session.bridge.protect(list(secret_values))
    inv.note(LogEvent.RESTORED, count=len(names))
    return Decoded(args=substitute(decoded.args, values), secret_values=secret_values)
