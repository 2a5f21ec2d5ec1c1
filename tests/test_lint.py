"""The tools that keep the code as it is (issue 29): ruff over the package, the tests, the benchmark and the fixture apps,
and mypy, strict, over core/ and lifecycle/ (rules, files and options are pyproject.toml's [tool.ruff] and
[tool.mypy]), each run by the venv's own interpreter, as people run them. A finding fails its test and is
printed whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("pling_browser", "tests", "bench", "fixtures")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    done = _run("ruff", "check", "--no-cache", "--output-format", "concise", *CHECKED)
    assert done.returncode == 0, f"ruff found:\n{done.stdout}{done.stderr}"


def test_mypy_is_clean() -> None:
    done = _run("mypy")  # files and strictness from [tool.mypy]
    assert done.returncode == 0, f"mypy found:\n{done.stdout}{done.stderr}"
