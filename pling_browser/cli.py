"""``pling-browser``: serve the HTTP API, print a page's model, run one action, check a page's model
record a few actions as a scenario file, or run scenario files (the last three for CI: see docs/ci.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .config import Settings, SettingsError, near_misses
from .errors import PlingError, ServiceError


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    # Every option's help shows its default (argparse's own formatter); settings come from PLING_*
    # variables and from a .env file in the working directory (README, Settings).
    formatter = argparse.ArgumentDefaultsHelpFormatter
    parser = argparse.ArgumentParser(prog="pling-browser", description="Operate web pages through their declared capability "
                                     "model. Settings: PLING_* environment variables, or a .env file in the working directory.",
                                     formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add = commands.add_parser

    def add_parser(name: str, **options: Any) -> argparse.ArgumentParser:
        return add(name, formatter_class=formatter, description=options.get("help"), **options)

    commands.add_parser = add_parser  # type: ignore[method-assign]
    serve = commands.add_parser("serve", help="run the HTTP API (and the demo under /demo/); SIGINT or SIGTERM "
                                "stops it cleanly (sessions closed, exit 0)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (other than loopback only with "
                       "PLING_TOKEN or PLING_TOKENS)")
    serve.add_argument("--port", type=int, default=8000, help="the port to listen on")
    serve.add_argument("--headed", action="store_true", help="show the browser window")
    model = commands.add_parser("model", help="print the model of a page as JSON")
    model.add_argument("url")
    model.add_argument("--limit", type=int, default=50, help="records with fields per type")
    invoke = commands.add_parser("invoke", help="run one action and print its receipt")
    invoke.add_argument("url")
    invoke.add_argument("action", help="ACTION or ACTION@RECORD")
    invoke.add_argument("--args", default=None, help="the arguments as JSON text")
    invoke.add_argument("--no-evidence", action="store_true", help="skip the before/after snapshots")
    check = commands.add_parser("check", help="check a page's model against the invariants; exit 1 on errors")
    check.add_argument("url")
    check.add_argument("--json", action="store_true", help="print the findings as JSON")
    check.add_argument("--strict", action="store_true", help="warnings fail the check too")
    check.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    check.add_argument("--adapter", metavar="FILE", help="load the page with this adapter (docs/adapters.md) instead "
                       "of PLING_ADAPTERS, and check that it runs there and loads")
    check.add_argument("--profile", metavar="NAME", help="open the page signed in as this saved profile (a page behind a sign-in)")
    record = commands.add_parser("record", help="run actions on a page and write them as a scenario file")
    record.add_argument("url")
    record.add_argument("steps", nargs="*", metavar="STEP",
                        help="ACTION, ACTION@RECORD or 'ACTION {JSON args}'; ids an earlier step added as {stepN.added.I}; "
                             "none: one step per line from standard input")
    record.add_argument("-o", "--output", metavar="FILE", help="write the scenario here (default: standard output)")
    record.add_argument("--name", default="recorded", help="the scenario's name")
    draft = commands.add_parser("draft", help="write a starting adapter for a page that does not declare itself")
    draft.add_argument("url")
    draft.add_argument("--out", metavar="FILE", help="write the draft here (never over an existing file); default: print it")
    draft.add_argument("--do", action="append", default=[], metavar="'ACTION {JSON args}'",
                       help="before reading the page, run this action of a first draft (repeatable, in order): "
                            "the draft is then written from the page as those steps left it (a list that is empty "
                            "until something is added)")
    run = commands.add_parser("run", help="run scenario files; exit 1 when a scenario fails")
    run.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="a scenario file (.json, or .yaml with PyYAML)")
    run.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    run.add_argument("--base-url", default=None, help="resolve relative page URLs against this (default: PLING_BASE_URL)")
    return parser


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _with_url_allowed(settings: Settings, url: str) -> Settings:
    # The operator named this URL on the command line: its host is allowed for this run.
    host = (urlsplit(url).hostname or "").lower()
    return settings.with_(allow_hosts=settings.allow_hosts + (host,)) if host else settings


async def _one_shot(settings: Settings, url: str, action: str | None, args: str | None, evidence: bool, limit: int) -> tuple[int, str]:
    from .runtime import Invoke, Runtime, dumps

    runtime = Runtime(settings)
    try:
        await runtime.start()
        session = await runtime.open(url)
        if action is None:
            return 0, dumps(json.loads(await runtime.model_json(session, {"limit": limit})))
        receipt = await runtime.run(Invoke(session=session.id, action=action, args=args, evidence=evidence))
        return (0 if receipt.get("ok") else 1), dumps({"result": receipt})
    finally:
        await runtime.stop()


async def _check(settings: Settings, url: str, strict: bool, as_json: bool, junit: str | None,
                 adapter: str | None = None, profile: str | None = None) -> int:
    from .ci.check import check, report
    from .ci.progress import Progress
    from .runtime import Runtime, dumps

    if adapter is not None:
        settings = settings.with_(adapters=adapter)  # this one adapter, whatever PLING_ADAPTERS says
    runtime = Runtime(settings)
    progress = Progress()
    started = time.monotonic()
    try:
        await runtime.start()
        async with progress.ticking():
            findings = await check(runtime, url, progress=progress,
                                   adapter=Path(adapter).name if adapter is not None else None, profile=profile)
    finally:
        await runtime.stop()
    failed = any(f.severity == "error" or strict for f in findings)
    if junit:
        report(url, findings, junit, strict, time.monotonic() - started)
    if as_json:
        print(dumps({"url": url, "ok": not failed, "findings": [f.as_json() for f in findings]}))
    else:
        for finding in findings:
            print(finding)
        errors = sum(1 for f in findings if f.severity == "error")
        print(f"{'FAILED' if failed else 'OK'}: {errors} error(s), {len(findings) - errors} warning(s) in {url}")
    return 1 if failed else 0


async def _record(settings: Settings, url: str, steps: list[str], name: str) -> tuple[int, str]:
    from .ci.record import added_ids, fill, parse_step, scenario_from
    from .runtime import Invoke, Runtime, dumps

    runtime = Runtime(settings)
    failed = 0
    try:
        await runtime.start()
        session = await runtime.open(url)
        added_by_step: dict[int, list[str]] = {}
        for number, text in enumerate(steps, 1):
            action, args = parse_step(text)
            action, args = fill(action, added_by_step), fill(args, added_by_step)
            receipt = await runtime.run(Invoke(session=session.id, action=action, args=args))
            added_by_step[number] = added_ids(receipt)
            if not receipt.get("ok"):
                failed += 1
                error = receipt.get("error") or {}
                print(f"pling-browser record: step {number} {action} failed ({error.get('code')}: "
                      f"{str(error.get('message'))[:200]}); it is left out of the scenario", file=sys.stderr)
        assert runtime.store is not None
        entries = await asyncio.to_thread(runtime.store.with_requests, session.id)
        scenario = session.outbound.data(scenario_from(url, entries, name=name))
        return (1 if failed else 0), dumps(scenario)
    finally:
        await runtime.stop()


async def _draft(settings: Settings, url: str, steps: list[str] | None = None) -> str:
    import tempfile

    from .ci.draft import draft, draft_after, parse_step
    from .runtime import Runtime

    runtime = Runtime(settings.with_(adapters=None))  # the page as it is, without the operator's adapters
    try:
        await runtime.start()
        first = await draft(runtime, url)
    finally:
        await runtime.stop()
    if not steps:
        return first
    # The steps are actions of that first draft, run through the lifecycle like any invocation.
    with tempfile.TemporaryDirectory(prefix="pling-draft-") as folder:
        Path(folder, "first-draft.js").write_text(first, encoding="utf-8")
        runtime = Runtime(settings.with_(adapters=folder))
        try:
            await runtime.start()
            return await draft_after(runtime, url, [parse_step(step) for step in steps])
        finally:
            await runtime.stop()


async def _run(settings: Settings, paths: list[str], junit: str | None, base_url: str | None) -> int:
    import os

    from .ci.junit import junit_xml
    from .ci.progress import Progress
    from .ci.scenarios import load_suite, run_suite, suite_report
    from .runtime import Runtime

    suites = [load_suite(path, base_url or os.environ.get("PLING_BASE_URL")) for path in paths]
    progress = Progress()
    total = sum(len(suite.scenarios) for suite in suites)
    reports, counts, started, n = [], {"passed": 0, "failed": 0, "error": 0}, time.monotonic(), 1
    for suite in suites:
        # The operator named these pages and approvals (in the file): allowed for this run only.
        runtime = Runtime(settings.with_(allow_hosts=settings.allow_hosts + tuple(sorted(suite.hosts())),
                                         approve=settings.approve + suite.approve))
        try:
            await runtime.start()
            results = await run_suite(runtime, suite, progress, first=n, total=total)
        finally:
            await runtime.stop()
        n += len(suite.scenarios)
        for result in results:
            counts[result.status] += 1
        reports.append(suite_report(suite, results))
    if junit:
        with open(junit, "w", encoding="utf-8") as out:
            out.write(junit_xml(reports))
    progress.line(f"{counts['passed']} passed, {counts['failed']} failed, {counts['error']} errors "
                  f"in {time.monotonic() - started:.1f} s" + (f"; JUnit XML in {junit}" if junit else ""))
    return 0 if counts["passed"] == total else 1


def _serve(config: Any, app: Any) -> int:
    """Run uvicorn until SIGINT or SIGTERM, then stop cleanly: uvicorn finishes the requests in flight,
    the lifespan closes every session and the browser, and the process exits 0. (uvicorn raises the
    caught signal again once it has stopped, which would end the process by that signal or with a
    KeyboardInterrupt traceback.) A second signal ends the shutdown at once, as uvicorn's does."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            app.state.runtime.controller.stopping = True
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                yield
                self._captured_signals.clear()  # stopped as asked: nothing to raise again

    try:
        Server(config).run()
    except KeyboardInterrupt:
        return 0
    return 0


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    level = logging.INFO if options.command == "serve" else logging.WARNING
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"pling-browser: {error}", file=sys.stderr)
        return 2
    for warning in near_misses():
        print(f"pling-browser: warning: {warning}", file=sys.stderr)
    if options.command == "serve":
        return _serve_command(options, settings)
    if options.command == "run":
        return _run_command(options, settings)
    settings = _with_url_allowed(settings, options.url)
    try:
        return _page_command(options, settings)
    except ServiceError as error:
        print(json.dumps({"error": {**error.to_dict(), "status": error.status}}, indent=2), file=sys.stderr)
        return 2
    except PlingError as error:
        print(json.dumps({"error": error.to_dict()}, indent=2), file=sys.stderr)
        return 2


def _serve_command(options: argparse.Namespace, settings: Settings) -> int:
    if not settings.token and not settings.tokens_file and not _is_loopback(options.host):
        print(f"pling-browser: refusing to listen on {options.host} without PLING_TOKEN or PLING_TOKENS; "
              "set a token or bind 127.0.0.1", file=sys.stderr)
        return 2
    import uvicorn

    from .server.api import create_app
    from .server.limits import limit_repeated_logs, raise_open_file_limit, uvicorn_options

    raise_open_file_limit()
    app = create_app(settings.with_(headless=not options.headed))
    from . import telemetry

    if telemetry.configure_from_env():
        telemetry.instrument_app(app)
    config = uvicorn.Config(app, host=options.host, port=options.port, log_level="info", **uvicorn_options(settings))
    limit_repeated_logs()  # after uvicorn has set up its log handlers
    return _serve(config, app)


def _run_command(options: argparse.Namespace, settings: Settings) -> int:
    from .ci.scenarios import ScenarioFileError

    try:
        return asyncio.run(_run(settings, options.scenarios, options.junit, options.base_url))
    except ScenarioFileError as error:
        print(f"pling-browser run: {error}", file=sys.stderr)
        return 2
    except PlingError as error:
        print(json.dumps({"error": error.to_dict()}, indent=2), file=sys.stderr)
        return 2


def _page_command(options: argparse.Namespace, settings: Settings) -> int:
    """check, draft, record, model and invoke: commands on one page's address."""
    if options.command == "check":
        if options.adapter is not None and not Path(options.adapter).is_file():
            print(f"pling-browser check: {options.adapter} is not an adapter file", file=sys.stderr)
            return 2
        return asyncio.run(_check(settings, options.url, options.strict, options.json, options.junit, options.adapter,
                                  options.profile))
    if options.command == "draft":
        return _draft_command(options, settings)
    if options.command == "record":
        return _record_command(options, settings)
    if options.command == "model":
        code, text = asyncio.run(_one_shot(settings, options.url, None, None, True, options.limit))
    else:
        code, text = asyncio.run(_one_shot(settings, options.url, options.action, options.args,
                                           not options.no_evidence, 50))
    print(text)
    return code


def _draft_command(options: argparse.Namespace, settings: Settings) -> int:
    if options.out and Path(options.out).exists():
        print(f"pling-browser draft: {options.out} exists; choose another file", file=sys.stderr)
        return 2
    draft_text = asyncio.run(_draft(settings, options.url, options.do))
    if options.out:
        Path(options.out).write_text(draft_text, encoding="utf-8")
        print(f"pling-browser draft: wrote {options.out}; finish its TODOs, then "
              f"pling-browser check {options.url} --adapter {options.out}", file=sys.stderr)
    else:
        print(draft_text, end="")
    return 0


def _record_command(options: argparse.Namespace, settings: Settings) -> int:
    steps = options.steps or [line for line in sys.stdin.read().splitlines() if line.strip()]
    if not steps:
        print("pling-browser record: no steps given (as arguments or one per line on standard input)", file=sys.stderr)
        return 2
    from .ci.record import StepError, parse_step

    try:
        for step in steps:
            parse_step(step)  # every step is read before the browser starts
    except StepError as error:
        print(f"pling-browser record: {error}", file=sys.stderr)
        return 2
    code, text = asyncio.run(_record(settings, options.url, steps, options.name))
    if options.output:
        with open(options.output, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        print(f"pling-browser record: {len(steps)} step(s) written to {options.output}", file=sys.stderr)
        return code
    print(text)
    return code
