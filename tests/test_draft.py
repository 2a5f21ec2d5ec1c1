"""`pling-browser draft URL`: a starting adapter written from a page that does not declare itself.
The draft for fixtures/pages/adapted/contacts.html (a form, a table with a "Contact ID" column and a
Delete button per row, a Sort button) is loaded as an adapter, and its actions run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from .conftest import Pages, serving
from .server import FixtureServer


def test_draft_writes_an_adapter_that_loads_and_whose_actions_run(fixtures: FixtureServer, tmp_path: Path) -> None:
    folder = tmp_path / "adapters"
    folder.mkdir()
    out = folder / "contacts.js"
    url = fixtures.url("pages/adapted/contacts.html")
    done = subprocess.run([sys.executable, "-m", "pling_browser", "draft", url, "--out", str(out)],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.splitlines()[1].startswith("// @name         DRAFT: Contacts")
    assert "// DRAFT:" in text and "TODO" in text
    again = subprocess.run([sys.executable, "-m", "pling_browser", "draft", url, "--out", str(out)],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "exists" in again.stderr  # a draft never overwrites a file

    with serving(adapters=str(folder), approve=("danger",)) as service:
        with httpx.Client(base_url=service.url, timeout=60) as client:
            pages = Pages(client, fixtures)
            page = pages.open("/pages/adapted/contacts.html")
            model = page.model()
            assert model["page"]["adapter"] == ["contacts.js"] and model["problems"] == []
            # The table is a record type keyed on its id-like column; the form, the row button and
            # the lone button are actions with their labels.
            assert model["records"]["contact"]["ids"] == ["C-1042", "C-1077"]
            # A list whose items carry an id attribute is a record type keyed on it.
            assert model["records"]["recent_contact"]["ids"] == ["C-1077"]
            assert model["records"]["recent_contact"]["items"][0]["label"] == "Grace Hopper"
            item = model["records"]["contact"]["items"][0]
            assert item["label"] == "Ada Lovelace" and item["fields"]["email"] == "ada@example.com"
            actions = {a["id"]: a for a in model["actions"]}
            assert set(actions) == {"add_contact", "delete", "click_sort_by_name"}
            # The form's fields as they are now: a select's options as oneOf {const: value, title: what it shows}.
            assert actions["add_contact"]["params"]["properties"]["role"]["oneOf"] == [
                {"const": "customer", "title": "Customer"}, {"const": "supplier", "title": "Supplier"}]
            assert actions["add_contact"]["params"]["required"] == ["name"]
            assert actions["delete"]["record"] == "contact" and actions["delete"]["risk"] == "danger"

            added = page.invoke("add_contact", {"name": "Alan Turing", "email": "alan@example.com", "role": "supplier"})
            assert added["ok"], added
            assert added["changed"]["records"]["contact"]["added"] == ["C-1100"]
            removed = page.invoke("delete@C-1042")
            assert removed["ok"], removed
            assert removed["changed"]["records"]["contact"]["removed"] == ["C-1042"]
            sorted_ = page.invoke("click_sort_by_name")
            assert sorted_["ok"] and sorted_["changed"]["records"]["contact"]["reordered"] is True
            pages.close_all()
