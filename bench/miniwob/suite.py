"""`python -m bench --suite miniwob`: MiniWoB++ tasks solved through Pling (adapters, model, invoke,
receipts) and through Playwright MCP (snapshot, refs), each by a deterministic policy, on the same seeds.

The harness (not the policies) starts each episode with a fixed seed and reads the task's reward from the
task server; a step is a *silent no-op* when its answer said ok and the episode ended at that step with a
reward that says it failed, or when the policy finished on an ok answer and the episode never ended."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from ..floor import chromium_executable
from ..mcp_bench import CLI, ensure_installed, version
from ..mcp_client import McpStdio
from ..service import ServiceProcess
from . import policy_mcp, policy_pling
from .agent_mcp import McpAgent
from .agent_pling import PlingAgent, Step
from .server import TaskServer

# At least one task of each kind the issue names; the email and social-media variants share an adapter.
TASKS: dict[str, str] = {
    "click-button": "click", "click-link": "click", "click-button-sequence": "click", "click-tab": "click",
    "click-collapsible": "click", "click-dialog": "dialog", "click-dialog-2": "dialog",
    "enter-text": "text", "enter-text-2": "text", "enter-password": "text", "login-user": "form",
    "login-user-popup": "form + dialog", "choose-list": "list", "click-option": "list",
    "click-checkboxes": "checkboxes", "click-checkboxes-large": "checkboxes",
    "social-media": "social feed", "social-media-some": "social feed", "social-media-all": "social feed",
    "email-inbox": "email", "email-inbox-delete": "email", "email-inbox-forward": "email",
    "email-inbox-reply": "email", "email-inbox-important": "email",
}
QUICK = ["click-button", "enter-password", "click-checkboxes", "email-inbox-forward"]
ADAPTERS = Path(__file__).resolve().parent / "adapters"   # one userscript-style file per task family
APPROVE = "delete"          # the email adapter declares delete as danger: the operator approves it, as in CI


async def _settle(tasks: TaskServer, run: str, wait_s: float = 1.0) -> dict[str, Any] | None:
    deadline = time.perf_counter() + wait_s
    while tasks.reward(run) is None and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    return tasks.reward(run)


async def episode(side: str, task: str, seed: int, tasks: TaskServer,
                  play: Callable[[str, Callable[[Step], None]], Awaitable[list[Step]]]) -> dict[str, Any]:
    run, url = tasks.episode(task, seed, side)
    ended: list[int] = []
    steps: list[Step] = []

    def after(step: Step) -> None:
        steps.append(step)
        reward = tasks.reward(run)
        if reward is not None and not ended:
            ended.append(len(steps) - 1)
            step.silent = bool(step.ok) and not reward.get("raw", 0) > 0
    error = None
    start = time.perf_counter()
    try:
        await play(url, after)
    except Exception as failure:  # noqa: BLE001 - a policy that cannot go on: the episode is not solved
        error = f"{type(failure).__name__}: {failure}"[:300]
    wall = (time.perf_counter() - start) * 1000
    reward = await _settle(tasks, run)
    if reward is None and error is None and steps and steps[-1].ok:
        steps[-1].silent = True     # the policy finished on an ok answer, and the task never ended
    return {"task": task, "seed": seed, "reward": None if reward is None else reward.get("reward"),
            "raw": None if reward is None else reward.get("raw"), "ended_at_step": ended[0] if ended else None,
            "error": error, "wall_ms": round(wall, 1),
            "steps": [{"call": s.call, "bytes": s.bytes, "ms": round(s.ms, 1), "ok": s.ok, "silent": s.silent,
                       "diagnostics": s.diagnostics}
                      for s in steps]}


def pling_service(log: Path) -> ServiceProcess:
    """The bench's Pling service with the MiniWoB++ adapters and the operator's approval of delete."""
    return ServiceProcess(log, env={"PLING_APPROVE": APPROVE, "PLING_ADAPTERS": str(ADAPTERS)})


async def pling_episodes(client: httpx.AsyncClient, tasks: TaskServer, cases: list[tuple[str, int]],
                         progress: Any) -> list[dict[str, Any]]:
    episodes = []
    for task, seed in cases:
        progress(f"  Pling: {task} (seed {seed})")

        async def play(url: str, after: Callable[[Step], None], task: str = task) -> list[Step]:
            agent = PlingAgent(client, after, detail="brief")  # brief models and brief receipts
            try:
                model = await agent.open(url)
                await policy_pling.solve(task, agent, model)
            finally:
                await agent.close()
            return agent.steps
        episodes.append(await episode("pling", task, seed, tasks, play))
    return episodes


async def run_pling(tasks: TaskServer, cases: list[tuple[str, int]], log: Path, progress: Any) -> dict[str, Any]:
    with pling_service(log) as service:
        async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
            episodes = await pling_episodes(client, tasks, cases, progress)
    return {"adapters": f"PLING_ADAPTERS={ADAPTERS.relative_to(ADAPTERS.parents[2])}", "episodes": episodes}


async def run_mcp(tasks: TaskServer, names: list[str], seeds: list[int], progress: Any,
                  look_after: bool = False) -> dict[str, Any]:
    reason = ensure_installed(progress)
    if reason:
        return {"skipped": reason}
    work = tempfile.mkdtemp(prefix="pling-miniwob-mcp-")
    command = ["node", str(CLI), "--headless", "--no-sandbox", "--isolated", "--viewport-size", "1280x800",
               "--output-dir", work]
    if chromium_executable():
        command += ["--executable-path", chromium_executable() or ""]
    mcp = McpStdio(command, cwd=work, stderr_path=str(Path(work) / "stderr.log"))
    episodes = []
    try:
        await mcp.start()
        for task in names:
            progress(f"  Playwright MCP{' (a snapshot after each action)' if look_after else ''}: {task}")
            for seed in seeds:
                async def play(url: str, after: Callable[[Step], None], task: str = task) -> list[Step]:
                    agent = McpAgent(mcp, after, look_after=look_after)
                    await agent.navigate(url)
                    await policy_mcp.solve(task, agent, await agent.snapshot())
                    return agent.steps
                episodes.append(await episode("mcp", task, seed, tasks, play))
    finally:
        await mcp.close()
        shutil.rmtree(work, ignore_errors=True)
    return {"version": version(), "command": " ".join(command[2:]), "episodes": episodes}


async def run_suite(names: list[str], seeds: list[int], results: Path, *, mcp: bool = True, look: bool = True,
                    progress: Any = print) -> dict[str, Any]:
    out: dict[str, Any] = {"tasks": {name: TASKS.get(name, "?") for name in names}, "seeds": seeds}
    with TaskServer() as tasks:
        progress(f"MiniWoB++ tasks at http://127.0.0.1:{tasks.server_address[1]}/miniwob/ ({tasks.root.parent})")
        cases = [(name, seed) for name in names for seed in seeds]
        out["pling"] = await run_pling(tasks, cases, results / "miniwob-service.log", progress)
        out["mcp"] = await run_mcp(tasks, names, seeds, progress) if mcp else {"skipped": "--no-mcp"}
        if mcp and look:
            out["mcp_look"] = await run_mcp(tasks, names, seeds, progress, look_after=True)
    return out
