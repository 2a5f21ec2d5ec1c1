"""The egress policy: what a session may open, and what its page may connect to, checked on every
request and redirect by the context's own proxy. Refused addresses are never connected to."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from pling_browser.core.egress import Policy
from pling_browser.errors import NavigationRefused

from .conftest import Pages, problem
from .server import FixtureServer

# A published SSRF bypass table, ported: every spelling of an internal address, refused before any
# connection (the names resolve locally, without the network).
SSRF = [
    "http://127.0.0.1/", "http://127.1/", "http://0/", "http://0.0.0.0/", "http://2130706433/",
    "http://0x7f000001/", "http://0x7f.0x0.0x0.0x1/", "http://0177.0.0.1/", "http://017700000001/",
    "http://[::1]/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://localhost/", "http://LOCALHOST/", "http://foo.localhost/", "http://localhost./",
    "http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.1.1/", "http://100.64.0.1/",
    "http://169.254.169.254/latest/meta-data/", "http://[fd00::1]/", "http://[fe80::1]/", "http://224.0.0.1/",
    "http://[::ffff:a9fe:a9fe]/", "http://[2002:7f00:1::]/",
]
TRICKS = [
    "http://user:pass@example.com/", "http://example.com@127.0.0.1/", "file:///etc/passwd", "javascript:alert(1)",
    "data:text/html,hi", "view-source:http://example.com/", "chrome://settings", "ftp://example.com/", "gopher://127.0.0.1/",
]


@pytest.mark.parametrize("url", SSRF + TRICKS)
def test_internal_spellings_and_url_tricks_are_refused(url: str) -> None:
    with pytest.raises(NavigationRefused):
        asyncio.run(Policy(allow_hosts=()).check_url(url))


def test_listed_hosts_are_allowed_with_or_without_a_port() -> None:
    assert asyncio.run(Policy(allow_hosts=("127.0.0.1",)).check_url("http://127.0.0.1:9/x"))
    assert asyncio.run(Policy(allow_hosts=("localhost:9",)).check_url("http://localhost:9/"))
    with pytest.raises(NavigationRefused):
        asyncio.run(Policy(allow_hosts=("localhost:9",)).check_url("http://localhost:10/"))


def test_a_redirect_to_an_internal_address_is_refused(client: httpx.Client, fixtures: FixtureServer) -> None:
    url = fixtures.url("redirect?to=http://169.254.169.254/latest/meta-data/")
    answer = client.post("/sessions", json={"url": url})
    assert answer.status_code == 400 and problem(answer)["code"] == "URL_REFUSED"
    assert "169.254.169.254" in problem(answer)["detail"]


def test_the_page_cannot_reach_internal_addresses(client: httpx.Client, pages: Pages, fixtures: FixtureServer) -> None:
    page = pages.open("pages/egress/probe.html")
    allowed = page.invoke("fetch", {"id": "own", "url": fixtures.url("api/echo")})
    refused = page.invoke("fetch", {"id": "meta", "url": "http://169.254.169.254/latest/meta-data/"})
    redirected = page.invoke("fetch", {"id": "hop", "url": fixtures.url("redirect?to=http://10.1.2.3/")})
    outcomes = {item["id"]: item["fields"]["outcome"] for item in page.model()["records"]["attempt"]["items"]}
    assert allowed["ok"] and refused["ok"] and redirected["ok"]
    assert outcomes["own"] == "status 200"
    # Cross-origin, the proxy's refusal (403, no CORS headers) reaches the page as a failed fetch.
    assert outcomes["meta"] == "failed" and outcomes["hop"] == "failed"
    refusals = client.get(f"/sessions/{page.id}").json()["refused"]
    assert any("169.254.169.254" in r["target"] for r in refusals)
    assert any("10.1.2.3" in r["target"] for r in refusals)


def test_a_pipe_cancelled_as_bytes_arrive_stops() -> None:
    """A proxied connection's pipe ends only at EOF, after idling PLING's idle_s, or by being cancelled
    (its context closing). Its reads waited under asyncio.wait_for, which on Python 3.11 returns bytes
    that arrive in the turn the pipe is cancelled and drops the cancellation: the pipe read on (for up to
    idle_s). The cancellation is sent from the bytes' arrival, in the same turn; real sockets."""
    from pling_browser.core.egress import _pipe

    async def cancel_as_read() -> bool:
        loop = asyncio.get_running_loop()
        received: asyncio.Future[bytes] = loop.create_future()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            received.set_result(await reader.read())
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        _, sink = await asyncio.open_connection("127.0.0.1", server.sockets[0].getsockname()[1])
        source = asyncio.StreamReader()
        pipe = asyncio.create_task(_pipe(source, sink, [loop.time()], 300.0))
        while source._waiter is None:  # type: ignore[attr-defined]  # the pipe waits for bytes
            await asyncio.sleep(0)
        source._waiter.add_done_callback(lambda _: pipe.cancel())  # type: ignore[attr-defined]
        source.feed_data(b"late")
        for _ in range(10):  # the cancelled pipe's next turns
            await asyncio.sleep(0)
        stopped = pipe.done()
        if not stopped:
            source.feed_eof()
            await pipe
        sink.close()
        await received
        server.close()
        return stopped

    assert asyncio.run(cancel_as_read()) is True
