"""Composite flows: one tool to the agent, one business operation to the user, several declared
actions to the page. Steps run in order against the page as it is at each step, through the same
runner (``runner.LIFECYCLE``) as any action; none bypasses a declaration. A flow is not a
transaction: a failed step leaves the earlier steps done, and the receipt says so and hands back a
``resume`` handle that continues from the failed step."""

from __future__ import annotations

from pydantic import JsonValue

from ..errors import StepFailed
from .codes import LogEvent
from .confirm import confirm_step
from .context import Invocation, Request
from .decode import decode
from .execute import execute
from .plan import Step, plan
from .results import Clearance, Cleared, Decoded, Executed, Marks, Ready, Resolved, Validated
from .resumes import RESUME_TTL_S, FlowState
from .runner import StageFn, run


async def execute_action_or_flow(inv: Invocation) -> Executed:
    """The execute stage of an invocation: a flow runs its steps; anything else, ``execute``."""
    return await (run_flow(inv) if inv.control == "flow" else execute(inv))


def resumed_stages(state: FlowState) -> dict[str, StageFn | Decoded | Validated | Cleared]:
    """What a resume replaces: decode, validate and confirm by the results kept with the state (the
    arguments and the clearance); the flow's declaration is the one kept too, since the document the
    failed step left may not declare the flow (SPEC: flows across documents), so the before snapshot is
    taken in that document as it is; execute continues from the failed step."""

    def kept_declaration(inv: Invocation) -> Resolved:
        assert state.decl is not None
        inv.note(LogEvent.RESUMING_AS_DECLARED, ref=state.ref)
        return Resolved(decl=state.decl, record=state.record, session=inv.session)

    async def begin(inv: Invocation) -> Ready:
        answer = await inv.session.bridge.begin(inv.request.evidence)
        return Ready(control="flow", evidence=answer.evidence, doc=answer.doc)

    async def continue_flow(inv: Invocation) -> Executed:
        return await run_flow(inv, start=state.next_step, ledger=list(state.ledger))

    return {"resolve": kept_declaration, "decode": Decoded(args=state.args, secret_values=state.secret_values),
            "validate": Validated(args=state.args),
            "confirm": Cleared(clearance=Clearance(approved=state.approved, confirmed=state.confirmed)),
            "reveal": begin, "execute": continue_flow}


async def _run_step(inv: Invocation, step: Step, clearance: Clearance) -> Invocation:
    # A step's arguments are the page's declaration, filled from the flow's arguments. References
    # the agent sent were restored when the flow's own arguments were decoded; any reference left
    # in a step's arguments is the page's own (written in its declaration) and is never resolved:
    # the step decodes without restoring and gets no operator secrets, only the values to mask.
    child = Invocation(Request(session=inv.session, ref=step.ref, raw_args=step.args, settings=inv.settings,
                               evidence=False, confirmer=inv.request.confirmer,
                               pending_requests=inv.request.pending_requests, caller=inv.request.caller))

    def decode_step(child: Invocation) -> Decoded:
        return Decoded(args=decode(child).args, secret_values=inv.secret_values)

    async def confirm_against_flow(child: Invocation) -> Cleared:
        return await confirm_step(inv, clearance, child)

    await run(child, {"decode": decode_step, "confirm": confirm_against_flow})
    inv.journal.approved(child.approved_by)  # a step a person approved lets the flow run on too
    return child


async def run_flow(inv: Invocation, start: int = 0, ledger: list[dict[str, JsonValue]] | None = None) -> Executed:
    """Run the steps from `start`; raise StepFailed with the ledger and a resume handle on failure."""
    assert inv.decl is not None and inv.cleared is not None
    steps = plan(inv.decl, inv.args, inv.record)
    ledger = list(ledger or [])
    clearance = inv.cleared.clearance  # raised as a person confirms a riskier step
    # The flow's own counters are not taken: what its steps changed is each step's, in its own document.
    inv.journal.start(Marks())
    for index in range(start, len(steps)):
        child = await _run_step(inv, steps[index], clearance)
        if child.cleared is not None:
            clearance = child.cleared.clearance
        entry: dict[str, JsonValue] = {"step": index + 1, "action": child.ref, "ok": child.error is None,
                                 "started": child.started}
        if child.document.navigated:
            entry["navigated"] = True
        if child.fidelity != "high" and child.started:
            entry["fidelity"] = child.fidelity
        inv.journal.carry(child.journal.warnings)
        if child.executed is not None and child.executed.data is not None:
            entry["data"] = child.executed.data
        if child.error is not None:
            await inv.document.left(inv)
            entry["error"] = child.error.to_dict()
            ledger.append(entry)
            for later in range(index + 1, len(steps)):
                ledger.append({"step": later + 1, "action": steps[later].ref, "ok": False, "outcome": "not run"})
            handle = None
            resumes = inv.request.resumes
            if resumes is not None:
                handle = resumes.save(FlowState(session=inv.session.id, ref=inv.ref, args=inv.args,
                                                secret_values=inv.secret_values, next_step=index,
                                                ledger=tuple(ledger[:index]), approved=clearance.approved,
                                                confirmed=clearance.confirmed, step_started=child.started,
                                                approved_by=inv.approved_by,
                                                failed_ref=child.ref, decl=inv.decl, record=inv.record))
            done = index - start
            raise StepFailed(
                f"Step {index + 1} of {len(steps)} ({child.ref}) failed: {child.error.message}. "
                + (f"The {done} step(s) before it ran and were not undone: a flow is not a transaction."
                   if index > 0 else "No earlier step ran."),
                steps=ledger, step=index + 1, step_error=child.error.to_dict(), resume=handle,
                resume_expires_s=RESUME_TTL_S if handle else None, started=index > 0 or bool(child.started))
        entry["outcome"] = "done"
        ledger.append(entry)
        inv.note(LogEvent.STEP_DONE, step=index + 1, of=len(steps), action=child.ref)
    await inv.document.left(inv)
    inv.note(LogEvent.FLOW_RAN, steps=len(steps) - start)
    return Executed(steps=tuple(ledger))
