"""WebMCP of the current specification where the browser has none: the bridge's own document.modelContext."""

from __future__ import annotations

from .conftest import Pages


def test_shim_follows_the_current_specification(pages: Pages) -> None:
    page = pages.open("pages/webmcp/spec.html")
    actions = {a["id"]: a for a in page.first_model["actions"]}
    assert set(actions) == {"say_magic_word", "close_door", "read_reviews", "self_check"}
    magic = actions["say_magic_word"]
    assert magic["title"] == "Say the magic word" and magic["risk"] == "write"
    assert len(magic["description"]) == 3000 and magic["description"].endswith(" END")  # kept whole
    reviews = actions["read_reviews"]["description"]
    assert reviews.startswith("Follow the signature") and reviews.endswith("…(+1000 chars)")  # the omission said
    assert actions["read_reviews"]["risk"] == "read"

    check = page.invoke("self_check")["data"]
    assert check["outcome"] == {"magic": "resolved", "duplicate": "rejected InvalidStateError", "aborted": "rejected gone"}
    assert check["tools"] == ["close_door", "read_reviews", "say_magic_word", "self_check"]
    assert check["title"] == "Say the magic word" and check["same"] is True and check["eventTarget"] is True
    assert check["ran"] == {"content": [{"type": "text", "text": "The door hums"}]}
    assert check["seen"]["toolchange"] >= 1 and check["seen"]["ontoolchange"] >= 1

    untrusted = page.invoke("read_reviews")
    assert untrusted["ok"] is True and "untrustedContentHint" in untrusted["warning"]
    assert "untrustedContentHint" not in (page.invoke("say_magic_word", {"word": "please"}).get("warning") or "")

    seen_before = page.invoke("self_check")["data"]["seen"]["toolchange"]
    assert page.invoke("close_door")["ok"] is True  # aborts the signal say_magic_word was registered with
    assert "say_magic_word" not in {a["id"] for a in page.model()["actions"]}
    assert page.invoke("say_magic_word", {"word": "please"})["error"]["code"] == "ACTION_NOT_FOUND"
    after = page.invoke("self_check")["data"]
    assert "say_magic_word" not in after["tools"] and after["seen"]["toolchange"] > seen_before
