"""Stage 6, execute. The before snapshot is taken first, only now that every pre-check has passed.
Function actions call the page's ``run``; element actions operate the target with Playwright's
trusted input according to the control; a non-native target gets synthetic events (low fidelity)."""

from __future__ import annotations

import contextlib

from ..core.answers import Aim, BridgeCode
from ..core.bridge import BridgeError
from ..core.gestures import CheckboxUnchanged, TargetNotOperable, operate, words
from ..errors import ActionUnavailable, ExecutionFailed, PageUnresponsive, PlingError
from .context import Invocation
from .handoff import handoff
from .interaction import person_interactions
from .navigation import navigation_error
from .results import Executed, Marks

async def execute(inv: Invocation) -> Executed:
    """The before snapshot was taken by the reveal stage's last call, after every pre-check. The
    journal says the write path ``started`` only when it may run: run() is called, events are
    dispatched, or trusted input was not refused before dispatch."""
    assert inv.decl is not None
    session = inv.session
    marks = Marks(refused=session.proxy.refusals if session.proxy is not None else 0,
                  tabs=session.tabs.seq if session.tabs is not None else None,
                  opens=session.bridge.window_opens if session.tabs is not None else 0)
    if inv.control == "handoff":
        inv.journal.start(marks)  # the person may act in the page from now on
        await handoff(inv)
        return Executed()
    if inv.control == "function":
        return await _run(inv, marks)
    if inv.control == "synthetic":
        await _synthetic(inv, marks)
    else:
        await _operate(inv, marks)
    return Executed()


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
    try:
        async with person_interactions(inv) if webmcp else contextlib.nullcontext():
            answer = await bridge.run(inv.ref, inv.args, timeout, person_ms)
    except PlingError as error:
        if not navigation_error(error):
            raise
        inv.document.leave()  # run() navigated before it answered: an outcome, not a failure
        inv.note("ran the page's run(); the document was replaced before it answered")
        return Executed()
    except BridgeError as error:
        page_error = error.refusal.error
        if error.code is BridgeCode.TIMEOUT:
            raise ExecutionFailed(f"run() did not finish within {timeout:.0f} ms", outcome="unknown",
                                  page_error=page_error) from None
        raise ExecutionFailed(f"The page's run() failed: {page_error}", page_error=page_error) from None
    finally:
        if not bridge.nested:
            bridge.running = outer
    inv.document.answered(inv, answer.doc, answer.leaving)
    inv.note("ran the page's run()" + (" and kept its result as data" if answer.has_data else ""))
    if not answer.has_data:
        return Executed()
    return Executed(has_data=True, data=answer.data, data_omitted=answer.omitted)


async def _synthetic(inv: Invocation, marks: Marks) -> None:
    inv.journal.start(marks)
    try:
        await inv.session.bridge.synthetic_click()
    except BridgeError as error:
        raise ExecutionFailed(f"Synthetic click failed: {error.refusal.error}") from None
    inv.warnings.append("The target is not a native control: the page got synthetic (untrusted) click events.")
    inv.note("dispatched synthetic pointer and click events on the target")


async def _operate(inv: Invocation, marks: Marks) -> None:
    ready = inv.ready
    assert ready is not None and ready.mark is not None
    bridge = inv.session.bridge
    value = inv.args.get("checked") if ready.control == "checkbox" else ready.fill_value
    dispatched = True  # unless Playwright says it gave up first, the input may have gone out
    released = False
    try:
        done = await operate(bridge, ready.mark, ready.control, value, inv.action_timeout_ms, ready.where,
                             ready.gesture, ready.aim, ready.doc, ready.drop)
        released = done.released
    except CheckboxUnchanged as error:
        released = True
        raise ExecutionFailed(f"Operating the target failed: {error}") from None
    except TargetNotOperable as error:
        dispatched = False  # Playwright gave up before it dispatched anything
        inv.note("Playwright's actionability checks gave up" + (f" (direct path not taken: {error.direct_why})"
                                                               if error.direct_why else ""))
        raise ActionUnavailable(f"{inv.ref}'s target never became operable: {error.reason}", reason=error.reason,
                                stage="execute") from None
    except PageUnresponsive as error:
        raise ExecutionFailed(f"Operating the target failed: {error.message}", cause=error.code, outcome="unknown") from None
    except PlingError as error:
        if navigation_error(error):  # the gesture navigated: an outcome, not a failure
            inv.document.leave()
            inv.note(f"{_verb(inv)} with trusted input; the document was replaced")
            return
        raise ExecutionFailed(f"Operating the target failed: {error.message}", cause=error.code) from None
    finally:
        if dispatched:
            inv.journal.start(marks)
        if not inv.document.leaving and not released:
            try:
                await bridge.release()
            except Exception:  # the page may have navigated away with the element
                pass
    inv.note(f"{_verb(inv)} with trusted input{_path(done.path, done.why, ready.aim)}")


def _path(path: str, why: str | None, aim: Aim | None) -> str:
    """Which path the trusted input took (core/gestures.py), for the receipt's log."""
    if path == "direct":
        return " (direct: at the centre the bridge hit-tested" + ("; scrolled into view" if aim is not None and aim.scrolled else "") + ")"
    return " (Playwright's actionability checks" + (f"; direct path not taken: {why}" if why else "") + ")"


def _verb(inv: Invocation) -> str:
    ready = inv.ready
    assert ready is not None
    return words(ready.control, ready.gesture, ready.fill_value, ready.drop_id)
