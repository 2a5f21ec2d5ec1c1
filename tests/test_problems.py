"""Every HTTP problem has one shape, rendered in server/problems.py: errors raised by routes, refusals
of the framework (404, 405 with its Allow header), the access guard's refusals, and any unexpected
exception (500 INTERNAL_ERROR, never a plain-text 500)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pling_browser.server.api import create_app

from . import patient
from .conftest import ServiceThread, problem, service_settings


def _problem(answer: httpx.Response) -> dict[str, Any]:
    details = problem(answer)  # RFC 9457: application/problem+json, type, title, status, detail, code
    assert details["detail"] and details["hint"], details
    assert "stage" not in details and "started" not in details and "message" not in details, details
    return details


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


@pytest.mark.parametrize(("path", "allow"), [
    ("/sessions", "GET, POST"),  # two routes of one path: Starlette alone names the first one's method
    ("/sessions/abc", "GET, DELETE"),
    ("/sessions/abc/tabs/t1", "POST, DELETE"),
    ("/profiles", "GET"),
    ("/demo/todos.html", "GET, HEAD"),  # the demo's static files
])
def test_a_405_lists_every_method_of_its_path(path: str, allow: str) -> None:
    app = create_app(service_settings())
    answer = _ask(app, "PUT", path)
    assert answer.status_code == 405 and _problem(answer)["code"] == "METHOD_NOT_ALLOWED"
    assert answer.headers["allow"] == allow and _problem(answer)["allow"] == allow


def test_a_problem_type_is_documented_on_the_page_it_points_at() -> None:
    app = create_app(service_settings(token="t0ken"))
    details = _problem(_ask(app, "GET", "/sessions"))  # 401: no token
    page = _ask(app, "GET", details["type"].split("#")[0])  # public, as /healthz: a person follows the link
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    anchor = details["type"].split("#")[1]
    assert f'id="{anchor}"' in page.text and details["title"] in page.text and "Send `Authorization" in page.text
    from pling_browser.errors import INVOCATION_CODES, SERVICE_CODES

    assert all(f'id="{code}"' in page.text for code in [*SERVICE_CODES, *INVOCATION_CODES])


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
    answer = patient.get(f"{service.url}/sessions/nope")
    assert answer.status_code == 404 and _problem(answer)["code"] == "SESSION_NOT_FOUND"


# ---- generated: every error answer is problem details, every 405 names every method of its path -----

_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
_SEGMENT = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789_-.~%"), min_size=1, max_size=10)


def _documented_methods(document: dict[str, Any], path: str) -> set[str]:
    """Every method the OpenAPI document gives a template that matches `path` (a path may match several)."""
    found: set[str] = set()
    for template, operations in document["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
            found |= {method.upper() for method in operations}
    return found


def test_every_generated_error_is_problem_details_and_every_405_lists_its_paths_methods(service: ServiceThread) -> None:
    document = patient.get(f"{service.url}/openapi.json").json()
    templates = sorted(document["paths"]) + ["/no/such/{x}", "/sessions/{sid}/{x}", "/{x}"]
    seen: dict[int, int] = {}

    @given(template=st.sampled_from(templates), method=st.sampled_from(_METHODS), values=st.lists(_SEGMENT, min_size=4, max_size=4),
           body=st.sampled_from([None, b"{", b"{}", b'{"arguments": 5}', b"[]"]))
    @settings(max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def ask(template: str, method: str, values: list[str], body: bytes | None) -> None:
        names = re.findall(r"\{([^}]+)\}", template)
        path = template
        for name, value in zip(names, values, strict=False):  # a template has at most 4 names
            path = path.replace("{" + name + "}", value, 1)
        if path == "/sessions" and method == "POST" and body not in (None, b"{", b"[]"):
            body = b'{"url": "file:///nothing"}'  # an object would open the demo; a refused URL is an error instead
        headers = {"content-type": "application/json"} if body is not None else {}
        answer = http.request(method, path, content=body, headers=headers)
        seen[answer.status_code] = seen.get(answer.status_code, 0) + 1
        if answer.status_code < 400:
            return
        assert answer.headers["content-type"] == "application/problem+json", (method, path, answer.status_code, answer.text[:200])
        if method != "HEAD":
            problem(answer)
        if answer.status_code == 405:
            allowed = {m.strip() for m in answer.headers["allow"].split(",")}
            assert allowed == _documented_methods(document, answer.url.path), (method, path, answer.headers["allow"])

    with httpx.Client(base_url=service.url, timeout=60) as http:
        ask()
    assert seen.get(201, 0) == 0  # nothing generated opened a page
    assert seen.get(405, 0) >= 20 and seen.get(404, 0) >= 20 and seen.get(400, 0) >= 5, seen
