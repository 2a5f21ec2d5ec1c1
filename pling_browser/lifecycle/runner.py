"""The one runner of the lifecycle. ``LIFECYCLE`` is the stage order, written once; ``invoke``,
``resume`` and every step of a flow run it, differing only in which stages they replace (a resume
hands back the results its flow kept for decode, validate and confirm). Each stage returns its result
and the runner keeps it on the invocation for the stages after it (``Invocation.keep``). Bookkeeping
(the stage name on errors, timing) is ``Invocation.stage()``'s, never a stage's.

After the stages, whatever happened, the before snapshot is diffed (``diff``) or, when nothing ran,
dropped (``discard``): a receipt always says what changed once the write path started."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping

from ..errors import InvocationError
from .codes import LogEvent, ReceiptWarning
from .confirm import confirm
from .context import Invocation, Result
from .decode import decode_args
from .diff import diff, discard
from .execute import execute
from .expect import expect
from .resolve import drop_revealed, resolve
from .results import RESULTS
from .reveal import reveal
from .validate import validate

StageFn = Callable[[Invocation], Awaitable[Result | None] | Result | None]

LIFECYCLE: tuple[tuple[str, StageFn], ...] = (
    ("resolve", resolve),
    ("decode", decode_args),
    ("validate", validate),
    ("confirm", confirm),
    ("reveal", reveal),
    ("execute", execute),
    ("expect", expect),
)
STAGE_NAMES = tuple(name for name, _ in LIFECYCLE) + ("diff",)


async def run(inv: Invocation, replace: Mapping[str, StageFn | Result | None] | None = None) -> None:
    """Run the stages in order, each under ``inv.stage(name)``, keeping each result; ``replace`` swaps
    a stage's function, or gives its result in its place (the stage then does not run: a resume's kept
    results), or skips it (``None``). The first error ends the run and is kept in ``inv.error``;
    nothing raises."""
    replace = replace or {}
    unknown = set(replace) - set(STAGE_NAMES)
    assert not unknown, f"not a stage: {unknown}"
    try:
        for name, default in LIFECYCLE:
            fn = replace.get(name, default)
            if fn is None:
                continue
            if isinstance(fn, RESULTS):
                inv.keep(fn)
                continue
            with inv.stage(name):
                result = fn(inv)
                if inspect.isawaitable(result):
                    result = await result
            if result is not None:
                inv.keep(result)
    except InvocationError as error:
        inv.error = error
        inv.note(LogEvent.FAILED, stage=error.stage, code=error.code)
    await _conclude(inv)


async def _conclude(inv: Invocation) -> None:
    try:
        if inv.evidence_begun and not inv.started:
            await discard(inv.session)  # a pre-check failed after the snapshot: nothing ran, nothing to diff
        elif inv.ready is None and inv.resolved is not None:
            await drop_revealed(inv.session, inv.resolved.revealed)  # revealed in the describe call, unused
        elif inv.evidence_begun:
            with inv.stage("diff"):
                compared = await diff(inv)
            if compared is not None:
                inv.keep(compared)
    except InvocationError as error:
        inv.note(LogEvent.DIFF_NOT_TAKEN, message=error.message)
        inv.warn(ReceiptWarning.CHANGES_UNREADABLE)
