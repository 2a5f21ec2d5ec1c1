"""The bench pages over HTTP, from a thread of the bench process (the pages are only loaded, never
polled, so it costs nothing while measuring):

- fixtures/ as static files (the list page, fixtures/bench/list.html?n=N) and the bridge at /pling.js;
- the server-rendered list, /bench/ssr?n=N: the same N records rendered here as HTML, each with a
  delete button that posts a form; the POST deletes and answers 303 back to the list (POST-redirect-GET),
  so the delete is a navigating action (SPEC: "Actions that leave the document"). State per N, in memory:
  the ids deleted so far; POST /bench/ssr/reset?n=N forgets them (303 back to the list too)."""

from __future__ import annotations

import threading
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pling_browser.core.bridge import bridge_source
from pling_browser.server.threaded import HTTPServerThread

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PAGE = "/bench/list.html"
SSR = "/bench/ssr"
MAX_RECORDS = 100_000

# The model of the server-rendered list, read once from the rendered DOM (the document never changes
# without a navigation). The controller injects the bridge, so the page does not load /pling.js.
SSR_MODEL = """
(() => {
  'use strict';
  const N = %d;
  const list = document.getElementById('list');
  const rows = new Map();
  const items = [];
  for (const li of list.children) {
    rows.set(li.dataset.id, li);
    items.push({ id: li.dataset.id, text: li.firstElementChild.textContent, done: li.classList.contains('done') });
  }
  pling.page({ id: 'bench-ssr', name: 'Bench list (server-rendered)' });
  pling.region({ id: 'list', name: 'Items', purpose: 'Every item, in order', role: 'list', parent: 'main' });
  pling.records({
    type: 'item', region: 'list', list: () => items, id: x => x.id, label: x => x.text,
    fields: x => ({ done: x.done }), element: id => rows.get(id) || null,
    reveal: id => rows.get(id)?.scrollIntoView({ block: 'nearest' }),
  });
  pling.state({ key: 'count', description: 'Items in the list', get: () => items.length });
  pling.action({
    id: 'remove', record: 'item', description: 'Delete the item (posts the form; the page reloads)',
    region: 'list', risk: 'danger',
    target: id => rows.get(id)?.querySelector('button.destroy'),
    expect: { description: 'The item is no longer in the list', check: (args, id) => !rows.has(id) },
  });
  pling.action({
    id: 'reset', description: 'Put the list back as it was loaded (posts a form; the page reloads)',
    region: 'list', risk: 'write',
    run: () => { document.getElementById('reset').requestSubmit(); },
    expect: { description: 'The list has its first items again', check: () => items.length === N },
  });
})();
"""


def _records(query: str) -> int:
    try:
        n = int(parse_qs(query).get("n", ["12"])[0])
    except ValueError:
        n = 12
    return max(0, min(MAX_RECORDS, n))


def ssr_html(n: int, deleted: set[str]) -> str:
    rows = "".join(
        f'<li data-id="t{i}"{" class=done" if i % 3 == 0 else ""}><span class="text">Item {i}</span>'
        f'<button class="destroy" name="delete" value="t{i}" aria-label="Delete Item {i}">×</button></li>\n'
        for i in range(1, n + 1) if f"t{i}" not in deleted)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench list (server-rendered)</title>
<link rel="icon" href="data:,">
<style>body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1rem 2rem; }}
#list {{ list-style: none; padding: 0; margin: 0; }}
#list li {{ display: flex; gap: .5rem; align-items: center; padding: 2px 0; border-bottom: 1px solid #eee; }}
#list li.done .text {{ text-decoration: line-through; color: #888; }} #list li .text {{ flex: 1; }}</style>
</head><body><main>
<h1>Items</h1>
<p id="count">{n - len(deleted)} items</p>
<form id="rows" method="post" action="{SSR}?n={n}"><ul id="list" aria-label="Items">
{rows}</ul></form>
<form id="reset" method="post" action="{SSR}/reset?n={n}"></form>
</main>
<script>{SSR_MODEL % n}</script>
</body></html>
"""


class _Handler(SimpleHTTPRequestHandler):
    server: FixtureServer

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, directory=str(FIXTURES), **kwargs)

    def log_message(self, format, *args):  # type: ignore[no-untyped-def]
        pass

    def _send(self, status: int, body: bytes = b"", content_type: str = "text/html; charset=utf-8",
              location: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if location:
            self.send_header("Location", location)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/pling.js":
            self._send(200, bridge_source().encode(), "text/javascript")
            return
        if url.path == SSR:
            n = _records(url.query)
            self._send(200, ssr_html(n, self.server.deleted(n)).encode())
            return
        super().do_GET()

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        n = _records(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode()) if length else {}
        if url.path == SSR:
            self.server.delete(n, form.get("delete", [""])[0])
        elif url.path == SSR + "/reset":
            self.server.reset(n)
        else:
            self._send(404, b"not found", "text/plain")
            return
        self._send(303, location=f"{SSR}?n={n}")


class FixtureServer(HTTPServerThread):
    def __init__(self) -> None:
        super().__init__(_Handler)
        self._lock = threading.Lock()
        self._deleted: dict[int, set[str]] = {}

    def page(self, n: int) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{PAGE}?n={n}"

    def ssr_page(self, n: int) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{SSR}?n={n}"

    def deleted(self, n: int) -> set[str]:
        with self._lock:
            return set(self._deleted.get(n, ()))

    def delete(self, n: int, record_id: str) -> None:
        if not (record_id.startswith("t") and record_id[1:].isdigit() and 1 <= int(record_id[1:]) <= n):
            return
        with self._lock:
            self._deleted.setdefault(n, set()).add(record_id)

    def reset(self, n: int) -> None:
        with self._lock:
            self._deleted.pop(n, None)
