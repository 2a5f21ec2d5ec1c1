"""`python -m bench --suite unseen [--seeds 1,2,3] [--tasks a,b] [--quick] [--drafts DIR]`: the unseen
MiniWoB++ suite (unseen.py), a table on stdout and bench/results/unseen.json. A task counts as solved
when the task's own reward says so in most of its episodes (more than half of the seeds)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..stats import median
from .unseen import QUICK, SEEDS, run_unseen, unseen_tasks


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def summarize(out: dict[str, Any]) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for task in out["tasks"]:
        episodes = [e for e in out["episodes"] if e["task"] == task]
        steps = [s for e in episodes for s in e["steps"]]
        solved = sum(1 for e in episodes if (e["raw"] or 0) >= 1.0)
        edits = (out["drafts"].get(task) or {}).get("edited_lines", 0)   # None: an edited draft without its diff
        rows[task] = {"episodes": len(episodes), "solved": solved, "edited_lines": edits,
                      # a draft edited in more than 5 lines (or without its diff) does not count for the goal
                      "mostly": solved * 2 > len(episodes) and edits is not None and edits <= 5,
                      "calls": round(len(steps) / len(episodes), 2) if episodes else None,
                      "bytes_per_step": median([s["bytes"] for s in steps]) if steps else None,
                      "lies": sum(len(e.get("lies") or []) for e in episodes),
                      "why": sorted({(e["error"] or ("reward " + str(e["raw"])))[:90] for e in episodes if (e["raw"] or 0) < 1.0})}
    all_steps = [s for e in out["episodes"] for s in e["steps"]]
    mostly = sum(1 for r in rows.values() if r["mostly"])
    lies = sum(r["lies"] for r in rows.values())
    out["summary"] = {"tasks": rows, "total": {
        "tasks": len(rows), "solved_mostly": mostly, "episodes": len(out["episodes"]),
        "episodes_solved": sum(r["solved"] for r in rows.values()),
        "calls_per_task": round(len(all_steps) / len(out["episodes"]), 2) if out["episodes"] else None,
        "bytes_per_step": median([s["bytes"] for s in all_steps]) if all_steps else None, "lies": lies,
        "goals": [{"goal": "at least half of the tasks solved in most episodes, drafts unedited",
                   "value": f"{mostly}/{len(rows)}", "status": "PASS" if mostly * 2 >= len(rows) else "MISS"}
                  if "edited" not in out["drafts"] else
                  {"goal": "nine in ten tasks solved in most episodes, each draft edited in at most 5 lines",
                   "value": f"{mostly}/{len(rows)} ({sum(1 for r in rows.values() if r['edited_lines'])} drafts edited)",
                   "status": "PASS" if mostly * 10 >= 9 * len(rows) else "MISS"},
                  {"goal": "0 receipts that lied", "value": lies, "status": "PASS" if lies == 0 else "MISS"}]}}
    return out


def render(out: dict[str, Any]) -> str:
    rows = out["summary"]["tasks"]
    total = out["summary"]["total"]
    lines = [f"Unseen MiniWoB++: {total['tasks']} tasks x {len(out['seeds'])} seeds, drafts "
             f"{'edited (' + out['drafts']['edited'] + ')' if 'edited' in out['drafts'] else 'unedited'}, generic policy",
             f"{'task':28} {'solved':>7} {'calls':>6} {'B/step':>7} {'lies':>5}  why not (when not)"]
    for task, row in rows.items():
        edits = f" [{row['edited_lines']} edited lines]" if row["edited_lines"] else ""
        lines.append(f"{task:28} {row['solved']:>3}/{row['episodes']:<3} {row['calls'] or 0:>6} {row['bytes_per_step'] or 0:>7.0f} "
                     f"{row['lies']:>5}  {(edits + ' ' + '; '.join(row['why'])).strip()[:110]}")
    lines.append(f"{'total':28} {total['episodes_solved']:>3}/{total['episodes']:<3} {total['calls_per_task'] or 0:>6} "
                 f"{total['bytes_per_step'] or 0:>7.0f} {total['lies']:>5}")
    for goal in total["goals"]:
        lines.append(f"  {goal['status']:<5} {goal['goal']}: {goal['value']}")
    return "\n".join(lines)


def main(args: Any, results: Path, meta: dict[str, Any]) -> int:
    names = args.tasks or (QUICK if args.quick else unseen_tasks())
    seeds = args.seeds or ([1] if args.quick else SEEDS)
    out: dict[str, Any] = {"meta": {**meta, "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}}
    started = time.perf_counter()
    out.update(asyncio.run(run_unseen(names, seeds, results, progress=_progress, drafts=args.drafts)))
    out["meta"]["seconds"] = round(time.perf_counter() - started, 1)
    summarize(out)
    print(render(out))
    results.mkdir(parents=True, exist_ok=True)
    (results / "unseen.json").write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten: {results / 'unseen.json'}")
    return 0
