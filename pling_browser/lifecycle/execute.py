"""Stage 6, execute. The before snapshot is taken first, only now that every pre-check has passed.
Function actions call the page's ``run``; element actions operate the target with Playwright's
trusted input according to the control; a non-native target gets synthetic events (low fidelity)."""

from __future__ import annotations

import contextlib

from ..core.answers import BridgeCode
from ..core.bridge import BridgeError
from ..core.gestures import CheckboxUnchanged, TargetNotOperable, operate, words
from ..errors import ActionUnavailable, ExecutionFailed, PageUnresponsive, PlingError
from .context import Invocation
from .handoff import handoff
from .interaction import person_interactions
from .navigation import moved, navigation_error

async def execute(inv: Invocation) -> None:
    """The before snapshot was taken by the reveal stage's last call, after every pre-check.
    ``started`` turns true only when the page's write path may run: run() is called, events are
    dispatched, or trusted input was not refused before dispatch."""
    assert inv.decl is not None
    if inv.session.proxy is not None:
        inv.refused_mark = inv.session.proxy.refusals
    if inv.session.tabs is not None:
        inv.tabs_mark = inv.session.tabs.seq
        inv.opens_mark = inv.session.bridge.window_opens
    if inv.control == "handoff":
        inv.started = True  # the person may act in the page from now on
        await handoff(inv)
    elif inv.control == "function":
        await _run(inv)
    elif inv.control == "synthetic":
        await _synthetic(inv)
    else:
        await _operate(inv)


async def _run(inv: Invocation) -> None:
    timeout = inv.action_timeout_ms
    webmcp = inv.decl is not None and inv.decl.webmcp
    # A WebMCP tool may ask for a person while it runs (two answers: the interaction, then its dialog).
    person_ms = 2 * inv.settings.confirm_timeout_s * 1000 if webmcp and inv.request.confirmer is not None else 0
    inv.started = True
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
        inv.leaving = True  # run() navigated before it answered: an outcome, not a failure
        inv.note("ran the page's run(); the document was replaced before it answered")
        return
    except BridgeError as error:
        page_error = error.refusal.error
        if error.code is BridgeCode.TIMEOUT:
            raise ExecutionFailed(f"run() did not finish within {timeout:.0f} ms", outcome="unknown",
                                  page_error=page_error) from None
        raise ExecutionFailed(f"The page's run() failed: {page_error}", page_error=page_error) from None
    finally:
        if not bridge.nested:
            bridge.running = outer
    inv.leaving = moved(inv, answer.doc, answer.leaving)
    if answer.has_data:
        inv.data = answer.data
        inv.data_omitted = answer.omitted
    inv.note("ran the page's run()" + (" and kept its result as data" if answer.has_data else ""))


async def _synthetic(inv: Invocation) -> None:
    inv.started = True
    try:
        await inv.session.bridge.synthetic_click()
    except BridgeError as error:
        raise ExecutionFailed(f"Synthetic click failed: {error.refusal.error}") from None
    inv.warnings.append("The target is not a native control: the page got synthetic (untrusted) click events.")
    inv.note("dispatched synthetic pointer and click events on the target")


async def _operate(inv: Invocation) -> None:
    ready = inv.ready
    assert ready is not None and ready.mark is not None
    bridge = inv.session.bridge
    value = inv.args.get("checked") if ready.control == "checkbox" else ready.fill_value
    inv.started = True
    released = False
    try:
        done = await operate(bridge, ready.mark, ready.control, value, inv.action_timeout_ms, ready.where,
                             ready.gesture, ready.aim, ready.doc, ready.drop)
        released = done.released
    except CheckboxUnchanged as error:
        released = True
        raise ExecutionFailed(f"Operating the target failed: {error}") from None
    except TargetNotOperable as error:
        inv.started = False  # Playwright gave up before it dispatched anything
        inv.note("Playwright's actionability checks gave up" + (f" (direct path not taken: {error.direct_why})"
                                                               if error.direct_why else ""))
        raise ActionUnavailable(f"{inv.ref}'s target never became operable: {error.reason}", reason=error.reason,
                                stage="execute") from None
    except PageUnresponsive as error:
        raise ExecutionFailed(f"Operating the target failed: {error.message}", cause=error.code, outcome="unknown") from None
    except PlingError as error:
        if navigation_error(error):  # the gesture navigated: an outcome, not a failure
            inv.leaving = True
            inv.note(f"{_verb(inv)} with trusted input; the document was replaced")
            return
        raise ExecutionFailed(f"Operating the target failed: {error.message}", cause=error.code) from None
    finally:
        if not inv.leaving and not released:
            try:
                await bridge.release()
            except Exception:  # the page may have navigated away with the element
                pass
    inv.note(f"{_verb(inv)} with trusted input{_path(done.path, done.why, ready.aim)}")


def _path(path: str, why: str | None, aim: object) -> str:
    """Which path the trusted input took (core/gestures.py), for the receipt's log."""
    if path == "direct":
        return " (direct: at the centre the bridge hit-tested" + ("; scrolled into view" if getattr(aim, "scrolled", False) else "") + ")"
    return " (Playwright's actionability checks" + (f"; direct path not taken: {why}" if why else "") + ")"


def _verb(inv: Invocation) -> str:
    ready = inv.ready
    assert ready is not None
    return words(ready.control, ready.gesture, ready.fill_value, ready.drop_id)
