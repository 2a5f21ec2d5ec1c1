"""Receipts appended in groups (issue 31): with many invocations in flight, each receipt's own thread hop
(`asyncio.to_thread`: a worker wake-up, the result handed back to the loop) and its own COMMIT were
15 % of the service's busy samples. A receipt that comes alone is written at once, in a
worker thread as before; those that come while a write is under way queue, and one writer task then
writes all that queued in one transaction (Store.append_many), and the next group that queued meanwhile. A receipt is in the store before its invocation answers,
as before; an append that fails fails alone (its error is raised to its own caller)."""

from __future__ import annotations

import asyncio
from typing import Any

from .store import Store

__all__ = ["Appends"]


class Appends:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._queued: list[tuple[tuple[Any, ...], asyncio.Future[int]]] = []
        self._writing = False
        self._writer: asyncio.Task[None] | None = None

    async def append(self, *args: Any) -> int:
        """Store.append's arguments; answers the receipt's seq once it is committed. Alone, the receipt is
        written at once, as one; while a write is under way it waits for the next group."""
        if self._writing:
            future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            self._queued.append((args, future))
            return await future
        self._writing = True
        try:
            seq = (await asyncio.to_thread(self.store.append_many, [args]))[0]
        finally:
            self._writing = False
            self._write_queued()
        if isinstance(seq, Exception):
            raise seq
        return seq

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
