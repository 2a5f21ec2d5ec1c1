"""Adapters (SPEC "The page side", PLING_ADAPTERS): the operator's scripts declare a model for pages
that do not load Pling. Real Chromium, real fixture server; the pages under fixtures/pages/adapted/
never load the bridge themselves, the adapters are fixtures/adapters/*.js."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pling_browser.adapters import AdapterError, load_adapters, pattern_regex
from pling_browser.config import Settings, SettingsError

from .conftest import Pages, ServiceThread, serving
from .server import FixtureServer

ADAPTERS = Path(__file__).resolve().parent.parent / "fixtures" / "adapters"


@pytest.fixture(scope="module")
def adapted() -> Iterator[ServiceThread]:
    with serving(adapters=str(ADAPTERS)) as svc:
        yield svc


@pytest.fixture
def apages(adapted: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=adapted.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def test_an_adapter_declares_an_unmodified_page_it_matches(apages: Pages) -> None:
    page = apages.open("/pages/adapted/notes.html")
    model = page.model()
    # declines.js matches too, but declares nothing there (it returns early): not listed.
    assert model["page"]["adapter"] == ["notes.js"]
    assert model["page"]["id"] == "notes"
    assert model["records"]["note"]["ids"] == ["n11", "n12"]
    assert {a["id"] for a in model["actions"]} == {"add_note", "delete", "next_page"}
    assert model["problems"] == []
    receipt = page.invoke("add_note", {"text": "Water plants"})
    assert receipt["ok"], receipt
    assert len(receipt["changed"]["records"]["note"]["added"]) == 1


def test_a_page_no_adapter_matches_gets_none(apages: Pages) -> None:
    model = apages.open("/pages/adapted/other.html").model()
    assert "adapter" not in model["page"]
    assert model["actions"] == [] and model["records"] == {} and model["page"]["id"] is None


def test_an_excluded_address_is_not_adapted(apages: Pages) -> None:
    model = apages.open("/pages/adapted/notes.html?archived=1").model()
    assert "adapter" not in model["page"] and model["actions"] == []


def test_run_at_document_start_runs_before_the_page_is_parsed(apages: Pages) -> None:
    model = apages.open("/pages/adapted/other.html?early=1").model()
    assert model["page"]["adapter"] == ["early.js"]
    assert model["state"]["loaded_at"]["value"] == {"readyState": "loading", "body": False}


def test_the_adapter_survives_a_navigation(apages: Pages) -> None:
    page = apages.open("/pages/adapted/notes.html")
    receipt = page.invoke("next_page")
    assert receipt["ok"], receipt
    assert receipt["changed"]["page"]["to"]["url"].endswith("notes.html?page=2")
    assert receipt["changed"]["records"]["note"]["added"] == ["n21"]
    model = page.model()
    assert model["page"]["adapter"] == ["notes.js"]
    assert model["records"]["note"]["ids"] == ["n21"]


def test_the_adapter_runs_in_frames_it_matches(adapted: ServiceThread, apages: Pages) -> None:
    page = apages.open("/pages/adapted/framed.html")
    assert "adapter" not in page.model()["page"]  # the top document does not match

    async def framed(runtime: Any) -> Any:
        session = runtime.sessions.get(page.id)
        frame = next(f for f in session.page.frames if "framed=1" in f.url)
        return await frame.evaluate("JSON.parse(window.__plingBridge.call('model', '{}')).page")

    assert adapted.in_service(framed)["adapter"] == ["notes.js"]


def test_broken_adapters_are_problems_in_the_model_not_a_crash(apages: Pages) -> None:
    page = apages.open("/pages/adapted/broken.html")
    model = page.model()
    assert model["page"]["adapter"] == ["broken-good.js", "broken-syntax.js", "broken-throws.js"]
    problems = {p["where"]: p["problem"] for p in model["problems"]}
    assert problems["adapter broken-syntax.js"].startswith("does not compile: SyntaxError")
    assert problems["adapter broken-syntax.js"].endswith("(line 4)")
    assert problems["adapter broken-throws.js"].startswith("threw while loading: TypeError")
    assert problems["adapter broken-throws.js"].endswith("(line 6)")
    # The good adapter on the same page still declares and its action runs.
    assert [a["id"] for a in model["actions"]] == ["ping"]
    assert page.invoke("ping")["ok"]


def test_get_adapters_lists_names_descriptions_and_matches(apages: Pages) -> None:
    apages.open("/pages/adapted/broken.html")  # a browser compiled the adapters by now
    listed = {a["name"]: a for a in apages.client.get("/adapters").json()["adapters"]}
    assert sorted(listed) == ["broken-good.js", "broken-syntax.js", "broken-throws.js", "declines.js", "early.js", "notes.js"]
    notes = listed["notes.js"]
    assert notes["title"] == "Notes (test app)"
    assert notes["description"].startswith("The notes of")
    assert notes["matches"] == ["http://127.0.0.1/pages/adapted/notes.html*"]
    assert notes["excludes"] == ["*archived=*"] and notes["problems"] == []
    assert "source" not in notes and "path" not in notes
    assert any(p.startswith("does not compile: SyntaxError") for p in listed["broken-syntax.js"]["problems"])


@pytest.mark.parametrize(("pattern", "url", "hit"), [
    ("*://example.com/*", "https://example.com/a?b#c", True),
    ("*://example.com/*", "ftp://example.com/a", False),
    ("https://*.example.com/orders/*", "https://shop.example.com/orders/7", True),
    ("https://*.example.com/orders/*", "https://example.com/orders/", True),
    ("https://*.example.com/orders/*", "https://badexample.com/orders/", False),
    ("https://*.example.com/orders/*", "https://example.com/order", False),
    ("http://127.0.0.1/app/*", "http://127.0.0.1:54321/app/x", True),
    ("http://127.0.0.1:8000/app/*", "http://127.0.0.1:54321/app/x", False),
    ("http://127.0.0.1:*/app/*", "http://127.0.0.1:54321/app/x", True),
    ("http://*/x", "http://any.host:1/x", True),
    ("<all_urls>", "file:///tmp/a.html", True),
    ("https://example.com/a", "https://example.com/a/b", False),
])
def test_match_patterns(pattern: str, url: str, hit: bool) -> None:
    import re

    assert bool(re.search(pattern_regex(pattern), url.split("#")[0])) is hit


def test_exclude_takes_globs_and_regexes_and_bad_patterns_are_problems(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("// @match *://example.com/*\n// @exclude *.pdf\n// @exclude /\\/admin\\//\n"
                                   "// @match nonsense\nx = 1;\n")
    (tmp_path / "b.js").write_text("pling.page({id: 'b'});\n")
    a, b = load_adapters(tmp_path)
    assert a.matches_url("https://example.com/x") and not a.matches_url("https://example.com/f.pdf")
    assert not a.matches_url("https://example.com/admin/users")
    assert a.problems == ("@match 'nonsense' is not SCHEME://HOST/PATH (or <all_urls>)",)
    assert not b.matches_url("https://example.com/") and "no @match" in b.problems[0]
    with pytest.raises(AdapterError):
        pattern_regex("https://ex*ample.com/*")


def test_pling_adapters_must_name_a_folder_or_file(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="PLING_ADAPTERS"):
        Settings.from_env({"PLING_ADAPTERS": str(tmp_path / "missing")})
    assert Settings.from_env({"PLING_ADAPTERS": str(ADAPTERS)}).adapters == str(ADAPTERS)


def _check_cli(*args: str) -> tuple[int, dict[str, Any]]:
    import json

    from . import command_line

    done = command_line.run("check", *args, "--json")
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


BROKEN_ADAPTER = Path(__file__).resolve().parent.parent / "fixtures" / "adapters-broken" / "sloppy-notes.js"


def test_check_adapter_reports_a_broken_adapter(fixtures: FixtureServer) -> None:
    code, answer = _check_cli(fixtures.url("pages/adapted/notes.html"), "--adapter", str(BROKEN_ADAPTER))
    assert code == 1 and answer["ok"] is False
    found = {(f["code"], f["where"]) for f in answer["findings"]}
    assert found == {
        ("ADAPTER_FAILED", "adapter sloppy-notes.js"),       # finishSetup is not defined (line 21)
        ("ADAPTER_HEADER", "adapter sloppy-notes.js"),       # @run-at document-sometime
        ("ID_POSITIONAL", "records note"),
        ("ACTION_PER_ROW", "actions delete_*"),
        ("DESCRIPTION_MISSING", "action add_note"),
        ("READ_WRITES", "model"),
    }, answer["findings"]
    failed = next(f for f in answer["findings"] if f["code"] == "ADAPTER_FAILED")
    assert "finishSetup is not defined (line 21)" in failed["message"]


def test_check_adapter_passes_a_good_adapter_and_says_where_it_does_not_run(fixtures: FixtureServer) -> None:
    good = str(ADAPTERS / "notes.js")
    code, answer = _check_cli(fixtures.url("pages/adapted/notes.html"), "--adapter", good)
    assert (code, answer["findings"]) == (0, [])
    code, answer = _check_cli(fixtures.url("pages/adapted/other.html"), "--adapter", good)
    assert code == 1
    assert {f["code"] for f in answer["findings"]} == {"ADAPTER_NOT_MATCHED", "NOTHING_DECLARED"}


def test_page_adapter_names_only_what_the_operator_installed_for_the_address(apages: Pages) -> None:
    # The page runs its own code through the bridge's adapter entry point, as evil.js and as notes.js
    # (installed, but for notes.html only): the controller vouches for neither.
    model = apages.open("/pages/adapted/claims.html").model()
    assert model["page"]["id"] == "claims" and "adapter" not in model["page"]
    assert set(model["state"]) == {"claimed_evil", "claimed_notes"}  # what it declared is the page's own
    claimed = [p["problem"] for p in model["problems"] if p["where"] == "page"]
    assert len(claimed) == 2 and all("no operator installed for this address" in p for p in claimed)
    assert "'evil.js'" in claimed[0] and "'notes.js'" in claimed[1]
