"""Pling browser: operate web pages through their declared capability model.

Importing this package stays light: Playwright and FastAPI load only when a runtime or app is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Client", "AsyncClient", "PageSession", "Settings", "PlingError", "Receipt", "PageModel", "Runtime", "create_app", "__version__"]

if TYPE_CHECKING:
    from .agents.client import AsyncClient, Client, PageSession
    from .config import Settings
    from .errors import PlingError
    from .models import PageModel, Receipt
    from .runtime import Runtime
    from .server.api import create_app

_LAZY = {
    "Client": ".agents.client",
    "AsyncClient": ".agents.client",
    "PageSession": ".agents.client",
    "Settings": ".config",
    "PlingError": ".errors",
    "Receipt": ".models",
    "PageModel": ".models",
    "Runtime": ".runtime",
    "create_app": ".server.api",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module 'pling_browser' has no attribute {name!r}")
