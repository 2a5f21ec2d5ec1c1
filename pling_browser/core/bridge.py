"""The only Python that names JavaScript functions of js_bridge/: ``Bridge``, one method per operation
of js_bridge/operations.json, each answering its typed result (core/answers.py). The wire they go over (the call, its budget, the
errors an answer turns into) is core/channel.py's; the bundled script and the table, core/bridge_script.py's.
"""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

from .answers import (
    Begun,
    Chosen,
    Described,
    Diffed,
    Done,
    Expected,
    HandoffState,
    KnownAnswer,
    Landed,
    Masked,
    Protected,
    Ran,
    Reached,
    Restored,
    Revealed,
    Settled,
    Settling,
    Whoami,
    ran_from,
)
from .bridge_script import bridge_source as bridge_source
from .bridge_script import document_script as document_script
from .bridge_script import operations
from .channel import BridgeBug, BridgeChannel, BridgeError, CutByNavigation, KnownAction
from .playwright import translate_playwright_errors

__all__ = ["Bridge", "BridgeBug", "BridgeError", "CutByNavigation", "KnownAction", "bridge_source", "document_script",
           "operations"]


class Bridge(BridgeChannel):
    """Calls into one page's bridge. Each method names one operation of js_bridge/entry.js and
    answers its typed result (core/answers.py); a refusal raises ``BridgeError``. The calls go over
    ``BridgeChannel`` (core/channel.py)."""

    def nested_view(self) -> Bridge:
        """This bridge for a call nested in the invocation running now (the same page, the same state)."""
        view = copy.copy(self)
        view.nested = True
        return view

    # ---- reading -------------------------------------------------------------------------------

    async def model(self, window: dict[str, Any] | None = None) -> str:
        """The page model as JSON text (validated by the caller, passed on without re-encoding)."""
        return await self.raw("model", window or {})

    async def describe(self, ref: str, reveal: dict[str, Any] | None = None) -> Described:
        """The action as declared now; with ``reveal`` ({capMs, evidence}), for a function action, the
        reveal too, in the same call (revealed.js): its before snapshot is then taken already."""
        if reveal is None:
            return await self._call("describe", {"ref": ref}, Described)
        arg = {"ref": ref, "reveal": {**reveal, "nested": self.nested}}
        return await self._call("describe", arg, Described, budget_ms=reveal["capMs"] * 2 + 1_000)

    # ---- one invocation, in lifecycle order ------------------------------------------------------

    async def reveal(self, ref: str, cap_ms: float, evidence: bool, aim: bool = False,
                     args: dict[str, Any] | None = None, fill: bool = False, known: KnownAction | None = None) -> Revealed:
        """Availability, reveal and the target, marked; when everything passed, the before snapshot
        (evidence on) or the start mark is taken in the same call. ``aim``: for a button, link or
        checkbox, also where a direct trusted click goes (core/gestures.py). ``args``: the
        invocation's, where a drag gesture finds the record it goes onto (``{drag: '{param}'}``).
        ``fill``: a text field is then focused and selected for a direct fill (fill.js; not in a
        frame's document, whose focus the page's keyboard does not reach). ``known``: the declaration the
        session holds (lifecycle/known.py), answered ``stale`` (BridgeError) before anything is touched
        when the page no longer declares it so."""
        arg = {"ref": ref, "capMs": cap_ms, "evidence": evidence, "aim": aim, "args": args or {}, "nested": self.nested,
               "fill": fill and not self.frame_hosted}
        if known is not None:
            arg["known"] = known.held()
        return await self._call("reveal", arg, Revealed,
                                budget_ms=cap_ms * 2 + 1_000)

    async def release(self) -> None:  # unmark the target (harmless when it is gone)
        await self._call("release", {}, Done)

    async def run(self, ref: str, args: dict[str, Any], timeout_ms: float, person_ms: float = 0,
                  expect: dict[str, Any] | None = None) -> Ran:
        """run(); with ``expect`` ({timeoutMs, settleMs, diff}, as ``expect`` takes them), the expectation
        too, in the same call, once run() answered in a document that is not leaving (ran.js)."""
        arg: dict[str, Any] = {"ref": ref, "args": args, "timeoutMs": timeout_ms, "nested": self.nested}
        budget = timeout_ms + person_ms
        if expect is not None:
            arg["expect"] = expect
            budget += expect["timeoutMs"] + expect["settleMs"] + 1_000
        return await self._call("run", arg, Ran, budget_ms=budget, adapt=ran_from)

    async def known_action(self, known: KnownAction, ref: str, args: dict[str, Any], cap_ms: float, evidence: bool,
                           timeout_ms: float, expect: dict[str, Any]) -> KnownAnswer:
        """An action described before (``known``): reveal, run() and the expectation in one call (known.js),
        or ``stale`` (BridgeError) when the page no longer declares it as it was; nothing ran then."""
        arg = {"ref": ref, **known.held(), "args": args, "capMs": cap_ms, "evidence": evidence, "timeoutMs": timeout_ms,
               "expect": expect}
        budget = cap_ms * 2 + 1_000 + timeout_ms + expect["timeoutMs"] + expect["settleMs"] + 1_000
        return await self._call("known", arg, KnownAnswer, budget_ms=budget)

    async def ran_before(self) -> Ran:
        """run()'s answer, kept while the expectation asked with it hung (the script was stopped)."""
        return await self._call("ran", {}, Ran, adapt=ran_from)

    async def answer_interaction(self, iid: str, approve: bool, reason: str) -> None:
        """The person's answer to a tool's ``requestUserInteraction`` (interaction.js)."""
        await self._call("interaction", {"id": iid, "approve": approve, "reason": reason}, Done)

    async def answer_tool_call(self, cid: Any, receipt: dict[str, Any]) -> None:
        """The receipt of a call the page made to one of its exported tools (export.js)."""
        await self._call("toolAnswer", {"cid": cid, "receipt": receipt}, Done)

    async def target_handle(self) -> Any:
        """A handle on the target the bridge marked, for a closed shadow root no selector enters."""
        async with translate_playwright_errors():
            return (await self.page.evaluate_handle("window.__plingBridge.target()")).as_element()

    async def landed(self) -> Landed:
        """After a direct click: where its events went; the guard is disarmed (and, landed, the target
        released) either way."""
        return await self._call("landed", {}, Landed)

    async def choose(self, value: str) -> Chosen:
        """The direct path of a select (choose.js): the option whose value, else label, is ``value``."""
        return await self._call("choose", {"value": value}, Chosen)

    async def typed(self, expect: dict[str, Any] | None = None, wait_ms: float = 0) -> Landed:
        """After a direct fill: where its text went; the guard is disarmed (and, landed, the field left
        and the target released) either way. With ``expect`` ({ref, args, timeoutMs, settleMs, diff}),
        a fill that landed is checked in the same call (fill.js); asked again after that call hung, the
        landed answer kept while its expectation was polled. ``wait_ms``: sent with the insertion, the
        call waits that long in the page for it, else answers ``waiting`` and keeps the guard."""
        arg: dict[str, Any] = {"waitMs": wait_ms} if wait_ms > 0 else {}
        if expect is None:
            return await self._call("typed", arg, Landed, budget_ms=self.budget_ms + wait_ms)
        return await self._call("typed", {**arg, "expect": expect}, Landed,
                                budget_ms=expect["timeoutMs"] + expect["settleMs"] + 1_000 + wait_ms)

    async def synthetic_click(self) -> None:
        await self._call("synthetic", {}, Done)

    async def expect(self, ref: str, args: dict[str, Any], timeout_ms: float, settle_ms: float,
                     diff: bool = False, carried_from: str | None = None) -> Expected:
        """The expectation polled, then the page settled; with ``diff``, the after snapshot against
        the before one, taken in the same task as the page was found settled (expect.js). ``carried_from``:
        the key under which this new document holds a carried before snapshot (``hold``), diffed against
        the same way."""
        arg: dict[str, Any] = {"ref": ref, "args": args, "timeoutMs": timeout_ms, "settleMs": settle_ms, "diff": diff}
        if carried_from is not None:
            arg["carried"] = carried_from
        return await self._call("expect", arg, Expected, budget_ms=timeout_ms + settle_ms + 1_000)

    async def settle(self, cap_ms: float, budget_ms: float | None = None, terminate: bool = True) -> Settled:
        answer = await self._call("settle", {"capMs": cap_ms}, Settling, budget_ms=budget_ms or cap_ms,
                                  terminate=terminate)
        return answer.settled

    async def diff(self) -> Diffed:
        """What changed since the before snapshot; the snapshot is dropped either way."""
        return await self._call("diff", {}, Diffed)

    async def whoami(self, budget_ms: float = 1_000) -> Whoami:
        """Which document answers, what it declared and whether it is leaving (navigate.js)."""
        return await self._call("whoami", {}, Whoami, budget_ms=budget_ms, terminate=False)

    async def begin(self, evidence: bool) -> Begun:
        """A resumed flow starts here: the before snapshot (or the start mark), no action looked up."""
        return await self._call("begin", {"evidence": evidence}, Begun)

    async def hold(self, key: str, carried: str) -> bool:
        """Hand this new document a before snapshot another document carried (its text as ``carried``
        gives it, never parsed here), under ``key`` (a random one of the controller's: the page can call
        hold itself), for its expect call's diff (navigate.js ``hold``)."""
        if not (carried.startswith('{"') and carried.endswith("}")):
            return False
        # diffFrom's argument is an object ({"before": …}): its members follow the document's id.
        text = "{" + json.dumps("from") + ":" + json.dumps(key, ensure_ascii=False) + "," + carried[1:]
        await self._call("hold", None, Done, budget_ms=1_000, terminate=False, arg_text=text)
        return True

    async def diff_from(self, carried: str) -> Diffed:
        """What changed in this document against a before snapshot another document handed over (its
        text as ``carried`` gives it)."""
        return await self._call("diffFrom", None, Diffed, arg_text=carried)

    async def handoff_state(self, ref: str) -> HandoffState:
        return await self._call("handoff", {"ref": ref}, HandoffState)

    # ---- operator policy and sensitive values ---------------------------------------------------

    async def restore(self, names: list[str]) -> dict[str, str]:
        return (await self._call("restore", {"names": names}, Restored)).values

    async def configure(self, risks: dict[str, str]) -> None:
        await self._call("configure", {"risks": risks}, Done)

    async def protect(self, values: list[str]) -> None:
        for value in values:  # kept, so a document the session navigates to masks them too
            if value not in self.protected and len(self.protected) < 100:
                self.protected.append(value)
        await self._call("protect", {"values": values}, Protected)

    async def mark_protected(self, on: bool) -> int:
        return (await self._call("mask", {"on": on}, Masked)).marked

    # ---- a person's demonstration (the console's live view) ---------------------------------------

    async def pointed_at(self, x: float, y: float) -> Reached:
        """The control under a viewport point, as a draft would find it (demonstration.js)."""
        return await self._call("pointedAt", {"x": x, "y": y}, Reached, budget_ms=2_000)

    async def pointed_again(self) -> Reached:
        """The control ``pointed_at`` found, described again (after the person's input)."""
        return await self._call("pointedAgain", {}, Reached, budget_ms=2_000)

    async def focused(self) -> Reached:
        """The control that has the focus (through open shadow roots)."""
        return await self._call("focused", {}, Reached, budget_ms=2_000)

    async def read_demonstrated(self, function: str, arg: Any) -> Any:
        """``function(element, arg)`` evaluated in the page on the control the last ``pointed_at`` or
        ``focused`` described (how a draft finds it: ci/demonstration.py). It runs in the page's
        world, so its answer is only what the page shows; the caller validates it."""
        async with translate_playwright_errors():
            handle = await asyncio.wait_for(self.page.evaluate_handle("window.__plingBridge.demonstrated()"), 2)
            element = handle.as_element()
            if element is None:
                return None
            return await asyncio.wait_for(element.evaluate(function, arg), 2)
