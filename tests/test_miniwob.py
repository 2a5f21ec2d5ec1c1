"""The MiniWoB++ suite of the bench (bench/miniwob/), Pling's side only, on a few tasks: tasks nobody here
wrote (the `miniwob` package's own pages), declared by the operator's adapters (PLING_ADAPTERS), solved by
the deterministic policies through the HTTP API alone, scored by the tasks' own rewards. A real Chromium,
the task server and the Pling service (a child process, bench/service.py) on port 0."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench.miniwob.agent_pling import PlingAgent
from bench.miniwob.server import TaskServer
from bench.miniwob.suite import episode, pling_episodes, pling_service

# login-user-popup with seed 3 opens its popup in the middle of the login: the policy answers it.
CASES = [("click-button", 1), ("login-user-popup", 3), ("click-checkboxes", 2), ("email-inbox-forward", 1)]


@pytest.fixture(scope="module")
def miniwob(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TaskServer, str]]:
    with TaskServer(patient=True) as tasks, pling_service(tmp_path_factory.mktemp("miniwob") / "service.log") as service:
        yield tasks, service.url


def _run(service: str, work: Any) -> Any:
    async def go() -> Any:
        async with httpx.AsyncClient(base_url=service, timeout=120) as client:
            return await work(client)
    return asyncio.run(go())


def test_tasks_are_solved_with_reward_one_and_no_silent_noops(miniwob: tuple[TaskServer, str]) -> None:
    tasks, service = miniwob
    episodes = _run(service, lambda client: pling_episodes(client, tasks, CASES, lambda _: None))
    for ep in episodes:
        assert ep["error"] is None, ep
        assert ep["raw"] == 1.0, ep                       # the task's own reward, read by the harness
        assert not any(step["silent"] for step in ep["steps"]), ep
        # The step that ended the episode is the policy's last one, and its receipt said ok.
        assert ep["ended_at_step"] == len(ep["steps"]) - 1 and ep["steps"][-1]["ok"] is True, ep
    popup = next(ep for ep in episodes if ep["task"] == "login-user-popup")
    assert [s["call"] for s in popup["steps"]] == ["open", "invoke log_in", "invoke popup_cancel", "invoke log_in"]
    assert popup["steps"][1]["ok"] is False                # the popup stopped the flow, and the receipt said so


def test_a_wrong_answer_that_the_receipt_calls_ok_is_counted_as_a_silent_noop(miniwob: tuple[TaskServer, str]) -> None:
    """The count is not vacuous: a policy that types the wrong text gets an ok receipt (the text was typed,
    Submit was pressed) while the task's reward says the step failed."""
    tasks, service = miniwob

    async def work(client: httpx.AsyncClient) -> dict[str, Any]:
        async def play(url, after):  # type: ignore[no-untyped-def]
            agent = PlingAgent(client, after)
            model = await agent.open(url)
            assert model["page"]["adapter"] == ["enter-text.js"]
            await agent.invoke("enter", {"text": model["state"]["task"]["value"] + " (wrong)"})
            await agent.close()
            return agent.steps
        return await episode("pling", "enter-text", 1, tasks, play)
    ep = _run(service, work)
    assert ep["raw"] == -1
    assert [s["silent"] for s in ep["steps"]] == [False, True]


def test_a_patient_task_server_gives_the_episode_a_clock_a_loaded_machine_meets() -> None:
    """The tests' task servers (`patient`) start each episode with 600 s on its clock, as the page's own
    countdown shows, and the bench's keep the task's 10 s: on a loaded machine an episode of the tests ran
    out of MiniWoB's time and scored -1 though every step was right."""
    from playwright.sync_api import sync_playwright

    from pling_browser.config import find_chromium
    from pling_browser.core.browsers import chromium_args

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(None), args=chromium_args())
        try:
            clocks = []
            for patient in (True, False):
                with TaskServer(patient=patient) as tasks:
                    page = browser.new_page()
                    page.goto(tasks.episode("click-button", 1, "clock")[1])
                    page.wait_for_function("() => /sec$/.test(document.getElementById('timer-countdown').textContent)")
                    clocks.append(page.evaluate("() => [core.EPISODE_MAX_TIME, document.getElementById('timer-countdown').textContent]"))
                    page.close()
        finally:
            browser.close()
    assert clocks[0][0] == 600_000 and clocks[0][1].endswith("/ 600sec"), clocks
    assert clocks[1][0] == 10_000 and clocks[1][1].endswith("/ 10sec"), clocks
