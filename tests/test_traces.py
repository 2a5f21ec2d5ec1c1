"""`trace: true` records a Playwright trace of one invocation, served by the receipt it belongs to;
a session whose pages hold restored values gets no trace, and the receipt says why (tests/test_attacks.py
reads the zips: a trace never holds a restored value)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Pages, ServiceThread, serving
from .server import FixtureServer


def test_a_traced_invocation_has_a_trace_the_viewer_reads(client: httpx.Client, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    answer = client.post(f"/sessions/{page.id}/invoke", json={"action": "toggle@t3", "trace": True})
    receipt = answer.json()["result"]
    assert receipt["ok"] is True and receipt["trace"].startswith(f"/sessions/{page.id}/traces/t_"), receipt
    trace = client.get(receipt["trace"])
    assert trace.status_code == 200 and trace.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(trace.content)).namelist()
    assert "trace.trace" in names and "trace.network" in names, names  # Playwright's trace format
    # The same file through the receipt log's sequence number, as SPEC names it.
    log = client.get(f"/sessions/{page.id}/receipts").json()["receipts"]
    seq = [entry["seq"] for entry in log if entry["receipt"].get("trace") == receipt["trace"]][0]
    assert client.get(f"/sessions/{page.id}/receipts/{seq}/trace").content == trace.content
    # An invocation that asked for none has none.
    plain = page.invoke("toggle@t3")
    assert "trace" not in plain
    seq_plain = client.get(f"/sessions/{page.id}/receipts").json()["receipts"][-1]["seq"]
    assert client.get(f"/sessions/{page.id}/receipts/{seq_plain}/trace").status_code == 404
    assert client.get(f"/sessions/{page.id}/traces/../../etc").status_code == 404


@pytest.fixture(scope="module")
def secret_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    secrets = tmp_path_factory.mktemp("secrets") / "secrets.env"
    secrets.write_text("CARD=4111111111111111\n")
    with serving(secrets_file=str(secrets)) as svc:
        yield svc


def test_no_trace_in_a_session_that_holds_restored_secrets(secret_service: ServiceThread, fixtures: FixtureServer) -> None:
    with httpx.Client(base_url=secret_service.url, timeout=60) as client:
        opened = client.post("/sessions", json={"url": fixtures.url("pages/receipts/echo.html")}).json()
        sid = opened["session"]["id"]
        try:
            first = client.post(f"/sessions/{sid}/invoke", json={"action": "echo", "args": {"card": "<secret>CARD</secret>"}})
            assert first.json()["result"]["ok"] is True
            traced = client.post(f"/sessions/{sid}/invoke", json={"action": "echo", "args": {"card": "x"}, "trace": True})
            receipt = traced.json()["result"]
            assert receipt["ok"] is True and "trace" not in receipt
            assert "were given restored values" in receipt["warning"]
            data_dir = Path(secret_service.app.state.runtime.settings.data_dir)
            assert not any((data_dir / "traces" / sid).glob("*.zip"))
        finally:
            client.delete(f"/sessions/{sid}")
