"""One run as a readable table, closed by the targets (bench/targets.py) with PASS/MISS."""

from __future__ import annotations

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
        return "  ".join(str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

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
        n = int(key)
        ops = size["ops"]
        parts.append("")
        parts.append(f"== {n:,} records ({size['reps']} reps after {size['warmup']} warm-up; "
                     f"session opened in {_ms(size['open']['ms'])} ms) ==")
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
        parts.append(_table(["operation", "kind", "floor", "bare", "evidence on", "×floor", "evidence off", "×floor",
                             "overhead"], rows, right={2, 3, 4, 5, 6, 7, 8}))

        stage_rows = []
        labelled = [(f"pling.{op}.{mode}", f"{info['label']} ({'on' if mode == 'ev' else 'off'})")
                    for op, info in OPS.items() for mode in ("ev", "noev")] + [(NAVIGATING, "remove@t9 navigating (on)")]
        for key, label in labelled:
            entry = ops.get(key)
            if not entry or "stages_ms" not in entry:
                continue
            stages = entry["stages_ms"]
            rest = None if entry.get("median") is None else entry["median"] - entry["stages_sum_ms"]
            stage_rows.append([label]
                              + [_ms(stages.get(s)) if s in stages else "" for s in STAGES]
                              + [_ms(entry["stages_sum_ms"]), _ms(rest)])
        if stage_rows:
            parts.append("")
            parts.append("stages from the receipts' timings_ms (median ms); 'outside' = call median minus the stage sum "
                         "(HTTP, JSON, receipt log, idle)")
            parts.append(_table(["receipt", *STAGES, "sum", "outside"], stage_rows))

        byte_rows = []
        model = size.get("model")
        if model:
            byte_rows.append(["model (GET /model, default window)", _bytes(model["bytes"]), f"{_ms(model['ms']['median'])} ms",
                              f"{model['ids']:,} ids"])
        full = size.get("model_limit_1000")
        if full:
            byte_rows.append(["model (GET /model?limit=1000)", _bytes(full["bytes"]), f"{_ms(full['ms'])} ms", ""])
        byte_rows.append(["POST /sessions (session + model)", _bytes(size["open"]["bytes"]), f"{_ms(size['open']['ms'])} ms", ""])
        for op, info in OPS.items():
            for mode in ("ev", "noev"):
                entry = ops.get(f"pling.{op}.{mode}")
                if entry and "bytes" in entry:
                    byte_rows.append([f"receipt {info['label']} (evidence {'on' if mode == 'ev' else 'off'})",
                                      _bytes(entry["bytes_max"]), "", ""])
        if ops.get(NAVIGATING, {}).get("bytes_max"):
            byte_rows.append(["receipt remove@t9, navigating (evidence on)", _bytes(ops[NAVIGATING]["bytes_max"]), "", ""])
        parts.append("")
        parts.append(_table(["bytes", "size", "time", ""], byte_rows, right={1, 2}))
        errors = [(k, v) for k, v in ops.items() if v.get("errors")]
        for key, entry in errors:
            parts.append(f"  ! {key}: {entry['errors']} errors, first: {entry.get('first_error')}")

    parts.extend(_opening(results.get("opening")))
    conc = results.get("concurrency")
    if conc:
        parts.append("")
        if "errors" not in conc:
            parts.append(f"== concurrency: not run ({conc.get('skipped') or conc.get('error')}) ==")
        else:
            mem = conc["memory"]
            parts.append(f"== concurrency: {conc['sessions']} sessions x {conc['per_session']} invocations at once, "
                         f"{conc['operation']} on {conc['records']} records ==")
            parts.append(_table(["figure", "value"], [
                ["invocations", f"{conc['completed']} of {conc['invocations']} in {conc['wall_s']:.1f} s"],
                ["throughput", f"{conc['throughput_per_s']:.1f} invocations/s"],
                ["latency median / p95 / max", f"{_ms(conc['latency_ms']['median'])} / {_ms(conc['latency_ms']['p95'])} / "
                                               f"{_ms(conc['latency_ms']['max'])} ms"],
                ["single session median / p95", f"{_mp(conc['single_session_ms'])} ms"],
                ["p95 / single-session median", f"{conc['p95_over_single_median']}x"],
                ["errors", str(conc["errors"])],
                ["CPU per invocation (ms)", ", ".join(f"{k} {v:.1f}" for k, v in conc["cpu_ms_per_invocation"].items())
                                            + f"; all CPUs for {conc['cpu_capacity_ms_per_invocation']:.1f}"],
                ["memory, loaded (RSS; PSS)", f"{mem['loaded']['rss_mb']:.0f} MB; {mem['loaded']['pss_mb']:.0f} MB in "
                                              f"{mem['loaded']['processes']} processes"],
                ["memory, no session open (RSS; PSS)", f"{mem['idle']['rss_mb']:.0f} MB; {mem['idle']['pss_mb']:.0f} MB"],
                ["per session: loaded / sessions (RSS; PSS)", f"{mem['rss_per_session_mb']:.1f} MB; {mem['pss_per_session_mb']:.1f} MB"],
                ["per session: added by a session (RSS; PSS)", f"{mem['rss_added_per_session_mb']:.1f} MB; "
                                                               f"{mem['pss_added_per_session_mb']:.1f} MB"],
                ["  of the PSS added: file-backed; anonymous + shmem",
                 f"{mem.get('pss_file_added_per_session_mb', '-')} MB; "
                 f"{mem.get('pss_anon_shmem_added_per_session_mb', '-')} MB"],
            ], right=set()))
            kinds = mem["loaded"]["by_kind"]
            parts.append("  loaded by process: " + ", ".join(
                f"{k} {v['processes']}x {v['rss_mb']:.0f} MB RSS / {v['pss_mb']:.0f} MB PSS" for k, v in kinds.items()))
            for error in conc.get("first_errors", []):
                parts.append(f"  ! {error}")

    mcp = results.get("mcp") or {}
    parts.append("")
    if "skipped" in mcp:
        parts.append(f"== Playwright MCP: skipped ({mcp['skipped']}) ==")
    else:
        parts.append(f"== Playwright MCP {mcp.get('version')}: delete t9 = browser_click + browser_snapshot "
                     "(the snapshot an agent needs to see what changed) ==")
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

    parts.append("")
    parts.append("== targets (issue 21; receipt and model bytes from issue 7) ==")
    parts.append(_table(["target", "limit", "measured", "", "note"],
                        [[t["name"], t["target"], t["value"] or "-", t["status"], t["note"]] for t in results["targets"]],
                        right={1, 2}))
    return "\n".join(parts)
