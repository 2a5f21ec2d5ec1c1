"""Stage 7, expect and settle. The declared expectation is polled until it holds (default 2 s, or the
action's ``expect.timeoutMs``); then the page settles: the requests the action started have answered
and a frame went by without DOM mutations (capped). An expectation that held and no longer holds
after settling is a failure: an optimistic update rolled back is not a success."""

from __future__ import annotations

from pydantic import JsonValue, ValidationError

from ..core.answers import BridgeCode, Expected, Refusal, Settled
from ..core.bridge import BridgeBug, BridgeError
from ..errors import ExpectationFailed, PageNavigated, PageUnresponsive, PlingError
from .codes import LogEvent, ReceiptWarning
from .context import Invocation
from .navigation import navigation_error
from .results import Checked


def _settled(inv: Invocation, settled: Settled | None) -> None:
    if settled is None:
        return
    if settled.settled:
        # "frames waited: 0": the frame after the action had rendered, quiet, before settling began.
        inv.note(LogEvent.PAGE_SETTLED, ms=settled.ms, frames=settled.frames)
    else:
        inv.note(LogEvent.PAGE_NOT_SETTLED, ms=settled.ms, pending=settled.pending, timers=settled.timers)
        inv.warn(ReceiptWarning.NOT_SETTLED, ms=settled.ms, pending=settled.pending, timers=settled.timers)


async def expect(inv: Invocation) -> Checked:
    """Check in the action's document; when it is leaving (or left), follow it to the new document and
    check there (navigation.py). An expectation the new document cannot check (it does not declare
    the action) is not verified, with a warning: never a failure."""
    assert inv.decl is not None
    document = inv.document
    if not document.leaving:
        try:
            answer = await _check(inv, folded=inv.executed.expected if inv.executed is not None else None)
        except PlingError as error:
            if not navigation_error(error):
                raise
            document.leave()
        else:
            if not document.answered(inv, answer.doc, answer.leaving):
                return _held(inv, answer)
    await document.follow(inv)
    if not document.navigated:  # the navigation ended in the same document: check it here
        return _held(inv, await _check(inv))
    return await _check_after_navigation(inv)


def _held(inv: Invocation, answer: Expected) -> Checked:
    if answer.declared:
        inv.note(LogEvent.EXPECTATION_HELD, ms=answer.ms or 0, polls=answer.polls)
    else:
        inv.note(LogEvent.NO_EXPECTATION)
    _settled(inv, answer.settled)
    return Checked(verified=True if answer.declared else None)


async def _check_after_navigation(inv: Invocation) -> Checked:
    assert inv.decl is not None
    if inv.decl.expect is None:
        inv.note(LogEvent.NO_EXPECTATION)
        return Checked()
    why = "navigated_again"
    try:
        answer = await _check(inv, on_new_document=True)
    except PlingError as error:
        if not navigation_error(error):
            raise
    except _Gone:
        why = "not_declared"
    else:
        if not answer.leaving:
            checked = _held(inv, answer)
            inv.note(LogEvent.CHECKED_ON_NEW_DOCUMENT)
            return checked
    action = inv.ref.partition("@")[0]
    inv.note(LogEvent.EXPECTATION_NOT_VERIFIED, reason=why, action=action)
    inv.warn(ReceiptWarning.EXPECTATION_UNVERIFIED, expectation=inv.decl.expect.description, reason=why, action=action)
    return Checked(verified=False)


class _Gone(Exception):
    """The document that answered does not declare the action (only after a navigation)."""


def expect_asked(inv: Invocation) -> dict[str, JsonValue]:
    """What the expect call is asked in the action's document: its budget, and the after snapshot
    with it when evidence is on (also asked with run(), in the same call: execute.py, ran.js)."""
    diff = inv.evidence_begun and not inv.document.after_unreadable
    return {"timeoutMs": inv.expect_timeout_ms, "settleMs": inv.settings.settle_cap_ms, "diff": diff}


def folded_answer(raw: dict[str, JsonValue] | None) -> Expected | Refusal | None:
    """The expectation's answer that came with run()'s, typed as the expect call's would be."""
    if raw is None:
        return None
    try:
        return Expected.model_validate(raw) if raw.get("ok") is True else Refusal.model_validate(raw)
    except ValidationError:
        raise BridgeBug("The bridge's run answer carried an expect answer of the wrong shape") from None


async def _asked(inv: Invocation, folded: Expected | Refusal | Exception | None, diff: bool,
                 carried_from: str | None) -> Expected:
    """The expect call's answer: the one that came with run()'s (asked as this call would ask), else
    the call itself (``carried_from``: the new document holds the before snapshot the action's
    document handed over, and diffs against it in the same call)."""
    if isinstance(folded, Exception):
        raise folded
    if isinstance(folded, Refusal):
        raise BridgeError(folded)
    if folded is not None:
        return folded
    return await inv.session.bridge.expect(inv.ref, inv.args, inv.expect_timeout_ms, inv.settings.settle_cap_ms, diff=diff,
                                           carried_from=carried_from)


async def _check(inv: Invocation, on_new_document: bool = False,
                 folded: Expected | Refusal | Exception | None = None) -> Expected:
    assert inv.decl is not None
    description = inv.decl.expect.description if inv.decl.expect else None
    timeout = inv.expect_timeout_ms
    where = " on the new document" if on_new_document else ""
    bridge = inv.session.bridge
    diff = inv.evidence_begun and not on_new_document and not inv.document.after_unreadable
    # On the new document, when it holds the carried snapshot (navigation.py follow), the after snapshot
    # is diffed against it in the same call; else the diff stage diffs with a call of its own.
    carried_from = inv.document.held if on_new_document and inv.evidence_begun else None
    try:
        try:
            answer = await _asked(inv, folded, diff, carried_from)
        except PageUnresponsive:
            if not diff and carried_from is None:
                raise
            # The call that also takes the after snapshot did not answer: the page's records or state
            # hang when read (its script was stopped). The expectation is asked again on its own; what
            # changed is not read again (diff.py says it could not be).
            inv.document.after_hung()
            inv.note(LogEvent.AFTER_SNAPSHOT_HUNG)
            answer = await bridge.expect(inv.ref, inv.args, timeout, inv.settings.settle_cap_ms)
        inv.document.keep_after(inv, answer)
        return answer
    except BridgeError as error:
        refusal = error.refusal
        if not on_new_document and inv.document.moved(inv, refusal.doc, refusal.leaving):
            raise PageNavigated("The expectation was asked of another document than the action's") from None
        _settled(inv, refusal.settled)
        ms = refusal.ms or 0
        if refusal.code is BridgeCode.REVERTED:
            raise ExpectationFailed(
                f"The expectation held{where} after {ms:.0f} ms but no longer held once the page settled",
                expectation=description, polled_ms=round(ms), polls=refusal.polls,
                check_error=refusal.error) from None
        if refusal.code is BridgeCode.NEVER:
            raise ExpectationFailed(f"The expectation did not hold{where} within {timeout:.0f} ms", expectation=description,
                                    polled_ms=round(ms), polls=refusal.polls, check_error=refusal.error) from None
        if refusal.code is BridgeCode.GONE and inv.decl.expect is None:
            return Expected(declared=False)  # nothing to check: no EXPECTATION_FAILED without an expectation
        if refusal.code is BridgeCode.GONE and on_new_document:
            raise _Gone() from None
        raise ExpectationFailed(f"The expectation could not be checked: {refusal.error or refusal.code.value}",
                                expectation=description) from None
