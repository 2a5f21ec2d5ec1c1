"""Stage 6, execute. The before snapshot is taken first, only now that every pre-check has passed.
Function actions call the page's ``run``; element actions operate the target with Playwright's
trusted input according to the control; a non-native target gets synthetic events (low fidelity)."""

from __future__ import annotations

import asyncio

from ..core.bridge import BridgeError
from ..core.playwright import translate
from ..errors import ExecutionFailed
from .context import Invocation
from .handoff import handoff

_VERB = {"button": "clicked", "link": "clicked", "checkbox": "toggled", "text": "filled", "select": "selected an option in"}


async def execute(inv: Invocation) -> None:
    """The before snapshot was taken by the reveal stage's last call, after every pre-check."""
    assert inv.decl is not None
    inv.started = True
    if inv.control == "handoff":
        await handoff(inv)
    elif inv.control == "function":
        await _run(inv)
    elif inv.control == "synthetic":
        await _synthetic(inv)
    else:
        await _operate(inv)


async def _run(inv: Invocation) -> None:
    timeout = inv.action_timeout_ms
    try:
        answer = await inv.session.bridge.run(inv.ref, inv.args, timeout)
    except BridgeError as error:
        if error.code == "timeout":
            raise ExecutionFailed(f"run() did not finish within {timeout:.0f} ms", outcome="unknown",
                                  page_error=error.payload.get("error")) from None
        raise ExecutionFailed(f"The page's run() failed: {error.payload.get('error')}",
                              page_error=error.payload.get("error")) from None
    if "data" in answer:
        inv.data = answer["data"]
        inv.data_omitted = answer.get("omitted")
    inv.note("ran the page's run()" + (" and kept its result as data" if "data" in answer else ""))


async def _synthetic(inv: Invocation) -> None:
    try:
        await inv.session.bridge.synthetic_click()
    except BridgeError as error:
        raise ExecutionFailed(f"Synthetic click failed: {error.payload.get('error')}") from None
    inv.warnings.append("The target is not a native control: the page got synthetic (untrusted) click events.")
    inv.note("dispatched synthetic pointer and click events on the target")


async def _operate(inv: Invocation) -> None:
    from playwright.async_api import Error as PlaywrightError

    assert inv.target_mark is not None
    target = inv.session.bridge.target(inv.target_mark)
    timeout = inv.action_timeout_ms
    control = inv.control
    try:
        if control in ("button", "link"):
            await asyncio.wait_for(target.click(timeout=timeout), timeout / 1000 + 5)
        elif control == "checkbox":
            checked = inv.args.get("checked")
            if isinstance(checked, bool):
                await asyncio.wait_for(target.set_checked(checked, timeout=timeout), timeout / 1000 + 5)
            else:
                await asyncio.wait_for(target.click(timeout=timeout), timeout / 1000 + 5)
        elif control == "text":
            await asyncio.wait_for(target.fill(str(inv.fill_value), timeout=timeout), timeout / 1000 + 5)
        elif control == "select":
            value = inv.fill_value if isinstance(inv.fill_value, list) else str(inv.fill_value)
            await asyncio.wait_for(target.select_option(value, timeout=timeout), timeout / 1000 + 5)
        else:
            raise ExecutionFailed(f"Pling cannot operate a {control} control")
    except asyncio.TimeoutError:
        raise ExecutionFailed(f"Operating the target did not finish within {timeout:.0f} ms", outcome="unknown") from None
    except PlaywrightError as error:
        translated = translate(error)
        raise ExecutionFailed(f"Operating the target failed: {translated.message}", cause=translated.code) from None
    finally:
        try:
            await inv.session.bridge.release()
        except Exception:  # the page may have navigated away with the element
            pass
    inv.note(f"{_VERB.get(control or '', 'operated')} the {control} with trusted input")
