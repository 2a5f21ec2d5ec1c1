"""``pling-browser``: serve the HTTP API, print a page's model, or run one action."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import logging
import sys
from urllib.parse import urlsplit

from .config import Settings
from .errors import PlingError, ServiceError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pling-browser", description="Operate web pages through their declared capability model.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the HTTP API (and the demo under /demo/)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--headed", action="store_true", help="show the browser window")
    model = commands.add_parser("model", help="print the model of a page as JSON")
    model.add_argument("url")
    model.add_argument("--limit", type=int, default=50, help="records with fields per type")
    invoke = commands.add_parser("invoke", help="run one action and print its receipt")
    invoke.add_argument("url")
    invoke.add_argument("action", help="ACTION or ACTION@RECORD")
    invoke.add_argument("--args", default=None, help="the arguments as JSON text")
    invoke.add_argument("--no-evidence", action="store_true", help="skip the before/after snapshots")
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
    from .runtime import Runtime, dumps

    runtime = Runtime(settings)
    try:
        await runtime.start()
        session = await runtime.open(url)
        if action is None:
            return 0, dumps(json.loads(await runtime.model_json(session, {"limit": limit})))
        receipt = await runtime.invoke(session, action, args, evidence=evidence)
        return (0 if receipt.ok else 1), dumps({"result": receipt.as_json()})
    finally:
        await runtime.stop()


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    level = logging.INFO if options.command == "serve" else logging.WARNING
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = Settings.from_env()
    if options.command == "serve":
        if not settings.token and not _is_loopback(options.host):
            print(f"pling-browser: refusing to listen on {options.host} without PLING_TOKEN; "
                  "set a token or bind 127.0.0.1", file=sys.stderr)
            return 2
        import uvicorn

        from .api import create_app

        app = create_app(settings.with_(headless=not options.headed))
        uvicorn.run(app, host=options.host, port=options.port, log_level="info")
        return 0
    settings = _with_url_allowed(settings, options.url)
    try:
        if options.command == "model":
            code, text = asyncio.run(_one_shot(settings, options.url, None, None, True, options.limit))
        else:
            code, text = asyncio.run(_one_shot(settings, options.url, options.action, options.args,
                                               not options.no_evidence, 50))
    except ServiceError as error:
        print(json.dumps({"error": {**error.to_dict(), "status": error.status}}, indent=2), file=sys.stderr)
        return 2
    except PlingError as error:
        print(json.dumps({"error": error.to_dict()}, indent=2), file=sys.stderr)
        return 2
    print(text)
    return code
