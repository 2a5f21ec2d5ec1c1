"""Fixture apps for tests, loaded from fixtures/apps/ (which is not a package).

    from tests.apps import SsrApp

    with SsrApp(model_delay_ms=150) as app:   # a server-rendered task app on 127.0.0.1, port 0
        url = app.url("/tasks")
        ...                                    # open url in a session, invoke actions
        app.wait_for_request("/tasks", 30, method="POST")
        assert app.posts("/tasks") == 1
        app.titles(); app.task("task-1"); app.reset()

See fixtures/apps/ssr/app.py for the routes and fixtures/apps/ssr/README.md for each page's model.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

APPS = Path(__file__).resolve().parent.parent / "fixtures" / "apps"


def _load(name: str, path: Path):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_ssr = _load("pling_fixture_apps_ssr", APPS / "ssr" / "app.py")
SsrApp = _ssr.SsrApp
SsrRequest = _ssr.Request

__all__ = ["SsrApp", "SsrRequest"]
