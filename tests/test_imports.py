"""The architecture, pinned: every module imports on its own, the package has no import circle, no
module passes 400 lines, and only ``pling_browser/core/`` talks to Playwright: nothing above it imports
Playwright or reads a session's page, context or CDP session (they hold ``Session.handle``), and inside
it only ``core/playwright.py`` names Playwright's error classes.

The graph is read from the source (``ast``), so a circle dodged by a function-level import is found
too; imports under ``if TYPE_CHECKING:`` are type hints and never run, so they are left out."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pling_browser"
MAX_LINES = 400
# Python outside the package that is ours and must stay small too (tests/ and fixtures/ may be long).
OTHER_SOURCES = ("bench", "scripts")


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, is a package)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module, *, in_functions: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run: at module level (in try/if/with/class bodies too) and, with
    in_functions, inside functions; never those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for inner in child.orelse:
                    visit_one(inner)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and not in_functions:
            return
        else:
            visit(node)

    visit(tree)
    return found


def _absolute(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _edges(name: str, *, in_functions: bool) -> set[str]:
    """The package's own modules that `name` imports. An ancestor package is an edge only when a
    name is taken from it that is not a submodule: the ancestor is then needed half-initialised."""
    path, is_package = MODULES[name]
    edges: set[str] = set()
    for node in _imports(ast.parse(path.read_text()), in_functions=in_functions):
        if isinstance(node, ast.Import):
            edges.update(alias.name for alias in node.names if alias.name in MODULES)
            continue
        source = _absolute(name, is_package, node)
        submodules = {f"{source}.{alias.name}" for alias in node.names} & set(MODULES)
        edges.update(submodules)
        ancestor = name.startswith(source + ".")
        takes_names = len(submodules) < len(node.names)
        if source in MODULES and (not ancestor or takes_names):
            edges.add(source)
    edges.discard(name)
    return edges


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    circles: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return circles


def test_the_graph_is_read_right() -> None:
    # The reader itself: a circle through a function-level import and a name from a parent package
    # are found, a TYPE_CHECKING import is not an edge.
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n"
                     "import b\ndef f():\n    import c\n")
    assert [n.names[0].name for n in _imports(tree, in_functions=False) if isinstance(n, ast.Import)] == ["b"]
    assert [n.names[0].name for n in _imports(tree, in_functions=True) if isinstance(n, ast.Import)] == ["b", "c"]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
    assert "pling_browser.server.console.streams" in _edges("pling_browser.server.console.feed", in_functions=False)


def test_no_import_circle_at_module_level() -> None:
    graph = {name: _edges(name, in_functions=False) for name in MODULES}
    assert _circles(graph) == []


def test_no_import_circle_dodged_by_a_function_level_import() -> None:
    graph = {name: _edges(name, in_functions=True) for name in MODULES}
    assert _circles(graph) == []


def test_every_module_imports_in_a_fresh_interpreter() -> None:
    # One interpreter loads the third-party libraries once, then forks a child per module, which
    # imports that module with none of the package loaded: an order-dependent circle fails there.
    third_party = sorted({alias.name.split(".")[0] if isinstance(node, ast.Import) else (node.module or "").split(".")[0]
                          for path, _ in MODULES.values()
                          for node in _imports(ast.parse(path.read_text()), in_functions=False)
                          for alias in node.names
                          if not (isinstance(node, ast.ImportFrom) and node.level)} - {"pling_browser", ""})
    script = """
import importlib, json, os, sys, traceback
third_party, modules = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for name in third_party:
    try:
        importlib.import_module(name)
    except Exception:
        pass
assert not [m for m in sys.modules if m.startswith("pling_browser")]
failed = {}
for name in modules:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            code = 0
        except BaseException:
            os.write(write, traceback.format_exc(limit=-3).encode()[-2000:])
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        text = pipe.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    if status:
        failed[name] = text or f"exit status {status}"
print(json.dumps(failed))
"""
    importable = sorted(name for name in MODULES if not name.endswith(".__main__"))  # __main__ runs the CLI
    done = subprocess.run([sys.executable, "-c", script, json.dumps(third_party), json.dumps(importable)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {}


def _layer(name: str) -> str:
    """A module's layer: its subpackage of the package (core, lifecycle, runtime, server, ci, agents), or
    the module itself at the top (the vocabulary, cli.py, the pytest plugin, the package's face)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _layer_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        graph.setdefault(_layer(name), set())
        for edge in _edges(name, in_functions=True):
            if _layer(edge) != _layer(name):
                graph[_layer(name)].add(_layer(edge))
    return graph


def test_no_circle_between_layers() -> None:
    # Two layers that import each other, even through different modules and inside functions, have no
    # order: ci/ (scenario files, drafts) is below server/, which serves them; the pytest plugin, which
    # starts the whole service, is at the top beside cli.py.
    assert (_layer("pling_browser.server.console.recording"), _layer("pling_browser.ci"),
            _layer("pling_browser.cli"), _layer("pling_browser")) == ("server", "ci", "cli", "__init__")
    graph = _layer_graph()
    assert "ci" in graph["server"]  # the reader sees a layer's imports
    assert _circles(graph) == []


def _sources() -> list[Path]:
    paths = sorted(PACKAGE.rglob("*.py"))
    for folder in OTHER_SOURCES:
        paths += sorted((ROOT / folder).rglob("*.py"))
    return paths


def test_no_module_over_400_lines() -> None:
    # Past a few hundred lines a file usually holds two ideas (STYLE.md); split it by idea.
    long = {str(path.relative_to(ROOT)): n for path in _sources()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}


CORE = "pling_browser/core/"
BOUNDARY = "pling_browser/core/playwright.py"
# What core's objects hold of Playwright: a session's or tab's `page` and `context`, a bridge's `page`
# and `cdp`. Outside core these names are read only as fields of our own models: the page model's
# `model.page`, a receipt's `changed.page`.
PLAYWRIGHT_ATTRIBUTES = {"page", "context", "cdp"}
MODEL_BASES = {"model", "changed"}
# Playwright's error classes, as they are imported (and as this package aliased them).
PLAYWRIGHT_ERRORS = {"Error", "TimeoutError", "TargetClosedError", "PlaywrightError", "PlaywrightTimeout"}


def _all_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, those under ``if TYPE_CHECKING:`` and inside functions included."""
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def _playwright_module(node: ast.Import | ast.ImportFrom) -> str | None:
    names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else (
        [node.module or ""] if not node.level else [])
    return next((name for name in names if name == "playwright" or name.startswith("playwright.")), None)


def _playwright_importers() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for path in _package_files():
        for node in _all_imports(ast.parse(path.read_text())):
            if _playwright_module(node) is not None:
                found.setdefault(str(path.relative_to(ROOT)), []).append(node.lineno)
    return found


def _package_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _last_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None  # a call's or a subscript's result: `sessions.get(sid).page` is a session's page


def _page_reads(tree: ast.AST) -> list[str]:
    """Reads of a Playwright attribute of core's objects: ``x.page``, ``x.context``, ``x.cdp`` (unless
    ``x`` is a model), and the same through ``getattr``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in PLAYWRIGHT_ATTRIBUTES \
                and _last_name(node.value) not in MODEL_BASES:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in PLAYWRIGHT_ATTRIBUTES:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def _error_names(tree: ast.AST) -> list[str]:
    """Playwright's error classes imported from Playwright, or its private modules imported at all."""
    found = []
    for node in _all_imports(tree):
        module = _playwright_module(node)
        if module is None:
            continue
        if "._impl" in module or module == "playwright._impl" or (
                isinstance(node, ast.ImportFrom) and any(alias.name == "_impl" for alias in node.names)):
            found.append(f"{node.lineno}: {module} (private)")
        if isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: {module}.{alias.name}" for alias in node.names if alias.name in PLAYWRIGHT_ERRORS]
    return found


def test_the_playwright_readers_are_read_right() -> None:
    # The readers themselves, on code written the ways it could be.
    code = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from playwright.async_api import Page\n"
                     "def f(session, inv, runtime, model, answer, bridge, tab):\n"
                     "    import playwright._impl._errors\n    from playwright.async_api import Error as E, Locator\n"
                     "    session.page.url; inv.session.page.title(); runtime.sessions.get('s').page\n"
                     "    session.context; bridge.cdp; tab.page; getattr(session, 'page')\n"
                     "    model.page.name; answer.changed.page; session.handle.url\n")
    assert len(_all_imports(code)) == 4 and [_playwright_module(n) for n in _all_imports(code)].count(None) == 1
    assert sorted(line.split(": ", 1)[1] for line in _page_reads(code)) == sorted([
        "session.page", "inv.session.page", "runtime.sessions.get('s').page", "session.context", "bridge.cdp",
        "tab.page", "getattr(session, 'page')"])
    assert sorted(line.split(": ", 1)[1] for line in _error_names(code)) == [
        "playwright._impl._errors (private)", "playwright.async_api.Error"]


def test_only_core_imports_playwright() -> None:
    importers = _playwright_importers()
    assert BOUNDARY in importers  # the reader finds imports inside functions
    outside = {path: lines for path, lines in importers.items() if not path.startswith(CORE)}
    assert outside == {}, ("only pling_browser/core/ imports Playwright, type hints included: hold a page "
                           "handle (Session.handle, core/handle.py), whose errors are Pling's")


def test_no_playwright_page_outside_core() -> None:
    found = {str(path.relative_to(ROOT)): reads for path in _package_files()
             if not str(path.relative_to(ROOT)).startswith(CORE) and (reads := _page_reads(ast.parse(path.read_text())))}
    assert found == {}, ("outside core/, a session's page, context and CDP session are Playwright's: use "
                         "Session.handle (core/handle.py), or add what you need to it")


def test_playwright_errors_are_named_at_one_boundary() -> None:
    # Inside core only core/playwright.py names Playwright's error classes, and nothing imports its
    # private modules; outside core nothing even imports the boundary: what comes up is a Pling error.
    found = {str(path.relative_to(ROOT)): names for path in _package_files()
             if str(path.relative_to(ROOT)) != BOUNDARY and (names := _error_names(ast.parse(path.read_text())))}
    assert found == {}, "catch Pling errors: translate_playwright_errors (on_timeout, for a timeout) in core/playwright.py"
    assert "playwright._impl" not in (PACKAGE / "core" / "playwright.py").read_text()
    outside = {name for name in MODULES if not name.startswith("pling_browser.core")
               and "pling_browser.core.playwright" in _edges(name, in_functions=True)}
    assert outside == set()


OUTBOUND = "pling_browser/core/outbound.py"


def _scrub_calls(tree: ast.AST) -> list[int]:
    """Lines that call ``scrub``, by its name or as an attribute (``masking.scrub(...)``)."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _last_name(node.func) == "scrub"]


def test_scrub_is_called_in_one_module() -> None:
    # One way out (issue 29): what leaves the service is masked by an Outbound encoder
    # (core/outbound.py); a module that called scrub itself would be an output that remembers to mask.
    assert _scrub_calls(ast.parse("from x import scrub\nimport masking\nscrub(a, b)\nmasking.scrub(c, d)\n"
                                  "def f():\n    return [scrub(e, [])]\nscrub\n")) == [3, 4, 6]  # the reader
    found = {str(path.relative_to(ROOT)): lines for path in _package_files()
             if (lines := _scrub_calls(ast.parse(path.read_text())))}
    assert OUTBOUND in found  # the reader finds the one call there is
    assert set(found) == {OUTBOUND}, "mask through an Outbound (Session.outbound, Invocation.outbound), never scrub"


MAX_FUNCTION_LINES = 80


def _long_functions(tree: ast.Module) -> dict[str, int]:
    return {node.name: length for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES}


def test_no_function_over_80_lines() -> None:
    # A function that needs more than a screen is doing two things (issue 29), in any layer; the reader
    # counts a function's whole body, decorators aside, nested functions on their own too.
    assert _long_functions(ast.parse("def f():\n" + "    x = 1\n" * 80)) == {"f": 81}
    assert _long_functions(ast.parse("def f():\n" + "    x = 1\n" * 79)) == {}
    assert _long_functions(ast.parse("def f():\n    async def g():\n" + "        x = 1\n" * 80)) == {"f": 82, "g": 81}
    long = {f"{path.relative_to(ROOT)}:{name}": n for path in _package_files()
            for name, n in _long_functions(ast.parse(path.read_text())).items()}
    assert long == {}


def _namespace() -> dict[str, object]:
    """Every name the invocation's annotations use, those imported only for type checking included."""
    import importlib
    import pkgutil

    import pling_browser.lifecycle as lifecycle

    namespace: dict[str, object] = {}
    for module in ["pling_browser.callers", "pling_browser.config", "pling_browser.core.sessions",
                   "pling_browser.models", "pling_browser.core.answers",
                   *(f"pling_browser.lifecycle.{info.name}" for info in pkgutil.iter_modules(lifecycle.__path__))]:
        namespace.update(vars(importlib.import_module(module)))
    return namespace


def _any_in(hint: object, seen: set[int]) -> bool:
    import typing

    if hint is typing.Any:
        return True
    if id(hint) in seen:
        return False
    seen.add(id(hint))
    value = getattr(hint, "__value__", None)  # a type alias (pydantic's JsonValue) stands for its value
    if value is not None and _any_in(value, seen):
        return True
    return any(_any_in(arg, seen) for arg in typing.get_args(hint))


def test_no_any_in_the_invocation() -> None:
    """The invocation is its request, each stage's result and its journal, every part typed: no
    ``Any`` anywhere in their annotations (issue 29), read from the classes themselves."""
    import dataclasses
    import typing

    from pling_browser.lifecycle.context import Invocation

    namespace = _namespace()
    assert _any_in(dict[str, list[typing.Any]], set()) and not _any_in(dict[str, list[int]], set())  # the reader
    checked: set[type] = set()
    todo: list[type] = [Invocation]
    found: dict[str, str] = {}
    while todo:
        cls = todo.pop()
        if cls in checked:
            continue
        checked.add(cls)
        for name, hint in typing.get_type_hints(cls, globalns=namespace).items():
            if _any_in(hint, set()):
                found[f"{cls.__name__}.{name}"] = str(hint)
            # The invocation's own parts (lifecycle/'s classes with annotated attributes) are read too.
            todo += [arg for arg in (hint, *typing.get_args(hint)) if isinstance(arg, type)
                     and arg.__module__.startswith("pling_browser.lifecycle")
                     and (dataclasses.is_dataclass(arg) or "__annotations__" in vars(arg))]
    assert {cls.__name__ for cls in checked} >= {"Invocation", "Request", "Journal", "DocumentTracker", "Resolved",
                                                 "Decoded", "Validated", "Cleared", "Clearance", "Ready", "Marks",
                                                 "Executed", "Checked", "Compared"}
    assert found == {}
