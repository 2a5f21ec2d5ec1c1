"""An action described before, without describing it again (issue 31). A plain function action (no
target, no steps) takes two calls on the full path (describe with the reveal, run with the
expectation: resolve.py, execute.py), an element action three or four (describe, reveal, the gesture,
the expectation); each is a round trip through the service, Playwright's driver and Chromium. Once it
was described in a document, the session's bridge holds its declaration (``KnownAction``: the
document, the declaration's ``seq``, the declaration; resolve.py holds only what confirm would not ask
a person for, and no family's), and its next invocation resolves from that, decodes, validates and
confirms as any other, then asks the page: a plain function action in one call (known.js): when the
page still declares that very declaration at the same risk, the reveal (availability, the before
snapshot), run() and the expectation with the page settled and the after snapshot answer together;
an element action in its reveal call, which names the declaration the same way, and goes on as on
the full path. The receipt says all it says on the full path. When the page declares it no longer as
it was (another document, declared again, gone, its risk raised) it answers ``stale`` before anything
is touched or runs, and the invocation is run again on the full path (``invoke``). So do arguments
the held declaration refuses (decode, validate): the page may have declared it again with other
parameters, and only the declaration it holds now may refuse them."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, TypeVar

from pydantic import ValidationError

from ..core.answers import BridgeCode, Ran, Refusal, Revealed, ran_from
from ..core.bridge import BridgeBug, BridgeError, KnownAction
from ..errors import ActionNotFound, ExecutionFailed, InvocationError, PageUnresponsive, PlingError
from .codes import LogEvent
from .confirm import by_caller, operator_risk
from .context import Invocation, Result
from .decode import decode_args
from .execute import ran, run_failed, start_marks
from .navigation import navigation_error
from .resolve import names_secret
from .results import Executed, Marks, Ready, Resolved
from .reveal import ready, unavailable
from .reveal import reveal as reveal_stage
from .validate import validate

if TYPE_CHECKING:
    from ..core.sessions import Session
    from .runner import StageFn

class DeclarationChanged(ActionNotFound):
    """The page no longer declares the action as the session's bridge held it: never in a receipt, the
    invocation runs again on the full path."""


def known_action(session: Session, ref: str, raw_args: object) -> KnownAction | None:
    """The action the session's own document declared when ``ref`` was last described, if any; none when
    the arguments name a secret (decode restores it and the page masks it before any snapshot)."""
    bridge = session.bridge
    if bridge.nested or bridge.frame_hosted:
        return None
    if names_secret(raw_args):
        return None
    return bridge.known.get(ref.strip())


def forget_known(session: Session, ref: str) -> None:
    session.bridge.known.pop(ref.strip(), None)


class KnownPath:
    """The stages a known action replaces (``stages()``, for ``runner.run``): resolve from the held
    declaration, decode and validate against it (a refusal sends the invocation to the full path),
    reveal by the one call (which runs it too), execute from that call's answer."""

    def __init__(self, known: KnownAction) -> None:
        self.known = known
        self.stale = False
        self.marks: Marks | None = None
        self.ran: dict[str, object] | None = None
        self.kept: Ran | None = None  # run()'s answer handed over after the call hung in the expectation
        self.hung: PageUnresponsive | None = None
        self.replaced = False  # run() navigated before the call answered

    def stages(self) -> dict[str, StageFn]:
        checks: dict[str, StageFn] = {"resolve": self.resolve, "decode": self._held(decode_args),
                                      "validate": self._held(validate)}
        if not self.known.plain:  # an element action: its reveal names the declaration, then as on the full path
            return {**checks, "reveal": self.reveal_element}
        return {**checks, "reveal": self.reveal, "execute": self.execute}

    async def reveal_element(self, inv: Invocation) -> Ready:
        try:
            return await reveal_stage(inv, held=self.known)
        except BridgeError as error:
            if error.code is not BridgeCode.STALE:
                raise BridgeBug(f"The bridge's reveal raised {error.code.value}") from None
            raise self._stale() from None

    def _held(self, stage: StageFn) -> StageFn:
        """A pre-check against the held declaration: what it refuses is asked of the page's declaration
        now, on the full path (nothing was sent to the page yet: a secret reference is never held)."""
        async def checked(inv: Invocation) -> Result | None:
            try:
                result = stage(inv)
                return await result if inspect.isawaitable(result) else result
            except InvocationError:
                raise self._stale() from None
        return checked

    def resolve(self, inv: Invocation) -> Resolved:
        decl = operator_risk(self.known.action, inv.settings)
        by_caller(inv, decl.risk, decl.id)
        inv.note(LogEvent.RESOLVED, ref=inv.ref.strip(), what=decl.description or decl.id, record_type=None, label=None)
        return Resolved(decl=decl, record=None, session=inv.session)

    async def reveal(self, inv: Invocation) -> Ready:
        if inv.cleared is not None and inv.cleared.described_again:
            raise self._stale()
        bridge = inv.session.bridge
        self.marks = start_marks(inv.session)
        expect = {"timeoutMs": inv.expect_timeout_ms, "settleMs": inv.settings.settle_cap_ms, "diff": inv.request.evidence}
        outer, bridge.running = bridge.running, inv  # a call the page makes to an export meanwhile is this invocation's
        try:
            answer = await bridge.known_action(self.known, inv.ref.strip(), inv.args, inv.settings.settle_cap_ms,
                                               inv.request.evidence, inv.action_timeout_ms, expect)
        except BridgeError as error:
            if error.code is not BridgeCode.STALE:
                raise BridgeBug(f"The bridge's known call refused with {error.code.value}") from None
            raise self._stale() from None
        except PlingError as error:
            return await self._cut(inv, error)
        finally:
            bridge.running = outer
        revealed = _typed(answer.revealed, Revealed)
        if isinstance(revealed, Refusal):
            raise unavailable(inv, revealed)
        self.ran = answer.ran
        return await ready(inv, revealed)

    async def _cut(self, inv: Invocation, error: PlingError) -> Ready:
        """The call did not answer: the document was replaced (run() navigated: an outcome), or the page
        hung and its script was stopped (run()'s answer, if it had come, is handed over: then the
        expectation is what hung, as on the full path); run() may have been called either way."""
        assert self.marks is not None
        inv.journal.start(self.marks)
        if navigation_error(error):
            self.replaced = True
        elif isinstance(error, PageUnresponsive):
            try:
                self.kept, self.hung = await inv.session.bridge.ran_before(), error
            except (BridgeError, PlingError):
                raise ExecutionFailed(f"Running the action failed: {error.message}", stage="execute", cause=error.code,
                                      outcome="unknown") from None
        else:
            raise error
        return Ready(control="function", evidence=inv.request.evidence, doc=self.known.doc)

    async def execute(self, inv: Invocation) -> Executed:
        assert self.marks is not None
        inv.journal.start(self.marks)
        if self.replaced:
            inv.document.leave()
            inv.note(LogEvent.RAN_THEN_REPLACED)
            return Executed()
        if self.kept is not None:
            return ran(inv, self.kept, self.hung)
        answer = _typed(ran_from(self.ran) if self.ran and self.ran.get("ok") is True else self.ran, Ran)
        if isinstance(answer, Refusal):
            raise run_failed(answer, inv.action_timeout_ms)
        return ran(inv, answer)

    def _stale(self) -> DeclarationChanged:
        self.stale = True
        return DeclarationChanged("The page no longer declares the action as it was described")


T = TypeVar("T", Revealed, Ran)


def _typed(raw: object, model: type[T]) -> T | Refusal:
    try:
        if isinstance(raw, dict) and raw.get("ok") is True:
            return model.model_validate(raw)
        return Refusal.model_validate(raw)
    except ValidationError:
        raise BridgeBug(f"The bridge's known answer carried a {model.__name__} answer of the wrong shape") from None
