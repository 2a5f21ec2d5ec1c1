"""The receipt store forgets by age (PLING_RETENTION_DAYS), never an idempotency key younger than 24 h
nor the receipt such a key answers with; the runtime reaches it off the event loop."""

from __future__ import annotations

import time
from pathlib import Path

from pling_browser.runtime.store import Store

DAY = 86400.0


def _receipt(action: str) -> dict:
    return {"ok": True, "action": {"id": action}}


def test_prune_by_age_keeps_young_keys_and_their_receipts(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        old = store.append("s_a", _receipt("old"))
        keyed = store.append("s_a", _receipt("keyed"), key="k1", fingerprint="f")
        fresh = store.append("s_a", _receipt("fresh"))
        now = time.time()
        # Retention of one hour, two hours later: the plain receipts go, the keyed one stays (its key is < 24 h old).
        assert store.prune(3600, now=now + 2 * 3600) == (2, 0)
        assert [e["seq"] for e in store.receipts("s_a")] == [keyed]
        assert store.first_receipt("s_a", "k1") == ("f", _receipt("keyed"))
        # A day and more later the key goes too, and then its receipt.
        assert store.prune(3600, now=now + DAY + 60) == (1, 1)
        assert store.receipts("s_a") == [] and store.first_receipt("s_a", "k1") is None
        assert old and fresh
    finally:
        store.close()


def test_a_long_retention_keeps_everything_younger(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        store.append("s_b", _receipt("a"), key="k", fingerprint="f")
        assert store.prune(7 * DAY, now=time.time() + 3 * DAY) == (0, 0)
        assert len(store.receipts("s_b")) == 1
    finally:
        store.close()
