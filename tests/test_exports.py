"""The public surface is small, and importing it stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import pytest

import pling_browser


def test_all_names_resolve() -> None:
    for name in pling_browser.__all__:
        assert getattr(pling_browser, name) is not None


def test_import_is_light() -> None:
    code = "import sys, pling_browser; print(sorted(m for m in ('playwright', 'fastapi', 'uvicorn', 'jsonschema', 'httpx', 'mcp') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


# The public surface, pinned (httpx tests/test_exported_members.py): it changes only on purpose.
PUBLIC = ["Client", "AsyncClient", "PageSession", "Settings", "PlingError", "Receipt", "PageModel", "Runtime", "create_app",
          "__version__"]


def test_the_public_surface_is_pinned() -> None:
    assert pling_browser.__all__ == PUBLIC
    # Every lazily loaded name is exported, and nothing else is public in the package's namespace.
    lazy = set(pling_browser._LAZY)
    assert lazy | {"__version__"} == set(PUBLIC)
    # (Submodules become attributes once loaded; pytest's assertion rewriting adds `@` names.)
    public_now = {name for name, value in vars(pling_browser).items()
                  if not name.startswith(("_", "@")) and not isinstance(value, types.ModuleType)}
    assert public_now - {"annotations", "TYPE_CHECKING", "Any"} <= set(PUBLIC)


def test_the_type_checking_imports_match_the_lazy_table() -> None:
    # A type checker reads the TYPE_CHECKING block, Python the lazy table: they name the same places.
    import ast
    from pathlib import Path

    tree = ast.parse(Path(pling_browser.__file__).read_text())
    hinted = {alias.asname or alias.name: "." + (node.module or "")
              for block in tree.body if isinstance(block, ast.If) and getattr(block.test, "id", "") == "TYPE_CHECKING"
              for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert hinted == pling_browser._LAZY


def _modules_with_all() -> list[str]:
    from pathlib import Path

    root = Path(pling_browser.__file__).resolve().parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if "__all__" in path.read_text() and path.name != "__main__.py":
            parts = path.relative_to(root.parent).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


@pytest.mark.parametrize("module", _modules_with_all())
def test_every_name_in_a_modules_all_exists(module: str) -> None:
    loaded = importlib.import_module(module)
    assert [name for name in loaded.__all__ if not hasattr(loaded, name)] == []
    assert len(set(loaded.__all__)) == len(loaded.__all__)
