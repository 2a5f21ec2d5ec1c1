"""Stage 7, expect and settle. The declared expectation is polled until it holds (default 2 s, or the
action's ``expect.timeoutMs``); then the page settles: the requests the action started have answered
and a frame went by without DOM mutations (capped). An expectation that held and no longer holds
after settling is a failure: an optimistic update rolled back is not a success."""

from __future__ import annotations

from typing import Any

from ..core.bridge import BridgeError
from ..errors import ExpectationFailed
from .context import Invocation


def _settled(inv: Invocation, settled: dict[str, Any] | None) -> None:
    if not settled:
        return
    if settled.get("settled"):
        inv.note(f"page settled in {settled['ms']:.0f} ms")
    else:
        pending = settled.get("pending") or 0
        inv.note(f"page had not settled after {settled['ms']:.0f} ms ({pending} requests pending)")
        inv.warnings.append(f"The page had not settled after {settled['ms']:.0f} ms ({pending} requests still pending); "
                            "later changes are not in this receipt.")


async def expect(inv: Invocation) -> None:
    assert inv.decl is not None
    description = inv.decl.expect.description if inv.decl.expect else None
    timeout = inv.expect_timeout_ms
    try:
        answer = await inv.session.bridge.expect(inv.ref, inv.args, timeout, inv.settings.settle_cap_ms)
    except BridgeError as error:
        payload = error.payload
        _settled(inv, payload.get("settled"))
        if error.code == "reverted":
            raise ExpectationFailed(
                f"The expectation held after {payload['ms']:.0f} ms but no longer held once the page settled",
                expectation=description, polled_ms=round(payload["ms"]), polls=payload.get("polls"),
                check_error=payload.get("error")) from None
        if error.code == "never":
            raise ExpectationFailed(f"The expectation did not hold within {timeout:.0f} ms", expectation=description,
                                    polled_ms=round(payload["ms"]), polls=payload.get("polls"),
                                    check_error=payload.get("error")) from None
        raise ExpectationFailed(f"The expectation could not be checked: {payload.get('error') or error.code}",
                                expectation=description) from None
    if answer.get("declared"):
        inv.verified = True
        inv.note(f"expectation held after {answer['ms']:.0f} ms ({answer['polls']} checks)")
    else:
        inv.note("no expectation declared")
    _settled(inv, answer.get("settled"))
