"""The wire to one page's bridge: the calls into it and their answers.

The bridge is js_bridge/'s ES modules bundled into one script (js_bridge/dist/pling.js). Every call
goes through ``window.__plingBridge.call(name, json)`` and answers a JSON string, tagged
``{"ok": true, …}`` or ``{"ok": false, "code": …}``; this module turns codes into Pling errors and
payloads into models. A call that does not answer within its budget means the page's script is
stuck: that is ``PageUnresponsive``, never a hang of the service. The operations themselves, each
with its typed answer, are core/bridge.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import InternalError, PageNavigated, PageUnresponsive, SessionLost
from .answers import Adopted, BridgeCode, Refusal
from .bridge_script import operations
from .contexts import FrameContexts
from .playwright import is_navigation_message, translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page

log = logging.getLogger("pling_browser.bridge")


class BridgeError(Exception):
    """The page answered ``{"ok": false, …}``: ``refusal`` says why (a code of ``BridgeCode``)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code.value)
        self.refusal = refusal

    @property
    def code(self) -> BridgeCode:
        return self.refusal.code


class CutByNavigation(SessionLost):
    """A bridge call that got no answer because the document was replaced during it. SESSION_LOST to a
    caller, as any page that stopped answering; an action takes it for a navigation (by this class,
    lifecycle/navigation.py), which is an outcome."""


class BridgeBug(InternalError):
    """The bridge answered what it never should: an exception escaped an operation, or an answer
    does not have its operation's shape (a bug of ours, or an answer the page forged). Logged as
    our fault; the lifecycle reports it as a failure of the service, never as the page's."""


@dataclass(frozen=True)
class KnownAction:
    """An action (not a family's) as this page declared it when it was last described (issue 31): the
    document that declared it, the declaration's ``seq`` (revealed.js) and the declaration. The next
    invocation of it names them (``held``) and the page answers ``stale`` unless it still declares that
    very one, at the same risk (known.js for a plain function action, reveal.js for an element action)."""

    doc: str
    seq: int
    action: Any  # models.ActionDecl, as the page declared it (the operator's risk is applied on use)
    plain: bool = True  # a plain function action (known.js: one call); else an element action (its reveal names it)

    def held(self) -> dict[str, Any]:
        """How a call names it to the page (reveal.js ``stillDeclared``)."""
        return {"doc": self.doc, "seq": self.seq, "risk": self.action.risk}


A = TypeVar("A", bound=BaseModel)
C = TypeVar("C", bound="BridgeChannel")


class BridgeChannel:
    """The calls into one page's bridge and their answers: over the page's own CDP session
    (``Runtime.evaluate``), not ``page.evaluate``: Playwright's evaluate wrapper runs in the page's world and
    stops working when the page patches ``Array.prototype[Symbol.iterator]``; a plain expression with the
    arguments as JSON literals does not depend on anything the page can patch. A refusal raises
    ``BridgeError``; the operations are ``Bridge``'s (core/bridge.py)."""

    CARRY_BINDING = "__plingCarry"  # js_bridge/navigate.js takes it off the global before page scripts run
    CARRIED_KEPT = 4
    CARRY_PREFIX = "carry:"  # navigate.js: "carry:DOC\n" and diffFrom's argument as JSON text
    frame_hosted = False  # a child frame's document (core/frames.py): its targets are found among the frames
    # A view for a call the page makes to one of its exported tools while one of its own actions runs
    # (runtime/exported.py): its calls leave the running invocation's start mark, snapshot and tool alone.
    nested = False

    def __init__(self, page: Page, cdp: CDPSession, grace_s: float, budget_ms: float = 5_000) -> None:
        self.page = page
        self.cdp = cdp
        self.grace_s = grace_s
        self.budget_ms = budget_ms
        # Before snapshots that documents handed over as they started to leave, by document id.
        self._carried: dict[str, str] = {}
        # Documents that loaded before this channel attached: the binding reached them after their
        # scripts ran, so a page may hold it; nothing they hand over is a before snapshot (navigate.js).
        self._late: set[str] = set()
        # Restored secret values the page was given in this session (masked in every document).
        self.protected: list[str] = []
        # Values restored into a child frame's document (core/frames.py): masked in everything the
        # service writes, never sent to this document (the page never sees a frame's values).
        self.frame_protected: list[str] = []
        self._window_opens = 0  # windows this page asked to open (Page.windowOpen)
        self.listeners: dict[str, Callable[[dict[str, Any]], None]] = {}  # what the page asks of the controller
        self.running: Any = None  # the invocation whose run() this document is running now (lifecycle/execute.py)
        # The frames this CDP session runs, each with its document's execution context (core/contexts.py).
        self.contexts = FrameContexts()
        self.frames: Any = None  # core/frames.py keeps the child frames' bridges here
        self.known: dict[str, KnownAction] = {}  # actions described before, by reference (lifecycle/known.py)

    @property
    def window_opens(self) -> int:
        return self._window_opens

    def masked_values(self) -> list[str]:
        """Values to mask in what the service writes about this page: those its documents were given
        and those its child frames were given."""
        return [*self.protected, *self.frame_protected]

    @classmethod
    async def attach(cls: type[C], page: Page, grace_s: float, budget_ms: float = 5_000) -> C:
        async with translate_playwright_errors():
            cdp = await asyncio.wait_for(page.context.new_cdp_session(page), 10 + grace_s)
        bridge = cls(page, cdp, grace_s, budget_ms)
        await bridge._carry()
        return bridge

    async def _carry(self) -> None:
        """The binding through which a leaving document hands over its before snapshot: on every
        document's global before its scripts run (the bridge takes it off at once); the document
        already loaded adopts it now."""
        self.cdp.on("Runtime.bindingCalled", self._on_binding)
        self.cdp.on("Page.windowOpen", self._on_window_open)
        self.contexts.watch(self.cdp)
        async with translate_playwright_errors():
            await asyncio.wait_for(self.cdp.send("Runtime.addBinding", {"name": self.CARRY_BINDING}), 10 + self.grace_s)
            # Without the Runtime domain on, a binding reaches only the documents that exist now.
            await asyncio.wait_for(self.cdp.send("Runtime.enable"), 10 + self.grace_s)
            # Page.windowOpen: the page is opening a window (window.open, a target=_blank link), so a
            # new tab is on its way (core/tabs.py waits for it before the receipt reports tabs).
            await asyncio.wait_for(self.cdp.send("Page.enable"), 10 + self.grace_s)
            tree = await asyncio.wait_for(self.cdp.send("Page.getFrameTree"), 10 + self.grace_s)
            self.contexts.main_frame = tree["frameTree"]["frame"]["id"]
        # Never stopping the page's script on a slow answer: a popup shares its opener's script thread,
        # and stopping it would stop the opener's run() (a window.open flood) too.
        with contextlib.suppress(Exception):  # a page that does not declare itself has no bridge to adopt it
            adopted = await self._call("adopt", {}, Adopted, terminate=False)
            if not adopted.trusted:
                self._late.add(adopted.doc)

    def _on_window_open(self, event: dict[str, Any]) -> None:
        self._window_opens += 1

    def _on_binding(self, event: dict[str, Any]) -> None:
        if event.get("name") != self.CARRY_BINDING or not isinstance(event.get("payload"), str):
            return
        # A child frame's document reaches the binding too: its calls are its own bridge's, never this
        # document's (a frame cannot hand over a snapshot, call an export or answer for this page).
        route = self.contexts.child(event.get("executionContextId"))
        if route is not None:
            if isinstance(route, BridgeChannel):
                route._on_binding({**event, "executionContextId": None})
            return
        text = event["payload"]
        if text.startswith(self.CARRY_PREFIX):
            # A leaving document's before snapshot: kept as the text it came in, never parsed here; it
            # goes on as diffFrom's argument in the next document as it is (navigate.js).
            doc, _, before = text[len(self.CARRY_PREFIX):].partition("\n")
            if doc in self._late:
                return
            self._carried[doc] = before
            while len(self._carried) > self.CARRIED_KEPT:
                del self._carried[next(iter(self._carried))]
            return
        try:
            parsed = json.loads(text)
        except ValueError:
            return
        if not isinstance(parsed, dict):
            return
        for kind, listener in list(self.listeners.items()):  # js_bridge/interaction.js, export.js
            if isinstance(parsed.get(kind), dict):
                listener(parsed[kind])

    def carried(self, doc: str | None, keep: bool = False) -> str | None:
        """The before snapshot document ``doc`` handed over as it left (taken once, unless ``keep``), or
        None: diffFrom's argument as JSON text, passed on without a parse and re-encode (issue 31)."""
        if not doc:
            return None
        return self._carried.get(doc) if keep else self._carried.pop(doc, None)

    async def raw(self, name: str, arg: Any = None, budget_ms: float | None = None, terminate: bool = True,
                  text: str | None = None) -> str:
        """The answer's JSON text as the bridge wrote it (the model is passed on without re-encoding).
        ``text``: the argument already as JSON text (a carried snapshot), sent as it is."""
        if name not in operations():
            raise BridgeBug(f"No bridge operation {name!r} in js_bridge/operations.json (a bug in Pling)")
        if text is None:
            text = json.dumps(arg, ensure_ascii=False, allow_nan=False)
        payload = json.dumps(text, ensure_ascii=False)
        expression = f"window.__plingBridge.call({json.dumps(name)}, {payload})"
        timeout = (budget_ms or self.budget_ms) / 1000 + self.grace_s
        async with translate_playwright_errors():
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns an answer that arrives in the
                # same turn as a cancellation and drops the cancellation (a handoff's watcher polled on for ever)
                async with asyncio.timeout(timeout):
                    answer = await self.cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                                      "returnByValue": True, **self.where()})
            except TimeoutError:
                # The page's script is stuck (an endless loop): stop it, so the page lives on.
                terminated = False
                if terminate:
                    with contextlib.suppress(Exception):
                        async with asyncio.timeout(2):  # not wait_for: a cancellation in its answer's turn is kept
                            await self.cdp.send("Runtime.terminateExecution")
                        terminated = True
                raise PageUnresponsive(f"The page did not answer the bridge's {name} call within {timeout:.0f} s"
                                       + ("; its script was stopped" if terminated else ""),
                                       terminated=terminated) from None
        if "exceptionDetails" in answer:
            detail = answer["exceptionDetails"].get("exception", {}).get("description") or answer["exceptionDetails"].get("text")
            detail = str(detail).splitlines()[0][:200] if detail else ""
            if is_navigation_message(detail):
                raise PageNavigated(f"The document was replaced during the bridge's {name} call")
            raise SessionLost(f"The bridge is not in the page (the document was replaced by one it could not enter): {detail}")
        text = answer.get("result", {}).get("value")
        if not isinstance(text, str):
            raise CutByNavigation(f"The bridge answered nothing to {name} (the page navigated during the call)")
        return text

    def where(self) -> dict[str, Any]:
        """Where ``Runtime.evaluate`` runs: the session's main frame (a child frame's bridge names its
        document's execution context, core/frames.py)."""
        return {}

    async def _call(self, name: str, arg: Any, answer_type: type[A], budget_ms: float | None = None,
                    terminate: bool = True, adapt: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                    arg_text: str | None = None) -> A:
        if operations().get(name) is not answer_type:
            raise BridgeBug(f"The bridge's {name} answers {operations().get(name)}, not {answer_type.__name__} (a bug in Pling)")
        text = await self.raw(name, arg, budget_ms, terminate, text=arg_text)
        try:
            payload = json.loads(text)
            if not isinstance(payload, dict):
                raise ValueError("not an object")
            if payload.get("ok") is True:
                return answer_type.model_validate(adapt(payload) if adapt else payload)
            refusal = Refusal.model_validate(payload)
        except (ValueError, ValidationError) as error:
            log.error("bridge %s answered what it never should (%s): %.300s", name, str(error).splitlines()[0][:200], text)
            raise BridgeBug(f"The bridge's {name} answer has the wrong shape (a bug in Pling, or an answer the page forged)") from None
        if refusal.code is BridgeCode.BRIDGE_BUG:
            log.error("bridge %s failed inside Pling's bridge: %s", name, refusal.error)
            raise BridgeBug(f"Pling's bridge failed in {name}: {(refusal.error or '')[:300]}")
        raise BridgeError(refusal)
