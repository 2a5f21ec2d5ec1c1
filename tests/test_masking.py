"""Issue 14, findings 2 and 3: values that must stay secret (the operator's secrets, and the values a
session restored for its pages) are masked in everything the service writes about a session, not only
in the model and the receipt: its address and title, the refused list, log lines, the console, MCP and
screenshots. Anything that could leave is aimed at a loopback canary that counts what reaches it."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from urllib.parse import quote

import httpx
import pytest

from . import patient
from .conftest import Pages, ServiceThread, problem, serving
from .server import FixtureServer
from .test_console import _read_stream

# The secured service, its pages and the loopback canary are test_security.py's (the same secrets).
from .test_security import API_KEY, CARD, canary, secured, spages  # noqa: E402,F401  (pytest fixtures)


def _clear(text: str) -> list[str]:
    """The forms of the secrets found in `text` (as they are, URL-encoded, grouped, last digits)."""
    forms = (CARD, "4111 1111 1111 1111", CARD[-8:], API_KEY, quote(API_KEY, safe=""))
    return [form for form in forms if form in text]


def test_a_restored_secret_the_page_writes_into_its_address_and_title_is_masked_everywhere(
        spages: Pages, secured: ServiceThread, canary: FixtureServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pling_browser.egress")
    # The page asks a loopback name the policy refuses for the canary's port: nothing may reach it.
    sink = canary.url("x").replace("127.0.0.1", "localhost")
    page = spages.open("pages/security/echo_secret.html?sink=" + quote(sink, safe=""))
    receipt = page.invoke("echo", {"value": "<secret>CARD</secret>"})
    assert receipt["ok"] is True, receipt
    assert page.model()["state"]["echoed"]["value"] == 1
    client = spages.client
    info = client.get(f"/sessions/{page.id}").json()
    # The page did write it: the address and title carry the mark where the card was, and the request
    # that carried it was refused and listed.
    assert "?v=<secret>" in info["url"] or "?v=%3Csecret%3E" in info["url"], info
    assert info["title"].startswith("Echo <secret>"), info
    assert any("localhost" in refusal["target"] and "v=" in refusal["target"] for refusal in info["refused"]), info
    refused_lines = [r.getMessage() for r in caplog.records if r.name == "pling_browser.egress" and "localhost" in r.getMessage()]
    assert refused_lines, caplog.text
    written = {
        "GET /sessions/{sid}": json.dumps(info),
        "GET /sessions": client.get("/sessions").text,
        "/console/state": client.get("/console/state").text,
        "/console/events": _read_stream(secured.url, "/console/events", "event: state"),
        "/console/sessions/{sid}/view": _read_stream(secured.url, f"/console/sessions/{page.id}/view", "event: frame"),
        "log": caplog.text + "\n".join(refused_lines),
        "receipt": json.dumps(receipt),
        "model": json.dumps(page.model()),
    }
    leaks = {where: _clear(text) for where, text in written.items() if _clear(text)}
    assert not leaks, leaks
    assert canary.requests == []


def test_an_operator_secret_a_page_shows_is_masked_in_session_info_and_over_mcp(
        secured: ServiceThread, fixtures: FixtureServer) -> None:
    """A page that shows the operator's API key (a dashboard: in its address and title) from the
    start: MCP's open_page answers the session and the model without it, and so does REST."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    url = fixtures.url("pages/security/echo_secret.html?show=" + API_KEY)

    async def scenario() -> dict:
        client = httpx2.AsyncClient(timeout=60)
        async with client, Client(streamable_http_client(f"{secured.url}/mcp", http_client=client)) as mcp:
            opened = await mcp.call_tool("open_page", {"url": url})
            content = opened.structured_content or {}
            listed = patient.get(f"{secured.url}/sessions").text
            await mcp.call_tool("close_page", {"session": content["session"]["id"]})
            return {"open_page": content, "listed": listed}

    answer = asyncio.run(asyncio.wait_for(scenario(), 90))
    session = answer["open_page"]["session"]
    assert session["title"] == "Key <secret>restored</secret>", session
    assert "show=<secret>restored</secret>" in session["url"], session
    assert not _clear(json.dumps(answer)), _clear(json.dumps(answer))


def _pixels(png: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, bytes per pixel and the unfiltered rows of an 8-bit, non-interlaced PNG (what
    Chromium writes), read with zlib alone."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        data = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
        at += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0 and color in (2, 6), (depth, color, interlace)
    bpp = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row
        prev = row
    return width, height, bpp, bytes(out)


def _masked_share(png: bytes, box: dict) -> float:
    """The share of the box's pixels painted in Playwright's mask colour (#FF00FF)."""
    width, _, bpp, pixels = _pixels(png)
    inside = masked = 0
    for y in range(int(box["y"]) + 1, int(box["y"] + box["height"]) - 1):
        for x in range(int(box["x"]) + 1, min(width, int(box["x"] + box["width"])) - 1):
            at = (y * width + x) * bpp
            inside += 1
            masked += pixels[at:at + 3] == b"\xff\x00\xff"
    return masked / max(1, inside)


def test_page_text_showing_an_operator_secret_is_masked_in_the_screenshot(spages: Pages, secured: ServiceThread) -> None:
    page = spages.open("pages/security/echo_secret.html?show=" + API_KEY)

    async def box(runtime) -> dict:
        return await runtime.sessions.get(page.id).page.locator("#shown").bounding_box()

    shown = secured.in_service(box)
    shot = spages.client.get(f"/sessions/{page.id}/screenshot")
    assert shot.status_code == 200 and shot.headers["content-type"] == "image/png"
    assert _masked_share(shot.content, shown) > 0.9


def test_page_text_showing_a_restored_value_grouped_is_masked_in_the_screenshot(spages: Pages, secured: ServiceThread) -> None:
    page = spages.open("pages/security/echo_secret.html")
    assert page.invoke("echo", {"value": "<secret>CARD</secret>"})["ok"] is True

    async def shown(runtime) -> tuple[str, dict]:
        locator = runtime.sessions.get(page.id).page.locator("#shown")
        return await locator.text_content(), await locator.bounding_box()

    text, box = secured.in_service(shown)
    assert text == "Paid with 4111 1111 1111 1111"  # the page shows the card, grouped
    shot = spages.client.get(f"/sessions/{page.id}/screenshot")
    assert shot.status_code == 200
    assert _masked_share(shot.content, box) > 0.9


def test_masked_log_lines_keep_their_template_so_a_flood_is_still_rate_limited() -> None:
    """A page flooding refused requests that each carry a secret (and differ otherwise) must be
    masked and still counted as one line by the repeat limit; a number or a value split over two
    arguments is masked too."""
    import io

    from pling_browser.core.outbound import LOG_MASKING, mask_logs
    from pling_browser.server.limits import RepeatLimit

    class Source:
        def masked_values(self) -> list[str]:
            return [CARD]

    logger = logging.getLogger("pling_browser.egress")
    source = Source()
    mask_logs(source)
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RepeatLimit(burst=2))
    logger.addHandler(handler)
    level, logger.level = logger.level, logging.INFO
    try:
        for n in range(5):
            logger.info("refused %s: %s", f"GET http://localhost/x?v={CARD}&n={n}", "a loopback name")
        logger.info("a number %d", int(CARD))
        logger.info("split %s%s", CARD[:8], CARD[8:])
    finally:
        logger.removeHandler(handler)
        logger.level = level
        LOG_MASKING._sources.discard(source)
    lines = out.getvalue().splitlines()
    assert not _clear(out.getvalue()), lines
    assert len([line for line in lines if line.startswith("refused")]) == 2, lines
    assert lines[-2:] == ["a number <secret>restored</secret>", "split <secret>restored</secret>"]


def test_a_confirmation_a_person_is_asked_shows_no_operator_secret(fixtures: FixtureServer, tmp_path) -> None:
    """/pending (and the console's pending events) show what the page declared about an action:
    masked like everything else written about the session."""
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"CARD={CARD}\nAPI_KEY={API_KEY}\n")
    with serving(secrets_file=str(secrets), approve=(), confirm="http",
                 confirm_timeout_s=20.0) as svc:
        with httpx.Client(base_url=svc.url, timeout=60) as client:
            opened = Pages(client, fixtures)
            page = opened.open("pages/security/echo_secret.html?show=" + API_KEY)
            result: dict = {}

            def invoke() -> None:
                with httpx.Client(base_url=svc.url, timeout=60) as own:
                    result.update(own.post(f"/sessions/{page.id}/invoke", json={"action": "revoke"}).json())

            worker = threading.Thread(target=invoke, daemon=True)
            worker.start()
            pending: list = []
            for _ in range(400):
                pending = client.get(f"/sessions/{page.id}/pending").json()["pending"]
                if pending:
                    break
                threading.Event().wait(0.05)
            assert pending, "no confirmation was asked for"
            # A person denies (before anything is asserted, so the invocation ends either way).
            answered = client.post(f"/sessions/{page.id}/confirmations/{pending[0]['id']}", json={"approve": False})
            worker.join(30)
            assert answered.status_code == 200, answered.text
            assert result["result"]["error"]["code"] == "PERMISSION_DENIED"
            assert pending[0]["description"] == "Revoke the key <secret>restored</secret>", pending
            assert not _clear(json.dumps(pending))
            opened.close_all()


def test_a_problem_about_a_session_leaves_through_its_way_out(spages: Pages) -> None:
    """A problem's detail may repeat what an agent or a page wrote (here an operator secret sent as a
    tab id): it is masked with the session's values, as the session's other answers are, and is
    otherwise the same problem."""
    page = spages.open("pages/security/echo_secret.html")
    answer = spages.client.get(f"/sessions/{page.id}/model", params={"tab": API_KEY})
    body = problem(answer)
    assert body["code"] == "TAB_NOT_FOUND" and "<secret>restored</secret>" in body["detail"], body
    assert API_KEY not in answer.text
    unmasked = spages.client.get(f"/sessions/{page.id}/model", params={"tab": "t99"})
    assert "'t99'" in problem(unmasked)["detail"]


def test_an_mcp_problem_leaves_through_the_way_out_of_the_session_it_names(
        secured: ServiceThread, fixtures: FixtureServer) -> None:
    """MCP's problems as REST's: an operator secret sent as a resume handle comes back masked in the
    RESUME_NOT_FOUND problem about that session, which is otherwise whole."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def scenario() -> tuple[bool, str]:
        client = httpx2.AsyncClient(timeout=60)
        async with client, Client(streamable_http_client(f"{secured.url}/mcp", http_client=client)) as mcp:
            opened = await mcp.call_tool("open_page", {"url": fixtures.url("pages/security/echo_secret.html")})
            sid = (opened.structured_content or {})["session"]["id"]
            resumed = await mcp.call_tool("resume", {"session": sid, "handle": API_KEY})
            await mcp.call_tool("close_page", {"session": sid})
            return bool(resumed.is_error), resumed.content[0].text

    is_error, text = asyncio.run(asyncio.wait_for(scenario(), 90))
    details = json.loads(text)
    assert is_error and details["code"] == "RESUME_NOT_FOUND", details
    assert "<secret>restored</secret>" in details["detail"] and API_KEY not in text, details



def test_a_restored_value_that_is_a_word_of_the_receipt_leaves_the_receipt_answered(pages: Pages) -> None:
    # literal_receipt.html's sensitive code is "policy", the word the receipt's approved_by.via says
    # for an action PLING_APPROVE approves: masked there, the receipt is still answered (and kept).
    page = pages.open("pages/security/literal_receipt.html")
    ref = page.model()["records"]["key"]["items"][0]["fields"]["code"]
    assert ref.startswith("<secret>"), ref
    answer = page.client.post(f"/sessions/{page.id}/invoke", json={"action": "approved_danger", "args": {"value": ref}})
    assert answer.status_code == 200, answer.text
    receipt = answer.json()["result"]
    assert receipt["ok"] is True, receipt
    assert page.model()["state"]["used"]["value"] == 1


def test_a_restored_value_that_is_a_number_of_the_receipt_leaves_it_answered_without_the_number(pages: Pages) -> None:
    # literal_number.html shows 1,234 rows, the first with the sensitive code "1234": handed back, the
    # value is masked whole in the row count, which its field types as a number.
    page = pages.open("pages/security/literal_number.html")
    ref = page.model(ids="r0")["records"]["row"]["items"][0]["fields"]["code"]
    assert ref.startswith("<secret>"), ref
    answer = page.client.post(f"/sessions/{page.id}/invoke", json={"action": "use", "args": {"value": ref}})
    assert answer.status_code == 200, answer.text
    receipt = answer.json()["result"]
    assert receipt["ok"] is True and "changed" not in receipt, receipt
    assert "what changed and the timings are left out" in receipt["warning"], receipt
    assert "1234" not in json.dumps(receipt), receipt
