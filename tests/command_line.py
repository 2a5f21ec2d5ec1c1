"""`pling-browser` commands run in this process: `main(argv)`, which `python -m pling_browser` runs, with
its standard output and error captured and its exit status answered, as a real process would give them.

A process of its own costs the interpreter and the service's imports (about 1.3 s of CPU) before the
command does anything; the commands' own work (their browser, their page) is the same either way. The
process itself (the entry point, signals, a clean stop, the environment it inherits) is tested where it
is what matters: tests/test_cli.py's `serve` tests, tests/test_draft.py and the README's command lines in
tests/test_docs.py run real processes."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from io import StringIO

from pling_browser.cli import main


def run(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`pling-browser ARGS…` in this process: its exit status, standard output and standard error; with
    `env`, the command reads that environment in place of this process's (as a child given `env=` would).
    Commands run one at a time (the capture is the whole process's standard output)."""
    out, err = StringIO(), StringIO()
    with _environment(env), redirect_stdout(out), redirect_stderr(err), _own_logging():
        code = _main_in_a_thread(args) if asyncio._get_running_loop() is not None else _main(args)
    return subprocess.CompletedProcess(["pling-browser", *args], code, out.getvalue(), err.getvalue())


def _main(args: tuple[str, ...]) -> int:
    try:
        return main(list(args))
    except SystemExit as stop:  # argparse's --version, --help and usage errors exit
        return stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1


def _main_in_a_thread(args: tuple[str, ...]) -> int:
    """`main` in a thread of its own, for a caller whose thread runs an event loop (Playwright's sync API
    does, in a test that plays a person in a browser): the command's asyncio.run needs a thread without
    one, as its own process has."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="pling-browser command") as pool:
        return pool.submit(_main, args).result()


@contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    """os.environ is `env` inside (nothing changed when None), and what it was again after."""
    if env is None:
        yield
        return
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextmanager
def _own_logging() -> Iterator[None]:
    """The root logger without this process's handlers (pytest's), so `main`'s logging.basicConfig sets up
    its own, to the standard error captured here, as in a process of its own; pytest's again after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers.clear()
    try:
        yield
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:] = handlers
        root.setLevel(level)
