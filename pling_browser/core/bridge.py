"""The only Python that names JavaScript functions of js_bridge/.

The bridge source is the files of js_bridge/ in a fixed order, wrapped in one closure. Every call
goes through ``window.__plingBridge.call(name, json)`` and answers a JSON string, tagged
``{"ok": true, …}`` or ``{"ok": false, "code": …}``; this module turns codes into Pling errors and
payloads into models. A call that does not answer within its budget means the page's script is
stuck: that is ``PageUnresponsive``, never a hang of the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PageUnresponsive, SessionLost

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Locator, Page

BRIDGE_VERSION = "1"
_PARTS = ("prelude", "protect", "bound", "registry", "webmcp", "records", "observe", "model", "evidence", "act", "entry")


def _bridge_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    packaged = package / "js_bridge"
    return packaged if packaged.is_dir() else package.parent / "js_bridge"


@lru_cache(maxsize=1)
def bridge_source() -> str:
    """The whole bridge as one script: an init script for the controller, /pling.js for pages."""
    folder = _bridge_dir()
    body = "\n".join((folder / f"{name}.js").read_text(encoding="utf-8") for name in _PARTS)
    return (
        "// Pling bridge: defines window.pling (see SPEC, 'The page side'). Loading it twice is harmless.\n"
        "(function () {\n'use strict';\n"
        "if (Object.getOwnPropertyDescriptor(globalThis, '__plingBridge')) return;\n"
        f"const BRIDGE_VERSION = {json.dumps(BRIDGE_VERSION)};\n"
        f"{body}\n}})();\n"
    )


class BridgeError(Exception):
    """The page answered ``{"ok": false, …}``; ``code`` and ``payload`` say why."""

    def __init__(self, code: str, payload: dict[str, Any]) -> None:
        super().__init__(code)
        self.code = code
        self.payload = payload


class Bridge:
    """Calls into one page's bridge. Each method names one operation of js_bridge/entry.js.

    Calls go over the page's own CDP session (``Runtime.evaluate``), not ``page.evaluate``:
    Playwright's evaluate wrapper runs in the page's world and stops working when the page patches
    ``Array.prototype[Symbol.iterator]``; a plain expression with the arguments as JSON literals
    does not depend on anything the page can patch."""

    def __init__(self, page: "Page", cdp: "CDPSession", grace_s: float, budget_ms: float = 5_000) -> None:
        self.page = page
        self.cdp = cdp
        self.grace_s = grace_s
        self.budget_ms = budget_ms

    @classmethod
    async def attach(cls, page: "Page", grace_s: float, budget_ms: float = 5_000) -> "Bridge":
        from .playwright import translate_playwright_errors

        async with translate_playwright_errors():
            cdp = await asyncio.wait_for(page.context.new_cdp_session(page), 10 + grace_s)
        return cls(page, cdp, grace_s, budget_ms)

    async def raw(self, name: str, arg: Any = None, budget_ms: float | None = None, terminate: bool = True) -> str:
        """The answer's JSON text as the bridge wrote it (the model is passed on without re-encoding)."""
        from .playwright import translate_playwright_errors

        payload = json.dumps(json.dumps(arg, ensure_ascii=False, allow_nan=False), ensure_ascii=False)
        expression = f"window.__plingBridge.call({json.dumps(name)}, {payload})"
        timeout = (budget_ms or self.budget_ms) / 1000 + self.grace_s
        async with translate_playwright_errors():
            try:
                answer = await asyncio.wait_for(self.cdp.send("Runtime.evaluate", {
                    "expression": expression, "awaitPromise": True, "returnByValue": True}), timeout)
            except asyncio.TimeoutError:
                # The page's script is stuck (an endless loop): stop it, so the page lives on.
                terminated = False
                if terminate:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.cdp.send("Runtime.terminateExecution"), 2)
                        terminated = True
                raise PageUnresponsive(f"The page did not answer the bridge's {name} call within {timeout:.0f} s"
                                       + ("; its script was stopped" if terminated else ""),
                                       terminated=terminated) from None
        if "exceptionDetails" in answer:
            detail = answer["exceptionDetails"].get("exception", {}).get("description") or answer["exceptionDetails"].get("text")
            raise SessionLost(f"The bridge is not in the page (the document was replaced by one it could not enter): "
                              f"{str(detail).splitlines()[0][:200]}")
        text = answer.get("result", {}).get("value")
        if not isinstance(text, str):
            raise SessionLost("The bridge answered nothing (the page navigated during the call)")
        return text

    async def _call(self, name: str, arg: Any = None, budget_ms: float | None = None,
                    terminate: bool = True) -> dict[str, Any]:
        answer = json.loads(await self.raw(name, arg, budget_ms, terminate))
        if not answer.get("ok"):
            raise BridgeError(str(answer.get("code")), answer)
        return answer

    async def model(self, window: dict[str, Any] | None = None) -> str:
        return await self.raw("model", window or {})

    async def describe(self, ref: str) -> dict[str, Any]:
        return await self._call("describe", {"ref": ref})

    async def prepare(self, ref: str, cap_ms: float, evidence: bool) -> dict[str, Any]:
        """Availability, reveal and target; on success also the before snapshot (or the start mark)."""
        return await self._call("prepare", {"ref": ref, "capMs": cap_ms, "evidence": evidence}, budget_ms=cap_ms * 2 + 1_000)

    def target(self, mark: str) -> "Locator":
        """The element `prepare` marked, found from Playwright's isolated world."""
        return self.page.locator(f'[data-pling-target="{mark}"]')

    async def release(self) -> None:
        await self._call("release", {})

    async def run(self, ref: str, args: dict[str, Any], timeout_ms: float) -> dict[str, Any]:
        return await self._call("run", {"ref": ref, "args": args, "timeoutMs": timeout_ms}, budget_ms=timeout_ms)

    async def synthetic_click(self) -> dict[str, Any]:
        return await self._call("synthetic", {})

    async def expect(self, ref: str, args: dict[str, Any], timeout_ms: float, settle_ms: float) -> dict[str, Any]:
        arg = {"ref": ref, "args": args, "timeoutMs": timeout_ms, "settleMs": settle_ms}
        return await self._call("expect", arg, budget_ms=timeout_ms + settle_ms + 1_000)

    async def settle(self, cap_ms: float, budget_ms: float | None = None, terminate: bool = True) -> dict[str, Any]:
        return await self._call("settle", {"capMs": cap_ms}, budget_ms=budget_ms or cap_ms, terminate=terminate)

    async def end(self) -> dict[str, Any]:
        return await self._call("end", {})

    async def restore(self, names: list[str]) -> dict[str, str]:
        answer = await self._call("restore", {"names": names})
        return answer["values"]

    async def configure(self, risks: dict[str, str]) -> None:
        await self._call("configure", {"risks": risks})

    async def protect(self, values: list[str]) -> None:
        await self._call("protect", {"values": values})

    async def mark_protected(self, on: bool) -> int:
        return int((await self._call("mask", {"on": on}))["marked"])

    async def handoff_done(self, ref: str) -> dict[str, Any]:
        return await self._call("handoff", {"ref": ref})

    async def ping(self) -> dict[str, Any]:
        return await self._call("ping", {})
