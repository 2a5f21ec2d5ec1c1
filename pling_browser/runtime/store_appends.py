"""Receipts appended before their invocations answer, at the least cost to the answer (issue 31).

A receipt is written on the event loop when the store's lock is free (`Store.try_append`: one INSERT and
a COMMIT into the WAL, no fsync): a worker thread's hop (the worker woken, the result handed back to the
loop) cost a read 0.67 ms on a loaded 2-core machine, more than the write itself. Where it cannot be
written at once (a reader or a prune holds the lock), or for a while after an append that blocked the loop
longer than `SLOW_S` (a disk that has become slow: the loop's thread waited in the kernel, a voluntary
context switch; being preempted by other work on a busy machine does not count), it is written in a worker thread as before: alone at
once, or, while a write is under way there, queued, and one writer task then writes all that queued in
one transaction (Store.append_many), and the next group that queued meanwhile. Checkpoints (the WAL's
fsyncs) run in a worker thread every `CHECKPOINT_EVERY` appends. A receipt is in the store before its
invocation answers, as before; an append that fails fails alone (its error is raised to its own caller)."""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from typing import Any

from .store import Store

__all__ = ["Appends"]

log = logging.getLogger("pling_browser.runtime")

SLOW_S = 0.005  # an append on the loop that took longer sends the next ones to a worker thread...
OFF_LOOP_S = 60.0  # ...for this long
CHECKPOINT_EVERY = 256  # appends between two checkpoints (a read's receipt: a few WAL pages)
RUSAGE_THREAD = getattr(resource, "RUSAGE_THREAD", None)  # Linux


def _waits() -> int:
    """How often this thread has waited in the kernel (voluntary context switches); 1 where unknown."""
    return resource.getrusage(RUSAGE_THREAD).ru_nvcsw if RUSAGE_THREAD is not None else 1


class Appends:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._queued: list[tuple[tuple[Any, ...], asyncio.Future[int]]] = []
        self._writing = False
        self._writer: asyncio.Task[None] | None = None
        self.off_loop_until = 0.0  # time.monotonic() until which appends go to a worker thread
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None

    async def append(self, *args: Any) -> int:
        """Store.append's arguments; answers the receipt's seq once it is committed."""
        self._count()
        if self._writing:
            future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            self._queued.append((args, future))
            return await future
        seq = self._on_loop(args) if time.monotonic() >= self.off_loop_until else None
        if seq is None:
            self._writing = True
            try:
                seq = (await asyncio.to_thread(self.store.append_many, [args]))[0]
            finally:
                self._writing = False
                self._write_queued()
        if isinstance(seq, Exception):
            raise seq
        return seq

    def _on_loop(self, args: tuple[Any, ...]) -> int | Exception | None:
        started, waits = time.monotonic(), _waits()
        seq = self.store.try_append(*args)
        if seq is not None and time.monotonic() - started > SLOW_S and _waits() != waits:
            self.off_loop_until = time.monotonic() + OFF_LOOP_S
            log.warning("a receipt append waited %.0f ms on the disk: appends go to a worker thread for %.0f s",
                        (time.monotonic() - started) * 1000, OFF_LOOP_S)
        return seq

    def _count(self) -> None:
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY and self._checkpointing is None:
            self._since_checkpoint = 0
            self._checkpointing = asyncio.create_task(self._checkpoint(), name="pling receipt checkpoint")

    async def _checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self.store.checkpoint)
        except Exception as error:  # noqa: BLE001 - a busy or full disk: the next round tries again
            log.warning("the receipt log's checkpoint failed (tried again later): %s", error)
        finally:
            self._checkpointing = None

    def _write_queued(self) -> None:
        if self._queued and not self._writing:
            self._writing = True
            self._writer = asyncio.create_task(self._write(), name="pling receipt appends")

    async def _write(self) -> None:
        try:
            while self._queued:
                group, self._queued = self._queued, []
                try:
                    seqs = await asyncio.to_thread(self.store.append_many, [args for args, _ in group])
                except asyncio.CancelledError:
                    for _, future in group:
                        future.cancel()
                    raise
                except Exception as error:  # noqa: BLE001 - the store failed as a whole: each caller hears it
                    seqs = [error] * len(group)
                for (_, future), seq in zip(group, seqs, strict=True):
                    if future.done():
                        continue  # its caller is gone; the receipt is stored all the same
                    if isinstance(seq, Exception):
                        future.set_exception(seq)
                    else:
                        future.set_result(seq)
        finally:
            self._writing = False
