"""runtime/store_appends.py: receipts of invocations that end together are written in one transaction
(one thread hop, one COMMIT), each caller answered its own seq; an append that fails fails alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pling_browser.runtime.store import Store
from pling_browser.runtime.store_appends import Appends


def _receipt(k: int) -> dict[str, Any]:
    return {"ok": True, "action": {"id": "add"}, "n": k}


def test_appends_that_end_together_share_a_transaction(tmp_path: Path) -> None:
    store = Store(tmp_path)
    groups: list[int] = []
    append_many = store.append_many

    def counted(appends: list[tuple[Any, ...]]) -> list[int | Exception]:
        groups.append(len(appends))
        return append_many(appends)

    store.append_many = counted  # type: ignore[method-assign]

    async def run() -> list[int]:
        appends = Appends(store)
        return await asyncio.gather(*(appends.append(f"s{k % 4}", _receipt(k), f"key{k}", "fp") for k in range(64)))

    seqs = asyncio.run(run())
    assert sorted(seqs) == list(range(1, 65))  # each caller its own seq, every receipt stored once
    assert sum(groups) == 64 and len(groups) < 64  # fewer transactions than receipts
    for k, seq in enumerate(seqs):
        assert store.receipts(f"s{k % 4}", seq - 1, 1)[0]["receipt"]["n"] == k
        assert store.first_receipt(f"key{k}") == ("fp", _receipt(k))
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
