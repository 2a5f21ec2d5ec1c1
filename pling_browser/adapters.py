"""Adapters: the operator's scripts that declare a model for pages that do not declare one themselves
(SPEC "The page side"; PLING_ADAPTERS). Read from the operator's disk once, at startup, never from a
request.

An adapter is a ``.js`` file whose header uses the userscript convention (the ``// ==UserScript==``
block is optional)::

    // @name         Orders
    // @description  Orders and their refunds
    // @match        https://shop.example.com/orders/*
    // @exclude      https://shop.example.com/orders/archive*
    // @run-at       document-end

Match semantics (docs/adapters.md), those of Greasemonkey/Tampermonkey, i.e. of Chrome's match
patterns, with one addition for local apps:

- ``@match SCHEME://HOST/PATH``: SCHEME is ``*`` (http or https) or one scheme; HOST is ``*`` (any),
  ``*.example.com`` (example.com and every subdomain) or one host, optionally with ``:PORT``; a host
  without a port matches every port (``http://127.0.0.1/*`` matches a test server on any port), ``:*``
  says so explicitly. PATH is matched against the path and query (never the fragment); ``*`` in it
  is any run of characters. ``<all_urls>`` matches every http, https and file URL.
- ``@include`` and ``@exclude`` take a match pattern as above, a glob over the whole URL (``*`` any
  run of characters), or ``/REGEX/``. A URL is adapted when a ``@match`` or ``@include`` matches it and
  no ``@exclude`` does. A file with neither ``@match`` nor ``@include`` adapts nothing (unlike
  Greasemonkey, where it would run everywhere): an operator's script runs only where it says.

The regular expressions are written in the common subset of Python's and JavaScript's syntax: the
page tests its own URL with them (every document and frame, before any page script runs).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Adapter", "AdapterError", "load_adapters", "pattern_regex", "init_script", "vouch"]

RUN_AT = ("document-start", "document-end", "document-idle")
_HEADER = re.compile(r"^\s*//\s*@([\w:-]+)(?:\s+(.*?))?\s*$")
# A line as JavaScript ends it (and so an editor that shows the file as it runs): str.splitlines also
# breaks at U+0085, U+001C-U+001E, U+000B and U+000C, inside what JavaScript reads as one comment, so a
# page's title written into a draft's `// @name` line could add a header (an @match) nobody sees.
_JS_LINES = re.compile(r"\r\n|[\n\r\u2028\u2029]")
_MATCH = re.compile(r"^(\*|[a-z][a-z0-9+.-]*)://([^/]*)(/.*)$")
MAX_BYTES = 1_000_000


class AdapterError(ValueError):
    """An adapter file or pattern that cannot be used; the message names the file or pattern."""


def _glob(text: str) -> str:
    return ".*".join(re.escape(part) for part in text.split("*"))


def pattern_regex(pattern: str, kind: str = "match") -> str:
    """The regular expression (a string both Python and JavaScript accept) that a URL without its
    fragment must match for ``pattern``. ``kind`` is ``match`` (strict match patterns) or
    ``include``/``exclude`` (also globs and ``/REGEX/``). Raises ``AdapterError`` on a bad pattern."""
    pattern = pattern.strip()
    if pattern == "<all_urls>":
        return r"^(?:https?|file)://.*$"
    if kind != "match" and len(pattern) > 2 and pattern.startswith("/") and pattern.endswith("/"):
        body = pattern[1:-1]
        try:
            re.compile(body)
        except re.error as error:
            raise AdapterError(f"{pattern!r} is not a regular expression: {error}") from None
        return body
    parsed = _MATCH.match(pattern)
    if parsed is None:
        if kind == "match":
            raise AdapterError(f"@match {pattern!r} is not SCHEME://HOST/PATH (or <all_urls>)")
        return "^" + _glob(pattern) + "$"
    scheme, host, path = parsed.groups()
    scheme_re = "https?" if scheme == "*" else re.escape(scheme)
    name, colon, port = host.rpartition(":") if ":" in host and not host.endswith("]") else (host, "", "")
    if colon and not (port == "*" or port.isdigit()):
        raise AdapterError(f"{pattern!r} has a bad port {port!r}")
    if name == "*":
        host_re = r"[^/:]*"
    elif name.startswith("*."):
        host_re = r"(?:[^/:]*\.)?" + re.escape(name[2:])
    elif "*" in name:
        raise AdapterError(f"{pattern!r}: '*' in a host may only stand alone or begin it ('*.example.com')")
    elif not name and scheme != "file":
        raise AdapterError(f"{pattern!r} names no host")
    else:
        host_re = re.escape(name)
    port_re = r"(?::\d+)?" if not colon or port == "*" else ":" + port
    return f"^{scheme_re}://{host_re}{port_re}{_glob(path)}$"


@dataclass(frozen=True)
class Adapter:
    """One adapter file, parsed. ``name`` is the file name (what ``page.adapter`` says)."""

    name: str
    path: str
    source: str
    title: str | None = None
    description: str | None = None
    matches: tuple[str, ...] = ()
    includes: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    run_at: str = "document-end"
    include_res: tuple[str, ...] = field(default=(), repr=False)
    exclude_res: tuple[str, ...] = field(default=(), repr=False)
    problems: tuple[str, ...] = ()

    def matches_url(self, url: str) -> bool:
        """Whether this adapter is injected into a document at ``url`` (as the page decides it)."""
        bare = url.split("#", 1)[0]
        return (any(re.search(r, bare) for r in self.include_res)
                and not any(re.search(r, bare) for r in self.exclude_res))

    def listing(self) -> dict[str, object]:
        return {"name": self.name, "title": self.title, "description": self.description,
                "matches": list(self.matches), "includes": list(self.includes), "excludes": list(self.excludes),
                "run_at": self.run_at, "problems": list(self.problems)}


def parse(path: Path, source: str) -> Adapter:
    """The adapter in ``source`` (the text of ``path``). Header lines are the ``// @key value``
    comments before the first line of code; a bad pattern is a problem of the adapter, not an error."""
    headers: list[tuple[str, str]] = []
    for line in _JS_LINES.split(source):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("//"):
            break
        found = _HEADER.match(stripped)
        if found:
            headers.append((found.group(1).lower(), (found.group(2) or "").strip()))
    values: dict[str, list[str]] = {}
    for key, value in headers:
        values.setdefault(key, []).append(value)
    problems: list[str] = []
    include_res: list[str] = []
    exclude_res: list[str] = []
    for kind, target in (("match", include_res), ("include", include_res), ("exclude", exclude_res)):
        for pattern in values.get(kind, []):
            try:
                target.append(pattern_regex(pattern, kind))
            except AdapterError as error:
                problems.append(str(error))
    if not values.get("match") and not values.get("include"):
        problems.append("no @match or @include line: the adapter is injected nowhere")
    run_at = (values.get("run-at") or ["document-end"])[-1]
    if run_at not in RUN_AT:
        problems.append(f"@run-at {run_at!r} is not one of {', '.join(RUN_AT)}; document-end is used")
        run_at = "document-end"
    first = lambda key: (values.get(key) or [None])[0]  # noqa: E731
    return Adapter(name=path.name, path=str(path), source=source, title=first("name"), description=first("description"),
                   matches=tuple(values.get("match", [])), includes=tuple(values.get("include", [])),
                   excludes=tuple(values.get("exclude", [])), run_at=run_at, include_res=tuple(include_res),
                   exclude_res=tuple(exclude_res), problems=tuple(problems))


def load_adapters(where: str | Path | None) -> list[Adapter]:
    """The adapters in a folder (its ``*.js`` files, by name) or one file. Raises ``AdapterError``
    when ``where`` is neither, or a file cannot be read as UTF-8."""
    if not where:
        return []
    base = Path(where)
    if base.is_dir():
        files = sorted(p for p in base.iterdir() if p.suffix == ".js" and p.is_file())
    elif base.is_file():
        files = [base]
    else:
        raise AdapterError(f"{str(base)!r} is not a folder of adapters or an adapter file")
    adapters = []
    for path in files:
        try:
            data = path.read_bytes()
            if len(data) > MAX_BYTES:
                raise AdapterError(f"{path} is larger than {MAX_BYTES} bytes")
            adapters.append(parse(path, data.decode("utf-8")))
        except (OSError, UnicodeDecodeError) as error:
            raise AdapterError(f"adapter {path} cannot be read: {error}") from None
    return adapters


# The adapter's source starts this many lines after the first line of its compiled function.
PREFIX_LINES = 1


def init_script(adapter: Adapter, syntax_error: str | None = None) -> str:
    """The init script that adapts a document: after the bridge, in every document and frame, the
    bridge tests the document's URL and, when it matches, runs the adapter (at ``@run-at``) with
    ``pling`` in scope and records how it went (js_bridge/adapters.js). An adapter that does not
    compile is never run; the documents it matches say so in their model's problems instead."""
    spec = json.dumps(json.dumps({"name": adapter.name, "include": list(adapter.include_res),
                                  "exclude": list(adapter.exclude_res), "runAt": adapter.run_at,
                                  "syntaxError": syntax_error}))
    # The Error made on the first line tells the bridge which line of the script that is (Playwright may
    # wrap init scripts): an error's line in the adapter's own file is counted from it.
    start = ("(function () { var b = globalThis.__plingBridge; if (!b || !b.adapter) return; b.adapter("
             + spec + ", new Error(), ")
    if syntax_error is not None:
        return start + "null); })();\n"
    return (start + "function (pling) {\n" + adapter.source + "\n}); })();\n"
            + "//# sourceURL=pling-adapter/" + re.sub(r"[^\w.-]", "_", adapter.name) + "\n")


def compile_check_source(adapter: Adapter) -> str:
    """The adapter as the page compiles it, for a syntax check ahead of injection."""
    return f"(function (pling) {{\n{adapter.source}\n}});"


def vouch(model: dict[str, object], adapters: list[Adapter]) -> dict[str, object]:
    """The model with ``page.adapter`` as the controller vouches for it: only adapter files the operator
    installed (PLING_ADAPTERS) whose patterns match the document's URL. The bridge reports which
    adapters ran, but any script of the page can call the bridge's entry point as an adapter's init
    script does; a name it made up (or an installed adapter that does not match here) is left out, and
    a problem says so. The same for each frame the model lists."""
    installed = {adapter.name: adapter for adapter in adapters}
    problems = model.get("problems")
    problems = list(problems) if isinstance(problems, list) else []

    def vouched(part: object, url: object, where: str) -> None:
        if not isinstance(part, dict) or not isinstance(part.get("adapter"), list):
            return
        kept = []
        for name in part["adapter"]:
            adapter = installed.get(name) if isinstance(name, str) else None
            if adapter is not None and isinstance(url, str) and adapter.matches_url(url):
                kept.append(name)
            else:
                problems.append({"where": where, "problem": f"the page claimed adapter {str(name)[:120]!r} ran, which "
                                 "no operator installed for this address; page.adapter does not list it"})
        if kept:
            part["adapter"] = kept
        else:
            del part["adapter"]

    page = model.get("page")
    vouched(page, page.get("url") if isinstance(page, dict) else None, "page")
    for frame in model.get("frames") or []:  # type: ignore[attr-defined]
        vouched(frame, frame.get("url") if isinstance(frame, dict) else None, f"frame {frame.get('origin') if isinstance(frame, dict) else ''}")
    model["problems"] = problems
    return model
