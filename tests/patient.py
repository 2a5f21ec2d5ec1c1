"""httpx's one-call functions for the tests, with a timeout a loaded machine meets: httpx's own default is
5 s, and a service or a page answering a test waits its turn beside the other worker and other people's
runs (a 5 s read timeout failed tests at load 20 that passed on a rerun). A call given its own `timeout`
keeps it (a health poll that retries, a bound the test is about). `httpx.get(...)` and its kind are
banned in tests/ (ruff's TID251, pyproject.toml): use these, or a client made with a timeout."""

from __future__ import annotations

from typing import Any

import httpx

TIMEOUT_S = 60.0  # a ceiling for a loaded machine, not a measurement: an answer that never comes still fails


def request(method: str, url: str, **options: Any) -> httpx.Response:
    options.setdefault("timeout", TIMEOUT_S)
    return httpx.request(method, url, **options)  # noqa: TID251 - the one place that calls it


def get(url: str, **options: Any) -> httpx.Response:
    return request("GET", url, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return request("POST", url, **options)


def delete(url: str, **options: Any) -> httpx.Response:
    return request("DELETE", url, **options)
