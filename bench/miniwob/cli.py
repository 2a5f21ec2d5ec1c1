"""`python -m bench --suite miniwob [--seeds 1,2] [--tasks a,b] [--quick] [--no-mcp]`: the MiniWoB++ suite,
a table on stdout, bench/results/miniwob.json and bench/results/miniwob.png."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .report import plot, render, summarize
from .suite import QUICK, TASKS, run_suite


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(args: Any, results: Path, meta: dict[str, Any]) -> int:
    names = args.tasks or (QUICK if args.quick else list(TASKS))
    unknown = [n for n in names if n not in TASKS]
    if unknown:
        raise SystemExit(f"no policy for {', '.join(unknown)}; the tasks are {', '.join(TASKS)}")
    seeds = args.seeds or ([1] if args.quick else [1, 2])
    out: dict[str, Any] = {"meta": {**meta, "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}}
    started = time.perf_counter()
    out.update(asyncio.run(run_suite(names, seeds, results, mcp=not args.no_mcp, progress=_progress)))
    out["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    summarize(out)
    print(render(out))
    results.mkdir(parents=True, exist_ok=True)
    (results / "miniwob.json").write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    why = plot(out, results / "miniwob.png")
    print(f"\nwritten: {results / 'miniwob.json'}" + (f"; no picture: {why}" if why else f", {results / 'miniwob.png'}"))
    return 0
