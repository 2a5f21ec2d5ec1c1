"""The tools that keep the code as it is (issue 29): mypy, strict, over core/ and lifecycle/ (the files
and options are pyproject.toml's [tool.mypy]), run by the venv's own interpreter, as people run it.
A finding fails the test and is printed whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_is_clean() -> None:
    done = _run("mypy")  # files and strictness from [tool.mypy]
    assert done.returncode == 0, f"mypy found:\n{done.stdout}{done.stderr}"
