"""Deterministic policies through Playwright MCP: read the task from the snapshot, find controls by role,
name, text and position in it, act on their refs; snapshot again only when the page changed in a way the
next step depends on. A control the snapshot does not show (an icon without a name) cannot be acted on:
the policy stops there and the episode counts as not solved."""

from __future__ import annotations

from .agent_mcp import McpAgent
from .goals import read
from .snapshot import Node, utterance


class NotInSnapshot(RuntimeError):
    pass


def _one(nodes: list[Node], what: str) -> Node:
    nodes = [n for n in nodes if n.ref]
    if not nodes:
        raise NotInSnapshot(f"{what} is not in the snapshot")
    return nodes[0]


def _button(tree: Node, name: str) -> Node:
    return _one(tree.find("button", name), f'button "{name}"')


def _pointer_icons(node: Node) -> list[Node]:
    """Unnamed clickable elements (icons): shown only as `generic [cursor=pointer]` with no text."""
    return [n for n in node.walk() if n.role == "generic" and "cursor=pointer" in n.attrs and not n.text
            and not n.children and n.ref]


def _containing(tree: Node, text: str, role: str = "generic") -> list[Node]:
    """The smallest nodes of `role` whose text includes `text`, innermost first."""
    hits = [n for n in tree.walk() if n.role == role and n.ref and text in n.all_text()]
    return [n for n in hits if not any(c is not n and c in hits for c in n.walk())] + hits


async def solve(task: str, agent: McpAgent, tree: Node) -> None:
    goal = read(task, utterance(tree))
    if goal.kind == "click":
        if goal.names:
            for name in goal.names:
                await agent.click(_button(tree, name), f"{name} button")
        elif task == "click-tab":
            await agent.click(_one(tree.find("link", goal.target), goal.target), goal.target)
        elif task in ("click-dialog", "click-dialog-2") and goal.target == "x":
            await agent.click(_one(tree.find("button", "Close") + tree.find("button", "×"), "the dialog's close button"), "close")
        elif task == "click-link":
            await agent.click(_one(tree.find("link", goal.target), f'link "{goal.target}"'), goal.target)
        else:
            await agent.click(_button(tree, goal.target), goal.target)
    elif goal.kind == "expand":
        tabs = [n for n in tree.find("tab") if n.name.startswith("Section")]
        await agent.click(_one(tabs, "the section header"), "section header")
        await agent.click(_button(tree, "Submit"), "Submit")
    elif goal.kind in ("type", "password"):
        boxes = _one(tree.find("textbox"), "a text field") and [n for n in tree.find("textbox") if n.ref]
        value = goal.text or goal.secret
        await agent.fill([(box, f"field {i + 1}", "textbox", value) for i, box in enumerate(boxes)])
        await agent.click(_button(tree, "Submit"), "Submit")
    elif goal.kind == "login":
        for _ in range(3):
            boxes = [n for n in tree.find("textbox") if n.ref]
            if len(boxes) < 2:
                raise NotInSnapshot("the username and password fields are not in the snapshot")
            if await agent.fill([(boxes[0], "Username", "textbox", goal.text), (boxes[1], "Password", "textbox", goal.secret)]):
                tree = await agent.snapshot()   # a popup may have opened on focus
                if not tree.find("button", "Cancel"):
                    await agent.click(_one(tree.find("button", "OK") + tree.find("button", "Login"), "the login button"), "login")
                    return
            else:
                tree = await agent.snapshot()
            await agent.click(_button(tree, "Cancel"), "Cancel (the popup)")
            tree = await agent.snapshot()
        raise RuntimeError("the login popup kept coming back")
    elif goal.kind == "choose":
        if task == "choose-list":
            await agent.select(_one(tree.find("combobox"), "the list"), "the list", [goal.target])
        else:
            await agent.click(_one(tree.find("radio", goal.target), f'radio "{goal.target}"'), goal.target)
        await agent.click(_button(tree, "Submit"), "Submit")
    elif goal.kind == "tick":
        boxes = [n for n in tree.find("checkbox") if n.ref]
        changes = [(n, n.name, "checkbox", "true" if n.name in goal.names else "false") for n in boxes
                   if (n.name in goal.names) != ("checked" in n.attrs)]
        if changes:
            await agent.fill(changes)
        await agent.click(_button(tree, "Submit"), "Submit")
    elif goal.kind == "post":
        raise NotInSnapshot("the posts' buttons are icons without names: the snapshot does not show them")
    elif goal.kind == "email":
        await _email(agent, tree, goal)


async def _email(agent: McpAgent, tree: Node, goal) -> None:  # type: ignore[no-untyped-def]
    rows = [n for n in tree.walk() if n.role == "generic" and "cursor=pointer" in n.attrs and n.ref
            and any(c.text == goal.target for c in n.children)]
    await agent.click(_one(rows, f"the email from {goal.target}"), f"email from {goal.target}")
    tree = await agent.snapshot()
    if goal.button in ("delete", "star"):
        # The open email's bar: back, trash, star (icons, in that order).
        icons = _pointer_icons(tree)
        if len(icons) < 3:
            raise NotInSnapshot("the open email's trash and star icons are not in the snapshot")
        await agent.click(icons[1] if goal.button == "delete" else icons[2], goal.button)
        return
    word = "Reply" if goal.button == "reply" else "Forward"
    await agent.click(_one(_containing(tree, word), word), word)
    tree = await agent.snapshot()
    boxes = [n for n in tree.find("textbox") if n.ref]
    if goal.button == "reply":
        await agent.fill([(boxes[0], "Reply", "textbox", goal.text)])
    else:
        await agent.fill([(boxes[0], "to", "textbox", goal.text)])
    icons = _pointer_icons(tree)        # the compose bar: close, send
    if len(icons) < 2:
        raise NotInSnapshot("the send icon is not in the snapshot")
    await agent.click(icons[1], "send")
