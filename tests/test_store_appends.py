"""runtime/store_appends.py: a receipt is written on the event loop when the store's lock is free (no
thread hop), in a worker thread when it is not or after an append that was slow on the loop; receipts
that end together there are written in one transaction (one thread hop, one COMMIT), each caller
answered its own seq; an append that fails fails alone; checkpoints run in a worker thread."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pling_browser.runtime import store_appends
from pling_browser.runtime.store import Store
from pling_browser.runtime.store_appends import Appends


def _receipt(k: int) -> dict[str, Any]:
    return {"ok": True, "action": {"id": "add"}, "n": k}


def _threads(store: Store, name: str) -> list[int]:
    """The threads `store.<name>` is called from, as it is called."""
    seen: list[int] = []
    real = getattr(store, name)

    def spy(*args: Any) -> Any:
        seen.append(threading.get_ident())
        return real(*args)

    setattr(store, name, spy)
    return seen


def _check_stored(store: Store, seqs: list[int]) -> None:
    assert sorted(seqs) == list(range(1, len(seqs) + 1))  # each caller its own seq, every receipt stored once
    for k, seq in enumerate(seqs):
        assert store.receipts(f"s{k % 4}", seq - 1, 1)[0]["receipt"]["n"] == k
        assert store.first_receipt(f"key{k}") == ("fp", _receipt(k))


async def _append_64(appends: Appends) -> list[int]:
    return await asyncio.gather(*(appends.append(f"s{k % 4}", _receipt(k), f"key{k}", "fp") for k in range(64)))


def test_receipts_are_written_on_the_loop_while_the_store_is_free(tmp_path: Path) -> None:
    store = Store(tmp_path)
    on_loop, in_threads = _threads(store, "try_append"), _threads(store, "append_many")

    async def run() -> tuple[list[int], int]:
        return await _append_64(Appends(store)), threading.get_ident()

    seqs, loop_thread = asyncio.run(run())
    _check_stored(store, seqs)
    assert on_loop == [loop_thread] * 64 and in_threads == []
    store.close()


def test_after_a_slow_append_those_that_end_together_share_a_transaction_in_a_thread(tmp_path: Path) -> None:
    store = Store(tmp_path)
    real = store.try_append

    def slow(*args: Any) -> Any:  # the disk was slow once: longer than SLOW_S on the loop
        time.sleep(store_appends.SLOW_S * 2)
        return real(*args)

    store.try_append = slow  # type: ignore[method-assign]
    groups: list[int] = []
    threads = _threads(store, "append_many")
    append_many = store.append_many

    def counted(appends: list[tuple[Any, ...]]) -> list[int | Exception]:
        groups.append(len(appends))
        return append_many(appends)

    store.append_many = counted  # type: ignore[method-assign]

    async def run() -> tuple[list[int], int]:
        appends = Appends(store)
        first = await appends.append("s3", _receipt(-1), "key-1", "fp")  # on the loop, and slow
        assert first == 1 and appends.off_loop_until > time.monotonic()
        return await _append_64(appends), threading.get_ident()

    seqs, loop_thread = asyncio.run(run())
    assert sorted(seqs) == list(range(2, 66))
    for k, seq in enumerate(seqs):
        assert store.receipts(f"s{k % 4}", seq - 1, 1)[0]["receipt"]["n"] == k
    assert sum(groups) == 64 and len(groups) < 64  # fewer transactions than receipts
    assert threads and loop_thread not in threads
    store.close()


def test_a_held_store_sends_the_append_to_a_thread_and_the_loop_goes_on(tmp_path: Path) -> None:
    store = Store(tmp_path)
    held, release = threading.Event(), threading.Event()
    released_by_test: list[bool] = []

    def reader() -> None:  # a long read (or a prune) holding the store's lock
        with store._lock:
            held.set()
            released_by_test.append(release.wait(10))

    holder = threading.Thread(target=reader)
    holder.start()
    held.wait(10)

    async def run() -> int:
        append = asyncio.ensure_future(Appends(store).append("s", _receipt(0)))
        for _ in range(20):  # the loop turns while the append waits for the lock in a worker thread
            await asyncio.sleep(0)
        assert not append.done()
        release.set()
        return await append

    assert asyncio.run(run()) == 1
    holder.join(10)
    assert released_by_test == [True]  # the loop never waited for the lock: the test released it
    assert store.receipts("s")[0]["receipt"]["n"] == 0
    store.close()


def test_checkpoints_run_in_a_thread_and_copy_the_log_into_the_database(tmp_path: Path, monkeypatch:
                                                                        pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_appends, "CHECKPOINT_EVERY", 16)
    store = Store(tmp_path)
    threads = _threads(store, "checkpoint")

    async def run() -> int:
        appends = Appends(store)
        for k in range(16):
            await appends.append("s", _receipt(k))
        while appends._checkpointing is not None:
            await asyncio.sleep(0.01)
        return threading.get_ident()

    loop_thread = asyncio.run(run())
    assert len(threads) == 1 and threads[0] != loop_thread
    # The database file alone, without its WAL, holds the receipts: they were copied into it.
    alone = tmp_path / "alone" / "copy.sqlite3"
    alone.parent.mkdir()
    shutil.copyfile(store.path, alone)
    copy = sqlite3.connect(alone)
    assert copy.execute("SELECT count(*) FROM receipts").fetchone() == (16,)
    copy.close()
    store.close()


def test_an_append_that_fails_fails_alone(tmp_path: Path) -> None:
    store = Store(tmp_path)

    async def run() -> list[Any]:
        appends = Appends(store)
        calls = [appends.append("s", _receipt(0)), appends.append("s", {"ok": True}),  # no action: cannot be kept
                 appends.append("s", _receipt(2))]
        return await asyncio.gather(*calls, return_exceptions=True)

    first, broken, third = asyncio.run(run())
    assert isinstance(broken, KeyError)
    assert [entry["receipt"]["n"] for entry in store.receipts("s")] == [0, 2]
    assert (first, third) == (1, 2)
    with pytest.raises(KeyError):
        store.append("s", {"ok": False})
    store.close()


def test_a_checkpoint_after_close_opens_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.append("s", _receipt(0))
    store.checkpoint()
    store.close()
    store.checkpoint()  # scheduled before the service stopped, run after: nothing to do
    assert store._checkpointer is None
