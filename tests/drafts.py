"""Drafting real apps for the tests (tests/test_draft_apps.py, tests/test_draft_django.py,
tests/test_draft_gestures.py): what `pling-browser draft URL --out FILE [--do STEP…]` does (pling_browser/cli.py's
`_draft`), in this process. The first drafts of every page are written by one runtime (one browser), at
once; a draft with steps then runs them on a runtime of its own whose adapters are that page's first
draft, as the command does, one after the other. The command as a process is tested in tests/test_draft.py."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pling_browser.ci.draft import draft, draft_after, parse_step
from pling_browser.config import Settings
from pling_browser.runtime import Runtime


@dataclass(frozen=True)
class Draft:
    """One `draft URL --out OUT --do STEP…`."""

    url: str
    out: Path
    steps: tuple[str, ...] = ()


def draft_all(drafts: list[Draft]) -> list[str]:
    """Each draft's text, also written to its `out` (which must not exist, as the command requires)."""
    for each in drafts:
        assert not each.out.exists(), f"{each.out} exists"
    texts = asyncio.run(_draft_all(drafts))
    for each, text in zip(drafts, texts, strict=True):
        each.out.write_text(text, encoding="utf-8")
    return texts


def _settings(drafts: list[Draft]) -> Settings:
    # As the command runs: the environment's settings, with the host of the page it names allowed.
    settings = Settings.from_env().with_(data_dir=Path(tempfile.mkdtemp(prefix="pling-test-drafts-")))
    hosts = tuple(sorted({(urlsplit(d.url).hostname or "").lower() for d in drafts} - {""}))
    return settings.with_(allow_hosts=settings.allow_hosts + hosts)


async def _draft_all(drafts: list[Draft]) -> list[str]:
    settings = _settings(drafts)
    runtime = Runtime(settings.with_(adapters=None))  # the pages as they are, without the operator's adapters
    try:
        await runtime.start()
        firsts = await asyncio.gather(*(draft(runtime, d.url) for d in drafts))
    finally:
        await runtime.stop()
    # One runtime at a time: a runtime knows its driver as the child process that appeared while it started
    # one (core/browsers.py), so two starting at once in one process could each take the other's.
    return [await _after(settings, d, first) for d, first in zip(drafts, firsts, strict=True)]


async def _after(settings: Settings, each: Draft, first: str) -> str:
    """The draft after `each.steps`, actions of its first draft run through the lifecycle (none: the first)."""
    if not each.steps:
        return first
    with tempfile.TemporaryDirectory(prefix="pling-draft-") as folder:
        Path(folder, "first-draft.js").write_text(first, encoding="utf-8")
        runtime = Runtime(settings.with_(adapters=folder))
        try:
            await runtime.start()
            return await draft_after(runtime, each.url, [parse_step(step) for step in each.steps])
        finally:
            await runtime.stop()


def errors(findings: list[Any]) -> list[str]:
    """The error findings of a `check`, as text."""
    return [str(f) for f in findings if f.severity == "error"]
