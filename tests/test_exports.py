"""The public surface is small, and importing it stays light."""

from __future__ import annotations

import subprocess
import sys

import pling_browser


def test_all_names_resolve() -> None:
    for name in pling_browser.__all__:
        assert getattr(pling_browser, name) is not None


def test_import_is_light() -> None:
    code = "import sys, pling_browser; print(sorted(m for m in ('playwright', 'fastapi', 'uvicorn', 'jsonschema', 'httpx', 'mcp') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"
