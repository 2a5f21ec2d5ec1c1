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
        assert store.first_receipt("k1") == ("f", _receipt("keyed"))
        # A day and more later the key goes too, and then its receipt.
        assert store.prune(3600, now=now + DAY + 60) == (1, 1)
        assert store.receipts("s_a") == [] and store.first_receipt("k1") is None
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


def test_keys_kept_per_session_by_an_older_store_are_carried_over(tmp_path: Path) -> None:
    import sqlite3

    db = sqlite3.connect(tmp_path / "pling.sqlite3")
    db.executescript("""
        CREATE TABLE receipts (seq INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL, action TEXT NOT NULL,
            ok INTEGER NOT NULL, code TEXT, created REAL NOT NULL, body TEXT NOT NULL);
        CREATE TABLE idempotency (session TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
            receipt INTEGER NOT NULL, created REAL NOT NULL, PRIMARY KEY (session, key));""")
    db.execute("INSERT INTO receipts (session, action, ok, created, body) VALUES ('s_a', 'a', 1, ?, ?)",
               (time.time(), '{"ok": true, "action": {"id": "a"}}'))
    db.execute("INSERT INTO idempotency VALUES ('s_a', 'k1', 'f', 1, ?)", (time.time(),))
    db.commit()
    db.close()
    store = Store(tmp_path)
    try:
        assert store.first_receipt("k1") == ("f", _receipt("a"))
    finally:
        store.close()
