"""`python -m bench --suite unseen`: MiniWoB++ tasks no shipped adapter covers, each declared by the draft
`pling-browser draft` writes for its page at the start of the run (unedited), solved by the generic
policy (policy_generic.py), scored by the task's own reward.

The tasks are chosen by a rule fixed before the first run (bench/README.md says it too):
every task page in the miniwob wheel's html/miniwob folder, in alphabetical order, that no shipped adapter
covers (suite.TASKS), except
- variants of another page (names ending in -nodelay, -easy, -medium, -hard, -nl, -nl-turk, -transfer:
  the same page with another delay, difficulty or wording, which would count one page several times), and
- pages that draw their subject in `<svg>` or `<canvas>` (shapes, angles, points: nothing there has a
  role, a name or text for a draft to read).

A receipt *lied* when it said ok for a gesture that never reached the page: the page's own trusted input
events (reported by harness.js to the task server, which only the harness reads) show nothing of the
gesture's kind since the previous step."""

from __future__ import annotations

import asyncio
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from ..service import ServiceProcess
from . import policy_generic
from .agent_pling import PlingAgent, Step
from .server import TaskServer, miniwob_html
from .suite import TASKS, episode

VARIANT = re.compile(r"-(nodelay|easy|medium|hard|nl|nl-turk|transfer)$")
DRAWN = re.compile(r"<svg|<canvas", re.I)
DRAFT_SEED = 0          # the page the draft is written from: an episode no scored run uses
SEEDS = [1, 2, 3]
QUICK = ["click-test-2", "enter-date", "focus-text", "click-scroll-list"]
# The kinds of trusted event each operation's gesture produces (the receipt's action id begins with its verb);
# a pointer moved within the element it is already over (point_at x, y) gets a mousemove and no mouseover.
EVENTS = {"click": {"click", "change"}, "open": {"click"}, "point": {"mouseover", "mousemove"}, "choose": {"click", "change"}, "check": {"click", "change"},
          "fill": {"input", "change", "keydown"}, "focus": {"focus", "focusin"}, "increase": {"keydown"}, "decrease": {"keydown"},
          "drag": {"mousedown", "mouseup", "drop"}}
# An action whose id begins with no such verb (odd@ROW: a button drafted by its name) says its gesture in its
# description's first word ("Press the button “Odd” of the item").
DESCRIBED = {"press": "click", "click": "click", "choose": "choose", "point": "point"}


def unseen_tasks(root: Path | None = None) -> list[str]:
    """The rule, as code: the task names it selects from the installed wheel."""
    folder = (root or miniwob_html()) / "miniwob"
    out = []
    for page in sorted(folder.glob("*.html"), key=lambda p: p.stem):
        task = page.stem
        if task in TASKS or VARIANT.search(task) or DRAWN.search(page.read_text(encoding="utf-8", errors="replace")):
            continue
        out.append(task)
    return out


async def write_drafts(tasks: TaskServer, names: list[str], folder: Path, progress: Callable[[str], None]) -> dict[str, Any]:
    """`draft` for each task's page (an episode with DRAFT_SEED), written unedited into `folder`."""
    from pling_browser.ci.draft import draft
    from pling_browser.config import Settings
    from pling_browser.runtime import Runtime

    settings = Settings.from_env().with_(allow_hosts=("127.0.0.1",), adapters=None,
                                         data_dir=Path(tempfile.mkdtemp(prefix="pling-unseen-draft-")))
    runtime = Runtime(settings)
    out: dict[str, Any] = {}
    await runtime.start()
    try:
        for name in names:
            _, url = tasks.episode(name, DRAFT_SEED, "draft")
            started = time.perf_counter()
            try:
                text = await draft(runtime, url)
            except Exception as error:  # noqa: BLE001 - a page the draft cannot read: its task is not solved
                out[name] = {"error": f"{type(error).__name__}: {error}"[:300]}
                continue
            (folder / f"{name}.js").write_text(text, encoding="utf-8")
            out[name] = {"lines": len(text.splitlines()), "todos": text.count("TODO"),
                         "ms": round((time.perf_counter() - started) * 1000)}
            progress(f"  draft: {name} ({out[name]['lines']} lines, {out[name]['todos']} TODOs)")
    finally:
        await runtime.stop()
    return out


async def _events_since(tasks: TaskServer, run: str, seen: int, wanted: set[str], wait_s: float = 1.0) -> list[dict[str, Any]]:
    deadline = time.perf_counter() + wait_s
    while True:
        events = tasks.events_of(run)[seen:]
        if any(e.get("type") in wanted for e in events) or time.perf_counter() > deadline:
            return events
        await asyncio.sleep(0.02)


class CheckedAgent(PlingAgent):
    """The agent's calls, and after each ok receipt for a gesture, whether the page saw an event of its kind."""

    def __init__(self, client: httpx.AsyncClient, after: Callable[[Step], None], tasks: TaskServer, run: str) -> None:
        super().__init__(client, after)
        self.tasks, self.run, self.seen = tasks, run, 0
        self.lies: list[dict[str, Any]] = []

    async def invoke(self, action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        self.seen = len(self.tasks.events_of(self.run))
        result = await super().invoke(action, args)
        verb = action.split("@")[0].split("_")[0]
        if verb not in EVENTS:
            verb = DESCRIBED.get(str((result.get("action") or {}).get("description") or "").split(" ")[0].lower(), verb)
        if result.get("ok") and verb in EVENTS:
            events = await _events_since(self.tasks, self.run, self.seen, EVENTS[verb], self.tasks.event_wait_s)
            if not any(e.get("type") in EVENTS[verb] for e in events):
                self.lies.append({"step": action, "events": events[:5]})
        return result


async def generic_episodes(client: httpx.AsyncClient, tasks: TaskServer, cases: list[tuple[str, int]],
                           progress: Callable[[str], None]) -> list[dict[str, Any]]:
    episodes = []
    for task, seed in cases:
        progress(f"  Pling, generic policy: {task} (seed {seed})")
        agents: list[CheckedAgent] = []

        async def play(url: str, after: Callable[[Step], None]) -> list[Step]:
            agent = CheckedAgent(client, after, tasks, url.split("run=", 1)[1])
            agents.append(agent)  # noqa: B023 (awaited by episode() in this iteration)
            try:
                await policy_generic.solve(agent, await agent.open(url))
            finally:
                await agent.close()
            return agent.steps
        result = await episode("pling", task, seed, tasks, play)
        result["lies"] = agents[0].lies if agents else []
        episodes.append(result)
    return episodes


def unseen_service(log: Path, adapters: Path) -> ServiceProcess:
    """The bench's Pling service with the drafts as the operator's adapters; the operator approves
    danger (the drafts guess it from words such as delete or cancel), as CI does."""
    return ServiceProcess(log, env={"PLING_APPROVE": "danger", "PLING_ADAPTERS": str(adapters)})


def edited_lines(diff: str) -> int:
    """Lines a person edited, from a unified diff: in each hunk, the larger of the lines it removes and the
    lines it adds (a changed line is one edited line; a line added or removed is one too)."""
    total, added, removed = 0, 0, 0
    for line in diff.splitlines() + ["@@"]:
        if line.startswith("@@"):
            total, added, removed = total + max(added, removed), 0, 0
        elif line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return total


def edited_drafts(folder: Path, names: list[str]) -> dict[str, Any]:
    """The edited drafts a folder holds for these tasks (TASK.js, with TASK.diff against the draft as written)."""
    out: dict[str, Any] = {}
    for name in names:
        if (folder / f"{name}.js").exists():
            diff = folder / f"{name}.diff"
            out[name] = {"edited_lines": edited_lines(diff.read_text(encoding="utf-8")) if diff.exists() else None}
    return out


async def run_unseen(names: list[str], seeds: list[int], results: Path, progress: Callable[[str], None] = print,
                     drafts: Path | None = None) -> dict[str, Any]:
    """Draft every task's page, then run the generic policy over the drafts on each seed. With
    `drafts`, the edited drafts that folder holds (TASK.js) are used for their tasks, and the other
    tasks get their draft written at the start, unedited, as without it."""
    out: dict[str, Any] = {"rule": __doc__.split("\n\n")[1] if __doc__ else "", "tasks": names, "seeds": seeds}
    folder = Path(tempfile.mkdtemp(prefix="pling-unseen-adapters-"))
    edited = edited_drafts(drafts, names) if drafts else {}
    with TaskServer() as tasks:
        progress(f"MiniWoB++ tasks at http://127.0.0.1:{tasks.server_address[1]}/miniwob/ ({tasks.root.parent})")
        out["drafts"] = await write_drafts(tasks, [n for n in names if n not in edited], folder, progress)
        for name in edited:
            (folder / f"{name}.js").write_text((drafts / f"{name}.js").read_text(encoding="utf-8"), encoding="utf-8")  # type: ignore[operator]
            out["drafts"][name] = edited[name]
        if drafts:
            out["drafts"]["edited"] = str(drafts)
        with unseen_service(results / "unseen-service.log", folder) as service:
            async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
                cases = [(name, seed) for name in names for seed in seeds]
                out["episodes"] = await generic_episodes(client, tasks, cases, progress)
    return out
