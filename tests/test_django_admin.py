"""Django's admin (PyPI `django`, server-rendered; nobody here wrote it) driven through the shipped
adapter adapters/django-admin.js: true receipts across its page changes (SPEC "Actions that leave the
document"). Sign in, the index, a model's list, an object's page and back (records leave and enter the
view, nothing is removed), a delete through the list's action posted back to the list (`removed`), and
a delete flow whose object another admin deleted already: Django sends it to the index, the flow
fails there, and nothing is claimed removed. The database says what really happened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import APPROVED, PageSession, serving

pytest.importorskip("django")
from .django_app import PASSWORD, USER, DjangoAdmin  # noqa: E402

ADAPTER = Path(__file__).resolve().parent.parent / "adapters" / "django-admin.js"


@pytest.fixture(scope="module")
def admin() -> Iterator[DjangoAdmin]:
    app = DjangoAdmin().start()
    yield app
    app.stop()


@pytest.fixture(scope="module")
def admin_client() -> Iterator[httpx.Client]:
    with serving(adapters=str(ADAPTER), approve=APPROVED + ("delete", "remove", "confirm_delete"),
                 navigation_settle_s=5.0) as svc, httpx.Client(base_url=svc.url, timeout=60) as client:
        yield client


@pytest.fixture
def signed_in(admin: DjangoAdmin, admin_client: httpx.Client) -> Iterator[PageSession]:
    admin.reset()
    answer = admin_client.post("/sessions", json={"url": admin.url("/admin/login/")})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    page = PageSession(admin_client, data["session"]["id"], data["model"])
    assert page.first_model["page"]["id"] == "login" and page.first_model["page"]["adapter"] == ["django-admin.js"]
    signed = page.invoke("log_in", {"username": USER, "password": PASSWORD})
    assert signed["ok"] is True, signed
    assert signed["changed"]["page"]["to"]["id"] == "admin_index"
    assert signed["changed"]["records"] == {"model": {"declared": "after"}}  # the login page lists no models
    yield page
    admin_client.delete(f"/sessions/{page.id}")


def _to_list(page: PageSession) -> dict[str, Any]:
    receipt = page.invoke("open_list@auth.group")
    assert receipt["ok"] is True, receipt
    assert receipt["changed"]["page"]["from"]["id"] == "admin_index" and receipt["changed"]["page"]["to"]["id"] == "group_list"
    assert receipt["changed"]["records"] == {"model": {"declared": "before"}, "group": {"declared": "after"}}
    return receipt


def test_an_object_and_back_is_a_view_not_a_deletion(signed_in: PageSession, admin: DjangoAdmin) -> None:
    _to_list(signed_in)
    assert signed_in.model()["records"]["group"]["ids"] == ["3", "1", "2"]  # Django orders groups by name
    opened = signed_in.invoke("open@2")
    assert opened["ok"] is True, opened
    assert opened["changed"]["page"]["to"]["id"] == "group_change"
    assert opened["changed"]["records"]["group"] == {"entered": [], "left": ["3", "1"], "updated": [],
                                                     "omitted": {"entered": 0, "left": 0, "updated": 0},
                                                     "total": {"from": 3, "to": 1}}
    back = signed_in.invoke("back")
    assert back["ok"] is True, back
    assert back["changed"]["records"]["group"]["entered"] == ["3", "1"] and back["changed"]["records"]["group"]["left"] == []
    assert admin.groups() == {"1": "Editors", "2": "Reviewers", "3": "Authors"}  # nothing was deleted


def test_a_delete_posted_back_to_the_list_is_removed(signed_in: PageSession, admin: DjangoAdmin) -> None:
    _to_list(signed_in)
    receipt = signed_in.invoke("delete@1")
    assert receipt["ok"] is True, receipt
    assert [(s["action"], s["ok"]) for s in receipt["steps"]] == [("select@1", True), ("delete_selected", True), ("confirm_delete", True)]
    changed = receipt["changed"]
    assert changed["page"]["from"]["id"] == changed["page"]["to"]["id"] == "group_list"
    group = changed["records"]["group"]
    assert group["removed"] == ["1"] and group["added"] == [] and group["total"] == {"from": 3, "to": 2}
    assert changed["feedback"]["added"] == [{"kind": "success", "text": "Successfully deleted 1 group."}]
    assert admin.groups() == {"2": "Reviewers", "3": "Authors"}


def test_a_failed_delete_that_lands_on_the_index_claims_nothing_removed(signed_in: PageSession, admin: DjangoAdmin) -> None:
    _to_list(signed_in)
    admin.drop("2")  # another admin deleted it; the list shown still has it
    receipt = signed_in.invoke("remove@2")
    assert receipt["ok"] is False, receipt
    error = receipt["error"]
    assert error["code"] == "STEP_FAILED" and error["step"] == 2 and error["step_error"]["code"] == "ACTION_NOT_FOUND"
    changed = receipt["changed"]
    assert changed["page"]["from"]["id"] == "group_list" and changed["page"]["to"]["id"] == "admin_index"
    # The index declares no groups: the type is not diffed. Nothing is claimed removed, by this flow or at all.
    assert changed["records"] == {"group": {"declared": "before"}, "model": {"declared": "after"}}
    assert changed["feedback"]["added"] == [{"kind": "warning", "text": "Group with ID “2” doesn’t exist. Perhaps it was deleted?"}]
    assert admin.groups() == {"1": "Editors", "3": "Authors"}


def test_editing_an_object_and_its_list_after(signed_in: PageSession, admin: DjangoAdmin) -> None:
    _to_list(signed_in)
    assert signed_in.invoke("open@3")["ok"] is True
    saved = signed_in.invoke("save", {"name": "Writers"})
    assert saved["ok"] is True, saved
    changed = saved["changed"]
    assert changed["page"]["from"]["id"] == "group_change" and changed["page"]["to"]["id"] == "group_list"
    # Another page: the renamed group is shown on both, with its new label; the others entered the view.
    group = changed["records"]["group"]
    assert group["updated"] == [{"id": "3", "changes": {"label": {"from": "Authors", "to": "Writers"}}}]
    assert group["entered"] == ["1", "2"] and group["left"] == []
    assert any(f["kind"] == "success" and "Writers" in f["text"] for f in changed["feedback"]["added"])
    assert admin.groups()["3"] == "Writers"
