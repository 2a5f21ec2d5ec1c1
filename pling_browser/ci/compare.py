"""Comparing two JSON values on the Python side: a scenario's expectation against a receipt, and
`check`'s two loads of one page. Through deepdiff, type-aware: `true` is not `1` and `0` is not
`false` (Python's `==` says they are); `1` and `1.0` are one JSON number, so integral floats are made
ints first. Object keys compare as sets, arrays in order. A difference is named by its path, with a
list item shown by its `id` when it has one (`actions[add].params`), as a person reads a model."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["differences", "same"]


def _numbers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _numbers(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_numbers(item) for item in value]
    return value


def _diff(a: Any, b: Any) -> Any:
    from deepdiff import DeepDiff  # imported on first use: `check` and `run` need it, the service does not

    # zip_ordered_iterables: arrays compared item by item in order (its default matching of sequences
    # finds `[1]` and `[true]` equal, as Python's `==` does).
    return DeepDiff(_numbers(a), _numbers(b), view="tree", verbose_level=2, zip_ordered_iterables=True)


def same(a: Any, b: Any) -> bool:
    """`a` and `b` are the same JSON value, type-aware."""
    return not _diff(a, b)


def _show(value: Any) -> str:
    if type(value).__name__ == "NotPresent":
        return "<absent>"
    return json.dumps(value, ensure_ascii=False, default=str)[:60]


def _path(root: Any, steps: list[Any]) -> str:
    text, node = "", root
    for step in steps:
        if isinstance(node, list) and isinstance(step, int):
            item = node[step] if 0 <= step < len(node) else None
            label = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else step
            text += f"[{label}]"
        else:
            text += f".{step}" if text else str(step)
        node = node[step] if isinstance(node, (dict, list)) and _has(node, step) else None
    return text


def _has(node: Any, step: Any) -> bool:
    return step in node if isinstance(node, dict) else isinstance(step, int) and 0 <= step < len(node)


def differences(a: Any, b: Any, limit: int = 3) -> list[str]:
    """At most `limit` differences, each `path: A then B` (`<absent>` for a key or item one side lacks)."""
    found: list[str] = []
    tree = _diff(a, b)
    for kind in tree:
        for level in tree[kind]:
            steps = level.path(output_format="list")
            root = a if type(level.t1).__name__ != "NotPresent" else b
            found.append(f"{_path(root, steps) or '(value)'}: {_show(level.t1)} then {_show(level.t2)}")
            if len(found) >= limit:
                return found
    return found
