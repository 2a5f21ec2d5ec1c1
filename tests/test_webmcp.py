"""A page that registers WebMCP tools, and nothing else, driven through Pling."""

from __future__ import annotations

from .conftest import Pages, ServiceThread
from .webmcp_fixtures import where  # noqa: F401


def test_webmcp_tools_become_function_actions(where: tuple[ServiceThread, Pages]) -> None:
    _svc, pages = where
    page = pages.open("pages/webmcp/notes.html")
    actions = {a["id"]: a for a in page.first_model["actions"]}
    assert set(actions) == {"add_note", "list_notes"}  # `temporary` was unregistered
    assert actions["list_notes"]["risk"] == "read" and actions["add_note"]["risk"] == "write"
    assert actions["add_note"]["params"]["required"] == ["text"]
    added = page.invoke("add_note", {"text": "Call mum"})
    assert added["ok"] is True and added["data"] == {"content": [{"type": "text", "text": "Added note 2"}]}
    # A WebMCP-only page declares nothing to observe: no "nothing it declares changed" warning on a write.
    assert "warning" not in added, added
    listed = page.invoke("list_notes")
    assert listed["data"]["content"][0]["text"] == "Buy bread\nCall mum"
    assert page.invoke("add_note", {"text": ""})["error"]["code"] == "INVALID_PARAMS"
