"""Recording a draft from a person's demonstration in the live view ("Record", then "Stop").

While a session is recorded, each input the person sends through ``POST /console/sessions/{sid}/input``
is looked at around the moment it reaches the page: before a pointer goes down, which control is
under it (a click on a button or link, a tick, a double click: a step); after a key, some text or a
pointer release, which control has the focus and what it holds now (a fill or a selection: a step,
updated while they keep typing; Enter after typing is kept with the fill). Only the person's input
through the console makes steps: a page cannot add one by dispatching events, and an agent's
invocations during the recording are not the person's. "Stop" writes the draft
(pling_browser/ci/demonstration.py). Describing a control is best effort: when the page does not
answer (it navigated, it hangs), the input still goes through and the step is counted as unread.

Routes (console only, like the rest of it: a person or the operator):

  POST /console/sessions/{sid}/recording        start (again: a new, empty recording)
  GET  /console/sessions/{sid}/recording        the steps so far, as the person is shown them
  POST /console/sessions/{sid}/recording/stop   stop; answers the steps and the draft
  GET  /console/sessions/{sid}/recording/draft  the last draft, as a file to download
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ...ci.demonstration import ATTRIBUTES, LOCATE, Step, located, write_demonstration
from ...core.answers import Reached
from ...errors import NotFound
from .gestures import PersonInput

if TYPE_CHECKING:
    from ...core.sessions import Session
    from ...runtime import Runtime

log = logging.getLogger("pling_browser.console")

MAX_STEPS = 200
ASK_S = 2.0  # how long the page has to say what the person's input reached
_IGNORED_KEYS = {"Tab", "Shift+Tab", "Escape", "Shift", "Control", "Alt", "Meta"}


@dataclass
class Recording:
    url: str
    title: str
    steps: list[Step] = field(default_factory=list)
    unread: int = 0  # inputs whose control the page did not describe in time
    draft: str | None = None
    active: bool = True
    pointed: Reached | None = None  # what the last pointer-down reached
    focused: Reached | None = None  # what had the focus before the last key

    def shown(self) -> dict[str, Any]:
        return {"recording": self.active, "url": self.url, "unread": self.unread,
                "steps": [{"n": n, "kind": step.kind, "said": step.said()} for n, step in enumerate(self.steps, 1)],
                "draft": self.draft}


class Recordings:
    """Every session's recording, kept while its session is open."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.by_session: dict[str, Recording] = {}

    def _prune(self) -> None:
        open_ids = {session.id for session in self.runtime.sessions.list()}
        for sid in [sid for sid in self.by_session if sid not in open_ids]:
            del self.by_session[sid]

    async def start(self, session: Session) -> Recording:
        self._prune()
        title = ""
        with contextlib.suppress(Exception):
            title = await session.handle.title(ASK_S)
        recording = Recording(url=session.handle.url, title=session.outbound.text(title))
        self.by_session[session.id] = recording
        return recording

    def get(self, sid: str) -> Recording:
        self._prune()
        recording = self.by_session.get(sid)
        if recording is None:
            raise NotFound(f"Session {sid[:64]!r} has no recording", hint="Press Record in the live view first.")
        return recording

    def stop(self, session: Session) -> Recording:
        recording = self.get(session.id)
        if recording.active:
            recording.active = False
            recording.draft = str(session.outbound.data(write_demonstration(recording.steps, recording.url, recording.title)))
        return recording

    def filename(self, sid: str) -> str:
        host = urlsplit(self.get(sid).url).hostname or "page"
        return "draft-" + "".join(c if c.isalnum() or c in "-." else "-" for c in host)[:60] + ".js"

    async def around(self, session: Session, gesture: PersonInput, perform: Any) -> None:
        """Play the person's input; when the session is recorded, note what it reached."""
        recording = self.by_session.get(session.id)
        if recording is None or not recording.active:
            await perform()
            return
        await self._look(recording, session, gesture, before=True)
        await perform()
        await self._look(recording, session, gesture, before=False)

    async def _look(self, recording: Recording, session: Session, gesture: PersonInput, before: bool) -> None:
        try:
            await asyncio.wait_for(_note(recording, session, gesture, before), ASK_S * 2)
        except Exception as error:  # the page navigated or hangs: the input counts, the step is unread
            recording.unread += 1
            log.debug("a recorded input could not be described: %s", type(error).__name__)


async def _note(recording: Recording, session: Session, gesture: PersonInput, before: bool) -> None:
    bridge = session.bridge
    url = session.handle.url
    if len(recording.steps) >= MAX_STEPS:
        return
    pointer = gesture.type in ("down", "click") and gesture.button == "left"
    if before:
        if pointer:
            recording.pointed = await _read(session, await bridge.pointed_at(gesture.x, gesture.y))
            _pointer_step(recording, recording.pointed, url, gesture.clicks)
        elif gesture.type == "key":  # Enter may clear the field, a key may change a select: what was there before
            recording.focused = await _read(session, await bridge.focused())
        return
    if gesture.type not in ("key", "text", "paste", "up", "click"):
        return
    last = recording.steps[-1] if recording.steps else None
    if gesture.type in ("up", "click") and last is not None and last.kind == "check" and last.checked is None:
        again = await bridge.pointed_again()
        last.checked = again.checked if again.found else None
    earlier = recording.focused if gesture.type == "key" else recording.pointed if gesture.type in ("up", "click") else None
    if gesture.type == "key" and gesture.key == "Enter" and earlier is not None and earlier.kind == "text":
        _fill(recording, earlier, url, session).press = "Enter"  # the app may clear the field on Enter
        return
    now = await bridge.focused()
    if not now.found:
        return
    now = await _read(session, now)
    if now.kind == "text" and gesture.type in ("key", "text", "paste"):
        _fill(recording, now, url, session)
    elif now.kind == "select" and not (earlier is not None and _same(earlier, now) and earlier.value == now.value):
        _select(recording, now, url, session)
    elif gesture.type == "key" and gesture.key not in _IGNORED_KEYS and now.kind in ("click", "other"):
        recording.steps.append(Step("press", now, url, press=gesture.key))


async def _read(session: Session, reached: Reached) -> Reached:
    """The control with its role, name and locators, read with the helpers the draft will carry."""
    if not reached.found:
        return reached
    return located(reached, await session.bridge.read_demonstrated(LOCATE, list(ATTRIBUTES)))


def _same(a: Reached, b: Reached) -> bool:
    return (a.role, a.name, a.tag, sorted((k, v.value) for k, v in a.attrs.items())) == \
        (b.role, b.name, b.tag, sorted((k, v.value) for k, v in b.attrs.items()))


def _pointer_step(recording: Recording, reached: Reached, url: str, clicks: int) -> None:
    if not reached.found or reached.kind in ("text", "select", "other"):
        return  # a field is filled by the typing that follows; nothing there to click
    last = recording.steps[-1] if recording.steps else None
    if clicks == 2 and last is not None and last.kind == "click" and _same(last.control, reached):
        last.kind = "dblclick"
        return
    if clicks == 1:
        recording.steps.append(Step("check" if reached.kind == "check" else "click", reached, url))


def _value(reached: Reached, session: Session) -> str | None:
    """What the person typed or chose, as an example; never a secret."""
    if reached.sensitive or reached.value is None:
        return None
    masked = str(session.outbound.data(reached.value))
    return None if masked != reached.value else reached.value


def _fill(recording: Recording, reached: Reached, url: str, session: Session) -> Step:
    last = recording.steps[-1] if recording.steps else None
    if last is not None and last.kind == "fill" and _same(last.control, reached) and last.press is None:
        last.value, last.control = _value(reached, session), reached
        return last
    step = Step("fill", reached, url, value=_value(reached, session))
    recording.steps.append(step)
    return step


def _select(recording: Recording, reached: Reached, url: str, session: Session) -> None:
    last = recording.steps[-1] if recording.steps else None
    if last is not None and last.kind == "select" and _same(last.control, reached):
        last.value, last.control = _value(reached, session), reached
    else:
        recording.steps.append(Step("select", reached, url, value=_value(reached, session)))
