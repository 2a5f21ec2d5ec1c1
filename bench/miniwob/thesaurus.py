"""How alike two words are in meaning, from WordNet (Princeton WordNet 3.0, as Debian's wordnet-base installs
it in /usr/share/wordnet): the knowledge of synonyms an LLM has, for the generic policy (policy_generic.py,
through choosing.py). Bench only: the product never reads it, and without the files every word is unknown
(similarity 0), so a policy that needs it solves less, nothing breaks (docs/decisions.md).

A word's meanings are its synsets (after its inflection is taken off, as WordNet's own morphy does: "bunnies"
is "bunny"). Two words are
- 3 alike when they are the same word, 2 when they share a meaning (synonyms: "weird", "odd"),
- 1.5, 1 or 0.5 when a meaning of one is one, two or three links from a meaning of the other (similar to,
  also see, a broader or narrower meaning, a derived form, a verb group, an attribute: "huge" is similar to
  "big"); 0 farther (an antonym is no link).
Nothing here is written for a task's words: the files are WordNet's as published."""

from __future__ import annotations

import functools
from pathlib import Path

ROOT = Path("/usr/share/wordnet")
POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
# The links that keep a meaning close (WordNet's pointer symbols); antonyms ("!") are not among them.
NEAR = {"&", "^", "@", "@i", "~", "~i", "+", "\\", "$", "=", "*", ">", "<"}
# WordNet's detachment rules (morphy): an inflected ending and what the base ends with, by part of speech.
ENDINGS = {"noun": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y")],
           "verb": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
           "adj": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")], "adv": []}

Synset = tuple[str, int]        # (file: noun, verb, adj, adv; byte offset in data.FILE)


def available(root: Path = ROOT) -> bool:
    return all((root / f"{kind}.{pos}").exists() for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv"))


@functools.lru_cache(maxsize=4)
def _index(root: Path, pos: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    with open(root / f"index.{pos}", encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith(" "):
                continue        # the licence at the top
            parts = line.split()
            senses = int(parts[2])
            out[parts[0]] = [int(o) for o in parts[-senses:]]
    return out


@functools.lru_cache(maxsize=4)
def _exceptions(root: Path, pos: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    path = root / f"{pos}.exc"
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if path.exists() else []:
        parts = line.split()
        if len(parts) >= 2:
            out.setdefault(parts[0], []).extend(parts[1:])
    return out


def meanings(word: str, root: Path = ROOT) -> set[Synset]:
    """The synsets of a word, or of its base forms when it is inflected; none when WordNet is not installed."""
    if not available(root):
        return set()
    word = word.strip().lower().replace(" ", "_")
    out: set[Synset] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        index = _index(root, pos)
        bases = [word] + _exceptions(root, pos).get(word, [])
        bases += [word[: -len(end)] + base for end, base in ENDINGS[pos] if word.endswith(end) and len(word) > len(end)]
        for base in bases:
            out.update((pos, offset) for offset in index.get(base, []))
    return out


@functools.lru_cache(maxsize=20000)
def _links(root: Path, synset: Synset) -> frozenset[Synset]:
    """The synsets one near link away (the pointers on the synset's line in data.POS)."""
    pos, offset = synset
    with open(root / f"data.{pos}", "rb") as data:
        data.seek(offset)
        parts = data.readline().decode("utf-8", errors="replace").split(" | ")[0].split()
    words = int(parts[3], 16)
    at = 4 + 2 * words
    count = int(parts[at])
    out = set()
    for n in range(count):
        symbol, target, kind = parts[at + 1 + 4 * n: at + 4 + 4 * n]
        if symbol in NEAR:
            out.add((POS[kind], int(target)))
    return frozenset(out)


def similarity(a: str, b: str, root: Path = ROOT, depth: int = 3) -> float:
    """3 the same word; else by the fewest near links between a meaning of each: 2 synonyms (none), 1.5 one,
    1 two, 0.5 three; 0 farther (or a word WordNet does not have)."""
    if a.strip().lower() == b.strip().lower():
        return 3.0
    reached, target = meanings(a, root), meanings(b, root)
    if not reached or not target:
        return 0.0
    frontier = set(reached)
    for links in range(depth + 1):
        if frontier & target:
            return 2.0 - 0.5 * links
        frontier = set().union(*(_links(root, s) for s in frontier)) - reached
        reached |= frontier
    return 0.0
