"""The MCP server driven by the official TypeScript SDK (@modelcontextprotocol/sdk from npm, installed by
`make test` with the repository's npm toolchain): tests/mcp_ts/client.mjs connects over streamable HTTP,
opens the demo, calls page tools, and lets the SDK's own listChanged handler refresh its tool list when
the server says it changed. Its latest handshake version and an older one (2025-03-26) are both run."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .conftest import ServiceThread
from .server import FixtureServer

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "mcp_ts" / "client.mjs"
SDK = ROOT / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"


def _run(service: ServiceThread, page: str, version: str | None) -> dict[str, Any]:
    node = shutil.which("node")
    assert node and SDK.exists(), "the TypeScript MCP SDK is installed by `make node_modules` (npm ci at the root)"
    command = [node, str(SCRIPT), service.url, page] + ([version] if version else [])
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if out["errors"]:  # whole, with each error's cause: pytest would cut a long assertion message
        pytest.fail(f"{out['step']}: " + "\n".join(out["errors"]), pytrace=False)
    return out


@pytest.mark.parametrize("version", [None, "2025-03-26"])
def test_the_typescript_sdk_refreshes_its_tools_when_the_list_changes(service: ServiceThread, fixtures: FixtureServer,
                                                                      version: str | None) -> None:
    out = _run(service, fixtures.url("demo/todos.html"), version)
    sdk = json.loads(SDK.read_text())["version"]
    if version:
        assert out["protocolVersion"] == version
    else:
        assert out["protocolVersion"] >= "2025-06-18", (sdk, out["protocolVersion"])
    assert out["capabilities"]["tools"]["listChanged"] is True
    assert {"open_page", "read_model", "invoke", "resume", "close_page", "list_profiles"} <= set(out["fixed"])
    # The SDK refreshed its list on its own: when the page opened, after the add, after the close.
    assert out["refreshesBeforeAdd"] >= 1 and out["refreshesAfterAdd"] >= 1 and out["goneAfterClose"] is True
    assert out["listChangedErrors"] == 0
    assert out["added"]["isError"] is False and out["added"]["receipt"]["ok"] is True
    assert out["newId"] == "t15"
    for name, code in (("unknown", "ACTION_NOT_FOUND"), ("invalid", "INVALID_PARAMS")):
        failed = out[name]
        assert failed["isError"] is True, name  # an ok: false receipt is an error result...
        assert failed["receipt"]["ok"] is False and failed["receipt"]["error"]["code"] == code  # ...keeping the receipt
    assert json.loads(out["unknown"]["text"])["error"]["hint"]
    missing = json.loads(out["missing"]["text"])
    assert out["missing"]["isError"] is True and missing["code"] == "SESSION_NOT_FOUND" and missing["type"] == "/errors#SESSION_NOT_FOUND"
