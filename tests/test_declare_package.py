"""The declaration package (js/) as built and served: the committed built files are what the sources
make, the types pass `tsc` (the package, its type tests in js/test/ and the example pages), and the
service serves the built files at /js/.

These run the npm toolchain: `make test` installs it (`npm ci`) before pytest. Without it they fail
and say so, rather than skip: a type error must fail CI."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import httpx
import pytest

from pling_browser.server.routes.static import package_files

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
# Everything js/build.mjs writes, by the folder it owns or the files it writes there.
BUILT = ("js/dist", "fixtures/pages/declare/react.js", "fixtures/pages/declare/vue.js")


def _toolchain() -> None:
    if not (NODE_MODULES / "typescript").is_dir() or not (NODE_MODULES / "esbuild").is_dir():
        pytest.fail("the npm toolchain is not installed: run `make test` (or `make node_modules`) first")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def _files(base: Path, relative: str) -> dict[str, bytes]:
    where = base / relative
    if where.is_file():
        return {relative: where.read_bytes()}
    return {path.relative_to(base).as_posix(): path.read_bytes() for path in sorted(where.rglob("*")) if path.is_file()}


def test_the_built_files_are_what_the_sources_make(tmp_path: Path) -> None:
    _toolchain()
    built = _run("node", "js/build.mjs", "--out", str(tmp_path))
    assert built.returncode == 0, built.stdout + built.stderr  # tsc over js/src runs in the build
    for relative in BUILT:
        fresh, committed = _files(tmp_path, relative), _files(ROOT, relative)
        assert sorted(fresh) == sorted(committed), f"{relative}: run `make js` and commit what it builds"
        stale = [name for name in fresh if fresh[name] != committed[name]]
        assert stale == [], f"{stale} differ from a fresh build: run `make js` and commit what it builds"
    assert "js/dist/pling-react.js" in _files(tmp_path, "js/dist")


def test_the_types_check() -> None:
    # The type tests (js/test/types.ts: each `@ts-expect-error` fails the check when its line is not
    # an error) and the example pages' sources, against the built declarations as an app team's code
    # sees them; the listing shows they were all read.
    _toolchain()
    checked = _run("node", "node_modules/typescript/bin/tsc", "-p", "js/tsconfig.check.json", "--listFiles")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    read = {Path(line).resolve() for line in checked.stdout.splitlines() if line.strip()}
    for source in ("js/test/types.ts", "fixtures/pages/declare/src/react.tsx", "fixtures/pages/declare/src/vue.ts",
                   "js/dist/esm/react.d.ts", "js/dist/esm/vue.d.ts", "js/dist/esm/types.d.ts"):
        assert (ROOT / source).resolve() in read, source


def test_the_types_check_loosely_written_javascript() -> None:
    # js/test/loose.js: declarations as adapters are written (plain JavaScript, `pling` in scope, a schema
    # in a variable), in a project that does not check nulls, where json-schema-to-ts's types would
    # recurse without end (TS2589) if `args` were inferred there.
    _toolchain()
    checked = _run("node", "node_modules/typescript/bin/tsc", "-p", "js/tsconfig.loose.json", "--listFiles")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    read = {Path(line).resolve() for line in checked.stdout.splitlines() if line.strip()}
    assert {(ROOT / "js/test/loose.js").resolve(), (ROOT / "js/dist/esm/adapter.d.ts").resolve()} <= read


def test_the_readme_quick_start_is_the_checked_file() -> None:
    # README's TypeScript quick start is js/test/quickstart-react.tsx, which the check above compiles.
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^```tsx\n(.*?)^```", readme, re.S | re.M)
    assert blocks == [(ROOT / "js" / "test" / "quickstart-react.tsx").read_text()]


@pytest.mark.parametrize("name", ["pling-declare.js", "pling-react.js", "pling-vue.js", "esm/index.js", "esm/react.d.ts"])
def test_the_service_serves_the_built_files(client: httpx.Client, name: str) -> None:
    answer = client.get(f"/js/{name}")
    assert answer.status_code == 200
    assert answer.content == (ROOT / "js" / "dist" / name).read_bytes()
    expected = "text/plain" if name.endswith(".d.ts") else "text/javascript"
    assert answer.headers["content-type"].startswith(expected)


@pytest.mark.parametrize("name", ["nothing.js", "../../pyproject.toml", "%2e%2e/package.json", "esm", ""])
def test_nothing_else_is_served_under_js(client: httpx.Client, name: str) -> None:
    answer = client.get(f"/js/{name}")
    assert answer.status_code == 404
    assert "esm/index.js" in package_files() and name not in package_files()
