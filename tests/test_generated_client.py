"""A client generated from the OpenAPI document by a generator nobody here wrote
(openapi-python-client) opens the demo, invokes an action, reads the typed receipt and closes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pling_browser.server.api import create_app

from .conftest import ServiceThread
from .server import FixtureServer


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    if generator is None:
        pytest.skip("openapi-python-client is not installed (pip install -e '.[test]')")
    work = tmp_path_factory.mktemp("client")
    spec = work / "openapi.json"
    spec.write_text(json.dumps(create_app().openapi()))
    config = work / "config.yml"
    config.write_text("project_name_override: pling-client\npackage_name_override: pling_client\npost_hooks: []\n")
    done = subprocess.run([generator, "generate", "--path", str(spec), "--config", str(config), "--meta", "none",
                           "--output-path", str(work / "pling_client")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return work


def test_a_generated_client_runs_an_action(generated: Path, service: ServiceThread, fixtures: FixtureServer) -> None:
    script = f"""
import sys
sys.path.insert(0, {str(generated)!r})
from pling_client import Client
from pling_client.api.sessions import close_session, open_session
from pling_client.api.actions import invoke_action
from pling_client.models import CreateSession, InvokeRequest, InvokeAnswer

client = Client(base_url={service.url!r}, raise_on_unexpected_status=True)
opened = open_session.sync_detailed(client=client, body=CreateSession(url={fixtures.url("demo/todos.html")!r}))
assert opened.status_code == 201, opened.content
sid = opened.parsed.session.id
answer = invoke_action.sync(sid, client=client, body=InvokeRequest(action="toggle@t3"))
assert isinstance(answer, InvokeAnswer), type(answer)
receipt = answer.result
assert receipt.ok is True, receipt
task = receipt.changed.records["task"]
assert task.updated[0].id == "t3" and task.updated[0].changes["done"].to is True, task.updated
failed = invoke_action.sync(sid, client=client, body=InvokeRequest(action="no_such_action")).result
assert failed.ok is False and failed.error.code == "ACTION_NOT_FOUND" and failed.error.started is False
assert close_session.sync_detailed(sid, client=client).status_code in (200, 204)
print("generated client ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "generated client ok" in done.stdout
