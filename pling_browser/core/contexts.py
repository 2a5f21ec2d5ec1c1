"""The frames one CDP session runs (a page, or an out-of-process frame), each with the execution
context of its document's main world, where that frame's bridge answers. Kept from the Runtime
domain's events, so a child frame's bridge (core/frames.py) is called in its own document, and a call
of the controller's binding from a child frame is told apart from one of the session's main frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import CDPSession


class FrameContexts:
    def __init__(self) -> None:
        self.context: dict[str, int] = {}  # frame id -> the execution context of its document's main world
        self.origin: dict[str, str] = {}  # frame id -> that document's origin, as the browser reports it
        self._frame: dict[int, str] = {}  # execution context id -> frame id
        self.order: list[str] = []  # frame ids, in the order their first document appeared
        self.main_frame: str | None = None  # the session's own frame (the page's, or the frame's)
        self.routes: dict[str, Any] = {}  # frame id -> the bridge of that child frame (core/frames.py)

    def watch(self, cdp: CDPSession) -> None:
        cdp.on("Runtime.executionContextCreated", self._created)
        cdp.on("Runtime.executionContextDestroyed", self._destroyed)
        cdp.on("Runtime.executionContextsCleared", lambda _: self._cleared())

    def _created(self, event: dict[str, Any]) -> None:
        context = event.get("context") or {}
        aux = context.get("auxData") or {}
        frame, cid = aux.get("frameId"), context.get("id")
        if aux.get("isDefault") is True and isinstance(frame, str) and isinstance(cid, int):
            self.context[frame] = cid
            self.origin[frame] = str(context.get("origin") or "")
            self._frame[cid] = frame
            if frame not in self.order:
                self.order.append(frame)

    def _destroyed(self, event: dict[str, Any]) -> None:
        cid = event.get("executionContextId")
        frame = self._frame.pop(cid, None) if isinstance(cid, int) else None
        if frame is not None and self.context.get(frame) == cid:
            del self.context[frame]

    def _cleared(self) -> None:
        self.context.clear()
        self._frame.clear()

    def children(self) -> list[str]:
        """The child frames of this session that have a document now, in the order they appeared."""
        self.order = [f for f in self.order if f in self.context or f in self.routes]
        return [f for f in self.order if f != self.main_frame and f in self.context]

    def child(self, context_id: Any) -> Any:
        """For a call from execution context ``context_id``: None when it is the session's main frame's
        (or unknown); otherwise the child frame's bridge, or False when that frame has none."""
        frame = self._frame.get(context_id) if isinstance(context_id, int) else None
        if frame is None or self.main_frame is None or frame == self.main_frame:
            return None
        return self.routes.get(frame, False)
