"""Playwright MCP's accessibility snapshot (the YAML in a tool's answer) as a tree of nodes, so the MCP
policy finds controls the way an agent reading it would: by role, name, text and position."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LINE = re.compile(r"^(?P<indent>\s*)- (?P<body>.*)$")
_HEAD = re.compile(r"""^'?(?P<role>[a-z/]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?P<attrs>(?: \[[^\]]*\])*)'?(?::\s*(?P<text>.*))?$""")


@dataclass
class Node:
    role: str
    name: str = ""
    ref: str | None = None
    attrs: set[str] = field(default_factory=set)
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def walk(self):  # type: ignore[no-untyped-def]
        yield self
        for child in self.children:
            yield from child.walk()

    def all_text(self) -> str:
        return " ".join(part for node in self.walk() for part in (node.name, node.text) if part)

    def find(self, role: str | None = None, name: str | None = None, text: str | None = None) -> list[Node]:
        return [n for n in self.walk() if (role is None or n.role == role) and (name is None or n.name == name)
                and (text is None or n.text == text)]


def parse(answer: str) -> Node:
    start = answer.find("```yaml")
    body = answer[start + 7: answer.find("```", start + 7)] if start >= 0 else answer
    root = Node("root")
    stack: list[tuple[int, Node]] = [(-1, root)]
    for line in body.splitlines():
        found = _LINE.match(line)
        if not found:
            continue
        indent = len(found["indent"])
        head = _HEAD.match(found["body"].strip())
        if head is None:
            continue
        attrs = set(re.findall(r"\[([^\]]*)\]", head["attrs"] or ""))
        ref = next((a[4:] for a in attrs if a.startswith("ref=")), None)
        text = (head["text"] or "").strip().strip('"')
        node = Node(head["role"], (head["name"] or "").replace('\\"', '"'), ref, attrs, text)
        while stack[-1][0] >= indent:
            stack.pop()
        stack[-1][1].children.append(node)
        stack.append((indent, node))
    return root


def utterance(tree: Node) -> str:
    """The task's sentence: MiniWoB++ shows it first, in the first generic with text."""
    for node in tree.walk():
        if node.role == "generic" and node.text:
            return node.text
    raise LookupError("no task sentence in the snapshot")
