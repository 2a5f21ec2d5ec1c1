"""Stage 2, decode: `args` is a JSON object or JSON text of one; anything else is INVALID_ARGS at
the decode stage, before anything ran."""

from __future__ import annotations

import json

from ..conftest import Pages

PAGE = "pages/lifecycle/params.html"


def runs(page) -> int:
    return page.model()["state"]["runs"]["value"]


def assert_invalid_args(receipt: dict) -> dict:
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "INVALID_ARGS"
    assert error["stage"] == "decode" and error["started"] is False
    assert "data" not in receipt and "changed" not in receipt
    return error


def test_args_as_json_text_work_like_an_object(pages: Pages) -> None:
    page = pages.open(PAGE)
    as_text = page.invoke("echo", json.dumps({"name": "Ada", "count": 2}))
    assert as_text["ok"] is True, as_text
    assert as_text["data"] == {"name": "Ada", "count": 2, "mode": "fast"}
    as_object = page.invoke("echo", {"name": "Ada", "count": 2})
    assert as_object["data"] == as_text["data"]
    assert runs(page) == 2


def test_bad_json_text_is_invalid_args_and_nothing_runs(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_invalid_args(page.invoke("echo", '{"name": "Ada", '))
    assert "JSON" in error["message"]
    assert isinstance(error.get("position"), int)
    assert runs(page) == 0


def test_json_text_of_an_array_is_invalid_args(pages: Pages) -> None:
    page = pages.open(PAGE)
    error = assert_invalid_args(page.invoke("echo", '[{"name": "Ada"}]'))
    assert "object" in error["message"]
    assert runs(page) == 0


def test_json_text_of_a_scalar_is_invalid_args(pages: Pages) -> None:
    page = pages.open(PAGE)
    for text in ('"Ada"', "42", "true"):
        assert_invalid_args(page.invoke("echo", text))
    assert runs(page) == 0


def test_args_given_as_a_json_array_is_an_invalid_args_receipt(pages: Pages) -> None:
    # The body's `args` is an array, not text: still an agent's mistake, so still a receipt
    # (expected failures are results, never HTTP errors).
    page = pages.open(PAGE)
    answer = page.client.post(f"/sessions/{page.id}/invoke", json={"action": "echo", "args": [{"name": "Ada"}]})
    assert answer.status_code == 200, answer.text
    error = assert_invalid_args(answer.json()["result"])
    assert "object" in error["message"]
    assert runs(page) == 0
