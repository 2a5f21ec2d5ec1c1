"""The Python client for agent code and tests: ``Client`` and ``AsyncClient``, one surface over httpx.

    with Client("http://127.0.0.1:8000") as pling:
        page = pling.open("http://127.0.0.1:8000/demo/todos.html")
        receipt = page.invoke("add_todo", {"text": "Buy milk"})
        if not receipt.ok:
            print(receipt.error.code, receipt.error.hint)

    async with AsyncClient("http://127.0.0.1:8000") as pling:   # the same methods, awaited
        page = await pling.open()
        receipt = await page.invoke("toggle@t3")

Every failure is a ``PlingError``: a problem the service answered is its code's ``ServiceError`` (a
closed session is ``SessionLost``, a refused URL ``NavigationRefused``); the service not reached, or
no answer, is a ``ClientError`` (transport.py). An action's failure is a receipt with ``ok`` false and
a typed ``receipt.error``, as over HTTP. Answers that say "nothing was done, ask again later" (429,
503, 409 SESSION_BUSY) are asked again after their ``Retry-After``, a bounded number of times
(``retries=NO_RETRIES`` turns that off).

Each method describes its request once (a ``Call``, built by the shared ``_ClientCalls`` and
``_PageCalls``); ``Client`` sends it synchronously and ``AsyncClient`` asynchronously, so every method of
``AsyncClient`` and ``AsyncPageSession`` returns an awaitable of what the sync one returns.
"""

from __future__ import annotations

from typing import Any, Literal

import httpx

from ..bodies import PendingRequest, ProfileInfo, SessionInfo
from ..brief import BriefModel
from ..errors import SessionLost, SessionNotFound
from ..models import PageModel, Receipt
from .transport import NO_RETRIES, AsyncSender, Call, Retries, SyncSender

__all__ = ["AsyncClient", "AsyncPageSession", "Client", "NO_RETRIES", "PageSession", "Retries"]

Format = Literal["openai", "openai-responses", "anthropic", "mcp"]


def _receipt(data: Any) -> Receipt:
    return Receipt.model_validate(data["result"])


def _keyed(idempotency_key: str | None) -> dict[str, str]:
    return {"Idempotency-Key": idempotency_key} if idempotency_key else {}


class _ClientCalls:
    """The service's own operations, described once; `_send` is the sync or the async sender's."""

    _page_class: type[_PageCalls]

    def _send(self, call: Call) -> Any:
        raise NotImplementedError

    def request(self, method: str, path: str, **options: Any) -> Any:
        """Any route: its JSON (or bytes), problems raised as errors, retried as the others are."""
        return self._send(Call(method, path, json=options.get("json"), params=options.get("params"),
                               headers=options.get("headers") or {}))

    def open(self, url: str | None = None, *, timeout_ms: int | None = None, profile: str | None = None) -> Any:
        """Open a session on `url` (the service's demo when omitted); with `profile`, signed in as that
        saved profile. Answers a page session (``PageSession``, or ``AsyncPageSession`` awaited)."""
        body: dict[str, Any] = {"url": url}
        if timeout_ms:
            body["timeout_ms"] = timeout_ms
        if profile is not None:
            body["profile"] = profile
        return self._send(Call("POST", "/sessions", json=body, read=lambda data: self._page_class(
            self, SessionInfo.model_validate(data["session"]), PageModel.model_validate(data["model"]))))

    def save_profile(self, session: str, name: str) -> ProfileInfo:
        """Save the sign-in of session `session` (an id: a person saves what an agent's session holds)
        as the profile `name`; a person's or the operator's client only."""
        return self._send(Call("POST", f"/sessions/{session}/profile", json={"name": name}, read=ProfileInfo.model_validate))

    def profiles(self) -> list[ProfileInfo]:
        """The saved profiles: names and dates."""
        return self._send(Call("GET", "/profiles", read=lambda data: [ProfileInfo.model_validate(p) for p in data["profiles"]]))

    def delete_profile(self, name: str) -> None:
        return self._send(Call("DELETE", f"/profiles/{name}", read=lambda data: None))

    def sessions(self) -> list[SessionInfo]:
        return self._send(Call("GET", "/sessions", read=lambda data: [SessionInfo.model_validate(item) for item in data]))


def _window(offset: int, limit: int, type: str | None, ids: list[str] | None) -> dict[str, Any]:
    params: dict[str, Any] = {"offset": offset, "limit": limit}
    if type:
        params["type"] = type
    if ids:
        params["ids"] = ",".join(ids)
    return params


class _PageCalls:
    """One open page; every method is one HTTP call (retried as the client's are)."""

    def __init__(self, client: _ClientCalls, info: SessionInfo, model: PageModel) -> None:
        self.client = client
        self.info = info
        self.id = info.id
        self.model = model

    def _send(self, call: Call) -> Any:
        return self.client._send(call)

    def _keep(self, model: PageModel) -> PageModel:
        self.model = model
        return model

    def read_model(self, *, offset: int = 0, limit: int = 50, type: str | None = None, ids: list[str] | None = None) -> PageModel:
        return self._send(Call("GET", f"/sessions/{self.id}/model", params=_window(offset, limit, type, ids),
                               read=lambda data: self._keep(PageModel.model_validate(data))))

    def brief_model(self, *, offset: int = 0, limit: int = 50, type: str | None = None,
                    ids: list[str] | None = None) -> BriefModel:
        """The brief model (``detail=brief``: ids, labels, fields, actions with params and availability,
        state values; docs/model.md). ``model`` keeps the last whole model read."""
        params = {**_window(offset, limit, type, ids), "detail": "brief"}
        return self._send(Call("GET", f"/sessions/{self.id}/model", params=params, read=BriefModel.model_validate))

    def invoke(self, action: str, args: Any = None, *, evidence: bool = True, detail: Literal["full", "brief"] = "full",
               idempotency_key: str | None = None) -> Receipt:
        """Run one action. ``detail="brief"``: the receipt comes without its log and timings (empty here)."""
        body: dict[str, Any] = {"action": action, "args": args, "evidence": evidence}
        if detail != "full":
            body["detail"] = detail
        return self._send(Call("POST", f"/sessions/{self.id}/invoke", json=body, headers=_keyed(idempotency_key), read=_receipt))

    def tools(self, format: Format = "openai") -> list[dict[str, Any]]:
        return self._send(Call("GET", f"/sessions/{self.id}/tools", params={"format": format}, read=lambda data: data["tools"]))

    def call_tool(self, name: str, arguments: dict[str, Any] | str, *, idempotency_key: str | None = None) -> Receipt:
        """Call a tool; `arguments` as an object or the JSON text the model returned."""
        return self._send(Call("POST", f"/sessions/{self.id}/tools/{name}", json={"arguments": arguments},
                               headers=_keyed(idempotency_key), read=_receipt))

    def resume(self, handle: str) -> Receipt:
        return self._send(Call("POST", f"/sessions/{self.id}/resume", json={"handle": handle}, read=_receipt))

    def pending(self) -> list[PendingRequest]:
        return self._send(Call("GET", f"/sessions/{self.id}/pending",
                               read=lambda data: [PendingRequest.model_validate(p) for p in data["pending"]]))

    def receipts(self, after: int = 0) -> list[dict[str, Any]]:
        return self._send(Call("GET", f"/sessions/{self.id}/receipts", params={"after": after}, read=lambda data: data["receipts"]))

    def screenshot(self) -> bytes:
        return self._send(Call("GET", f"/sessions/{self.id}/screenshot"))

    def close(self) -> None:
        """Close the session (and its browser context). Closing one that is already gone is not an error."""
        return self._send(Call("DELETE", f"/sessions/{self.id}", read=lambda data: None, ignore=(SessionNotFound, SessionLost)))


class PageSession(_PageCalls):
    def __enter__(self) -> PageSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncPageSession(_PageCalls):
    """``PageSession``'s methods, each returning an awaitable; ``async with`` closes the session."""

    async def __aenter__(self) -> AsyncPageSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()  # type: ignore[misc]


def _headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Client(_ClientCalls):
    _page_class = PageSession

    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, token: str | None = None, timeout: float = 180,
                 retries: Retries = Retries()) -> None:
        self._http = httpx.Client(base_url=base_url, headers=_headers(token), timeout=timeout)
        self._sender = SyncSender(self._http, retries)

    def _send(self, call: Call) -> Any:
        return self._sender.send(call)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()


class AsyncClient(_ClientCalls):
    """``Client``'s methods, each returning an awaitable (``await pling.open()``); ``async with`` closes it."""

    _page_class = AsyncPageSession

    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, token: str | None = None, timeout: float = 180,
                 retries: Retries = Retries()) -> None:
        self._http = httpx.AsyncClient(base_url=base_url, headers=_headers(token), timeout=timeout)
        self._sender = AsyncSender(self._http, retries)

    def _send(self, call: Call) -> Any:
        return self._sender.send(call)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
