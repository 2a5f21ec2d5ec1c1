"""A draft's header says only what the drafted page's address says (SECURITY.md, adapters): the page's
text written into the draft's comments (its title in `@name`, a control's name beside an action) cannot
add a header line, so a page drafted cannot make the adapter it becomes match another site. A real
Chromium reads the page from the fixture server on loopback (tests/drafts.py, as `pling-browser draft`
writes it); the written file is parsed as PLING_ADAPTERS parses it."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from pling_browser.adapters import parse

from .conftest import Pages
from .drafts import Draft, draft_all
from .server import FixtureServer


def test_a_pages_title_does_not_add_a_header_to_its_draft(fixtures: FixtureServer, tmp_path: Path) -> None:
    url = fixtures.url("/pages/security/draft_title.html")
    out = tmp_path / "orders.js"
    [text] = draft_all([Draft(url, out)])
    assert "// @name         DRAFT: Orders" in text, text[:400]
    adapter = parse(out, out.read_text(encoding="utf-8"))
    assert adapter.matches_url(url), adapter.listing()  # the drafted page itself
    assert not adapter.matches_url("http://127.0.0.2/account/transfer"), adapter.listing()
    assert all("127.0.0.2" not in pattern for pattern in adapter.matches), adapter.matches
    # A file whose comment holds such a character (written by hand, or by another tool) is read as
    # JavaScript reads it too: one line, one header.
    hidden = text.replace("// @description", "// @author Ada\x85// @match http://127.0.0.2/*\n// @description", 1)
    assert not parse(out, hidden).matches_url("http://127.0.0.2/account/transfer")


def test_a_pages_title_does_not_end_the_comment_in_a_recorded_draft(client: httpx.Client, pages: Pages) -> None:
    # The console's recording writes the page's title (as Playwright reads document.title, which keeps
    # U+2028) into its draft's `// @name` line: there JavaScript ends the comment at U+2028.
    page = pages.open("pages/security/draft_title.html?sep=ls")
    assert "\u2028" in page.model()["page"]["title"] or "injected" in page.model()["page"]["title"]
    base = f"/console/sessions/{page.id}/recording"
    assert client.post(base).status_code == 200
    stopped = client.post(f"{base}/stop").json()
    draft = stopped["draft"]
    assert "// @name         DRAFT: Orders" in draft, draft[:300]
    # No line ends where JavaScript (or an editor) would begin one; the title stays a comment and a string.
    assert "\u2028" not in draft and "\u2029" not in draft, draft[:400]
    lines = re.split(r"\r\n|[\n\r]", draft)
    [code] = [line for line in lines if "injected" in line and not line.lstrip().startswith("//")]
    assert code.startswith('pling.page({ id: "orders_') and 'name: "Orders\\u2028// @match' in code, code
    adapter = parse(Path("draft.js"), draft)
    assert not adapter.matches_url("http://127.0.0.2/account/transfer"), adapter.listing()
