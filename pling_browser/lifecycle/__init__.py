"""The execution lifecycle, top to bottom: resolve, decode, validate, confirm, reveal, execute,
expect (and settle), diff, then the receipt. Each stage is one module; ``runner.LIFECYCLE`` is the
only place that orders them, and ``runner.run`` the only place that calls them, for an invocation,
a resumed flow and each step of a flow alike. Every outcome is a receipt; nothing here raises to
the caller."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..models import Receipt
from .codes import LogEvent, ReceiptWarning
from .context import Confirmer, Invocation, PendingRequests, Request
from .flow import execute_action_or_flow, resumed_stages
from .known import KnownPath, forget_known, known_action
from .receipt import build
from .resumes import FlowState, Resumes
from .runner import LIFECYCLE, run

if TYPE_CHECKING:
    from ..callers import Caller
    from ..config import Settings
    from ..core.sessions import Session

__all__ = ["invoke", "resume", "Invocation", "Request", "Resumes", "LIFECYCLE", "LogEvent", "ReceiptWarning"]


async def invoke(session: Session, ref: str, args: object, *, settings: Settings, evidence: bool = True,
                 confirmer: Confirmer | None = None, pending_requests: PendingRequests | None = None,
                 resumes: Resumes | None = None, operator_secrets: dict[str, str] | None = None,
                 caller: Caller | None = None) -> Receipt:
    request = Request(session=session, ref=ref, raw_args=args, settings=settings, evidence=evidence,
                      confirmer=confirmer, pending_requests=pending_requests, resumes=resumes,
                      operator_secrets=operator_secrets, caller=caller)
    known = known_action(session, ref, args)
    if known is not None:  # described before: one bridge call, unless the page declares it otherwise now
        path = KnownPath(known)
        inv = Invocation(request)
        await run(inv, path.stages())
        if not path.stale:
            return build(inv)
        forget_known(session, ref)
    inv = Invocation(request)
    await run(inv, {"execute": execute_action_or_flow})
    return build(inv)


async def resume(session: Session, state: FlowState, *, settings: Settings, evidence: bool = True,
                 confirmer: Confirmer | None = None, pending_requests: PendingRequests | None = None,
                 resumes: Resumes | None = None, operator_secrets: dict[str, str] | None = None,
                 caller: Caller | None = None) -> Receipt:
    """Continue a failed flow from its failed step, without replaying the steps that ran: the results
    the flow kept stand in for decode, validate and confirm."""
    inv = Invocation(Request(session=session, ref=state.ref, raw_args=state.args, settings=settings, evidence=evidence,
                             confirmer=confirmer, pending_requests=pending_requests, resumes=resumes,
                             operator_secrets=operator_secrets, caller=caller))
    inv.journal.approved(state.approved_by)
    inv.note(LogEvent.RESUMING, ref=state.ref, step=state.next_step + 1)
    await run(inv, resumed_stages(state))
    return build(inv)
