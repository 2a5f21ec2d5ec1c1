"""What a person (or a screen reader) is told about a page: Chromium's accessibility tree, joined with a
script's reading of the DOM. Used by ``pling-browser draft`` (ci/survey.py), never by an invocation.

The script marks each element it reports with ``data-pling-survey=N``; the DOM (``DOM.getDocument``,
shadow roots and same-origin frames pierced) maps those marks to backend node ids, and the
accessibility tree (``Accessibility.getFullAXTree``) answers role, name, description and properties
for the same nodes. The marks are taken off before this returns, whatever happened."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from .sessions import Session

__all__ = ["read_page"]

MARK = "data-pling-survey"
_UNMARK = f"() => {{ for (const el of document.querySelectorAll('[{MARK}]')) el.removeAttribute('{MARK}'); }}"


def _marks(node: dict[str, Any], out: dict[int, int]) -> None:
    attributes = node.get("attributes") or []
    for i in range(0, len(attributes) - 1, 2):
        if attributes[i] == MARK:
            try:
                out[int(node["backendNodeId"])] = int(attributes[i + 1])
            except (KeyError, ValueError):
                pass
    for key in ("children", "shadowRoots"):
        for child in node.get(key) or []:
            _marks(child, out)
    if node.get("contentDocument"):
        _marks(node["contentDocument"], out)


def _value(field: Any) -> Any:
    return field.get("value") if isinstance(field, dict) else None


async def read_page(session: Session, script: str, arg: Any, timeout_s: float = 20) -> tuple[Any, dict[int, dict[str, Any]]]:
    """Run ``script(arg)`` in the session's page, then answer its result and, for every element it
    marked, what the accessibility tree says of it: ``{role, name, description, ignored, properties}``."""
    page = session.page
    async with translate_playwright_errors():
        try:
            data = await asyncio.wait_for(page.evaluate(script, arg), timeout_s)
            cdp = await page.context.new_cdp_session(page)
            try:
                document = await asyncio.wait_for(cdp.send("DOM.getDocument", {"depth": -1, "pierce": True}), timeout_s)
                tree = await asyncio.wait_for(cdp.send("Accessibility.getFullAXTree"), timeout_s)
            finally:
                await cdp.detach()
        finally:
            try:
                await asyncio.wait_for(page.evaluate(_UNMARK), 5)
            except Exception:  # the page went away or hangs: the marks go with it
                pass
    marks: dict[int, int] = {}
    _marks(document.get("root") or {}, marks)
    seen: dict[int, dict[str, Any]] = {}
    for node in tree.get("nodes") or []:
        mark = marks.get(node.get("backendDOMNodeId"))
        if mark is None:
            continue
        properties = {p.get("name"): _value(p.get("value")) for p in node.get("properties") or [] if isinstance(p, dict)}
        seen[mark] = {"role": _value(node.get("role")) or "", "name": _value(node.get("name")) or "",
                      "description": _value(node.get("description")) or "", "ignored": bool(node.get("ignored")),
                      "properties": properties}
    return data, seen
