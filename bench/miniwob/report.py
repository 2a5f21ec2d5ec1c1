"""The MiniWoB++ run as numbers per task and in total, the goals of issue 21 with PASS/MISS, a table,
and a picture (matplotlib, when installed) of bytes and time per step against Playwright MCP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..stats import median, percentile

SIDES = {"pling": "Pling", "mcp": "Playwright MCP"}
ALL_SIDES = {**SIDES, "mcp_look": "Playwright MCP with a snapshot after each action"}


def _r(x: float | None, digits: int = 1) -> float | None:
    return None if x is None else round(x, digits)


def aggregate(episodes: list[dict[str, Any]]) -> dict[str, Any]:
    steps = [s for e in episodes for s in e["steps"]]
    raws = [e["raw"] if e["raw"] is not None else 0.0 for e in episodes]
    rewards = [e["reward"] if e["reward"] is not None else 0.0 for e in episodes]
    size = [s["bytes"] for s in steps]
    ms = [s["ms"] for s in steps]
    return {
        "episodes": len(episodes), "solved": sum(1 for x in raws if x >= 1.0),
        "raw_reward": _r(sum(raws) / len(raws), 3) if raws else None,
        "reward": _r(sum(rewards) / len(rewards), 3) if rewards else None,
        "calls_per_task": _r(len(steps) / len(episodes), 2) if episodes else None,
        "bytes_per_step": {"median": _r(median(size), 0), "p95": _r(percentile(size, 95), 0)},
        "bytes_per_task": _r(sum(size) / len(episodes), 0) if episodes else None,
        "ms_per_step": {"median": _r(median(ms)), "p95": _r(percentile(ms, 95))},
        "ms_per_task": _r(sum(e["wall_ms"] for e in episodes) / len(episodes), 0) if episodes else None,
        "bytes_per_step_without_diagnostics": _r(median([s["bytes"] - s.get("diagnostics", 0) for s in steps]), 0),
        "silent_noops": sum(1 for s in steps if s["silent"]),
        "errors": sorted({e["error"] for e in episodes if e["error"]}),
    }


def summarize(out: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = {"tasks": {}, "total": {}}
    for side in ALL_SIDES:
        episodes = out.get(side, {}).get("episodes")
        if not episodes:
            continue
        table["total"][side] = aggregate(episodes)
        for task in out["tasks"]:
            table["tasks"].setdefault(task, {})[side] = aggregate([e for e in episodes if e["task"] == task])
    out["summary"] = table
    out["goals"] = goals(table)
    return out


def goals(table: dict[str, Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []

    def add(name: str, value: Any, ok: bool | None) -> None:
        result.append({"goal": name, "value": value, "status": "n/a" if ok is None else ("PASS" if ok else "MISS")})
    tasks = table["tasks"]
    pling = table["total"].get("pling")
    mcp = table["total"].get("mcp")
    if pling:
        below = [t for t, s in tasks.items() if s["pling"]["raw_reward"] != 1.0]
        add("reward 1.0 on every task through Pling", "all" if not below else "below 1.0: " + ", ".join(below), not below)
        add("silent no-ops through Pling: 0", pling["silent_noops"], pling["silent_noops"] == 0)
    if pling and mcp:
        p, m = pling["bytes_per_step"]["median"], mcp["bytes_per_step"]["median"]
        ratio = _r(m / p, 2) if p else None
        add(">= 10x fewer bytes per step than Playwright MCP (medians)", f"{p:.0f} B against {m:.0f} B: {ratio}x",
            ratio is not None and ratio >= 10)
        pt, mt = pling["bytes_per_task"], mcp["bytes_per_task"]
        add("bytes per task <= Playwright MCP's on the same tasks (issue 31)",
            f"{pt:.0f} B against {mt:.0f} B: {pt / mt:.2f}x" if pt and mt else None,
            None if not pt or not mt else pt <= mt)
        both = [t for t, s in tasks.items() if s.get("mcp") and s["mcp"]["solved"] and s["pling"]["solved"]]
        more = [t for t in both if tasks[t]["pling"]["calls_per_task"] > tasks[t]["mcp"]["calls_per_task"]]
        add("no more calls per task than Playwright MCP (tasks both solve)",
            f"{len(both) - len(more)} of {len(both)}" + (": more on " + ", ".join(more) if more else ""), not more)
        add("silent no-ops through Playwright MCP (informative)", mcp["silent_noops"], None)
    look = table["total"].get("mcp_look")
    if pling and look:
        add("informative: against Playwright MCP that looks after each action, bytes per task",
            f"{pling['bytes_per_task']:.0f} B against {look['bytes_per_task']:.0f} B "
            f"({look['bytes_per_task'] / pling['bytes_per_task']:.2f}x), calls {pling['calls_per_task']} against "
            f"{look['calls_per_task']}, solved {pling['solved']} against {look['solved']}", None)
    return result


def _cell(s: dict[str, Any] | None) -> str:
    if not s:
        return f"{'-':>5} {'-':>5} {'-':>11} {'-':>7} {'-':>3}"
    b = s["bytes_per_step"]
    return (f"{s['raw_reward']:>5.2f} {s['calls_per_task']:>5.1f} {b['median']:>5.0f}/{b['p95']:<5.0f} "
            f"{s['ms_per_step']['median']:>7.1f} {s['silent_noops']:>3}")


def render(out: dict[str, Any]) -> str:
    table = out["summary"]
    head = "reward calls bytes/step  ms/step sil"
    lines = [f"MiniWoB++ ({len(out['tasks'])} tasks x seeds {out['seeds']}): raw reward (mean), tool calls per task, "
             "bytes read per step (median/p95), wall ms per step (median), silent no-ops",
             f"Pling adapters: {out['pling'].get('adapters')}; Playwright MCP {out.get('mcp', {}).get('version') or out.get('mcp', {}).get('skipped')}",
             "", f"{'task':<24} {'kind':<14} | {'Pling':<37} | {'Playwright MCP':<37}",
             f"{'':<24} {'':<14} | {head:<37} | {head:<37}"]
    for task, sides in table["tasks"].items():
        lines.append(f"{task:<24} {out['tasks'][task]:<14} | {_cell(sides.get('pling')):<37} | {_cell(sides.get('mcp')):<37}")
    total = table["total"]
    lines.append(f"{'TOTAL':<24} {'':<14} | {_cell(total.get('pling')):<37} | {_cell(total.get('mcp')):<37}")
    for side, name in ALL_SIDES.items():
        if side in total:
            s = total[side]
            lines.append(f"{name}: {s['solved']}/{s['episodes']} episodes solved, reward with the task's time penalty "
                         f"{s['reward']}, {s['bytes_per_task']:.0f} bytes read per task, {s['ms_per_task']:.0f} ms per task, "
                         f"p95 {s['ms_per_step']['p95']} ms per step, {s['calls_per_task']} calls per task, bytes per "
                         f"step {s['bytes_per_step']['median']:.0f}/{s['bytes_per_step']['p95']:.0f}, {s['silent_noops']} silent no-ops")
    if "pling" in total:
        lines.append(f"Pling bytes per step without the receipts' log and timings_ms (median): "
                     f"{total['pling']['bytes_per_step_without_diagnostics']:.0f}")
    for side, name in SIDES.items():
        for task, sides in table["tasks"].items():
            for error in (sides.get(side) or {}).get("errors", []):
                lines.append(f"  {name} {task}: {error}")
    lines.append("")
    for goal in out["goals"]:
        lines.append(f"  [{goal['status']:>4}] {goal['goal']}: {goal['value']}")
    return "\n".join(lines)


def plot(out: dict[str, Any], path: Path) -> str | None:
    """bytes and wall time per step, per task, Pling against Playwright MCP; None when drawn, else why not."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install -e '.[bench]')"
    table = out["summary"]["tasks"]
    tasks = list(table)
    fig, axes = plt.subplots(1, 3, figsize=(15, 0.32 * len(tasks) + 2.2), sharey=True)
    colors = {"pling": "#2a7ab0", "mcp": "#c8553d"}
    for ax, key, label in ((axes[0], "bytes_per_step", "bytes the agent reads per step (median)"),
                           (axes[1], "ms_per_step", "wall time per step, ms (median)"),
                           (axes[2], "calls_per_task", "tool calls per task (0: not solved)")):
        for i, side in enumerate(SIDES):
            ys = [j + (0.2 if i == 0 else -0.2) for j in range(len(tasks))]
            cells = [table[t].get(side) or {} for t in tasks]
            if key == "calls_per_task":
                values = [(c.get(key) or 0) if c.get("solved") else 0 for c in cells]
            else:
                values = [(c.get(key) or {}).get("median") or 0 for c in cells]
            ax.barh(ys, values, height=0.38, color=colors[side], label=SIDES[side])
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(tasks)))
    axes[0].set_yticklabels(tasks, fontsize=8)
    axes[0].invert_yaxis()
    axes[2].legend(loc="lower right")
    total = out["summary"]["total"]
    title = "MiniWoB++ through Pling and Playwright MCP"
    if "pling" in total and "mcp" in total:
        title += (f" — solved {total['pling']['solved']}/{total['pling']['episodes']} vs "
                  f"{total['mcp']['solved']}/{total['mcp']['episodes']}, calls per task "
                  f"{total['pling']['calls_per_task']} vs {total['mcp']['calls_per_task']}")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None
