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
from .evidence import diff
from .execute import execute
from .expect import expect
from .receipt import build
from .resolve import resolve
from .reveal import reveal
from .validate import validate

if TYPE_CHECKING:
    from ..config import Settings
    from ..sessions import Session

__all__ = ["invoke", "Invocation"]


async def invoke(session: "Session", ref: str, args: Any, *, settings: "Settings", evidence: bool = True,
                 confirmer: Any = None, gates: Any = None, operator_secrets: dict[str, str] | None = None) -> Receipt:
    inv = Invocation(session=session, ref=ref, raw_args=args, settings=settings, evidence=evidence,
                     confirmer=confirmer, gates=gates)
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
            await execute(inv)
        with inv.stage("expect"):
            await expect(inv)
    except InvocationError as error:
        inv.error = error
        inv.note(f"failed at {error.stage}: {error.code}")
    try:
        if inv.evidence_begun:
            with inv.stage("diff"):
                await diff(inv)
    except InvocationError as error:
        inv.note(f"the diff could not be taken: {error.message}")
        inv.warnings.append("What changed could not be read after the action.")
    return build(inv)
