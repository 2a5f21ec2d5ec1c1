"""The bridge as built: js_bridge/'s ES modules bundled by esbuild into js_bridge/dist/pling.js (committed,
so the service needs no node), and the rules its modules keep, read by js_bridge/check.mjs: every name
imported or the browser's, nothing read before its module is evaluated, every module in the bundle,
the dispatch and operations.json listing the same operations, and no function over 80 lines.

These run the npm toolchain: `make test` installs it (`npm ci`) before pytest. Without it they fail and
say so, rather than skip."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pling_browser.core.bridge import bridge_source

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = ROOT / "js_bridge"


def _toolchain() -> None:
    if not (ROOT / "node_modules" / "typescript").is_dir() or not (ROOT / "node_modules" / "esbuild").is_dir():
        pytest.fail("the npm toolchain is not installed: run `make test` (or `make node_modules`) first")


def _node(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["node", *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def _check(folder: Path = BRIDGE) -> dict[str, Any]:
    _toolchain()
    done = _node("js_bridge/check.mjs", "--dir", str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_the_committed_bundle_is_what_the_modules_make(tmp_path: Path) -> None:
    _toolchain()
    built = _node("js_bridge/build.mjs", "--out", str(tmp_path))
    assert built.returncode == 0, built.stdout + built.stderr
    fresh = (tmp_path / "js_bridge" / "dist" / "pling.js").read_text(encoding="utf-8")
    assert fresh == (BRIDGE / "dist" / "pling.js").read_text(encoding="utf-8"), \
        "js_bridge/dist/pling.js differs from a fresh build: run `make js` and commit it"
    assert bridge_source() == fresh  # what the controller injects and /pling.js serves


def test_the_modules_keep_the_bridge_rules() -> None:
    found = _check()
    assert found["unresolved"] == []
    assert found["early"] == []
    assert found["unbundled"] == []
    assert found["table"] == []
    assert found["long"] == []


def _scratch(tmp_path: Path) -> Path:
    folder = tmp_path / "js_bridge"
    shutil.copytree(BRIDGE, folder, ignore=shutil.ignore_patterns("dist"))
    return folder


def test_the_check_finds_what_it_is_for(tmp_path: Path) -> None:
    # The same check over a copy of the modules with one fault of each kind, so it cannot pass by
    # reading nothing.
    folder = _scratch(tmp_path)
    (folder / "a.js").write_text("import { B } from './b.js';\nexport const A = 1;\nexport const C = B;\n"
                                 "export function long() {\n" + "  A;\n" * 80 + "}\n")
    (folder / "b.js").write_text("import { A } from './a.js';\nexport const B = A + undeclaredName;\n")
    (folder / "lost.js").write_text("export const LOST = 1;\n")
    entry = (folder / "entry.js").read_text()
    entry = entry.replace("const handlers = {", "import { C } from './a.js';\nconst handlers = {\n  extra: () => C,", 1)
    (folder / "entry.js").write_text(entry)
    table = json.loads((folder / "operations.json").read_text())
    table["operations"]["missing"] = {"answer": "Done", "promise": False, "does": "nothing"}
    (folder / "operations.json").write_text(json.dumps(table))
    found = _check(folder)
    assert any(line.startswith("a.js:4 long (82 lines)") for line in found["long"])
    assert any(line.startswith("b.js:2") and "undeclaredName" in line for line in found["unresolved"])
    assert found["early"] == ["b.js reads a.js's A before it is evaluated"]
    assert found["unbundled"] == ["lost.js"]
    assert sorted(found["table"]) == ["extra: a handler in entry.js, not in operations.json",
                                      "missing: in operations.json, no handler in entry.js"]
    assert ["a.js", "b.js"] in found["cycles"]
