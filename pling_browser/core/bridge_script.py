"""The bridge's script and its table of operations (js_bridge/dist/pling.js, js_bridge/operations.json),
read from the package: what core/bridge.py calls and checks every call against, what a document's
init script and /pling.js serve."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel

from .. import models
from . import answers


def _bridge_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    packaged = package / "js_bridge"
    return packaged if packaged.is_dir() else package.parent / "js_bridge"


@lru_cache(maxsize=1)
def operations() -> dict[str, type[BaseModel]]:
    """js_bridge/operations.json: every operation the page's dispatch answers, with the model its answer
    validates into (core/answers.py; ``model``'s is the page model of models.py). Every call below is
    checked against it, so a name or an answer type Python and the page disagree on fails at once."""
    table = json.loads((_bridge_dir() / "operations.json").read_text(encoding="utf-8"))
    return {name: getattr(answers, entry["answer"], None) or getattr(models, entry["answer"])
            for name, entry in table["operations"].items()}


@lru_cache(maxsize=1)
def bridge_source() -> str:
    """The whole bridge as one script: an init script for the controller, /pling.js for pages. It is
    js_bridge/'s ES modules bundled by esbuild (js_bridge/build.mjs, ``make js``), committed."""
    return (_bridge_dir() / "dist" / "pling.js").read_text(encoding="utf-8")


def document_script(risks: dict[str, str] | None = None) -> str:
    """The init script of every document of a session: the bridge, then the operator's policy that
    lives in the page (PLING_RISK's raised risks), so a reload or a navigation cannot shed it. The
    controller enforces the same policy itself (lifecycle/confirm.py); this keeps the model honest."""
    script = bridge_source()
    if risks:
        arg = json.dumps(json.dumps({"risks": risks}))
        script += f"window.__plingBridge && window.__plingBridge.call('configure', {arg});\n"
    return script
