"""Requests waiting for a person: confirmations before a side effect, and handoffs (steps only the
person may do). Each waits on a future that an HTTP answer, a timeout or the page resolves; an answer
reaches only its own request."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import AnswerTooLate, PendingAlreadyAnswered, PendingNotFound
from ..lifecycle.codes import LogEvent
from ..lifecycle.grants import Asked

Kind = Literal["confirmation", "handoff"]


@dataclass(frozen=True)
class Answer:
    """A person's answer to a confirmation: who answered, when, and the grant they made with it."""

    approve: bool
    by: str = "operator"
    at: float = field(default_factory=time.time)
    grant: Asked | None = None  # {"scope": "action" | "family", "for_s": N}


@dataclass
class Pending:
    id: str
    kind: Kind
    session: str
    request: dict[str, Any]
    timeout_s: float
    created: float = field(default_factory=time.time)
    status: str = "waiting"  # waiting | answered | expired | withdrawn
    answer: Any = None
    future: asyncio.Future[Any] = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    def view(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "session": self.session, **self.request,
                "created": self.created, "expires": self.created + self.timeout_s}


class PendingRequests:
    """All pending requests of a runtime, by id; answered and expired ones are kept a while so a late
    or second answer gets a clear error instead of 'not found'."""

    KEEP_S = 3600

    def __init__(self, on_change: Callable[[str, Pending], None] | None = None) -> None:
        self._all: dict[str, Pending] = {}
        self.on_change = on_change

    def _changed(self, what: str, pending: Pending) -> None:
        if self.on_change is not None:
            self.on_change(what, pending)

    def _prune(self) -> None:
        cutoff = time.time() - self.KEEP_S
        for pid in [pid for pid, p in self._all.items() if p.status != "waiting" and p.created < cutoff]:
            del self._all[pid]

    def open(self, kind: Kind, session: str, request: dict[str, Any], timeout_s: float) -> Pending:
        self._prune()
        prefix = "c_" if kind == "confirmation" else "h_"
        pending = Pending(id=prefix + secrets.token_urlsafe(9), kind=kind, session=session, request=request, timeout_s=timeout_s)
        self._all[pending.id] = pending
        self._changed("pending", pending)
        return pending

    def waiting(self, session: str | None = None) -> list[Pending]:
        return [p for p in self._all.values() if p.status == "waiting" and (session is None or p.session == session)]

    def answer(self, session: str, kind: Kind, pid: str, answer: Any) -> Pending:
        pending = self._all.get(pid)
        if pending is None or pending.session != session or pending.kind != kind:
            raise PendingNotFound(f"No {kind} {pid!r} is pending in session {session!r}")
        if pending.status == "answered":
            raise PendingAlreadyAnswered(f"The {kind} {pid} was answered already")
        if pending.status in ("expired", "withdrawn"):
            raise AnswerTooLate(f"The {kind} {pid} is no longer waiting ({pending.status})")
        pending.status = "answered"
        pending.answer = answer
        if not pending.future.done():
            pending.future.set_result(answer)
        self._changed("answered", pending)
        return pending

    async def wait(self, pending: Pending, also: asyncio.Future[Any] | None = None) -> tuple[str, Any]:
        """Wait for an answer, the timeout, or `also` (the page completing a handoff by itself).
        Answers ("answered", value), ("expired", None) or ("page", value)."""
        waiters: set[asyncio.Future[Any]] = {pending.future}
        if also is not None:
            waiters.add(also)
        try:
            done, _ = await asyncio.wait(waiters, timeout=pending.timeout_s, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if pending.status == "waiting":
                pending.status = "withdrawn"
                self._changed("withdrawn", pending)
        if pending.future in done:
            if pending.future.cancelled():
                return "withdrawn", None
            return "answered", pending.future.result()
        if also is not None and also in done:
            pending.status = "answered"
            return "page", also.result()
        pending.status = "expired"
        self._changed("expired", pending)
        return "expired", None

    def withdraw_session(self, session: str) -> None:
        for pending in self.waiting(session):
            pending.status = "withdrawn"
            if not pending.future.done():
                pending.future.cancel()


class HttpConfirmer:
    """The person-facing confirmation channel: the request waits in /pending for an answer."""

    def __init__(self, pending_requests: PendingRequests, timeout_s: float) -> None:
        self.pending_requests = pending_requests
        self.timeout_s = timeout_s

    async def ask(self, inv: Any, request: dict[str, Any]) -> tuple[bool, str, Answer | None]:
        """(approved, who in words, the answer when a person gave one)."""
        pending = self.pending_requests.open("confirmation", inv.session.id, request, self.timeout_s)
        inv.note(LogEvent.WAITING_FOR_CONFIRMATION, pending=pending.id)
        outcome, answer = await self.pending_requests.wait(pending)
        if outcome == "expired":
            return False, f"timeout: nobody answered within {self.timeout_s:g} s", None
        if outcome == "withdrawn":
            return False, "the session was closed while waiting", None
        if not isinstance(answer, Answer):  # an answer from older code: a bare yes or no
            answer = Answer(bool(answer))
        return answer.approve, "a person, through the confirmation channel", answer
