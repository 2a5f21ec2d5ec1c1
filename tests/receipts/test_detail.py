"""Brief receipts: `detail: "brief"` answers a receipt without its `log` and `timings_ms`; the receipt
log keeps the whole receipt, and the answer says everything else a full one says."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import Pages, problem

BRIEF_LEAVES_OUT = {"log", "timings_ms"}


def _logged(client: httpx.Client, sid: str) -> list[dict[str, Any]]:
    answer = client.get(f"/sessions/{sid}/receipts")
    assert answer.status_code == 200, answer.text
    return [entry["receipt"] for entry in answer.json()["receipts"]]


def test_a_brief_answer_lacks_the_log_and_timings_the_receipt_log_keeps(pages: Pages, client: httpx.Client) -> None:
    page = pages.open("demo/todos.html")
    brief = page.invoke("add_todo", {"text": "Brief"}, detail="brief")
    assert brief["ok"] is True and brief["action"]["id"] == "add_todo"
    assert not BRIEF_LEAVES_OUT & set(brief), brief
    full = page.invoke("toggle@t3")  # the default is the whole receipt
    assert full["ok"] is True and full["log"] and full["timings_ms"]

    logged = _logged(client, page.id)
    assert [r["action"]["id"] for r in logged] == ["add_todo", "toggle@t3"]
    assert logged[0]["log"] and logged[0]["timings_ms"]  # stored whole
    assert {k: v for k, v in logged[0].items() if k not in BRIEF_LEAVES_OUT} == brief  # nothing else left out
    assert logged[1] == full

    # A tool call, and an idempotent retry that asks for less: the first receipt, brief, nothing run twice.
    headers = {"Idempotency-Key": "brief-retry"}
    first = client.post(f"/sessions/{page.id}/tools/add_todo", headers=headers, json={"arguments": {"text": "Once"}})
    again = client.post(f"/sessions/{page.id}/tools/add_todo", headers=headers,
                        json={"arguments": {"text": "Once"}, "detail": "brief"})
    assert first.status_code == again.status_code == 200, again.text
    assert first.json()["result"]["log"]
    assert again.json()["result"] == {k: v for k, v in first.json()["result"].items() if k not in BRIEF_LEAVES_OUT}
    assert [r["action"]["id"] for r in _logged(client, page.id)] == ["add_todo", "toggle@t3", "add_todo"]

    wrong = client.post(f"/sessions/{page.id}/invoke", json={"action": "toggle@t3", "detail": "terse"})
    assert wrong.status_code == 400 and problem(wrong)["issues"][0]["path"] == "body/detail", wrong.text


def test_a_resumed_flow_answers_brief_too(pages: Pages, client: httpx.Client) -> None:
    page = pages.open("pages/flows/orders.html")
    failed = page.invoke("publish", detail="brief")
    assert failed["error"]["code"] == "STEP_FAILED" and not BRIEF_LEAVES_OUT & set(failed)
    assert page.invoke("review")["ok"] is True
    resumed = client.post(f"/sessions/{page.id}/resume", json={"handle": failed["error"]["resume"], "detail": "brief"})
    assert resumed.status_code == 200, resumed.text
    receipt = resumed.json()["result"]
    assert receipt["ok"] is True and [s["action"] for s in receipt["steps"]] == ["save_draft", "publish_draft"]
    assert not BRIEF_LEAVES_OUT & set(receipt), receipt
    stored = _logged(client, page.id)[-1]
    assert stored["steps"] == receipt["steps"] and stored["log"] and stored["timings_ms"]
