"""The lifecycle is written once: ``runner.LIFECYCLE`` orders the stages, ``runner.run`` calls them
(for an invocation, a resumed flow and every flow step), and no other module opens a stage by name.
The lifecycle and core packages import downwards only: no circle, not even one dodged by an import
inside a function."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pling_browser.lifecycle import LIFECYCLE

PACKAGE = Path(__file__).resolve().parents[2] / "pling_browser"
ORDER = ("resolve", "decode", "validate", "confirm", "reveal", "execute", "expect")


def test_the_runner_table_is_the_documented_order() -> None:
    assert tuple(name for name, _ in LIFECYCLE) == ORDER


def test_no_module_opens_a_stage_by_name() -> None:
    # `inv.stage("reveal")` outside the runner would be a second copy of the lifecycle order.
    opened = {path.relative_to(PACKAGE).as_posix(): re.findall(r"\.stage\(\s*[\"'](\w+)", path.read_text())
              for path in PACKAGE.rglob("*.py")}
    assert {path: names for path, names in opened.items() if names} == {"lifecycle/runner.py": ["diff"]}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every pling_browser module `path` imports, at the top or inside a function (TYPE_CHECKING aside)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    skipped = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
               and "TYPE_CHECKING" in ast.unparse(block.test) for node in ast.walk(block)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.ImportFrom):
            continue
        base = package.split(".")[: len(package.split(".")) - max(node.level - 1, 0)] if node.level else []
        target = ".".join(base + ([node.module] if node.module else []))
        for alias in node.names:
            name = f"{target}.{alias.name}"
            found.add(name if name in modules else target)
    return {name for name in found if name in modules and name != module}


def test_lifecycle_and_core_have_no_import_circle() -> None:
    paths = [p for folder in ("lifecycle", "core") for p in (PACKAGE / folder).rglob("*.py")]
    modules = {_module(p) for p in paths}
    graph = {_module(p): _imports(p, modules) for p in paths}
    circles: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        if node in path:
            circles.append(path[path.index(node):] + [node])
            return
        for nxt in graph[node]:
            walk(nxt, path + [node])

    for node in graph:
        walk(node, [])
    assert circles == []
