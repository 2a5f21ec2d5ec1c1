"""The HTTP contract changes only on purpose: the OpenAPI document is pinned. After a deliberate
change, regenerate the snapshot with PLING_UPDATE_SNAPSHOTS=1 and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pling_browser.server.api import create_app

SNAPSHOT = Path(__file__).parent / "snapshots" / "openapi.json"


def test_openapi_document_is_pinned() -> None:
    document = create_app().openapi()
    text = json.dumps(document, indent=1, sort_keys=True) + "\n"
    if os.environ.get("PLING_UPDATE_SNAPSHOTS") == "1" or not SNAPSHOT.exists():
        SNAPSHOT.write_text(text)
    assert text == SNAPSHOT.read_text(), "the OpenAPI document changed: regenerate the snapshot if on purpose"


def test_every_operation_documents_problems() -> None:
    for path, operations in create_app().openapi()["paths"].items():
        for method, operation in operations.items():
            assert "404" in operation["responses"] and "400" in operation["responses"], f"{method} {path}"
