"""Every HTTP problem has one shape, rendered in server/problems.py: errors raised by routes, refusals
of the framework (404, 405 with its Allow header), the access guard's refusals, and any unexpected
exception (500 INTERNAL_ERROR, never a plain-text 500)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from pling_browser.server.api import create_app

from .conftest import ServiceThread, service_settings


def _problem(answer: httpx.Response) -> dict[str, Any]:
    assert answer.headers["content-type"] == "application/json", answer.text
    error: dict[str, Any] = answer.json()["error"]
    assert error["status"] == answer.status_code and error["message"] and error["hint"], error
    assert "stage" not in error and "started" not in error, error
    return error


def _ask(app: Any, method: str, path: str, **options: Any) -> httpx.Response:
    """One request to the app in process (no lifespan: routes that need no browser only)."""

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as client:
            return await client.request(method, path, **options)

    return asyncio.run(ask())


def test_an_unexpected_exception_is_a_500_problem_not_plain_text() -> None:
    app = create_app(service_settings())

    async def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/broken", broken)
    answer = _ask(app, "GET", "/broken")
    assert answer.status_code == 500
    assert _problem(answer)["code"] == "INTERNAL_ERROR"
    assert "a bug" not in answer.text  # the traceback goes to the log, not to the caller


def test_a_method_the_path_does_not_take_is_405_with_allow() -> None:
    app = create_app(service_settings())
    answer = _ask(app, "PUT", "/healthz")
    assert answer.status_code == 405 and _problem(answer)["code"] == "METHOD_NOT_ALLOWED"
    assert answer.headers["allow"] == "GET"
    answer = _ask(app, "PATCH", "/sessions/abc/invoke", json={})
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"


def test_unknown_paths_and_invalid_bodies_are_problems() -> None:
    app = create_app(service_settings())
    assert _problem(_ask(app, "GET", "/no/such/route"))["code"] == "NOT_FOUND"
    answer = _ask(app, "POST", "/sessions/abc/invoke", content=b"{not json", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and _problem(answer)["code"] == "BAD_REQUEST"


@pytest.mark.parametrize("token", [None, "t0ken"])
def test_the_access_guard_refusals_are_problems(token: str | None) -> None:
    app = create_app(service_settings(token=token))
    forbidden = _ask(app, "GET", "/sessions", headers={"Origin": "http://attacker.example"})
    assert forbidden.status_code == 403 and _problem(forbidden)["code"] == "FORBIDDEN"
    big = _ask(app, "POST", "/sessions", content=b"x" * (1024 * 1024 + 1),
               headers={"Authorization": f"Bearer {token}"} if token else {})
    assert big.status_code == 413 and _problem(big)["code"] == "PAYLOAD_TOO_LARGE"
    if token:
        refused = _ask(app, "GET", "/sessions")
        assert refused.status_code == 401 and _problem(refused)["code"] == "UNAUTHORIZED"
        assert refused.headers["www-authenticate"] == "Bearer"


def test_a_service_error_raised_by_a_route_keeps_its_status(service: ServiceThread) -> None:
    answer = httpx.get(f"{service.url}/sessions/nope")
    assert answer.status_code == 404 and _problem(answer)["code"] == "SESSION_NOT_FOUND"
