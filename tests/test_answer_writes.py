"""An answer whose length is known leaves in one write, its head with its body (server/limits.py
`_one_write`, issue 31): uvicorn wrote the head as the app started the response, so a client woke for the
head alone, and on a loaded machine the service lost its core between the two writes. A response without
a length (an event stream) still sends its head at once: a client waiting for the stream's headers must
not wait for its first event.

The service's own HTTP options (`uvicorn_options`) on a real socket, with an app that starts its answer
and then waits for the test before it sends the body. On loopback, bytes written are in the client's
receive buffer when the write returns, so what a non-blocking read finds once the app has started is
exactly what was written then: no timing decides it."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from pling_browser.config import Settings
from pling_browser.server.limits import uvicorn_options

BODY = b'{"result": "the body"}'


class HeldApp:
    """Starts each response, says so, and sends its body only once the test releases it."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            return
        headers = [(b"content-type", b"application/json")]
        if scope["path"] == "/known":
            headers.append((b"content-length", str(len(BODY)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        self.started.set()
        while not self.release.is_set():
            await asyncio.sleep(0.01)
        await send({"type": "http.response.body", "body": BODY})


@pytest.fixture
def held() -> Iterator[tuple[HeldApp, int]]:
    app = HeldApp()
    config = uvicorn.Config(app, log_level="warning", lifespan="off", **uvicorn_options(Settings.from_env({})))
    server = uvicorn.Server(config)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield app, sock.getsockname()[1]
    finally:
        app.release.set()
        server.should_exit = True
        thread.join(30)
        sock.close()


def _waiting(client: socket.socket) -> bytes:
    """What the client has received so far, without waiting."""
    client.setblocking(False)
    try:
        return client.recv(65536)
    except BlockingIOError:
        return b""
    finally:
        client.settimeout(30)


def _answer(client: socket.socket, end: bytes = BODY) -> bytes:
    data = b""
    while not data.endswith(end):
        part = client.recv(65536)
        assert part, data
        data += part
    return data


def _ask(port: int, path: str, app: HeldApp) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=30)
    client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert app.started.wait(30), "the app never started its answer"
    return client


def test_an_answer_of_known_length_leaves_with_its_body(held: tuple[HeldApp, int]) -> None:
    app, port = held
    with _ask(port, "/known", app) as client:
        assert _waiting(client) == b""  # started, but its head waits for the body
        app.release.set()
        answer = _answer(client)
    assert answer.startswith(b"HTTP/1.1 200 ") and b"content-length: 22" in answer.lower(), answer


def test_a_stream_sends_its_head_before_its_body(held: tuple[HeldApp, int]) -> None:
    app, port = held
    with _ask(port, "/stream", app) as client:
        head = _waiting(client)
        assert head.startswith(b"HTTP/1.1 200 ") and BODY not in head, head
        app.release.set()
        assert BODY in head + _answer(client, b"0\r\n\r\n")  # chunked: the last chunk
