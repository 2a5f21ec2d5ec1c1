"""A small app that needs a sign-in, served for real on port 0 (tests/test_profiles.py, the console's
"Save as profile"): signing in sets an HttpOnly cookie (a real Set-Cookie from this server), a token in
local storage, one in session storage and one in IndexedDB, each a random value of this server.

    GET  /signin   a sign-in form; declares the handoff `sign_in` (done once the person signed in)
    POST /login    user=NAME: Set-Cookie sid=…; HttpOnly, and the three tokens for the page to store
    GET  /app      the app: says who is signed in (the cookie is checked here, on the server) and
                   declares the state `signed_in` {cookie, local, session, indexeddb} the page sees

Nothing here is Pling's: the pages declare themselves with the bridge the service injects.
"""

from __future__ import annotations

import json
import secrets
import time
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs

import httpx

from pling_browser.server.threaded import HTTPServerThread

SIGNIN = """<!doctype html>
<html><head><meta charset="utf-8"><title>Sign in</title></head>
<body>
<h1>Example app</h1>
<form id="form"><label>User <input id="user" name="user" autocomplete="username"></label>
<button id="go" type="submit">Sign in</button></form>
<p id="status">Signed out</p>
<script>
let signedIn = false;
function keep(value) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('app', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('kv');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('kv', 'readwrite');
      tx.objectStore('kv').put(value, 'refresh');
      tx.oncomplete = () => { open.result.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  });
}
document.getElementById('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const answer = await fetch('/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
                                         body: 'user=' + encodeURIComponent(document.getElementById('user').value) });
  const data = await answer.json();
  localStorage.setItem('token', data.local);
  sessionStorage.setItem('tab', data.session);
  await keep(data.idb);
  signedIn = true;
  document.getElementById('status').textContent = 'Signed in as ' + data.user;
});
pling.page({ id: 'signin', name: 'Sign in' });
pling.handoff({ id: 'sign_in', description: 'Sign in to the example app', done: () => signedIn, timeoutMs: 60000 });
</script>
</body></html>"""

APP = """<!doctype html>
<html><head><meta charset="utf-8"><title>Example app</title></head>
<body data-user="%(user)s">
<p id="who">%(who)s</p>
<script>
const expected = %(expected)s;
let indexeddb = null;
const open = indexedDB.open('app', 1);
open.onupgradeneeded = () => open.result.createObjectStore('kv');
open.onerror = () => { indexeddb = false; };
open.onsuccess = () => {
  const read = open.result.transaction('kv').objectStore('kv').get('refresh');
  read.onsuccess = () => { indexeddb = read.result === expected.idb; };
  read.onerror = () => { indexeddb = false; };
};
pling.page({ id: 'app', name: 'Example app' });
pling.action({ id: 'whoami', description: 'Who the page says is signed in (its cookie)', risk: 'read',
  run: () => document.body.dataset.user || null });
pling.state({ key: 'signed_in', description: 'What of the sign-in this page sees',
  get: () => ({ cookie: document.body.dataset.user || null,
                local: localStorage.getItem('token') === expected.local,
                session: sessionStorage.getItem('tab') === expected.session,
                indexeddb }) });
</script>
</body></html>"""


class _Handler(BaseHTTPRequestHandler):
    server: SignInApp

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        app = self.server
        if self.path == "/signin":
            return self._send(200, SIGNIN.encode(), "text/html; charset=utf-8")
        if self.path == "/app":
            jar = SimpleCookie(self.headers.get("Cookie", ""))
            user = app.users.get(jar["sid"].value) if "sid" in jar else None
            expected = json.dumps({"local": app.local, "session": app.session, "idb": app.idb})
            page = APP % {"user": user or "", "who": f"Signed in as {user}" if user else "Signed out",
                          "expected": expected}
            return self._send(200, page.encode(), "text/html; charset=utf-8")
        return self._send(404, b"not found", "text/plain")

    def do_POST(self) -> None:
        app = self.server
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode())
        if self.path != "/login":
            return self._send(404, b"not found", "text/plain")
        user = (form.get("user") or ["someone"])[0]
        app.users[app.cookie] = user
        body = json.dumps({"user": user, "local": app.local, "session": app.session, "idb": app.idb}).encode()
        return self._send(200, body, "application/json",
                          {"Set-Cookie": f"sid={app.cookie}; HttpOnly; Path=/; SameSite=Lax"})


class SignInApp(HTTPServerThread):
    def __init__(self) -> None:
        super().__init__(_Handler)
        # The values a profile must keep and never show: long and random, so finding one is no accident.
        self.cookie = "cookie-" + secrets.token_hex(16)
        self.local = "local-" + secrets.token_hex(16)
        self.session = "session-" + secrets.token_hex(16)
        self.idb = "idb-" + secrets.token_hex(16)
        self.users: dict[str, str] = {}

    @property
    def values(self) -> tuple[str, ...]:
        return (self.cookie, self.local, self.session, self.idb)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


def signed_in(client: httpx.Client, opened: dict[str, Any]) -> dict[str, Any]:
    """The app's `signed_in` state in a session just opened on /app (`opened`: POST /sessions's answer),
    once the page has read its IndexedDB (an async read)."""
    sid = opened["session"]["id"]
    state: dict[str, Any] = opened["model"]["state"]["signed_in"]["value"]
    deadline = time.monotonic() + 30  # a ceiling for a loaded machine, not a measurement
    while state["indexeddb"] is None and time.monotonic() < deadline:
        time.sleep(0.05)
        state = client.get(f"/sessions/{sid}/model").json()["state"]["signed_in"]["value"]
    return state
