"""Records picked by meaning ("Select words similar to joyful, chop and click Submit"), for the generic
policy (policy_generic.py, through marking.py): for each word the instruction lists after "similar to" (or
"synonyms of", "that mean the same as"), the one record of a type with one valueless family action whose
label is closest to it in meaning (thesaurus.py: WordNet), when exactly one label is closest and it is
related at all; a word with no related label is left (nothing is guessed). "nothing" asks for none.

Nothing here names a task (tests/test_miniwob_unseen.py checks it)."""

from __future__ import annotations

import re
from typing import Any

from .agent_pling import PlingAgent
from .instruction import Instruction, PolicyError
from .thesaurus import similarity

ASKED = re.compile(r"\b(?:similar (?:in meaning )?to|synonyms? (?:of|for)|(?:that )?means? the same as)\s+(.+?)"
                   r"(?:,? and (?:then )?(?:click|press|hit|submit)\b|[.;]|$)", re.I)
NONE = {"nothing", "none", "no words"}


def asked_words(text: str) -> list[str]:
    """The words listed after "similar to" (commas, "and", "or" between them)."""
    m = ASKED.search(text)
    if not m:
        return []
    words = [w.strip(" \"'“”") for w in re.split(r",|\band\b|\bor\b", m[1])]
    return [w for w in words if w and w.lower() not in NONE]


def _selecting(model: dict[str, Any], kind: str) -> tuple[str, dict[str, Any]] | None:
    """The one family action of a record type that takes no value but a yes (a checkbox's checked), and its args."""
    found = []
    for action in model.get("actions") or []:
        params = action.get("params") or {}
        required = params.get("required") or []
        if action.get("record") == kind and action.get("risk") != "read" and all(
                (params.get("properties") or {}).get(k, {}).get("type") == "boolean" for k in required):
            found.append((action["id"], {k: True for k in required}))
    return found[0] if len(found) == 1 else None


def similar(model: dict[str, Any], ins: Instruction) -> list[tuple[str, dict[str, Any]]]:
    """The refs to invoke, with their args: the family action on the record closest in meaning to each word asked for."""
    words = asked_words(ins.text)
    kinds = [(kind, _selecting(model, kind)) for kind in sorted(model.get("records") or {})]
    kinds = [(kind, found) for kind, found in kinds if found]
    if not words or len(kinds) != 1:
        return []
    kind, (action, args) = kinds[0]
    items = [item for item in ((model.get("records") or {}).get(kind) or {}).get("items") or []
             if action not in (item.get("unavailable") or {})]
    refs: list[tuple[str, dict[str, Any]]] = []
    for word in words:
        scores = [similarity(word, str(item.get("label") or item["id"])) for item in items]
        best = max(scores, default=0.0)
        if best > 0 and scores.count(best) == 1:
            ref = f"{action}@{items[scores.index(best)]['id']}"
            refs += [] if ref in [r for r, _ in refs] else [(ref, args)]
    return refs


async def select_similar(agent: PlingAgent, model: dict[str, Any], ins: Instruction, invoked: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Each record similar in meaning to a word asked for selected; answers the model read after and the refs."""
    refs = similar(model, ins)
    for ref, args in refs:
        result = await agent.invoke(ref, args)
        invoked.append(ref)
        if not result.get("ok"):
            error = result.get("error") or {}
            raise PolicyError(f"{ref}: {error.get('code')} {str(error.get('message', ''))[:200]}")
    return (await agent.model() if refs else model), [ref for ref, _ in refs]
