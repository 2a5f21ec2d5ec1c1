"""A trace never holds an operator secret (SECURITY.md "Secrets"), also where the trace's own format
escapes it: the zip's entries are JSON (the DOM snapshots, the network log) and the page's resources,
and there a value holding a quote or a backslash is written as JSON writes it (\\" and \\\\), or as the
page's source wrote it. A real service with PLING_SECRETS, a real Chromium, the fixture server on
loopback."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Pages, ServiceThread, serving
from .server import FixtureServer

KEY = 'sk-live"quoted\\slash-0123456789'  # what fixtures/pages/security/config_key.html shows


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceThread]:
    secrets = tmp_path_factory.mktemp("secrets") / "secrets.env"
    secrets.write_text(f"API_KEY='{KEY}'\n")  # single quotes: dotenv takes the value as it is
    with serving(secrets_file=str(secrets)) as svc:
        yield svc


@pytest.fixture
def pages(secured: ServiceThread, fixtures: FixtureServer) -> Iterator[Pages]:
    with httpx.Client(base_url=secured.url, timeout=60) as client:
        opened = Pages(client, fixtures)
        yield opened
        opened.close_all()


def test_a_trace_of_a_page_showing_a_secret_with_a_quote_is_discarded(pages: Pages, secured: ServiceThread) -> None:
    assert secured.app.state.runtime.operator_secrets["API_KEY"] == KEY  # the secret as the operator wrote it
    page = pages.open("pages/security/config_key.html")
    assert KEY not in json.dumps(page.model())  # masked in the model, as it is
    shown = page.invoke("write_note", {"value": "plain"}, trace=True)
    assert shown["ok"] is True, shown
    kept = sorted((Path(secured.app.state.runtime.settings.data_dir) / "traces" / page.id).glob("*.zip"))
    holding = []
    for path in kept:
        archive = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
        escaped = json.dumps(KEY)[1:-1].encode()
        holding += [name for name in archive.namelist() if escaped in archive.read(name) or KEY.encode() in archive.read(name)]
    assert "trace" not in shown and not holding, (shown.get("trace"), holding)
    assert "The trace was discarded" in shown["warning"] and "showed a masked value" in shown["warning"]
