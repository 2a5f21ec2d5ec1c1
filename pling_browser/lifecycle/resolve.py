"""Stage 1, resolve: find the action in the page as it is now. Families resolve ``ACTION@RECORD``
by reading the record id at this moment, so a row that moved or scrolled away still resolves."""

from __future__ import annotations

from ..core.bridge import BridgeError
from ..errors import ActionNotFound
from ..models import ActionDecl
from .confirm import operator_risk
from .context import Invocation

_WHY = {
    "not_found": "No action {id!r} is declared on this page now",
    "record_required": "{id!r} is an action family over {record} records: name one, as ACTION@RECORD",
    "not_a_family": "{id!r} is not a family; invoke it without @RECORD",
    "no_records": "{id!r} acts on {record} records, but the page declares none",
    "record_not_found": "There is no {record} with id {rid!r} now ({total} {record} records are active)",
}


async def resolve(inv: Invocation) -> None:
    ref = inv.ref.strip()
    if not ref or len(ref) > 600:
        raise ActionNotFound("The action id is empty or too long", available=[])
    try:
        answer = await inv.session.bridge.describe(ref)
    except BridgeError as error:
        action_id, _, record_id = ref.partition("@")
        refusal = error.refusal
        message = _WHY.get(refusal.code.value, "The action could not be resolved ({code})").format(
            id=action_id[:200], record=refusal.record, rid=record_id[:200], total=refusal.total,
            code=refusal.code.value)
        raise ActionNotFound(message, available=refusal.available) from None
    inv.decl = operator_risk(answer.action, inv.settings)
    if answer.record is not None:
        inv.record = answer.record
        inv.note(f"resolved {ref}: {inv.decl.description or inv.decl.id} on the {inv.record.type} {inv.record.label!r}")
    else:
        inv.note(f"resolved {ref}: {inv.decl.description or inv.decl.id}")

