"""Stage 7, expect and settle. The declared expectation is polled until it holds (default 2 s, or the
action's ``expect.timeoutMs``); then the page settles: the requests the action started have answered
and a frame went by without DOM mutations (capped). An expectation that held and no longer holds
after settling is a failure: an optimistic update rolled back is not a success."""

from __future__ import annotations

from ..core.answers import BridgeCode, Settled
from ..core.bridge import BridgeError
from ..errors import ExpectationFailed
from .context import Invocation


def _settled(inv: Invocation, settled: Settled | None) -> None:
    if settled is None:
        return
    if settled.settled:
        inv.note(f"page settled in {settled.ms:.0f} ms")
    else:
        pending = settled.pending
        inv.note(f"page had not settled after {settled.ms:.0f} ms ({pending} requests pending)")
        inv.warnings.append(f"The page had not settled after {settled.ms:.0f} ms ({pending} requests still pending); "
                            "later changes are not in this receipt.")


async def expect(inv: Invocation) -> None:
    assert inv.decl is not None
    description = inv.decl.expect.description if inv.decl.expect else None
    timeout = inv.expect_timeout_ms
    try:
        answer = await inv.session.bridge.expect(inv.ref, inv.args, timeout, inv.settings.settle_cap_ms)
    except BridgeError as error:
        refusal = error.refusal
        _settled(inv, refusal.settled)
        ms = refusal.ms or 0
        if refusal.code is BridgeCode.REVERTED:
            raise ExpectationFailed(
                f"The expectation held after {ms:.0f} ms but no longer held once the page settled",
                expectation=description, polled_ms=round(ms), polls=refusal.polls,
                check_error=refusal.error) from None
        if refusal.code is BridgeCode.NEVER:
            raise ExpectationFailed(f"The expectation did not hold within {timeout:.0f} ms", expectation=description,
                                    polled_ms=round(ms), polls=refusal.polls, check_error=refusal.error) from None
        raise ExpectationFailed(f"The expectation could not be checked: {refusal.error or refusal.code.value}",
                                expectation=description) from None
    if answer.declared:
        inv.verified = True
        inv.note(f"expectation held after {answer.ms or 0:.0f} ms ({answer.polls} checks)")
    else:
        inv.note("no expectation declared")
    _settled(inv, answer.settled)
