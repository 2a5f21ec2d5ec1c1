"""The one pipeline every command takes (runtime/commands.py), in this order:

1. **idempotency**: the command's fingerprint, computed once here; a known key answers its first
   receipt (from the store, so across a restart too, when the session itself is gone), a duplicate
   arriving while the first still runs waits for it, the same key with another request is 422;
2. **turn**: the session's lock, one invocation at a time in arrival order (runtime/turns.py);
3. **lifecycle**: the command run by the lifecycle (lifecycle/), to a receipt naming its caller;
4. **store**: the receipt and its codes through the session's way out (core/outbound.py), appended;
5. **publish**: the span, metrics and the ``receipt`` event.

A caller that cancels (an MCP client's cancel or disconnect cancels its handler) drops an invocation
still waiting for its session; one that started runs to the end and its receipt is stored all the
same: cancelling is not rollback."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from .. import telemetry
from ..agents.tools import refused_call, resolve_call
from ..callers import OPERATOR, named
from ..errors import IdempotencyMismatch, InvalidArgs, ToolNotFound
from ..lifecycle import invoke
from ..models import Receipt
from ..plain import wellformed
from .commands import AnyCommand, CallTool, Invoke, Resume

if TYPE_CHECKING:
    from ..core.sessions import Session
    from . import Runtime

__all__ = ["Pipeline"]

log = logging.getLogger("pling_browser.runtime")

Kept = tuple[str, dict[str, Any]]  # (fingerprint, receipt) of a key's first run


class Pipeline:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._inflight: dict[str, asyncio.Future[Kept]] = {}

    async def run(self, command: AnyCommand) -> dict[str, Any]:
        """The command's receipt, as stored: run once per idempotency key."""
        key = command.scoped_key()
        fingerprint = "" if key is None else command.fingerprint()  # only a key needs it
        future: asyncio.Future[Kept] | None = None
        if key is not None:
            running = self._inflight.get(key)
            if running is not None:
                return self._same(await asyncio.shield(running), fingerprint, key)
            # Claimed before the first await: a duplicate arriving while the store is read waits here.
            future = asyncio.get_running_loop().create_future()
            self._inflight[key] = future
        run = asyncio.ensure_future(self._spanned(command, key, fingerprint, future))
        try:
            return await asyncio.shield(run)
        except asyncio.CancelledError:
            if run in self.runtime.turns.started:
                log.info("the caller of a running invocation on session %s cancelled it; it runs to the end and "
                         "its receipt is logged", command.session)
            else:
                run.cancel()
            run.add_done_callback(lambda done: done.cancelled() or done.exception())  # nobody awaits it now
            raise

    async def _spanned(self, command: AnyCommand, key: str | None, fingerprint: str,
                       future: asyncio.Future[Kept] | None) -> dict[str, Any]:
        with telemetry.invocation_span(command.parent, command.session, command.request()) as span:
            try:
                return await self._stored(span, command, key, fingerprint, future)
            except BaseException as error:
                if future is not None and not future.done():
                    future.set_exception(error)
                    future.exception()  # retrieved: a duplicate may or may not be waiting for it
                raise
            finally:
                if key is not None:
                    self._inflight.pop(key, None)

    async def _stored(self, span: Any, command: AnyCommand, key: str | None, fingerprint: str,
                      future: asyncio.Future[Kept] | None) -> dict[str, Any]:
        runtime = self.runtime
        assert runtime.store is not None and runtime.appends is not None
        stored = None if key is None else await asyncio.to_thread(runtime.store.first_receipt, key)
        if stored is not None:
            assert future is not None and key is not None
            future.set_result(stored)
            return self._same(stored, fingerprint, key)
        session = runtime.sessions.get(command.session)
        answered = named(await self._lifecycle(command, session), command.caller or OPERATOR)
        # Whatever an agent or a page sent, what is stored and answered encodes (a lone surrogate -> U+FFFD),
        # and leaves through the session's way out: the operator's secrets and its earlier values masked.
        out = session.outbound
        receipt, coded = out.data(wellformed(answered.as_json())), out.data(wellformed(answered.coded))
        seq = await runtime.appends.append(command.session, receipt, key, fingerprint, wellformed(command.request()),
                                           coded)
        telemetry.record_receipt(span, receipt, seq)
        runtime.metrics.observe(receipt)
        runtime.events.publish("receipt", session=command.session, receipt_seq=seq, receipt=receipt)
        if future is not None:
            future.set_result((fingerprint, receipt))
        return receipt

    @staticmethod
    def _same(kept: Kept, fingerprint: str, key: str) -> dict[str, Any]:
        if kept[0] != fingerprint:
            raise IdempotencyMismatch(f"Idempotency-Key {key[:80]!r} was used for a different request")
        return kept[1]

    async def _lifecycle(self, command: AnyCommand, session: Session) -> Receipt:
        """The turn, then the lifecycle: the receipt of the command (a tool call whose arguments cannot
        be read is refused with a receipt before any turn; a call made during the page's own action
        runs in that action's turn)."""
        runtime, caller = self.runtime, command.caller
        if isinstance(command, CallTool):
            resolved = await self._resolve(command, session)
            if isinstance(resolved, Receipt):
                return resolved
            command = resolved
        if isinstance(command, Invoke) and command.within is not None:
            return await invoke(command.within, command.action, command.args, settings=runtime.settings,
                                evidence=command.evidence, **runtime.lifecycle_options())
        what = command.action if isinstance(command, Invoke) else "resume"
        async with runtime.turns.turn(session, what, command.gone):
            if isinstance(command, Resume):
                return await runtime.resume_now(session, command.handle, evidence=command.evidence,
                                                repeat_started_step=command.repeat_started_step, caller=caller)
            return await runtime.invoke_now(session, command.action, command.args, evidence=command.evidence,
                                            trace=command.trace, tab=command.tab, caller=caller)

    async def _resolve(self, command: CallTool, session: Session) -> Invoke | Receipt:
        """The invocation a tool call means, read against the page's model now; arguments that are not
        a JSON object answer a receipt (INVALID_ARGS, nothing ran), as invoke's `args` do."""
        model = await self.runtime.model(session, {"limit": 0})
        try:
            call = resolve_call(model, command.name, command.arguments, command.limit)
        except InvalidArgs as error:
            return refused_call(model, command.name, error, command.limit)
        if call is None:
            raise ToolNotFound(f"No tool {command.name[:80]!r} in this session's model")
        return Invoke(session=command.session, key=command.key, caller=command.caller, gone=command.gone,
                      parent=command.parent, action=call[0], args=call[1], evidence=command.evidence)
