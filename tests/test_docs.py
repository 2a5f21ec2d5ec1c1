"""The README's examples, run (pydantic's tests/test_docs.py habit): each curl call, the command lines
and the Python blocks run against the demo, and what comes back is compared with the output the README
shows, so "2 of 14 items, 3 of 12 actions" or a receipt's log cannot drift from what the service does.

What legitimately differs from run to run is made equal on both sides before comparing: session ids,
timestamps and timings, secret reference names, milliseconds in log lines, and the address of the
service (the README's ``127.0.0.1:8000`` is the test service here). Paths the README and docs/ name
must exist."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import httpx
import pytest

from . import patient
from .conftest import ServiceThread, serving
from .server import FixtureServer

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
README_BASE = "http://127.0.0.1:8000"
BIN = Path(sys.executable).parent


def _blocks(text: str) -> list[tuple[str, str]]:
    """(language, code) of every fenced block, in order."""
    return [(lang, code) for lang, code in re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)]


BLOCKS = _blocks(README)


def _after(start: str, lang: str = "json") -> str:
    """The first block of `lang` after the block that contains `start`."""
    for n, (_, code) in enumerate(BLOCKS):
        if start in code:
            for later_lang, later in BLOCKS[n + 1:]:
                if later_lang == lang:
                    return later
    raise AssertionError(f"no {lang} block after {start!r} in README.md")


def _block(start: str) -> str:
    return next(code for _, code in BLOCKS if start in code)


# ---- comparing ------------------------------------------------------------------------------------------

_SECRET = re.compile(r"<secret>[^<]+</secret>")
_SESSION = re.compile(r"\bs_[A-Za-z0-9_-]{8,}")
_MS = re.compile(r"\b\d+ ms\b")
_FRAMES = re.compile(r"frames waited: \d+")  # 0 when the frame after the action had rendered before settling
NUMBERS_THAT_VARY = {"created", "last_used", "at", "until"}  # times: approved_by.at, a grant's until


def _text(value: str) -> str:
    return _FRAMES.sub("frames waited: N", _MS.sub("N ms", _SESSION.sub("s_…", _SECRET.sub("<secret>…</secret>", value))))


def _key(item: dict[str, Any]) -> Any:
    return item.get("id", item.get("name"))


def drift(shown: Any, real: Any, path: str = "", *, abbreviated: bool = False) -> list[str]:
    """Where the README's `shown` value differs from the `real` one. With `abbreviated`, a list may show
    fewer elements than it has (those shown must be there, matched by id) and a dict fewer keys."""
    out: list[str] = []
    where = path or "(top)"
    if isinstance(shown, dict) and isinstance(real, dict):
        missing = [key for key in shown if key not in real]
        extra = [key for key in real if key not in shown]
        if missing:
            out.append(f"{where}: the README shows {missing}, the service does not answer them")
        if extra and not abbreviated:
            out.append(f"{where}: the service answers {extra}, the README leaves them out")
        for key in shown:
            if key not in real:
                continue
            if key in NUMBERS_THAT_VARY:
                if not isinstance(real[key], (int, float)):
                    out.append(f"{path}.{key}: not a number")
            elif key == "timings_ms":
                if set(shown[key]) != set(real[key]):
                    out.append(f"{path}.timings_ms: stages {sorted(shown[key])} shown, {sorted(real[key])} real")
            else:
                out += drift(shown[key], real[key], f"{path}.{key}" if path else key, abbreviated=abbreviated)
        return out
    if isinstance(shown, list) and isinstance(real, list):
        if abbreviated and len(shown) < len(real):
            by_id = {_key(item): item for item in real if isinstance(item, dict)}
            for n, item in enumerate(shown):
                match = by_id.get(_key(item)) if isinstance(item, dict) else (real[n] if n < len(real) else None)
                if match is None:
                    out.append(f"{where}[{n}]: {json.dumps(item)[:80]} is not in the answer")
                else:
                    out += drift(item, match, f"{path}[{n}]", abbreviated=abbreviated)
            return out
        if len(shown) != len(real):
            return [f"{where}: {len(shown)} items shown, {len(real)} real: {json.dumps(real, ensure_ascii=False)[:300]}"]
        for n, (a, b) in enumerate(zip(shown, real, strict=True)):
            out += drift(a, b, f"{path}[{n}]", abbreviated=abbreviated)
        return out
    if isinstance(shown, str) and isinstance(real, str):
        if _text(shown) != _text(real):
            out.append(f"{where}: README {shown!r}, service {real!r}")
        return out
    if shown != real or type(shown) is not type(real):
        out.append(f"{where}: README {shown!r}, service {real!r}")
    return out


def test_drift_finds_what_differs() -> None:
    assert drift({"a": [1, 2], "b": "3 ms"}, {"a": [1, 2], "b": "7 ms"}) == []
    assert drift({"a": 1}, {"a": 2}) == ["a: README 1, service 2"]
    assert drift({"a": 1}, {"a": 1, "b": 2}) != []
    assert drift({"a": 1}, {"a": 1, "b": 2}, abbreviated=True) == []
    assert drift([{"id": "x", "v": 1}], [{"id": "y", "v": 0}, {"id": "x", "v": 1}], abbreviated=True) == []
    assert drift([{"id": "x", "v": 1}], [{"id": "y", "v": 0}, {"id": "x", "v": 2}], abbreviated=True) != []
    assert drift(1, True) != []  # JSON's 1 is not true


# ---- the service ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo() -> Iterator[ServiceThread]:
    # As the README says: `PLING_APPROVE=remove make run`.
    with serving(approve=("remove",)) as svc:
        yield svc


def _here(text: str, svc: ServiceThread) -> str:
    return text.replace(README_BASE, svc.url).replace("localhost:8000", svc.url)


def _curl(command: str, svc: ServiceThread, ids: dict[str, str]) -> httpx.Response:
    """Run what a README curl command asks, with httpx: method, URL, JSON body."""
    words = shlex.split(command.replace("\\\n", " "))
    assert words[0] == "curl"
    method = words[words.index("-X") + 1] if "-X" in words else "GET"
    url = next(word for word in words if "localhost:8000" in word or word.startswith(README_BASE))
    body = words[words.index("-d") + 1] if "-d" in words else None
    for readme_id, real_id in ids.items():
        url = url.replace(readme_id, real_id)
    return patient.request(method, _here(url, svc),
                         content=_here(body, svc) if body else None,
                         headers={"content-type": "application/json"}, timeout=60)


def _shown(block: str, svc: ServiceThread) -> Any:
    return json.loads(_here(block, svc))


def test_one_real_call(demo: ServiceThread) -> None:
    # "Open the demo and read its model (output abbreviated: 2 of 14 items, 3 of 12 actions)"
    counts = re.search(r"output abbreviated: (\d+) of (\d+) items, (\d+) of (\d+) actions", README)
    assert counts, "the README says how much of the model it shows"
    items_shown, items_total, actions_shown, actions_total = map(int, counts.groups())

    opening = _block("curl -s -X POST localhost:8000/sessions ")
    answer = _curl(opening, demo, {})
    assert answer.status_code == 201, answer.text
    real = answer.json()
    shown = _shown(_after("curl -s -X POST localhost:8000/sessions "), demo)
    assert drift(shown, real, abbreviated=True) == []
    model = real["model"]
    assert (len(shown["model"]["records"]["task"]["items"]), len(model["records"]["task"]["ids"])) == (items_shown, items_total)
    assert (len(shown["model"]["actions"]), len(model["actions"])) == (actions_shown, actions_total)
    ids = {shown["session"]["id"]: real["session"]["id"]}

    # "Then run an action": remove@t9, approved by PLING_APPROVE=remove. The receipt is shown whole.
    removing = _block("/invoke -H")
    answer = _curl(removing, demo, ids)
    assert answer.status_code == 200, answer.text
    assert drift(_shown(_after("/invoke -H"), demo), answer.json()) == []

    # "A failure is a result too": the bad arguments (an empty text), shown whole.
    failure = _shown(next(code for lang, code in BLOCKS if lang == "json" and '"INVALID_PARAMS"' in code), demo)
    answer = patient.post(f"{demo.url}/sessions/{real['session']['id']}/invoke",
                        json={"action": failure["result"]["action"]["id"], "args": {"text": ""}}, timeout=60)
    assert answer.status_code == 200, answer.text
    assert drift(failure, answer.json()) == []
    patient.delete(f"{demo.url}/sessions/{real['session']['id']}", timeout=60)


def test_the_problem_details_example(demo: ServiceThread) -> None:
    shown = json.loads(next(code for lang, code in BLOCKS if lang == "json" and '"/errors#SESSION_NOT_FOUND"' in code))
    sid = shown["detail"].split("'")[1]
    answer = patient.get(f"{demo.url}/sessions/{sid}", timeout=60)
    assert answer.headers["content-type"] == "application/problem+json"
    assert drift(shown, answer.json()) == []


def test_the_command_line_invoke(demo: ServiceThread, tmp_path: Path) -> None:
    command = next(line for line in _block("pling-browser invoke ").splitlines() if "pling-browser invoke" in line)
    words = shlex.split(_here(command, demo))
    words[0] = str(BIN / "pling-browser")
    done = subprocess.run(words, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "PLING_DATA_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr  # "exits 0 when ok"
    assert drift(_shown(_after("pling-browser invoke "), demo), json.loads(done.stdout)) == []


def test_the_python_client_example(demo: ServiceThread) -> None:
    code = _block("from pling_browser import Client")
    printed = StringIO()
    with redirect_stdout(printed):
        exec(compile(_here(code, demo), "README.md", "exec"), {})
    assert printed.getvalue().strip() == _after("from pling_browser import Client", "").strip()


def test_the_async_client_example(demo: ServiceThread) -> None:
    code = _block("from pling_browser import AsyncClient")
    printed = StringIO()
    with redirect_stdout(printed):
        exec(compile(_here(code, demo), "README.md", "exec"), {})
    assert printed.getvalue().strip() == _after("from pling_browser import AsyncClient", "").strip()


def test_the_toggle_tool_the_model_was_given(demo: ServiceThread) -> None:
    shown = _shown(next(code for lang, code in BLOCKS if lang == "json" and '"name": "toggle"' in code), demo)
    opened = patient.post(f"{demo.url}/sessions", json={}, timeout=60).json()
    sid = opened["session"]["id"]
    try:
        tools = patient.get(f"{demo.url}/sessions/{sid}/tools", params={"format": "openai"}, timeout=60).json()["tools"]
    finally:
        patient.delete(f"{demo.url}/sessions/{sid}", timeout=60)
    real = next(tool for tool in tools if tool["function"]["name"] == "toggle")
    assert drift(shown, real) == []


def test_the_check_example(fixtures: FixtureServer, tmp_path: Path) -> None:
    # The README's orders.html is fixtures/pages/check/per_row.html (the orders page with a per-row action).
    # The CI section's example (the one writing pling-check.xml); "Pointing Pling at your app" has others.
    command = next(line for line in _block("pling-check.xml").splitlines() if "pling-browser check" in line)
    shown_url = next(word for word in shlex.split(command) if word.startswith("http"))
    url = fixtures.url("pages/check/per_row.html")
    words = [str(tmp_path / word) if word.endswith(".xml") else word for word in shlex.split(command.replace(shown_url, url))]
    words[0] = str(BIN / "pling-browser")
    done = subprocess.run(words, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "PLING_DATA_DIR": str(tmp_path), "CI": "true"})
    assert done.returncode == 1  # "errors exit 1"
    shown = _after("pling-check.xml", "").replace(shown_url, url).strip().splitlines()
    real = [line for line in done.stdout.strip().splitlines() if line.startswith(("error", "warning", "FAILED", "ok"))]
    assert real == shown
    assert (tmp_path / "pling-check.xml").exists()


def test_the_scenario_file_example(demo: ServiceThread, tmp_path: Path) -> None:
    # The README shows the file abbreviated: what it shows is there, word for word.
    shown = json.loads(next(code for lang, code in BLOCKS if lang == "json" and '"scenarios"' in code))
    assert drift(shown, json.loads((ROOT / "fixtures/scenarios/todos.json").read_text()), abbreviated=True) == []
    command = _block("pling-browser run ").strip()
    # The scenario file's path is relative to the checkout; the report goes to a temporary folder.
    words = [str(tmp_path / word) if word.endswith(".xml") else word for word in shlex.split(_here(command, demo))]
    words[0] = str(BIN / "pling-browser")
    done = subprocess.run(words, capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "PLING_DATA_DIR": str(tmp_path), "CI": "true"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "pling.xml").exists()


def test_the_pytest_example(demo: ServiceThread, tmp_path: Path) -> None:
    test_file = tmp_path / "test_readme_example.py"
    test_file.write_text(_here(_block("def test_finish_a_task(pling)"), demo))
    # The pling plugin, without this checkout's fuzzers' plugins (hypothesis, schemathesis: 1.2 s of CPU).
    done = subprocess.run([sys.executable, "-m", "pytest", str(test_file), "-q", "-p", "no:cacheprovider",
                           "-p", "no:hypothesispytest", "-p", "no:schemathesis",
                           f"--pling-url={demo.url}", "--rootdir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 passed" in done.stdout


# ---- paths the docs name ------------------------------------------------------------------------------


def _named_paths(text: str) -> set[str]:
    found = set(re.findall(r"`((?:pling_browser|js_bridge|js|fixtures|tests|docs|bench|docker)/[\w./-]*)`", text))
    found |= set(re.findall(r"\]\(((?:docs|fixtures)/[\w./-]+)\)", text))
    return {path.rstrip(".") for path in found if "*" not in path and "{" not in path}


def _file_map(text: str) -> list[str]:
    """What the README's file map (the block under ## Files) names that is not there: each entry's path,
    and each file or folder its description mentions, looked for under that entry."""
    block = text.split("## Files", 1)[1].split("```", 2)[1]
    wrong: list[str] = []
    folder = entry = ""
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        words = line.split()
        if not words:
            continue
        if indent == 0:
            folder, entry = words[0], ""
            if not (ROOT / folder).exists():
                wrong.append(folder)
            continue
        if indent == 2:
            entry, words = words[0], words[1:]
            if not (ROOT / folder / entry).exists():
                wrong.append(folder + entry)
        base = ROOT / folder / (entry if entry.endswith("/") else "")
        for name in re.findall(r"\b[\w-]+\.(?:py|js|css|html)\b|\b[\w-]+/(?=[\s),;]|$)", " ".join(words)):
            if not (ROOT / name).exists() and not any(path.name == name.rstrip("/") for path in base.rglob("*")):
                wrong.append(f"{name} under {base.relative_to(ROOT)}")
    return wrong


def test_the_file_map_reader_finds_what_is_not_there() -> None:
    fake = "## Files\n\n```\npling_browser/\n  core/            bridge.py and nowhere.py\n  gone.py          x\n```\n"
    assert _file_map(fake) == ["nowhere.py under pling_browser/core", "pling_browser/gone.py"]


@pytest.mark.parametrize("doc", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_paths_the_docs_name_exist(doc: str) -> None:
    text = (ROOT / doc).read_text()
    assert sorted(path for path in _named_paths(text) if not (ROOT / path).exists()) == []
    if doc == "README.md":
        assert _file_map(text) == []


def test_the_bridge_table_lists_the_bridge_files() -> None:
    # docs/bridge.md's table of js_bridge/ files: every file in it exists, and every file is in it.
    text = (ROOT / "docs/bridge.md").read_text()
    listed = re.findall(r"^\| `([\w-]+\.js)` \|", text, re.M)
    assert sorted(listed) == sorted(path.name for path in (ROOT / "js_bridge").glob("*.js"))
