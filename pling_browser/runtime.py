"""The runtime an API or a CLI drives: settings, the browser controller and the open sessions, with
the operations both front ends offer. No HTTP here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .config import Settings, load_secrets
from .controller import Controller
from .gates import Gates, HttpConfirmer
from .errors import ResumeNotFound
from .lifecycle import Resumes, invoke, resume
from .models import PageModel, Receipt
from .navigation import check_url
from .sessions import Session, Sessions


def demo_dir() -> Path:
    packaged = Path(__file__).with_name("demo")
    return packaged if packaged.is_dir() else Path(__file__).resolve().parent.parent / "fixtures" / "demo"


class Runtime:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.controller = Controller(settings)
        self.sessions = Sessions(self.controller, settings.max_sessions)
        self.gates = Gates()
        self.resumes = Resumes()
        self.confirmer = HttpConfirmer(self.gates, settings.confirm_timeout_s) if settings.confirm == "http" else None
        self.operator_secrets = load_secrets(settings.secrets_file)

    async def start(self) -> None:
        import asyncio

        import jsonschema  # noqa: F401  (imported now, so the first invocation does not pay for it)

        self.loop = asyncio.get_running_loop()

        await self.controller.start()

    async def stop(self) -> None:
        await self.sessions.close_all()
        await self.controller.stop()

    async def open(self, url: str, *, own_origin: str | None = None, timeout_ms: int | None = None) -> Session:
        url = await check_url(url, self.settings.allow_hosts, own_origin)
        session = await self.sessions.open(url, timeout_ms or self.settings.navigation_timeout_ms)
        if self.settings.risks:
            await session.bridge.configure(dict(self.settings.risks))
        return session

    async def close(self, sid: str) -> None:
        self.gates.withdraw_session(sid)
        await self.sessions.close(sid)

    async def model_json(self, session: Session, window: dict[str, Any] | None = None) -> str:
        """The model as the bridge wrote it, checked against PageModel (the text is passed on as is)."""
        text = await session.bridge.model(window)
        PageModel.model_validate_json(text)
        return text

    async def model(self, session: Session, window: dict[str, Any] | None = None) -> PageModel:
        return PageModel.model_validate_json(await session.bridge.model(window))

    async def invoke(self, session: Session, action: str, args: Any, *, evidence: bool = True) -> Receipt:
        async with session.lock:
            session.touch()
            session.invocations += 1
            receipt = await invoke(session, action, args, settings=self.settings, evidence=evidence,
                                   **self._lifecycle_options())
            session.touch()
            return receipt

    async def resume(self, session: Session, handle: str, *, evidence: bool = True) -> Receipt:
        state = self.resumes.take(session.id, handle)
        if state is None:
            raise ResumeNotFound(f"No resumable flow {handle[:40]!r} in this session (unknown, used or expired)")
        async with session.lock:
            session.touch()
            session.invocations += 1
            return await resume(session, state, settings=self.settings, evidence=evidence, **self._lifecycle_options())

    def _lifecycle_options(self) -> dict[str, Any]:
        return {"confirmer": self.confirmer, "gates": self.gates, "resumes": self.resumes,
                "operator_secrets": self.operator_secrets}


    async def screenshot(self, session: Session) -> bytes:
        """A PNG of the page with password fields and fields holding a restored secret masked."""
        from .controller import translate_playwright_errors

        marked = await session.bridge.mark_protected(True)
        try:
            async with translate_playwright_errors():
                page = session.page
                return await page.screenshot(type="png", timeout=10_000,
                                             mask=[page.locator("[data-pling-masked]"), page.locator("input[type=password]")])
        finally:
            if marked:
                await session.bridge.mark_protected(False)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
