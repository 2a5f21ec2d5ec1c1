"""The execution lifecycle, top to bottom: resolve, decode, validate, confirm, reveal, execute,
expect (and settle), diff, then the receipt. Each stage is one module; ``runner.LIFECYCLE`` is the
only place that orders them, and ``runner.run`` the only place that calls them, for an invocation,
a resumed flow and each step of a flow alike. Every outcome is a receipt; nothing here raises to
the caller."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..models import Receipt
from .context import Invocation
from .flow import FlowState, Resumes, execute_action_or_flow, resumed_stages
from .receipt import build
from .runner import LIFECYCLE, run

if TYPE_CHECKING:
    from ..callers import Caller
    from ..config import Settings
    from ..core.sessions import Session

__all__ = ["invoke", "resume", "Invocation", "Resumes", "LIFECYCLE"]


async def invoke(session: "Session", ref: str, args: Any, *, settings: "Settings", evidence: bool = True,
                 confirmer: Any = None, pending_requests: Any = None, resumes: Any = None,
                 operator_secrets: dict[str, str] | None = None, caller: "Caller | None" = None) -> Receipt:
    inv = Invocation(session=session, ref=ref, raw_args=args, settings=settings, evidence=evidence,
                     confirmer=confirmer, pending_requests=pending_requests, resumes=resumes, operator_secrets=operator_secrets,
                     caller=caller)
    await run(inv, {"execute": execute_action_or_flow})
    return build(inv)


async def resume(session: "Session", state: FlowState, *, settings: "Settings", evidence: bool = True,
                 confirmer: Any = None, pending_requests: Any = None, resumes: Any = None,
                 operator_secrets: dict[str, str] | None = None, caller: "Caller | None" = None) -> Receipt:
    """Continue a failed flow from its failed step, without replaying the steps that ran."""
    inv = Invocation(session=session, ref=state.ref, raw_args=state.args, settings=settings, evidence=evidence,
                     confirmer=confirmer, pending_requests=pending_requests, resumes=resumes, operator_secrets=operator_secrets,
                     caller=caller)
    inv.args, inv.secret_values = state.args, state.secret_values
    inv.approved, inv.confirmed, inv.approved_by = state.approved, state.confirmed, state.approved_by
    inv.note(f"resuming {state.ref} at step {state.next_step + 1}")
    await run(inv, resumed_stages(state))
    return build(inv)
