"""Child frames (SPEC "The page side": a frame of another origin declares in its own document). Every
frame's document has its own bridge (the bridge is an init script of every document and frame); this
module finds the child frames of a page and gives each a ``FrameBridge``: the same operations as the
page's bridge, called in that frame's document.

- **Same-process frames** (the page's own origin, or the same site: another port of 127.0.0.1) run in
  the page's renderer: their bridge is called over the page's CDP session, in the execution context of
  the frame's main world (core/contexts.py keeps it, and follows the frame to its next document).
- **Out-of-process frames** (another site: Chromium isolates sites in their own process) have a CDP
  session of their own (``BrowserContext.new_cdp_session(frame)``); their bridge is called there, and
  frames inside them are found in that session in turn.

The page's bridge never reads a frame's declarations: each frame answers for itself and the model is
merged in Python (pling_browser/framing.py), so the page's script never holds a frame's records or its
sensitive values. Whether a frame is read at all is the egress policy's call on its origin
(PLING_ALLOW_HOSTS, or public); a frame that is not read is reported with the reason."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..errors import NavigationRefused, PageNavigated, PageUnreachable, PageUnresponsive, PlingError, SessionLost
from ..framing import owner
from .answers import Adopted, Revealed
from .bridge import Bridge, BridgeError, KnownAction
from .playwright import translate_playwright_errors

if TYPE_CHECKING:
    from playwright.async_api import Frame

    from .egress import Policy

log = logging.getLogger("pling_browser.frames")

READ_BUDGET_MS = 1_500  # a frame's model read: a stuck frame is reported, never waited for
MAX_FRAMES = 20  # frame documents read per page; more are reported as not read

Allowed = Callable[[str, str], Awaitable[str | None]]  # (origin, url) -> None, or why it is not read


class FrameBridge(Bridge):
    """The bridge of one child frame's document: called in that frame's execution context (a
    same-process frame) or over its own CDP session (an out-of-process frame)."""

    frame_hosted = True

    def __init__(self, top: Bridge, host: Bridge | None, frame_id: str, cdp: Any, frame: Frame | None = None) -> None:
        super().__init__(top.page, cdp, top.grace_s, top.budget_ms)
        self.top = top
        self.host = host  # the bridge whose CDP session runs this frame; None: the frame has its own session
        self.frame_id = frame_id
        self.frame = frame  # Playwright's frame (out-of-process frames; same-process ones are found by their mark)
        self.adopted = False

    @property
    def window_opens(self) -> int:
        return self.top.window_opens + self._window_opens

    @property
    def origin(self) -> str:
        contexts = self.host.contexts if self.host is not None else self.contexts
        return contexts.origin.get(self.frame_id, "")

    def where(self) -> dict[str, Any]:
        if self.host is None:
            return {}  # its own session: the default context is the frame's document
        context = self.host.contexts.context.get(self.frame_id)
        if context is None:
            raise PageNavigated("The frame's document is being replaced (or the frame is gone)")
        return {"contextId": context}

    def masked_values(self) -> list[str]:
        return self.top.masked_values()

    async def protect(self, values: list[str]) -> None:
        for value in values:  # masked in what the service writes; never sent to the page's own document
            if value not in self.top.frame_protected and len(self.top.frame_protected) < 100:
                self.top.frame_protected.append(value)
        await super().protect(values)

    async def reveal(self, ref: str, cap_ms: float, evidence: bool, aim: bool = False,
                     args: dict[str, Any] | None = None, fill: bool = False, known: KnownAction | None = None) -> Revealed:
        # The direct click aims at viewport points of the page; a frame's boxes are in its own viewport,
        # and the page's keyboard types into the focus of the page's document (no direct fill either).
        # A frame's declarations are never held (resolve.py), so nothing is named as known.
        return await super().reveal(ref, cap_ms, evidence, False, args, False)

    async def adopt(self) -> None:
        """The frame's document takes the controller's binding (its before snapshot can then leave it)."""
        if not self.adopted:
            with contextlib.suppress(PlingError, BridgeError):
                await self._call("adopt", {}, Adopted, budget_ms=READ_BUDGET_MS, terminate=False)
                self.adopted = True


@dataclass(frozen=True)
class Skipped:
    """A child frame whose declarations are not read, and why."""

    origin: str
    reason: str
    url: str = ""


class Frames:
    """The child frames of one page (its top bridge), found afresh at every read."""

    def __init__(self, top: Bridge) -> None:
        self.top = top
        self._own: dict[int, FrameBridge | None] = {}  # id(Playwright frame) -> its own session's bridge; None: same process
        self._seen_url: dict[int, str] = {}
        self._allowed: dict[str, str | None] = {}

    @staticmethod
    def of(top: Bridge) -> Frames:
        if top.frames is None:
            top.frames = Frames(top)
        return top.frames  # type: ignore[no-any-return]

    def any(self) -> bool:
        """Whether the page has child frames at all (no round trip: Playwright's and our own lists)."""
        return len(self.top.page.frames) > 1 or bool(self.top.contexts.children())

    def _same_process(self, host: Bridge, frame_id: str) -> FrameBridge:
        bridge = host.contexts.routes.get(frame_id)
        if not isinstance(bridge, FrameBridge):
            bridge = FrameBridge(self.top, host, frame_id, host.cdp)
            host.contexts.routes[frame_id] = bridge
        return bridge

    async def _own_session(self, frame: Frame) -> FrameBridge | None:
        """The bridge of an out-of-process frame over a CDP session of its own; None for a frame that
        runs in its parent's process (Playwright refuses it a session of its own)."""
        key = id(frame)
        url = frame.url
        known = self._own.get(key, False)
        if known is not False and self._seen_url.get(key, "").split("/")[:3] == url.split("/")[:3]:
            return known  # type: ignore[return-value]
        self._seen_url[key] = url
        try:
            async with translate_playwright_errors():
                cdp = await asyncio.wait_for(self.top.page.context.new_cdp_session(frame), 5)
        except PlingError:
            self._own[key] = None
            return None
        bridge = FrameBridge(self.top, None, "", cdp, frame)
        try:
            await bridge._carry()  # the binding, the Runtime domain, its frames; its main frame is this frame
        except PlingError:
            self._own.pop(key, None)
            return None
        bridge.frame_id = bridge.contexts.main_frame or ""
        bridge.adopted = True
        self._own[key] = bridge
        return bridge

    async def documents(self) -> list[FrameBridge]:
        """Every child frame's document now: same-process frames of the page, then each out-of-process
        frame and the same-process frames inside it."""
        found = [self._same_process(self.top, f) for f in self.top.contexts.children()]
        live = set()
        for frame in self.top.page.frames[1:]:
            with contextlib.suppress(Exception):
                if frame.is_detached():
                    continue
            live.add(id(frame))
            own = await self._own_session(frame)
            if own is None:
                continue
            found.append(own)
            found.extend(self._same_process(own, f) for f in own.contexts.children())
        for key in [k for k in self._own if k not in live]:  # frames gone: forget their sessions
            gone = self._own.pop(key)
            self._seen_url.pop(key, None)
            if gone is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(gone.cdp.detach(), 2)
        return found

    async def allowed(self, policy: Policy | None, origin: str, url: str) -> str | None:
        """None when the frame's origin may be read, else why not (the egress policy's reason)."""
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or policy is None:
            return None  # about:blank, srcdoc, data: documents: their content came from their parent
        if origin in self._allowed:
            return self._allowed[origin]
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
            await policy.addresses(parts.scheme, parts.hostname or "", port, urlsplit(url).path or "/")
            reason = None
        except NavigationRefused as error:
            reason = f"origin not allowed: {error.message}"
        except PageUnreachable as error:
            reason = f"origin not reachable: {error.message}"
        self._allowed[origin] = reason
        return reason


async def read_models(top: Bridge, window: dict[str, Any] | None, policy: Policy | None
                      ) -> tuple[list[tuple[FrameBridge, dict[str, Any]]], list[Skipped]]:
    """Each child frame's model (read in the frame, at most ``READ_BUDGET_MS``), and the frames not
    read with the reason. A frame whose document runs no bridge (scripts disabled) declares nothing
    and is left out of both."""
    frames = Frames.of(top)
    documents = await frames.documents()
    skipped: list[Skipped] = []
    readable: list[FrameBridge] = []
    for bridge in documents:
        origin = bridge.origin
        reason = await frames.allowed(policy, origin, origin)
        if reason is not None:
            skipped.append(Skipped(origin, reason))
        elif len(readable) >= MAX_FRAMES:
            skipped.append(Skipped(origin, f"the page has more than {MAX_FRAMES} frames; the rest are not read"))
        else:
            readable.append(bridge)
    answers = await asyncio.gather(*(_read(b, window) for b in readable))
    read = []
    for bridge, (model, reason) in zip(readable, answers, strict=True):
        if reason is not None:
            skipped.append(Skipped(bridge.origin, reason))
        elif model is not None:
            read.append((bridge, model))
    return read, skipped


async def _read(bridge: FrameBridge, window: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str | None]:
    try:
        await bridge.adopt()
        text = await bridge.raw("model", window or {}, budget_ms=READ_BUDGET_MS, terminate=False)
        model = json.loads(text)
        return (model, None) if isinstance(model, dict) else (None, "its bridge answered what it never should")
    except PageUnresponsive:
        return None, f"no answer within {READ_BUDGET_MS} ms"
    except PageNavigated:
        return None, "the frame navigated or went away while it was read"
    except SessionLost as error:
        if "not in the page" in error.message:
            return None, None  # no bridge there: scripts do not run in it, so it declares nothing
        return None, "the frame went away while it was read"
    except (PlingError, ValueError) as error:
        log.info("a frame's model could not be read: %s", str(error)[:200])
        return None, "its model could not be read"


async def declaring(top: Bridge, action_id: str, policy: Policy | None) -> tuple[FrameBridge | None, str | None]:
    """The child frame whose declaration of ``action_id`` is in the model (pling_browser/framing.py
    keeps ids apart), or None with why not when frames declare it but none may own it."""
    read, _ = await read_models(top, {"limit": 0, "idCap": 0}, policy)
    if not read:
        return None, None
    top_model = json.loads(await top.model({"limit": 0, "idCap": 0}))
    index, why = owner(top_model, [model for _, model in read], action_id)
    return (read[index][0] if index is not None else None), why
