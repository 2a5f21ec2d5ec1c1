"""A session's turns (runtime/turns.py) in arrival order: a free session is taken at once, and one just
released still goes to the invocation that queued for it, not to one that arrives in that instant, which
waits as any other (PLING_INVOKE_WAIT, then SESSION_BUSY)."""

from __future__ import annotations

import asyncio
import types

import pytest

from pling_browser.config import Settings
from pling_browser.errors import SessionBusy
from pling_browser.runtime.turns import Turns


async def _queued_behind(turns: Turns, session: types.SimpleNamespace, order: list[str],
                         hold: asyncio.Event) -> asyncio.Future[None]:
    """This task takes the session's turn and holds it; another invocation queues behind it and, once it has
    the turn, holds it until ``hold`` is set. Answers the queued one, the turn released to it and not yet run."""
    async def queued() -> None:
        async with turns.turn(session, "queued", None):  # type: ignore[arg-type]
            order.append("queued")
            await hold.wait()

    async with turns.turn(session, "first", None):  # type: ignore[arg-type]
        order.append("first")
        waiting = asyncio.ensure_future(queued())
        for _ in range(5):
            await asyncio.sleep(0)  # it waits for the lock now
    return waiting


def test_a_released_turn_goes_to_the_one_queued_before_a_newcomer() -> None:
    async def play() -> list[str]:
        turns = Turns(Settings.from_env(), lambda why: None)
        session = types.SimpleNamespace(lock=asyncio.Lock(), id="s1")
        order: list[str] = []
        release = asyncio.Event()
        release.set()  # the queued one lets go as soon as it has run
        queued = await _queued_behind(turns, session, order, release)
        async with turns.turn(session, "newcomer", None):  # type: ignore[arg-type]  # at the release's instant
            order.append("newcomer")
        await queued
        return order

    assert asyncio.run(play()) == ["first", "queued", "newcomer"]


def test_a_newcomer_at_the_instant_of_release_still_has_a_deadline() -> None:
    """Arriving as the lock is released to one that queued (the lock looks free for that instant), the
    newcomer waits its turn with PLING_INVOKE_WAIT's deadline, not inside the lock with none."""
    async def play() -> None:
        turns = Turns(Settings.from_env().with_(invoke_wait_s=0.3), lambda why: None)
        session = types.SimpleNamespace(lock=asyncio.Lock(), id="s2")
        never = asyncio.Event()
        queued = await _queued_behind(turns, session, [], never)
        assert not session.lock.locked()  # released to the queued one, which has not run yet
        with pytest.raises(SessionBusy):
            async with asyncio.timeout(30):
                async with turns.turn(session, "newcomer", None):  # type: ignore[arg-type]
                    pass
        queued.cancel()

    asyncio.run(play())


def test_a_free_session_is_taken_without_waiting_a_turn() -> None:
    # Without a turn of the event loop: what was scheduled before the turn was asked has not run yet.
    async def play() -> tuple[bool, int, list[str]]:
        turns = Turns(Settings.from_env(), lambda why: None)
        session = types.SimpleNamespace(lock=asyncio.Lock(), id="s3")
        ran: list[str] = []
        asyncio.get_running_loop().call_soon(ran.append, "a turn of the loop")
        async with turns.turn(session, "alone", None):  # type: ignore[arg-type]
            return session.lock.locked(), turns.waiting, list(ran)

    assert asyncio.run(play()) == (True, 0, [])


def test_a_newcomer_does_not_pass_one_that_queued_in_the_same_turn() -> None:
    """One invocation finds the session busy and queues; in the same turn of the event loop, before its
    wait has run, the session is released and a newcomer arrives. The lock looks free with nobody in its
    queue (the queued one's acquire has not started yet), but the turn is the queued one's: the newcomer
    waits. Before, the newcomer took it at once and the two ran out of arrival order."""
    async def play() -> list[str]:
        turns = Turns(Settings.from_env(), lambda why: None)
        session = types.SimpleNamespace(lock=asyncio.Lock(), id="s4")
        order: list[str] = []

        async def invocation(name: str) -> None:
            async with turns.turn(session, name, None):  # type: ignore[arg-type]
                order.append(name)

        await session.lock.acquire()  # an invocation runs there
        queued = asyncio.ensure_future(invocation("queued"))  # each a step of the same turn, in this order
        asyncio.get_running_loop().call_soon(session.lock.release)
        newcomer = asyncio.ensure_future(invocation("newcomer"))
        await asyncio.gather(queued, newcomer)
        return order

    assert asyncio.run(play()) == ["queued", "newcomer"]
