"""A small Python client for agent code and tests: ``Client`` over httpx, with typed receipts.

    with Client("http://127.0.0.1:8000") as pling:
        page = pling.open("http://127.0.0.1:8000/demo/todos.html")
        receipt = page.invoke("add_todo", {"text": "Buy milk"})
        if not receipt.ok:
            print(receipt.error["code"], receipt.error["hint"])

HTTP problems (a closed session, a refused URL) raise the matching ``ServiceError``; an action's
failure is a receipt with ``ok`` false, as over HTTP.
"""

from __future__ import annotations

from typing import Any, Literal

import httpx

from ..errors import SERVICE_CODES, ServiceError
from ..models import PageModel, Receipt
from ..bodies import PendingRequest, ProfileInfo, SessionInfo

__all__ = ["Client", "PageSession"]


def _raise_for_problem(answer: httpx.Response) -> None:
    if answer.status_code < 400:
        return
    try:
        problem = answer.json()
        code, detail = problem["code"], problem["detail"]
    except Exception:
        raise ServiceError(f"HTTP {answer.status_code}: {answer.text[:300]}") from None
    cls = SERVICE_CODES.get(code, ServiceError)
    details = {k: v for k, v in problem.items() if k not in ("type", "title", "status", "detail", "code", "hint")}
    raise cls(detail, hint=problem.get("hint"), **details)


class Client:
    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, token: str | None = None, timeout: float = 180) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=base_url, headers=headers, timeout=timeout)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        answer = self._http.request(method, path, **kwargs)
        _raise_for_problem(answer)
        return answer.json() if answer.headers.get("content-type", "").startswith("application/json") else answer.content

    def open(self, url: str | None = None, *, timeout_ms: int | None = None, profile: str | None = None) -> "PageSession":
        """Open a session on `url`; with `profile`, signed in as that saved profile."""
        body: dict[str, Any] = {"url": url}
        if timeout_ms:
            body["timeout_ms"] = timeout_ms
        if profile is not None:
            body["profile"] = profile
        data = self.request("POST", "/sessions", json=body)
        return PageSession(self, SessionInfo.model_validate(data["session"]), PageModel.model_validate(data["model"]))

    def save_profile(self, session: str, name: str) -> ProfileInfo:
        """Save the sign-in of session `session` (an id: a person saves what an agent's session holds)
        as the profile `name`; a person's or the operator's client only."""
        return ProfileInfo.model_validate(self.request("POST", f"/sessions/{session}/profile", json={"name": name}))

    def profiles(self) -> list[ProfileInfo]:
        """The saved profiles: names and dates."""
        return [ProfileInfo.model_validate(p) for p in self.request("GET", "/profiles")["profiles"]]

    def delete_profile(self, name: str) -> None:
        self.request("DELETE", f"/profiles/{name}")

    def sessions(self) -> list[SessionInfo]:
        return [SessionInfo.model_validate(item) for item in self.request("GET", "/sessions")]


class PageSession:
    """One open page; every method is one HTTP call."""

    def __init__(self, client: Client, info: SessionInfo, model: PageModel) -> None:
        self.client = client
        self.info = info
        self.id = info.id
        self.model = model

    def read_model(self, *, offset: int = 0, limit: int = 50, type: str | None = None, ids: list[str] | None = None) -> PageModel:
        params: dict[str, Any] = {"offset": offset, "limit": limit}
        if type:
            params["type"] = type
        if ids:
            params["ids"] = ",".join(ids)
        self.model = PageModel.model_validate(self.client.request("GET", f"/sessions/{self.id}/model", params=params))
        return self.model

    def invoke(self, action: str, args: Any = None, *, evidence: bool = True, detail: Literal["full", "brief"] = "full",
               idempotency_key: str | None = None) -> Receipt:
        """Run one action. ``detail="brief"``: the receipt comes without its log and timings (empty here)."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        body: dict[str, Any] = {"action": action, "args": args, "evidence": evidence}
        if detail != "full":
            body["detail"] = detail
        data = self.client.request("POST", f"/sessions/{self.id}/invoke", headers=headers, json=body)
        return Receipt.model_validate(data["result"])

    def tools(self, format: Literal["openai", "openai-responses", "anthropic", "mcp"] = "openai") -> list[dict[str, Any]]:
        return self.client.request("GET", f"/sessions/{self.id}/tools", params={"format": format})["tools"]

    def call_tool(self, name: str, arguments: dict[str, Any], *, idempotency_key: str | None = None) -> Receipt:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        data = self.client.request("POST", f"/sessions/{self.id}/tools/{name}", headers=headers, json={"arguments": arguments})
        return Receipt.model_validate(data["result"])

    def resume(self, handle: str) -> Receipt:
        return Receipt.model_validate(self.client.request("POST", f"/sessions/{self.id}/resume", json={"handle": handle})["result"])

    def pending(self) -> list[PendingRequest]:
        return [PendingRequest.model_validate(p) for p in self.client.request("GET", f"/sessions/{self.id}/pending")["pending"]]

    def receipts(self, after: int = 0) -> list[dict[str, Any]]:
        return self.client.request("GET", f"/sessions/{self.id}/receipts", params={"after": after})["receipts"]

    def screenshot(self) -> bytes:
        return self.client.request("GET", f"/sessions/{self.id}/screenshot")

    def close(self) -> None:
        """Close the session (and its browser context). Closing one that is already gone is not an error."""
        from ..errors import SessionLost, SessionNotFound

        try:
            self.client.request("DELETE", f"/sessions/{self.id}")
        except (SessionNotFound, SessionLost):
            pass

    def __enter__(self) -> "PageSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
