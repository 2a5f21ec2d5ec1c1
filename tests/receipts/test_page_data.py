"""Nothing a page sends can make the service answer 500 or lose a receipt, and a restored secret
never leaves in a receipt in any of the forms pages echo it in. A property-based test over the
whole path: page value -> bridge (bounds, JSON) -> controller (validation, scrub) -> HTTP."""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..conftest import ServiceThread, service_settings
from ..server import FixtureServer

CARD = "4111111111111111"
FORMS = ["raw", "in_text", "number", "grouped", "dashed", "base64", "url", "key"]
FORBIDDEN = [CARD, "4111 1111 1111 1111", "4111-1111-1111-1111", base64.b64encode(CARD.encode()).decode().rstrip("="),
             urllib.parse.quote(CARD)]

# Strings as UTF-16 code units: lone surrogates, a pair cut in half, NUL, emoji, plain text.
units = st.lists(st.sampled_from([0xD800, 0xDC00, 0xD83D, 0xDE00, 0, 0x41, 0x61, 0xE9, 0x202E, 0x3C]), max_size=12)
long_units = st.integers(min_value=190, max_value=260).map(lambda n: [0x61] * (n - 1) + [0xD83D, 0xDE00])
leaf = st.one_of(
    st.tuples(st.just("s"), st.one_of(units, long_units)).map(list),
    st.tuples(st.just("n"), st.one_of(st.sampled_from(["NaN", "Infinity", "-Infinity", "-0"]),
                                      st.integers(-2**60, 2**60), st.floats(allow_nan=False, allow_infinity=False))).map(list),
    st.tuples(st.just("b"), st.booleans()).map(list),
    st.just(["null"]),
    st.tuples(st.just("secret"), st.sampled_from(FORMS)).map(list),
    st.just(["cycle"]),
    st.tuples(st.just("deep"), st.integers(1, 3000)).map(list),
)
spec = st.recursive(leaf, lambda inner: st.one_of(
    st.tuples(st.just("list"), st.lists(inner, max_size=5)).map(list),
    st.tuples(st.just("obj"), st.lists(st.tuples(units, inner).map(list), max_size=5)).map(list),
), max_leaves=12)


@pytest.fixture(scope="module")
def echo(tmp_path_factory: pytest.TempPathFactory, fixtures: FixtureServer) -> Iterator[tuple[ServiceThread, httpx.Client, str]]:
    secrets = tmp_path_factory.mktemp("secrets") / "secrets.env"
    secrets.write_text(f"CARD={CARD}\n")
    svc = ServiceThread(service_settings(secrets_file=str(secrets))).start()
    client = httpx.Client(base_url=svc.url, timeout=60)
    opened = client.post("/sessions", json={"url": fixtures.url("pages/receipts/echo.html")})
    assert opened.status_code == 201, opened.text
    yield svc, client, opened.json()["session"]["id"]
    client.close()
    svc.stop()


def _set_next(svc: ServiceThread, sid: str, value: Any) -> None:
    async def work(runtime: Any) -> None:
        await runtime.sessions.get(sid).page.evaluate("v => { window.__next = v; }", value)

    svc.in_service(work)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=spec)
def test_any_page_value_answers_a_receipt_and_never_the_secret(echo: tuple[ServiceThread, httpx.Client, str],
                                                               value: list[Any]) -> None:
    svc, client, sid = echo
    _set_next(svc, sid, value)
    answer = client.post(f"/sessions/{sid}/invoke", json={"action": "echo", "args": {"card": "<secret>CARD</secret>"}})
    assert answer.status_code == 200, answer.text[:500]
    text = answer.content.decode("utf-8")  # valid UTF-8, whatever the page sent
    receipt = json.loads(text)["result"]
    assert receipt["ok"] is True, receipt.get("error")
    for form in FORBIDDEN:
        assert form not in text, (form, value)
    log = client.get(f"/sessions/{sid}/receipts", params={"limit": 1})
    assert log.status_code == 200


def test_the_surrogates_page_opens_reads_and_runs(echo: tuple[ServiceThread, httpx.Client, str],
                                                  fixtures: FixtureServer) -> None:
    _, client, _ = echo
    opened = client.post("/sessions", json={"url": fixtures.url("pages/real/surrogates.html")})
    assert opened.status_code == 201, opened.text[:300]
    sid = opened.json()["session"]["id"]
    try:
        model = client.get(f"/sessions/{sid}/model").json()
        assert model["page"]["name"] == "Text \ufffd that is not quite text"
        assert model["state"]["nan"]["value"] == "NaN"  # numbers JSON cannot carry are named as text
        cut = model["state"]["cut"]["value"]
        assert "\ufffd" not in cut  # the emoji across the cut is dropped whole, never split
        weird = client.post(f"/sessions/{sid}/invoke", json={"action": "weird"}).json()["result"]
        assert weird["ok"] is True and weird["data"]["lone"] == "\ufffd" and weird["data"]["nan"] == "NaN"
        touch = client.post(f"/sessions/{sid}/invoke", json={"action": "touch"}).json()["result"]
        assert touch["ok"] is True and touch["changed"]["records"]["text"]["added"] == ["t5"]
    finally:
        client.delete(f"/sessions/{sid}")


def test_fields_added_and_removed_say_what_they_were_and_became(pages: Any) -> None:
    page = pages.open("pages/receipts/fields.html")
    added = page.invoke("add_b")
    assert added["changed"]["records"]["row"]["updated"] == [{"id": "r1", "changes": {"b": {"from": None, "to": 2}}}]
    # A field that appears as null did not change in value: nothing is reported, and the write warns.
    nulled = page.invoke("add_null")
    assert nulled["changed"]["records"] == {} and "nothing it declares changed" in nulled["warning"], nulled
    dropped = page.invoke("drop_a")
    assert dropped["changed"]["records"]["row"]["updated"] == [{"id": "r1", "changes": {"a": {"from": 1, "to": None}}}]
