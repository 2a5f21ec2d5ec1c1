"""The receipt store: every receipt appended to a durable log, and the first receipt of each
idempotency key, in SQLite under PLING_DATA_DIR (WAL mode, so a killed service loses nothing it
answered). One file per service replica; no shared database is needed.

The methods are plain blocking calls (SQLite, behind one lock). A receipt is appended on the event loop
when the lock is free (`try_append`: a COMMIT into the WAL, no fsync, ~60 µs), else in a worker thread;
runtime/store_appends.py's `Appends` decides, and sends appends to a worker thread for a while after one
that was slow on the loop. What may wait on the disk never runs on the loop: checkpoints (the WAL's
fsyncs) run from a connection of their own in a worker thread (`checkpoint`; the writing connection's
automatic checkpoint is off), and reads and pruning go through `asyncio.to_thread`. `prune` drops
receipts and idempotency keys by age (PLING_RETENTION_DAYS); a key lives at least 24 hours, as SPEC
promises, and the receipt it answers with lives as long as the key."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS receipts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT NOT NULL,
    action TEXT NOT NULL,
    ok INTEGER NOT NULL,
    code TEXT,
    created REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS receipts_by_session ON receipts (session, seq);
CREATE INDEX IF NOT EXISTS receipts_by_age ON receipts (created);
CREATE TABLE IF NOT EXISTS idempotency_keys (
    key TEXT NOT NULL PRIMARY KEY,
    session TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    receipt INTEGER NOT NULL REFERENCES receipts (seq),
    created REAL NOT NULL
);
"""
# Before keys were scoped per caller across sessions they were kept per (session, key): such a store
# has its keys carried over (the first of a key wins) and the old table dropped.
MIGRATE = """
INSERT OR IGNORE INTO idempotency_keys (key, session, fingerprint, receipt, created)
    SELECT key, session, fingerprint, receipt, created FROM idempotency ORDER BY created;
DROP TABLE idempotency;
"""


KEY_MIN_S = 24 * 3600  # SPEC: idempotency keys are unique per caller for 24 h


def _private(folder: Path, database: Path) -> None:
    """The folder 0700 and the database 0600 (its -wal and -shm files take the database's mode):
    receipts hold what pages showed, for no other local user to read."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    os.close(os.open(database, os.O_RDWR | os.O_CREAT, 0o600))
    for path in (database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        if path.exists():
            os.chmod(path, 0o600)


def _encodable(text: str) -> str:
    """JSON text SQLite can store: a lone UTF-16 surrogate (a page's or an agent's) becomes U+FFFD, so
    appending a receipt never fails on what it holds."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _json(value: Any) -> str:
    return _encodable(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str))


def _row(session: str, receipt: dict[str, Any], key: str | None = None, fingerprint: str | None = None,
         request: Any = None, coded: Any = None) -> tuple[Any, ...]:
    """An append's columns, encoded (before the store's lock is taken)."""
    code = (receipt.get("error") or {}).get("code")
    return (_encodable(session), _encodable(str(receipt["action"]["id"])), int(bool(receipt.get("ok"))),
            code and _encodable(str(code)), _encodable(json.dumps(receipt, ensure_ascii=False, separators=(",", ":"))),
            None if request is None else _json(request), None if coded is None else _json(coded), key, fingerprint)


def _rows(appends: list[tuple[Any, ...]]) -> list[tuple[Any, ...] | Exception]:
    rows: list[tuple[Any, ...] | Exception] = []
    for append in appends:
        try:
            rows.append(_row(*append))
        except Exception as error:  # noqa: BLE001 - a receipt that cannot be encoded fails alone
            rows.append(error)
    return rows


class Store:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "pling.sqlite3"
        _private(folder, self.path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        # Checkpoints fsync: never in an append, which may run on the event loop (`checkpoint` instead).
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpoint_lock = threading.Lock()
        self._closed = False
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(receipts)")}
        if "request" not in columns:  # a log written before requests were kept (GET .../scenario reads them)
            self._db.execute("ALTER TABLE receipts ADD COLUMN request TEXT")
        if "coded" not in columns:  # a log written before the receipt's log was kept as codes too
            self._db.execute("ALTER TABLE receipts ADD COLUMN coded TEXT")
        if self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'idempotency'").fetchone():
            self._db.executescript("BEGIN IMMEDIATE;" + MIGRATE + "COMMIT;")

    def close(self) -> None:
        with self._checkpoint_lock:
            self._closed = True  # a checkpoint still scheduled then opens nothing
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None
        with self._lock:
            self._db.close()  # the last connection: SQLite checkpoints the WAL into the database

    def checkpoint(self) -> None:
        """Copy the WAL's committed pages into the database (PASSIVE: appends go on meanwhile), from a
        connection of its own, so the appends' lock is not held through its fsyncs. Blocking: call it
        from a worker thread."""
        with self._checkpoint_lock:
            if self._closed:
                return
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
                self._checkpointer.execute("PRAGMA busy_timeout=5000")
            self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def append(self, session: str, receipt: dict[str, Any], key: str | None = None, fingerprint: str | None = None,
               request: Any = None, coded: Any = None) -> int:
        """Log a receipt (and the request that asked for it, as the caller sent it: references to
        secrets unrestored; and its log and warnings as codes, ``Receipt.coded``), with the idempotency
        key that answers with it."""
        seq = self.append_many([(session, receipt, key, fingerprint, request, coded)])[0]
        if isinstance(seq, Exception):
            raise seq
        return seq

    def append_many(self, appends: list[tuple[Any, ...]]) -> list[int | Exception]:
        """`append`'s arguments, several at once in one transaction (one COMMIT: runtime/store_appends.py
        groups the receipts of invocations that end together); each answers its seq, or the error that
        kept that one receipt out (the others are kept)."""
        rows = _rows(appends)
        with self._lock:
            return self._write(rows)

    def try_append(self, *append: Any) -> int | Exception | None:
        """`append`'s arguments, written now if the store's lock is free (its seq, or the error that kept
        it out), else None at once: the caller, on the event loop, never waits for a reader or a prune."""
        rows = _rows([append])
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self._write(rows)[0]
        finally:
            self._lock.release()

    def _write(self, rows: list[tuple[Any, ...] | Exception]) -> list[int | Exception]:
        out: list[int | Exception] = []
        self._db.execute("BEGIN IMMEDIATE")
        try:
            grouped = len(rows) > 1  # a savepoint each, so that one failing leaves the others in
            for row in rows:
                out.append(row if isinstance(row, Exception) else self._insert(row, grouped))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return out

    def _insert(self, row: tuple[Any, ...], grouped: bool) -> int | Exception:
        session, action, ok, code, body, asked, codes, key, fingerprint = row
        now = time.time()
        if not grouped:
            return self._insert_one(session, action, ok, code, now, body, asked, codes, key, fingerprint)
        self._db.execute("SAVEPOINT receipt")
        try:
            seq = self._insert_one(session, action, ok, code, now, body, asked, codes, key, fingerprint)
        except sqlite3.Error as error:
            self._db.execute("ROLLBACK TO receipt")
            self._db.execute("RELEASE receipt")
            return error
        self._db.execute("RELEASE receipt")
        return seq

    def _insert_one(self, session: str, action: str, ok: int, code: str | None, now: float, body: str, asked: str | None,
                    codes: str | None, key: str | None, fingerprint: str | None) -> int:
        cursor = self._db.execute(
            "INSERT INTO receipts (session, action, ok, code, created, body, request, coded) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (session, action, ok, code, now, body, asked, codes))
        seq = int(cursor.lastrowid or 0)
        if key is not None:
            self._db.execute("INSERT OR IGNORE INTO idempotency_keys (key, session, fingerprint, receipt, created) "
                             "VALUES (?, ?, ?, ?, ?)", (key, session, fingerprint or "", seq, now))
        return seq

    def prune(self, retention_s: float, now: float | None = None) -> tuple[int, int]:
        """Delete idempotency keys older than max(retention, 24 h), then receipts older than the
        retention that no remaining key answers with. Answers (receipts, keys) deleted."""
        now = time.time() if now is None else now
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                keys = self._db.execute("DELETE FROM idempotency_keys WHERE created < ?",
                                        (now - max(retention_s, KEY_MIN_S),)).rowcount
                receipts = self._db.execute(
                    "DELETE FROM receipts WHERE created < ? AND seq NOT IN (SELECT receipt FROM idempotency_keys)",
                    (now - retention_s,)).rowcount
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return receipts, keys

    def first_receipt(self, key: str) -> tuple[str, dict[str, Any]] | None:
        """(fingerprint, receipt) kept for an idempotency key (already in its caller's scope: keys are
        unique per caller across sessions), or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT i.fingerprint, r.body FROM idempotency_keys i JOIN receipts r ON r.seq = i.receipt "
                "WHERE i.key = ?", (key,)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def with_requests(self, session: str, limit: int = 500) -> list[tuple[int, Any, dict[str, Any]]]:
        """(seq, request, receipt) of a session's first `limit` invocations, in order."""
        with self._lock:
            rows = self._db.execute("SELECT seq, request, body FROM receipts WHERE session = ? ORDER BY seq LIMIT ?",
                                    (session, limit)).fetchall()
        return [(seq, json.loads(request) if request else None, json.loads(body)) for seq, request, body in rows]

    def receipts(self, session: str, after: int = 0, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT seq, created, body FROM receipts WHERE session = ? AND seq > ? "
                                    "ORDER BY seq LIMIT ?", (session, after, limit)).fetchall()
        return [{"seq": seq, "created": created, "receipt": json.loads(body)} for seq, created, body in rows]

    def latest(self, session: str, limit: int = 50) -> list[dict[str, Any]]:
        """The last `limit` receipts of a session, oldest first (the operator console's log)."""
        with self._lock:
            rows = self._db.execute("SELECT seq, created, body FROM receipts WHERE session = ? "
                                    "ORDER BY seq DESC LIMIT ?", (session, limit)).fetchall()
        return [{"seq": seq, "created": created, "receipt": json.loads(body)} for seq, created, body in reversed(rows)]

    def coded(self, session: str, limit: int = 1) -> list[dict[str, Any]]:
        """The log and warnings of a session's last `limit` receipts as codes with their parameters
        (``{"log": [{"code", …}], "warnings": […]}``), oldest first: what a receipt's words say, as data.
        For the operator and the tests; the receipt an agent reads has the words only."""
        with self._lock:
            rows = self._db.execute("SELECT coded FROM receipts WHERE session = ? ORDER BY seq DESC LIMIT ?",
                                    (session, limit)).fetchall()
        return [json.loads(row[0]) if row[0] else {"log": [], "warnings": []} for row in reversed(rows)]
