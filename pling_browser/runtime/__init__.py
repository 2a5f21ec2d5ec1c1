"""The runtime an API or a CLI drives: settings, the browser controller and the open sessions, with
the operations both front ends offer. No HTTP here."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from ..brief import BRIEF, BriefModel, brief
from ..callers import OPERATOR, Caller
from ..config import Settings, load_secrets
from ..core import tracing
from ..core.browsers import Controller
from ..core.egress import Policy
from ..core.outbound import mask_logs
from ..core.sessions import Session, Sessions
from ..errors import Forbidden, ResumeNotFound
from ..lifecycle import Resumes, invoke, resume
from ..models import PageModel, Receipt
from . import exported, reading
from .commands import AnyCommand, CallTool, Invoke, Resume  # noqa: F401  (the commands callers build)
from .confirmations import HttpConfirmer, PendingRequests
from .events import Events
from .pipeline import Pipeline
from .profiles import Profiles
from .store import Store
from .store_appends import Appends
from .turns import CallerCheck, CallerGone, Turns  # noqa: F401  (CallerGone: the server's)

PRUNE_EVERY_S = 3600.0
REAPER_STOP_S = 5.0  # how long stop() waits for the reaper to end its round

log = logging.getLogger("pling_browser.runtime")

def model_window(offset: int = 0, limit: int = 50, type: str | None = None, ids: str | list[str] | None = None) -> dict[str, Any]:
    """The record window of a model read, as REST's query parameters and MCP's read_model name it:
    fields for records offset..offset+limit (of every type, or of `type` only), or for exactly `ids`."""
    window: dict[str, Any] = {"offset": max(0, offset), "limit": max(0, min(limit, 1000))}
    if type:
        window["type"] = type
    if ids:
        parts = ids.split(",") if isinstance(ids, str) else list(ids)
        window["ids"] = [part for part in parts if part][:1000]
    return window


def demo_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    packaged = package / "demo"
    return packaged if packaged.is_dir() else package.parent / "fixtures" / "demo"


class Runtime:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.own_origin: str | None = None
        self.policy = Policy(settings.allow_hosts, lambda: self.own_origin)
        self.controller = Controller(settings, self.policy)
        self.controller.on_browser_lost = self._browser_lost
        self.sessions = Sessions(self.controller, settings.max_sessions, settings.queue, settings.queue_timeout_s)
        self.events = Events(self.sessions.outbound)  # every event leaves masked as its session's answers
        from .metrics import Metrics

        self.metrics = Metrics(self)
        self.pending_requests = PendingRequests(lambda what, p: self.events.publish(what, id=p.id, session=p.session, request=p.view()))
        self.resumes = Resumes()
        self.confirmer = HttpConfirmer(self.pending_requests, settings.confirm_timeout_s) if settings.confirm == "http" else None
        self.operator_secrets = load_secrets(settings.secrets_file)
        self.sessions.operator_values = tuple(value for value in self.operator_secrets.values() if value)
        mask_logs(self)  # log lines of the service mask what its sessions mask
        self.store: Store | None = None
        self.appends: Appends | None = None  # receipts appended in groups, to the store (start)
        self.profiles = Profiles(settings.data_dir, settings.profiles_key)
        self.pipeline = Pipeline(self)
        self.turns = Turns(settings, lambda reason: self.metrics.dropped.labels(reason=reason).inc())
        self._stopping = False

    @property
    def invocations_waiting(self) -> int:
        """Invocations waiting for their session while another runs there."""
        return self.turns.waiting

    def masked_values(self) -> list[str]:
        """Every value masked in this service's log lines: operator secrets and each open session's
        restored values."""
        values = list(self.sessions.operator_values)
        for session in self.sessions.list():
            values.extend(session.masked_values())
        return values

    async def start(self) -> None:
        import asyncio

        import jsonschema  # noqa: F401  (imported now, so the first invocation does not pay for it)

        self.loop = asyncio.get_running_loop()
        mask_logs(self)  # again: loggers of modules imported since (the server's) get the filter too
        self.store = Store(self.settings.data_dir)
        self.appends = Appends(self.store)
        await self.prune()
        self._stopping = False
        self._reaper = asyncio.create_task(self._reap_forever())

        await self.controller.start()

    def _browser_lost(self, reason: str, endpoint: str | None) -> None:
        for sid in self.sessions.lose_all(reason, endpoint):
            self.pending_requests.withdraw_session(sid)

    async def prune(self) -> tuple[int, int]:
        """Receipts and idempotency keys past PLING_RETENTION_DAYS, deleted off the event loop."""
        assert self.store is not None
        return await asyncio.to_thread(self.store.prune, self.settings.retention_days * 86400)

    async def _reap_forever(self) -> None:
        every = max(0.2, min(self.settings.idle_timeout_s, self.settings.max_lifetime_s) / 10)
        pruned = 0.0
        # Ends by its own test too: a cancellation lost inside a round (Python 3.11's asyncio.wait_for
        # around a title read or a context's close) would leave it reaping on after stop().
        while not self._stopping:
            await asyncio.sleep(every)
            if self.loop.time() - pruned > PRUNE_EVERY_S:
                pruned = self.loop.time()
                try:
                    await self.prune()
                except Exception:  # a locked or full disk: try again at the next round
                    pass
            try:
                for sid in await self.sessions.reap(self.settings.idle_timeout_s, self.settings.max_lifetime_s):
                    self.pending_requests.withdraw_session(sid)
            except Exception:  # the reaper must outlive any one session's trouble
                pass

    async def stop(self) -> None:
        self._stopping = True
        reaper = getattr(self, "_reaper", None)
        if reaper is not None:
            reaper.cancel()
            await asyncio.wait([reaper], timeout=REAPER_STOP_S)  # bounded: stopping never hangs on it
        open_now = len(self.sessions)
        await self.sessions.close_all()
        await self.controller.stop()
        log.info("stopped: %d session(s) closed, the browser closed", open_now)
        if self.store is not None:
            self.store.close()

    async def open(self, url: str, *, timeout_ms: int | None = None, profile: str | None = None,
                   caller: Caller = OPERATOR) -> Session:
        """A session on `url`, signed in as the saved `profile` when one is named, belonging to `caller`
        when it is an agent (callers.py); a host outside the caller's limits is refused first."""
        url = await self.policy.check_url(url)
        refused = caller.refuses_url(url)
        if refused:
            raise Forbidden(f"The session was not opened: {refused}", denied_by="caller policy",
                            hint="The operator sets which hosts this caller may open (PLING_TOKENS `hosts`).")
        saved = (profile, await asyncio.to_thread(self.profiles.load, profile)) if profile else None
        session = await self.sessions.open(url, timeout_ms or self.settings.navigation_timeout_ms, saved)
        self.sessions.own(session, caller.name if caller.owns_its_sessions else None)
        exported.listen(self, session)  # WebMCP agents calling the page's pling actions (export.js)
        self.events.publish("session", session=session.id, info=session.info().model_dump())
        return session

    def session(self, sid: str, caller: Caller = OPERATOR) -> Session:
        """The session `sid` as `caller` may see it: an agent, only one it opened (else SESSION_NOT_FOUND)."""
        return self.sessions.get(sid, caller.name if caller.owns_its_sessions else None)

    async def close(self, sid: str) -> None:
        self.pending_requests.withdraw_session(sid)
        await self.sessions.close(sid)
        self.events.publish("closed", session=sid)

    async def model_json(self, session: Session, window: dict[str, Any] | None = None, tab: str | None = None,
                         detail: str = "full") -> str:
        """The model as the bridge wrote it (with its tab first), checked against PageModel; with
        `detail="brief"`, its brief form (pling_browser/brief.py), checked against BriefModel."""
        session.follow_active()
        target = session.on_tab(tab)
        text = await reading.model_text(target, window, self.policy, self.controller.adapters.adapters)
        if target.tab_id is not None and text.startswith("{"):
            text = '{"tab":' + json.dumps(target.tab_id) + "," + text[1:]
        PageModel.model_validate_json(text)
        if detail == BRIEF:  # it only leaves out and reshapes: checked as the whole model is, before masking
            short = brief(json.loads(text))
            BriefModel.model_validate(short)
            text = json.dumps(short, ensure_ascii=False, separators=(",", ":"))
        # The bridge masks the values it was given; the operator's secrets (never sent to a page that
        # did not receive them) and values of earlier documents are masked here. Masked after the check:
        # a masked value may be a word of the model's own (a page's sensitive "read", an action's risk).
        return session.outbound.json_text(text, BriefModel if detail == BRIEF else PageModel)

    async def model(self, session: Session, window: dict[str, Any] | None = None, tab: str | None = None) -> PageModel:
        return PageModel.model_validate_json(await self.model_json(session, window, tab))

    async def invoke(self, session: Session, action: str, args: Any, *, evidence: bool = True,
                     gone: CallerCheck | None = None, caller: Caller | None = None) -> Receipt:
        """Run one action in the session's turn, unlogged (ci/'s runs and the CLI's one-shot invoke; what
        a caller asks goes through ``run``). `gone` tells whether the caller has left: asked only while
        the invocation waits for its session, never once it started."""
        async with self.turns.turn(session, action, gone):
            return await self.invoke_now(session, action, args, evidence=evidence, caller=caller)

    async def invoke_now(self, session: Session, action: str, args: Any, *, evidence: bool = True,
                         trace: bool = False, tab: str | None = None, caller: Caller | None = None) -> Receipt:
        """Run one action, in the session's turn already. `trace` records a Playwright trace of it."""
        session.touch()
        session.invocations += 1
        refused = self._untraceable(session) if trace else None
        recording = await self._begin_trace(session, action) if trace and refused is None else None
        session.recording = recording
        session.follow_active()
        try:
            receipt = await invoke(session.on_tab(tab), action, args, settings=self.settings, evidence=evidence,
                                   caller=caller, **self.lifecycle_options())
        finally:
            session.recording = None
            session.follow_active()  # the action may have closed its own tab
            session.touch()
            traced = await tracing.end(recording, session.outbound) if recording is not None else None
            session.mark_title_stale()
        if traced is not None:
            return receipt.model_copy(update={"trace": f"/sessions/{session.id}/traces/{traced.stem}"})
        if trace:
            said = (f"The trace was discarded: {recording.discarded}." if recording and recording.discarded
                    else f"No trace was recorded: {refused}." if refused else "No trace was recorded (see the log).")
            receipt = receipt.model_copy(update={"warning": " ".join(filter(None, [receipt.warning, said]))})
        return receipt

    def trace_path(self, sid: str, tid: str) -> Path:
        return tracing.path_of(self.settings.data_dir, sid, tid)

    @staticmethod
    def _untraceable(session: Session) -> str | None:
        """Why the session cannot be traced at all, or None. Operator secrets alone do not stop a trace:
        a page holds one only once it is restored, which discards the trace (core/tracing.py)."""
        if session.restored_values():
            return "this session's pages were given restored values, and a trace records the page"
        if session.profile:
            return "this session was opened with a profile, and a trace records its cookies"
        return None

    async def _begin_trace(self, session: Session, action: str) -> tracing.Recording | None:
        # Frames are pictures nobody can search for a masked value: none where masking has values.
        return await tracing.begin(session, action, self.settings.data_dir, screencast=not session.outbound.masks())

    async def resume_now(self, session: Session, handle: str, *, evidence: bool = True,
                         repeat_started_step: bool = False, caller: Caller | None = None) -> Receipt:
        """Continue a failed flow, in the session's turn already: the handle is claimed once the session is
        ours, so a resume dropped while waiting keeps it."""
        state = self.resumes.claim(session.id, handle, repeat_started_step)
        if state is None:
            raise ResumeNotFound(f"No resumable flow {handle[:40]!r} in this session (unknown, used or expired)")
        session.touch()
        session.invocations += 1
        try:
            return await resume(session, state, settings=self.settings, evidence=evidence, caller=caller,
                                **self.lifecycle_options())
        finally:
            session.mark_title_stale()

    async def run(self, command: AnyCommand) -> dict[str, Any]:
        """Run a command (runtime/commands.py) through the one pipeline (runtime/pipeline.py):
        idempotency, the session's turn, the lifecycle, the store, publishing. Its receipt, as stored."""
        return await self.pipeline.run(command)

    def lifecycle_options(self) -> dict[str, Any]:
        return {"confirmer": self.confirmer, "pending_requests": self.pending_requests, "resumes": self.resumes,
                "operator_secrets": self.operator_secrets}


    async def screenshot(self, session: Session, tab: str | None = None) -> bytes:
        """A PNG of the page with password fields, fields holding a restored secret, and elements whose
        text shows an operator secret or a restored value masked."""
        session.follow_active()
        session = session.on_tab(tab)
        marked = await session.bridge.mark_protected(True)
        try:
            return await session.handle.screenshot(timeout_ms=10_000)
        finally:
            if marked:
                await session.bridge.mark_protected(False)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
