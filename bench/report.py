"""One run as a readable table, closed by the targets (bench/targets.py) with PASS/MISS."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .measure import BARE_FLOORS, FLOORS, NAVIGATING, NAVIGATING_FLOOR, OPS, STAGES


def _med(entry: dict[str, Any] | None) -> float | None:
    return None if not entry else entry.get("median")


def overhead(size: dict[str, Any], op: str) -> float | None:
    ops = size["ops"]
    pling = _med(ops.get(f"pling.{op}.ev"))
    floor = _med(ops.get(f"floor.{OPS[op]['floor']}"))
    return None if pling is None or floor is None else round(pling - floor, 2)


# ---- rendering

def _table(headers: list[str], rows: list[list[str]], right: set[int] | None = None) -> str:
    right = right if right is not None else set(range(1, len(headers)))
    widths = [max(len(str(r[i])) for r in [headers] + rows) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        return "  ".join(str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=False))).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _ms(x: float | None) -> str:
    return "-" if x is None else (f"{x:.1f}" if x < 100 else f"{x:.0f}")


def _mp(entry: dict[str, Any] | None) -> str:
    if not entry or entry.get("median") is None:
        return "-"
    return f"{_ms(entry['median'])} / {_ms(entry['p95'])}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.1f}x"


def _bytes(n: int | None) -> str:
    if n is None:
        return "-"
    return f"{n:,} B" if n < 10_000 else f"{n / 1024:,.1f} KB"


BUSY_SHARE = 0.10


def _machine(meta: dict[str, Any]) -> str:
    cpu = meta.get("cpu") or {}
    share = cpu.get("others_cpu_share", 0.0)
    phases = meta.get("phases_others_cpu_share") or {}
    line = (f"Other work on the machine during the run: {share:.0%} of its CPU (peak {cpu.get('others_cpu_share_peak', 0):.0%}"
            + (", by phase " + ", ".join(f"{k} {v:.0%}" for k, v in phases.items()) if phases else "") + ")"
            + f"; the bench's own processes: {cpu.get('bench_cpu_share', 0):.0%}.")
    if share > BUSY_SHARE or any(v > 2 * BUSY_SHARE for v in phases.values()):
        line += "\n** The machine was busy with other work: figures are slower and noisier than on a quiet machine. **"
    return line


def _opening(opening: dict[str, Any] | None) -> list[str]:
    if not opening:
        return []
    if "modes" not in opening:
        return ["", f"== opening a session: not run ({opening.get('skipped') or opening.get('error')}) =="]
    before = opening.get("sessions_open_before")
    rows = [[mode, f"{data['ms']['n']}", _mp(data["ms"]), _ms(data["ms"]["min"]), _ms(data["ms"]["max"]),
             _bytes(data["bytes"]), str(data["errors"])] for mode, data in opening["modes"].items()]
    lines = ["", f"== opening a session: POST /sessions on {opening['records']} records until the answer with its "
                 f"model, each closed before the next; 'after idle' = no call for {opening['idle_s']:g} s before it, "
                 f"{'no' if before == 0 else before} other session open ==",
             _table(["opens", "n", "median / p95", "min", "max", "answer", "errors"], rows)]
    lines += [f"  ! {mode}: {d['first_error']}" for mode, d in opening["modes"].items() if d.get("first_error")]
    return lines


def _side_rows(name: str, side: dict[str, Any]) -> list[str]:
    lat = side["latency_ms"]
    cpu = side["cpu_ms_per_invocation"]
    return [name, f"{side['completed']}/{side['invocations']}", f"{side['wall_s']:.1f} s",
            f"{side['throughput_per_s']:.1f}", f"{_ms(lat['median'])} / {_ms(lat['p95'])} / {_ms(lat['max'])}",
            str(side["errors"]), f"{cpu['total']:.1f}",
            "-" if side.get("others_cpu_share") is None else f"{side['others_cpu_share']:.0%}",
            ", ".join(f"{k} {v:.1f}" for k, v in cpu.items() if k != "total")]


def _concurrency(conc: dict[str, Any] | None) -> list[str]:
    if not conc:
        return []
    if "levels" not in conc:
        return ["", f"== concurrency: not run ({conc.get('skipped') or conc.get('error')}) =="]
    lines = ["", "== concurrency: S Pling sessions against S bare Playwright contexts (one browser), the same add "
                 "until rendered on 12 records, all S at once; bursts Pling, bare, bare, Pling =="]
    rows = []
    for key, level in conc["levels"].items():
        if "error" in level:
            lines.append(f"  ! {key} sessions: {level['error']}")
            continue
        rows.append(_side_rows(f"{key} Pling", level["pling"]))
        rows.append(_side_rows(f"{key} bare", level["bare"]))
        rows.append([f"{key} Pling/bare", "", "", f"{level['throughput_ratio']}x", f"p95 {level['p95_ratio']}x",
                     "", "", "", ""])
    if rows:
        lines.append(_table(["sessions", "done", "wall", "per s", "ms median / p95 / max", "errors", "CPU ms", "others",
                             "CPU ms per invocation by process"], rows, right={1, 2, 3, 4, 5, 6, 7}))
    for key, level in conc["levels"].items():
        mem = level.get("memory")
        if mem:
            lines.append(f"  {key} sessions, memory of the service's tree: loaded {mem['loaded']['pss_mb']:.0f} MB PSS "
                         f"({mem['loaded']['rss_mb']:.0f} MB RSS) in {mem['loaded']['processes']} processes, "
                         f"none open {mem['idle']['pss_mb']:.0f} MB; added per session "
                         f"{mem['pss_added_per_session_mb']:.1f} MB PSS (file-backed "
                         f"{mem['pss_file_added_per_session_mb']}, anonymous + shmem "
                         f"{mem['pss_anon_shmem_added_per_session_mb']})")
        for side in ("pling", "bare"):
            for error in (level.get(side) or {}).get("first_errors", []):
                lines.append(f"  ! {key} {side}: {error}")
    return lines


def _capacity(cap: dict[str, Any] | None) -> list[str]:
    if not cap:
        return []
    if "steps" not in cap:
        return ["", f"== capacity: not run ({cap.get('skipped') or cap.get('error')}) =="]
    lines = ["", f"== capacity: sessions open on 12 records, every one invoking add at once ({cap['rounds']} rounds "
                 f"per step); held = every answer ok within {cap['answer_ms']:.0f} ms =="]
    rows = [[str(step["sessions"]), _ms(step["latency_ms"]["median"]), _ms(step["latency_ms"]["p95"]),
             _ms(step["latency_ms"]["max"]), str(step["errors"])] for step in cap["steps"]]
    lines.append(_table(["sessions", "median ms", "p95 ms", "max ms", "errors"], rows))
    missed = cap.get("missed")
    mem = cap.get("memory")
    lines.append(f"  held: {cap['held']} sessions" + (f" (service tree {mem['pss_mb']:.0f} MB PSS)" if mem else "")
                 + (f"; missed at {missed['sessions']}: {missed['why']}" if missed else
                    f"; every step up to {cap['most_tried']} held"))
    return lines


def _operation_rows(size: dict[str, Any]) -> list[list[str]]:
    ops = size["ops"]
    rows = []
    for op, info in OPS.items():
        floor_entry = ops.get(f"floor.{info['floor']}")
        ev, noev = ops.get(f"pling.{op}.ev"), ops.get(f"pling.{op}.noev")
        over = overhead(size, op)
        bare = ops.get(f"floor.{BARE_FLOORS[info['floor']]}") if info["floor"] in BARE_FLOORS else None
        rows.append([f"{info['label']}", info["kind"], f"{info['floor']} {_mp(floor_entry)}", _mp(bare),
                     _mp(ev), _ratio(_med(ev), _med(floor_entry)), _mp(noev), _ratio(_med(noev), _med(floor_entry)),
                     "-" if over is None else f"{over:+.1f}"])
    nav = ops.get(NAVIGATING)
    if nav:
        plain = _med(ops.get("pling.remove.ev"))
        nav_floor = ops.get(NAVIGATING_FLOOR)
        rows.append(["remove@t9, navigating", "form POST + 303", f"click+load {_mp(nav_floor)}", "-", _mp(nav),
                     "-" if not plain or nav.get("median") is None else f"{nav['median'] / plain:.1f}x remove",
                     "-", "-", "-"])
    return rows


def _stage_rows(ops: dict[str, Any]) -> list[list[str]]:
    rows = []
    labelled = [(f"pling.{op}.{mode}", f"{info['label']} ({'on' if mode == 'ev' else 'off'})")
                for op, info in OPS.items() for mode in ("ev", "noev")] + [(NAVIGATING, "remove@t9 navigating (on)")]
    for key, label in labelled:
        entry = ops.get(key)
        if not entry or "stages_ms" not in entry:
            continue
        stages = entry["stages_ms"]
        rest = None if entry.get("median") is None else entry["median"] - entry["stages_sum_ms"]
        rows.append([label] + [_ms(stages.get(s)) if s in stages else "" for s in STAGES]
                    + [_ms(entry["stages_sum_ms"]), _ms(rest)])
    return rows


def _byte_rows(size: dict[str, Any]) -> list[list[str]]:
    ops = size["ops"]
    rows = []
    model = size.get("model")
    if model:
        rows.append(["model (GET /model, default window)", _bytes(model["bytes"]), f"{_ms(model['ms']['median'])} ms",
                     f"{model['ids']:,} ids"])
    brief = size.get("model_brief")
    if brief:
        rows.append(["model (GET /model?detail=brief)", _bytes(brief["bytes"]), f"{_ms(brief['ms'])} ms", ""])
    full = size.get("model_limit_1000")
    if full:
        rows.append(["model (GET /model?limit=1000)", _bytes(full["bytes"]), f"{_ms(full['ms'])} ms", ""])
    rows.append(["POST /sessions (session + model)", _bytes(size["open"]["bytes"]), f"{_ms(size['open']['ms'])} ms", ""])
    for op, info in OPS.items():
        for mode in ("ev", "noev"):
            entry = ops.get(f"pling.{op}.{mode}")
            if entry and "bytes" in entry:
                rows.append([f"receipt {info['label']} (evidence {'on' if mode == 'ev' else 'off'})",
                             _bytes(entry["bytes_max"]), "", ""])
    if ops.get(NAVIGATING, {}).get("bytes_max"):
        rows.append(["receipt remove@t9, navigating (evidence on)", _bytes(ops[NAVIGATING]["bytes_max"]), "", ""])
    return rows


def _size_section(n: int, size: dict[str, Any]) -> list[str]:
    parts = ["", f"== {n:,} records ({size['reps']} reps after {size['warmup']} warm-up; "
                 f"session opened in {_ms(size['open']['ms'])} ms) ==",
             _table(["operation", "kind", "floor", "bare", "evidence on", "×floor", "evidence off", "×floor",
                     "overhead"], _operation_rows(size), right={2, 3, 4, 5, 6, 7, 8})]
    stage_rows = _stage_rows(size["ops"])
    if stage_rows:
        parts += ["", "stages from the receipts' timings_ms (median ms); 'outside' = call median minus the stage sum "
                      "(HTTP, JSON, receipt log, idle)",
                  _table(["receipt", *STAGES, "sum", "outside"], stage_rows)]
    parts += ["", _table(["bytes", "size", "time", ""], _byte_rows(size), right={1, 2})]
    parts += [f"  ! {key}: {entry['errors']} errors, first: {entry.get('first_error')}"
              for key, entry in size["ops"].items() if entry.get("errors")]
    return parts


def _mcp_section(results: dict[str, Any]) -> list[str]:
    mcp = results.get("mcp") or {}
    if "skipped" in mcp:
        return ["", f"== Playwright MCP: skipped ({mcp['skipped']}) =="]
    parts = ["", f"== Playwright MCP {mcp.get('version')}: delete t9 = browser_click + browser_snapshot "
                 "(the snapshot an agent needs to see what changed) =="]
    rows = []
    for variant, data in mcp.get("variants", {}).items():
        if "error" in data["sizes"]:
            parts.append(f"  ! {variant}: {data['sizes']['error']}")
        for key, entry in data["sizes"].items():
            if key == "error":
                continue
            pling = _med(results.get("sizes", {}).get(key, {}).get("ops", {}).get("pling.remove.ev"))
            rows.append([variant, f"{int(key):,}", f"{entry['reps']}", _mp(entry["click_ms"]), _mp(entry["snapshot_ms"]),
                         _mp(entry["click_and_snapshot_ms"]), _ms(pling),
                         _ratio(entry["click_and_snapshot_ms"]["median"], pling),
                         _bytes(entry["bytes_read"]), _bytes(entry["first_snapshot_bytes"]),
                         "-" if not entry.get("memory") else f"{entry['memory']['rss_mb']:.0f} MB"])
            if entry.get("errors"):
                parts.append(f"  ! {variant} {key}: {entry['errors']} errors, first: {entry['first_error']}")
    if rows:
        parts.append(_table(["MCP", "records", "reps", "click", "snapshot", "click+snapshot", "Pling remove@t9",
                             "Pling faster", "bytes read", "snapshot to find it", "RSS (MCP tree)"], rows,
                            right=set(range(1, 11))))
    return parts


def render(results: dict[str, Any]) -> str:
    meta = results["meta"]
    parts = [
        f"Pling bench  {meta['date']}  commit {meta['commit']}",
        f"{meta['cpus']} CPUs · {meta['chromium']} ({meta['executable']}) · Playwright {meta['playwright']} · "
        f"Python {meta['python']} · total {meta.get('seconds', 0):.0f} s ("
        + ", ".join(f"{k} {v:.0f} s" for k, v in meta.get("phases_s", {}).items()) + ")",
        _machine(meta),
        "Times in ms, median / p95, wall time around the whole call (for Pling: the HTTP request and its answer).",
        "Floors: " + "; ".join(f"{k} = {v}" for k, v in FLOORS.items()) + ".",
        "'bare' = issue 7's floor, timed until Playwright answered (the click's or the evaluate's return), "
        "not until the page rendered.",
        "Overhead = Pling with evidence minus its (rendered) floor (medians). ×floor = Pling median / floor median.",
    ]
    for key, size in results.get("sizes", {}).items():
        parts.extend(_size_section(int(key), size))
    parts.extend(_opening(results.get("opening")))
    parts.extend(_concurrency(results.get("concurrency")))
    parts.extend(_capacity(results.get("capacity")))
    parts.extend(_mcp_section(results))
    parts.append("")
    parts.append("== targets (issues 21 and 31; receipt and model bytes from issue 7) ==")
    parts.append(_table(["target", "limit", "measured", "", "note"],
                        [[t["name"], t["target"], t["value"] or "-", t["status"], t["note"]] for t in results["targets"]],
                        right={1, 2}))
    return "\n".join(parts)


# ---- the picture

PICTURE_OPS = (("remove", "remove@t9", "floor.click"), ("add", "add", "floor.add"), ("fill", "type_new (fill)", "floor.fill"),
               ("summary", "summary (read)", "floor.read"))


def _operations_panel(ax: Any, results: dict[str, Any]) -> None:
    sizes = [key for key in ("12", "1000") if key in results.get("sizes", {})]
    labels, pling, bare = [], [], []
    for key in sizes:
        ops = results["sizes"][key]["ops"]
        for op, label, floor in PICTURE_OPS:
            labels.append(f"{label}, {int(key):,}")
            pling.append(_med(ops.get(f"pling.{op}.ev")) or 0.0)
            bare.append(_med(ops.get(floor)) or 0.0)
    ys = range(len(labels))
    ax.barh([y + 0.2 for y in ys], pling, height=0.38, color="#2a7ab0", label="Pling (HTTP, evidence on)")
    ax.barh([y - 0.2 for y in ys], bare, height=0.38, color="#999999", label="bare Playwright (until rendered)")
    ax.set_yticks(list(ys))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ms per call, median (records after the name)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)


def _concurrency_panel(ax: Any, results: dict[str, Any]) -> None:
    levels = {k: v for k, v in ((results.get("concurrency") or {}).get("levels") or {}).items() if "pling" in v}
    names = list(levels)
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], [levels[k]["pling"]["throughput_per_s"] for k in names], width=0.38,
           color="#2a7ab0", label="Pling")
    ax.bar([x + 0.2 for x in xs], [levels[k]["bare"]["throughput_per_s"] for k in names], width=0.38,
           color="#999999", label="bare Playwright")
    for x, k in zip(xs, names, strict=True):
        top = max(levels[k]["pling"]["throughput_per_s"], levels[k]["bare"]["throughput_per_s"])
        ax.annotate(f"p95 {levels[k]['pling']['latency_ms']['p95']:.0f} ms (Pling) / "
                    f"{levels[k]['bare']['latency_ms']['p95']:.0f} ms (bare)", (x, top), xytext=(0, 4),
                    textcoords="offset points", ha="center", fontsize=8)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{k} sessions" for k in names])
    ax.set_ylabel("add invocations per second, all sessions at once")
    ax.grid(axis="y", alpha=0.3)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
    ax.legend(loc="lower right", fontsize=8)


def draw(results: dict[str, Any], path: Path) -> str | None:
    """Pling against bare Playwright, per operation and at 16 and 64 sessions; None when drawn, else why not."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install -e '.[bench]')"
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [3, 2]})
    _operations_panel(axes[0], results)
    _concurrency_panel(axes[1], results)
    meta = results.get("meta", {})
    passed = sum(1 for t in results.get("targets", []) if t["status"] == "PASS")
    missed = sum(1 for t in results.get("targets", []) if t["status"] == "MISS")
    fig.suptitle(f"python -m bench, {meta.get('date')}, commit {meta.get('commit')}, {meta.get('cpus')} CPUs: "
                 f"{passed} targets PASS, {missed} MISS", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


if __name__ == "__main__":  # python -m bench.report RESULTS.json PICTURE.png: the table and the picture again
    import json
    import sys

    from .targets import targets

    run = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    run["targets"] = targets(run)  # pure functions of the run's figures: today's targets on that run
    print(render(run))
    if len(sys.argv) > 2:
        print(draw(run, Path(sys.argv[2])) or f"drawn: {sys.argv[2]}")
