"""The runtime an API or a CLI drives: settings, the browser controller and the open sessions, with
the operations both front ends offer. No HTTP here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .config import Settings
from .controller import Controller
from .lifecycle import invoke
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

    async def start(self) -> None:
        import jsonschema  # noqa: F401  (imported now, so the first invocation does not pay for it)

        await self.controller.start()

    async def stop(self) -> None:
        await self.sessions.close_all()
        await self.controller.stop()

    async def open(self, url: str, *, own_origin: str | None = None, timeout_ms: int | None = None) -> Session:
        url = await check_url(url, self.settings.allow_hosts, own_origin)
        return await self.sessions.open(url, timeout_ms or self.settings.navigation_timeout_ms)

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
            receipt = await invoke(session, action, args, settings=self.settings, evidence=evidence)
            session.touch()
            return receipt


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)
