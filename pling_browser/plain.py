"""Text from agents and pages, made safe to show: the one place that decides which characters a log
line escapes, which a person is shown as marks, and what input is malformed.

- ``escaped``: for log lines. Control characters (C0, C1, U+2028/U+2029), invisible and
  direction-changing characters, and lone UTF-16 surrogates become ``\\xNN``/``\\uNNNN`` escapes, so a
  CR/LF in an agent's action id cannot forge a log line and a U+202E cannot reverse one.
- ``visible``: for what a person reads (confirmations, the console). Invisible and direction-changing
  characters become ``[U+202E]``-style marks, so "pay" and "pay\\u200b" do not look alike.
- ``malformed``: what in an agent's input cannot be taken at all (a lone surrogate anywhere: it cannot
  be encoded); the HTTP face answers 400 for it. A control character is not malformed: record ids come
  from the page (SPEC invariant 1) and may hold any, so an action ref holding one is taken as it is and
  escaped wherever it is written.
- ``wellformed``: data with every lone surrogate replaced by U+FFFD, so what is stored and answered
  always encodes (the receipt store never fails on a page's or an agent's text).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["INVISIBLE", "escaped", "visible", "malformed", "wellformed", "lookalike"]

# Invisible and direction-changing characters (Unicode's Default_Ignorable_Code_Point, the bidi
# controls and the fillers that render as nothing): U+200B, U+202E, U+2066, U+FEFF, U+00AD, …
INVISIBLE = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
             "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8")
_SHOWN = re.compile(f"[{INVISIBLE}]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPED = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{INVISIBLE}\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """`text` for a log line: nothing in it can end the line, look like another line, or reorder it."""
    return _ESCAPED.sub(_escape, text) if _ESCAPED.search(text) else text


def visible(value: Any) -> Any:
    """`value` (text, or JSON-like data: keys too) with invisible and direction-changing characters
    shown as marks (``[U+200B]``), and control characters as escapes, for a person to read."""
    if isinstance(value, str):
        if not (_SHOWN.search(value) or _CONTROL.search(value)):
            return value
        value = _SHOWN.sub(lambda m: f"[U+{ord(m.group()):04X}]", value)
        return _CONTROL.sub(_escape, value)
    if isinstance(value, dict):
        return {visible(key): visible(item) for key, item in value.items()}
    if isinstance(value, list):
        return [visible(item) for item in value]
    return value


def lookalike(text: str) -> bool:
    """Whether `text` holds a character a person cannot see (or that reorders what they see)."""
    return bool(_SHOWN.search(text) or _CONTROL.search(text))


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def malformed(value: Any, path: str = "", depth: int = 0) -> str | None:
    """What in `value` cannot be taken (a lone UTF-16 surrogate in any string or key), named by its
    path; None when everything can."""
    if depth > 200:
        return None  # deeper data is refused by its own limits (decode's nesting limit)
    where = path or "the value"
    if isinstance(value, str):
        if _lone_surrogate(value):
            return f"{where} holds a lone UTF-16 surrogate"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and _lone_surrogate(key):
                return f"a key in {where} holds a lone UTF-16 surrogate"
            found = malformed(item, f"{path}.{escaped(str(key))[:60]}" if path else escaped(str(key))[:60],
                              depth + 1)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = malformed(item, f"{where}[{index}]", depth + 1)
            if found:
                return found
    return None


def _whole(text: str) -> str:
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace") if _lone_surrogate(text) else text


def wellformed(value: Any) -> Any:
    """`value` with every lone surrogate (in strings and keys) replaced by U+FFFD; pairs are kept. JSON-like
    data that holds none (nearly every receipt) is answered as it is, itself, after one check in C: its
    JSON text encodes as UTF-8 (issue 31: the walk below cost a read ~40 µs for its receipt alone)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return _wellformed(value)
    return value


def _wellformed(value: Any) -> Any:
    if isinstance(value, str):
        return _whole(value)
    if isinstance(value, dict):
        return {(_whole(key) if isinstance(key, str) else key): _wellformed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wellformed(item) for item in value]
    return value
