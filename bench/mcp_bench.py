"""Optional: the same delete through Playwright MCP (``@playwright/mcp`` from npm, installed on demand into
bench/node_modules from bench/package.json), driving the same Chromium executable, headless.

What an agent does there to delete t9 and see what changed: `browser_click` on the button's ref (taken
from a snapshot it already has), then `browser_snapshot` to read the page after it (the click's own
answer only links the snapshot file). Timed: click plus snapshot; bytes: the text of both answers.
Not timed: the snapshot before, which gives the ref (its size is reported: it is what an agent must
read to find the button, the counterpart of Pling's model), and putting t9 back.

Two configurations: as shipped (it waits up to 500 ms after each action for the page to settle), and
with `--timeout-settle 0`, the fastest it can be told to be."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from . import procmem
from .fixtures import FixtureServer
from .floor import chromium_executable
from .mcp_client import McpError, McpStdio, text_of
from .stats import summary

BENCH = Path(__file__).resolve().parent
CLI = BENCH / "node_modules" / "@playwright" / "mcp" / "cli.js"
VARIANTS = {"as shipped": [], "settle 0": ["--timeout-settle", "0"]}
_REF = re.compile(r'button "Delete Item 9" \[ref=([^\]\s]+)\]')


def ensure_installed(progress: Any = print) -> str | None:
    """None when Playwright MCP can run, else why not."""
    if shutil.which("node") is None:
        return "node is not installed"
    if CLI.exists():
        return None
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed"
    progress("  installing @playwright/mcp into bench/node_modules (npm) ...")
    try:
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BENCH,
                              capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "npm install did not finish within 5 minutes"
    if done.returncode != 0 or not CLI.exists():
        said = (done.stderr or done.stdout).strip().splitlines()
        return "npm install failed" + (": " + said[-1][:300] if said else "")
    return None


def version() -> str | None:
    try:
        return json.loads((CLI.parent / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


async def _snapshot_ref(mcp: McpStdio) -> tuple[str, int, float]:
    start = time.perf_counter()
    result, size = await mcp.call("browser_snapshot", {})
    ms = (time.perf_counter() - start) * 1000
    found = _REF.search(text_of(result))
    if not found:
        raise McpError("no 'Delete Item 9' button in the snapshot")
    return found.group(1), size, ms


async def _one_size(mcp: McpStdio, url: str, reps: int, warmup: int) -> dict[str, Any]:
    start = time.perf_counter()
    _, nav_bytes = await mcp.call("browser_navigate", {"url": url}, timeout=120)
    nav_ms = (time.perf_counter() - start) * 1000
    ref, first_snapshot_bytes, first_snapshot_ms = await _snapshot_ref(mcp)
    memory = procmem.measure(mcp.pid) if mcp.pid else None
    click_ms, snap_ms, total_ms, click_bytes, snap_bytes = [], [], [], [], []
    problems: list[str] = []
    for i in range(warmup + reps):
        if i:
            ref, _, _ = await _snapshot_ref(mcp)
        start = time.perf_counter()
        _, c_bytes = await mcp.call("browser_click", {"element": "Delete Item 9 button", "target": ref})
        middle = time.perf_counter()
        after, s_bytes = await mcp.call("browser_snapshot", {})
        end = time.perf_counter()
        if '"Delete Item 9"' in text_of(after):
            problems.append("t9 is still in the snapshot after the click")
        restored, _ = await mcp.call("browser_evaluate", {"function": "() => restoreItem('t9')"})
        if "true" not in text_of(restored):
            problems.append("t9 could not be put back: " + text_of(restored)[:200])
        if i >= warmup:
            click_ms.append((middle - start) * 1000)
            snap_ms.append((end - middle) * 1000)
            total_ms.append((end - start) * 1000)
            click_bytes.append(c_bytes)
            snap_bytes.append(s_bytes)
    return {
        "reps": reps, "warmup": warmup, "navigate_ms": round(nav_ms, 1), "navigate_bytes": nav_bytes,
        "first_snapshot_bytes": first_snapshot_bytes, "first_snapshot_ms": round(first_snapshot_ms, 1),
        "click_ms": summary(click_ms), "snapshot_ms": summary(snap_ms), "click_and_snapshot_ms": summary(total_ms),
        "click_bytes": max(click_bytes) if click_bytes else None,
        "snapshot_bytes": max(snap_bytes) if snap_bytes else None,
        "bytes_read": (max(click_bytes) + max(snap_bytes)) if click_bytes else None,
        "memory": memory.as_json() if memory else None,
        "errors": len(problems), "first_error": problems[0] if problems else None,
    }


async def measure_mcp(fixtures: FixtureServer, plans: dict[str, dict[int, int]], *, warmup: int = 2,
                      progress: Any = print) -> dict[str, Any]:
    """`plans`: for each variant of VARIANTS to run, the repetitions per page size."""
    reason = ensure_installed(progress)
    if reason:
        return {"skipped": reason}
    executable = chromium_executable()
    out: dict[str, Any] = {"version": version(), "executable": executable, "variants": {}}
    for variant, plan in plans.items():
        work = tempfile.mkdtemp(prefix="pling-bench-mcp-")
        command = ["node", str(CLI), "--headless", "--no-sandbox", "--isolated", "--viewport-size", "1280x800",
                   "--output-dir", work, *VARIANTS[variant]]
        if executable:
            command += ["--executable-path", executable]
        mcp = McpStdio(command, cwd=work, stderr_path=str(Path(work) / "stderr.log"))
        sizes: dict[str, Any] = {}
        try:
            await mcp.start()
            for n, reps in plan.items():
                progress(f"  Playwright MCP ({variant}): {n} records, {reps} reps")
                sizes[str(n)] = await _one_size(mcp, fixtures.page(n), reps, warmup)
        except (McpError, OSError, TimeoutError, KeyError) as error:
            sizes["error"] = f"{type(error).__name__}: {error}"[:400]
        finally:
            await mcp.close()
            shutil.rmtree(work, ignore_errors=True)
        out["variants"][variant] = {"command": " ".join(command[1:2] + command[2:]), "sizes": sizes}
    return out
