"""Pages turned to reach an ordinal, for the generic policy (policy_generic.py): when the instruction says
the Nth of a record type ("click the 7th search result") and the model lists fewer of them than that, and
offers one available action that only changes what is shown (risk read, no params) named for the next page,
it is invoked; the items passed are counted (`Instruction.skipped`), so the ordinal is matched on the page
it lands in. The model is read again after.
Also a name the instruction gives (a capitalised word, not quoted, not starting a sentence: "Find Mabelle in
the contact book") that the model shows nowhere: that next page, until it shows, at most 10 times — what
a person does to find a contact, an entry or a result of a book of pages.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import json
import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import ORDINALS, Instruction, said_of, tokens

NEXT = {"next", "more", "older"}


def next_page(model: dict[str, Any]) -> str | None:
    """The one available read-only action without params whose id or description says next."""
    found = [a["id"] for a in model.get("actions") or [] if not a.get("record") and a.get("available", True)
             and a.get("risk") == "read" and not a.get("params")
             and NEXT & set(tokens(a["id"].replace("_", " ") + " " + str(a.get("description") or "")))]
    return found[0] if len(found) == 1 else None


def beyond(model: dict[str, Any], ins: Instruction) -> int:
    """How many items of the record type an ordinal is said of are shown, when the ordinal is past them (else 0)."""
    for at, word in enumerate(ins.words):
        n = ORDINALS.get(word) or (int(word[:-2]) if re.fullmatch(r"\d+(st|nd|rd|th)", word) else 0)
        for kind, listed in (model.get("records") or {}).items():
            shown = len(listed.get("items") or [])
            if n > 0 and shown and said_of(ins, at, set(tokens(kind.replace("_", " ")))) and n > ins.skipped + shown:
                return shown
    return 0


async def turn_page(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str]) -> dict[str, Any] | None:
    """The next page shown when the ordinal is past what is listed: the model read after, or None."""
    shown, ref = beyond(model, ins), next_page(model)
    if not shown or ref is None:
        return None
    result = await agent.invoke(ref, {})
    invoked.append(ref)
    if not result.get("ok"):
        return None
    ins.skipped += shown
    return await agent.model()


def names_unseen(model: dict[str, Any], ins: Instruction) -> list[str]:
    """The names the instruction gives that nothing else in the model shows (its state, records and actions)."""
    outside = re.sub(r'"[^"]*"|“[^”]*”', " ", ins.text)
    names = [m[0] for m in re.finditer(r"\b[A-Z][a-z]+\b", outside) if m.start() and not re.search(r"[.!?:]\s*$", outside[:m.start()])]
    state = {k: v for k, v in (model.get("state") or {}).items() if not (isinstance(v, dict) and v.get("value") == ins.text)}
    shown = json.dumps([state, model.get("records"), model.get("actions")], ensure_ascii=False).lower()     # not the instruction
    return [n for n in dict.fromkeys(names) if not re.search(rf"\b{n.lower()}\b", shown)]


async def seek_named(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str], most: int = 10) -> dict[str, Any]:
    """Pages turned until every name the instruction gives shows; answers the model read last."""
    for _ in range(most):
        ref = next_page(model)
        if ref is None or not names_unseen(model, ins):
            break
        result = await agent.invoke(ref, {})
        invoked.append(ref)
        if not result.get("ok"):
            break
        model = await agent.model()
    return model
