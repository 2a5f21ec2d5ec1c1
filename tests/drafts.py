"""Drafting real apps for the tests (tests/test_draft_apps.py, tests/test_draft_django.py): `pling-browser
draft` as a person runs it, each in a process of its own, several at once."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Draft:
    """One `draft URL --out OUT --do STEP…`."""

    url: str
    out: Path
    steps: tuple[str, ...] = ()

    def run(self) -> str:
        command = [sys.executable, "-m", "pling_browser", "draft", self.url, "--out", str(self.out)]
        for step in self.steps:
            command += ["--do", step]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (self.out.name, done.stderr)
        return self.out.read_text()


def draft_all(drafts: list[Draft]) -> list[str]:
    """Each draft's text, the drafts run at once: each is its own process with its own browser, and none
    depends on another (each writes its own file; the pages they draft are not changed by drafting)."""
    with ThreadPoolExecutor(max_workers=len(drafts)) as pool:
        return list(pool.map(Draft.run, drafts))


def errors(findings: list[Any]) -> list[str]:
    """The error findings of a `check`, as text."""
    return [str(f) for f in findings if f.severity == "error"]
