"""The execution lifecycle, top to bottom: resolve, decode, validate, confirm, reveal, execute,
expect (and settle), diff, then the receipt. Each stage is one module; this is the only place that
calls them, in order. Every outcome is a receipt; nothing here raises to the caller."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import InvocationError
from ..models import Receipt
from .confirm import confirm
from .context import Invocation
from .decode import decode, restore_references
from .evidence import diff, discard
from .execute import execute
from .expect import expect
from .flow import FlowState, Resumes, run_flow
from .receipt import build
from .resolve import resolve
from .reveal import reveal
from .validate import validate

if TYPE_CHECKING:
    from ..config import Settings
    from ..core.sessions import Session

__all__ = ["invoke", "resume", "Invocation", "Resumes"]


async def invoke(session: "Session", ref: str, args: Any, *, settings: "Settings", evidence: bool = True,
                 confirmer: Any = None, gates: Any = None, resumes: Any = None,
                 operator_secrets: dict[str, str] | None = None) -> Receipt:
    inv = Invocation(session=session, ref=ref, raw_args=args, settings=settings, evidence=evidence,
                     confirmer=confirmer, gates=gates, resumes=resumes, operator_secrets=operator_secrets)
    try:
        with inv.stage("resolve"):
            await resolve(inv)
        with inv.stage("decode"):
            decode(inv)
            await restore_references(inv, operator_secrets)
        with inv.stage("validate"):
            validate(inv)
        with inv.stage("confirm"):
            await confirm(inv)
        with inv.stage("reveal"):
            await reveal(inv)
        with inv.stage("execute"):
            await (run_flow(inv) if inv.control == "flow" else execute(inv))
        with inv.stage("expect"):
            await expect(inv)
    except InvocationError as error:
        inv.error = error
        inv.note(f"failed at {error.stage}: {error.code}")
    return await _finish(inv)


async def resume(session: "Session", state: FlowState, *, settings: "Settings", evidence: bool = True,
                 confirmer: Any = None, gates: Any = None, resumes: Any = None,
                 operator_secrets: dict[str, str] | None = None) -> Receipt:
    """Continue a failed flow from its failed step, without replaying the steps that ran."""
    inv = Invocation(session=session, ref=state.ref, raw_args=state.args, settings=settings, evidence=evidence,
                     confirmer=confirmer, gates=gates, resumes=resumes, operator_secrets=operator_secrets)
    inv.note(f"resuming {state.ref} at step {state.next_step + 1}")
    try:
        with inv.stage("resolve"):
            await resolve(inv)
        inv.args, inv.secret_values = state.args, state.secret_values
        inv.approved, inv.confirmed = state.approved, state.confirmed
        with inv.stage("reveal"):
            await reveal(inv)
        with inv.stage("execute"):
            await run_flow(inv, start=state.next_step, ledger=state.ledger)
        with inv.stage("expect"):
            await expect(inv)
    except InvocationError as error:
        inv.error = error
        inv.note(f"failed at {error.stage}: {error.code}")
    return await _finish(inv)


async def _finish(inv: Invocation) -> Receipt:
    try:
        if inv.evidence_begun and not inv.started:
            await discard(inv)  # a pre-check failed after the snapshot: nothing ran, nothing to diff
        elif inv.evidence_begun:
            with inv.stage("diff"):
                await diff(inv)
    except InvocationError as error:
        inv.note(f"the diff could not be taken: {error.message}")
        inv.warnings.append("What changed could not be read after the action.")
    return build(inv)
