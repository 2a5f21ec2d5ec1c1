"""Stage 6, execute. The before snapshot is taken first, only now that every pre-check has passed.
Function actions call the page's ``run``; element actions operate the target with Playwright's
trusted input according to the control; a non-native target gets synthetic events (low fidelity)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from pydantic import JsonValue

from ..core.answers import BridgeCode, Expected, Ran, Refusal
from ..core.bridge import BridgeError
from ..core.gestures import CheckboxUnchanged, TargetNotOperable, operate
from ..errors import ActionUnavailable, ExecutionFailed, PageUnresponsive, PlingError
from .codes import LogEvent, ReceiptWarning
from .context import Invocation
from .expect import expect_asked, folded_answer
from .handoff import handoff
from .interaction import person_interactions
from .navigation import navigation_error
from .results import Executed, Marks, Ready

if TYPE_CHECKING:
    from ..core.sessions import Session


async def execute(inv: Invocation) -> Executed:
    """The before snapshot was taken by the reveal stage's last call, after every pre-check. The
    journal says the write path ``started`` only when it may run: run() is called, events are
    dispatched, or trusted input was not refused before dispatch."""
    assert inv.decl is not None
    marks = start_marks(inv.session)
    if inv.control == "handoff":
        inv.journal.start(marks)  # the person may act in the page from now on
        await handoff(inv)
        return Executed()
    if inv.control == "function":
        return await _run(inv, marks)
    if inv.control == "synthetic":
        await _synthetic(inv, marks)
        return Executed()
    return await _operate(inv, marks)


def start_marks(session: Session) -> Marks:
    """The session's counters as the write path starts (what the action refused, opened, changed)."""
    return Marks(refused=session.proxy.refusals if session.proxy is not None else 0,
                 tabs=session.tabs.seq if session.tabs is not None else None,
                 opens=session.bridge.window_opens if session.tabs is not None else 0)


async def _run(inv: Invocation, marks: Marks) -> Executed:
    timeout = inv.action_timeout_ms
    webmcp = inv.decl is not None and inv.decl.webmcp
    # A WebMCP tool may ask for a person while it runs (two answers: the interaction, then its dialog).
    person_ms = 2 * inv.settings.confirm_timeout_s * 1000 if webmcp and inv.request.confirmer is not None else 0
    inv.journal.start(marks)
    bridge = inv.session.bridge
    outer = bridge.running
    if not bridge.nested:
        bridge.running = inv  # a call the page makes to an export meanwhile is part of this invocation (runtime/exported.py)
    # The expectation goes with run() in one call (one round trip less), but not for a WebMCP tool (a
    # person may answer during its run) nor for a call nested in another invocation.
    fold = None if webmcp or bridge.nested else expect_asked(inv)
    hung: PageUnresponsive | None = None
    try:
        async with person_interactions(inv) if webmcp else contextlib.nullcontext():
            try:
                answer = await bridge.run(inv.ref, inv.args, timeout, person_ms, expect=fold)
            except PageUnresponsive as error:
                if fold is None:
                    raise
                answer, hung = await _kept_run(inv, error), error
    except PlingError as error:
        if not navigation_error(error):
            raise
        inv.document.leave()  # run() navigated before it answered: an outcome, not a failure
        inv.note(LogEvent.RAN_THEN_REPLACED)
        return Executed()
    except BridgeError as error:
        raise run_failed(error.refusal, timeout) from None
    finally:
        if not bridge.nested:
            bridge.running = outer
    return ran(inv, answer, hung)


def run_failed(refusal: Refusal, timeout: float) -> ExecutionFailed:
    """run() threw or took too long (the page's refusal), as the error the invocation ends with."""
    page_error = refusal.error
    if refusal.code is BridgeCode.TIMEOUT:
        return ExecutionFailed(f"run() did not finish within {timeout:.0f} ms", outcome="unknown", page_error=page_error)
    return ExecutionFailed(f"The page's run() failed: {page_error}", page_error=page_error)


def ran(inv: Invocation, answer: Ran, hung: PageUnresponsive | None = None) -> Executed:
    """run()'s answer: its document followed, its data kept, the expectation asked with it handed on."""
    inv.document.answered(inv, answer.doc, answer.leaving)
    inv.note(LogEvent.RAN, data=answer.has_data)
    expected = hung or folded_answer(answer.expected)
    if not answer.has_data:
        return Executed(expected=expected)
    return Executed(has_data=True, data=answer.data, data_omitted=answer.omitted, expected=expected)


async def _kept_run(inv: Invocation, error: PageUnresponsive) -> Ran:
    """The call with run() and its expectation hung and the page's script was stopped: when run() had
    answered (the bridge kept its answer), the expectation is what hung, and the expect stage meets it
    as if its own call had (the error is handed on); otherwise run() hung, as without the fold."""
    try:
        return await inv.session.bridge.ran_before()
    except (BridgeError, PlingError):
        raise error from None


async def _synthetic(inv: Invocation, marks: Marks) -> None:
    inv.journal.start(marks)
    try:
        await inv.session.bridge.synthetic_click()
    except BridgeError as error:
        raise ExecutionFailed(f"Synthetic click failed: {error.refusal.error}") from None
    inv.warn(ReceiptWarning.SYNTHETIC_EVENTS)
    inv.note(LogEvent.SYNTHETIC_DISPATCHED)


def _fill_folds(inv: Invocation) -> dict[str, JsonValue] | None:
    """A direct fill's expectation goes with its `typed` call (fill.js; one round trip less, as run()'s
    does), asked as the expect stage would ask it; not for a call nested in another invocation."""
    if inv.session.bridge.nested:
        return None
    return {"ref": inv.ref, "args": inv.args, **expect_asked(inv)}


def _folded(expected: dict[str, JsonValue] | Exception | None) -> Expected | Refusal | Exception | None:
    return expected if isinstance(expected, Exception) else folded_answer(expected)


async def _operate(inv: Invocation, marks: Marks) -> Executed:
    ready = inv.ready
    assert ready is not None and ready.mark is not None
    bridge = inv.session.bridge
    value = inv.args.get("checked") if ready.control == "checkbox" else ready.fill_value
    dispatched = True  # unless Playwright says it gave up first, the input may have gone out
    released = False
    try:
        done = await operate(bridge, ready.mark, ready.control, value, inv.action_timeout_ms, ready.where,
                             ready.gesture, ready.aim, ready.doc, ready.drop, expect=_fill_folds(inv))
        released = done.released
    except CheckboxUnchanged as error:
        released = True
        raise ExecutionFailed(f"Operating the target failed: {error}") from None
    except TargetNotOperable as error:
        dispatched = False  # Playwright gave up before it dispatched anything
        inv.note(LogEvent.ACTIONABILITY_GAVE_UP, direct_why=error.direct_why)
        raise ActionUnavailable(f"{inv.ref}'s target never became operable: {error.reason}", reason=error.reason,
                                stage="execute") from None
    except PageUnresponsive as error:
        raise ExecutionFailed(f"Operating the target failed: {error.message}", cause=error.code, outcome="unknown") from None
    except PlingError as error:
        if navigation_error(error):  # the gesture navigated: an outcome, not a failure
            inv.document.leave()
            inv.note(LogEvent.OPERATED_THEN_REPLACED, **_operated(ready))
            return Executed()
        raise ExecutionFailed(f"Operating the target failed: {error.message}", cause=error.code) from None
    finally:
        if dispatched:
            inv.journal.start(marks)
        if not inv.document.leaving and not released:
            try:
                await bridge.release()
            except Exception:  # the page may have navigated away with the element
                pass
    inv.note(LogEvent.OPERATED, **_operated(ready), path=done.path, why=done.why,
             scrolled=ready.aim is not None and ready.aim.scrolled)
    return Executed(expected=_folded(done.expected))


def _operated(ready: Ready) -> dict[str, JsonValue]:
    """What was operated, as data for the log: the control, the declared gesture, whether a value
    went with it (never the value: it may be a secret), a drag's destination."""
    return {"control": ready.control, "gesture": ready.gesture.model_dump() if ready.gesture else None,
            "valued": ready.fill_value is not None, "drop_id": ready.drop_id}
