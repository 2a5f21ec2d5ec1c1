"""Routes of a real single-page app (Vue 3 + vue-router 4 from npm, fixtures/pages/real/vue_router.html)
that declare another pling.page: leaving a view is not a deletion (SPEC: "Actions that leave the
document"). One document throughout; the receipt's `changed.page` names each route."""

from __future__ import annotations

from typing import Any

from ..conftest import Pages


def test_list_to_detail_to_list_claims_no_removal(pages: Pages, fixtures: Any) -> None:
    page = pages.open("pages/real/vue_router.html")
    assert page.first_model["page"]["id"] == "people"
    assert page.first_model["records"]["person"]["ids"] == ["p1", "p2", "p3", "p4"]
    url = fixtures.url("/pages/real/vue_router.html")

    opened = page.invoke("open@p2")
    assert opened["ok"] is True, opened
    changed = opened["changed"]
    assert changed["page"] == {"from": {"id": "people", "url": url + "#/", "title": "People: /"},
                               "to": {"id": "person", "url": url + "#/people/p2", "title": "People: /people/p2"}}
    # The detail shows one person: the three others left the view; none was removed, none added.
    assert changed["records"]["person"] == {"entered": [], "left": ["p1", "p3", "p4"], "updated": [],
                                            "omitted": {"entered": 0, "left": 0, "updated": 0},
                                            "total": {"from": 4, "to": 1}}
    assert changed["records"]["note"] == {"declared": "after"}  # only the detail declares notes
    assert changed["state"]["declared"] == {"count": "before"}
    assert set(changed["actions"]["added"]) == {"rename", "back"}
    assert set(changed["actions"]["removed"]) == {"open", "remove", "about"}  # families by id, no instances
    assert page.model()["records"]["note"]["ids"] == ["p2-1", "p2-2"]

    renamed = page.invoke("rename", {"name": "Rear Admiral Hopper"})  # the same page: an update, as always
    assert renamed["ok"] is True and renamed["verified"] is True, renamed
    assert "page" not in renamed["changed"]
    assert renamed["changed"]["records"]["person"]["updated"] == [
        {"id": "p2", "changes": {"label": {"from": "Grace Hopper", "to": "Rear Admiral Hopper"}}}]

    back = page.invoke("back")
    assert back["ok"] is True, back
    assert back["changed"]["page"]["from"]["id"] == "person" and back["changed"]["page"]["to"]["id"] == "people"
    assert back["changed"]["records"]["person"] == {"entered": ["p1", "p3", "p4"], "left": [], "updated": [],
                                                    "omitted": {"entered": 0, "left": 0, "updated": 0},
                                                    "total": {"from": 1, "to": 4}}
    assert back["changed"]["records"]["note"] == {"declared": "before"}
    assert page.model()["records"]["person"]["total"] == 4  # nobody was removed


def test_a_delete_on_the_same_route_is_removed(pages: Pages) -> None:
    page = pages.open("pages/real/vue_router.html")
    removed = page.invoke("remove@p3")
    assert removed["ok"] is True and removed["verified"] is True, removed
    assert "page" not in removed["changed"]
    person = removed["changed"]["records"]["person"]
    assert person["removed"] == ["p3"] and person["added"] == [] and person["total"] == {"from": 4, "to": 3}
    assert removed["changed"]["actions"]["removed"] == ["open@p3", "remove@p3"]


def test_a_route_to_a_page_without_records(pages: Pages) -> None:
    page = pages.open("pages/real/vue_router.html")
    about = page.invoke("about")
    assert about["ok"] is True, about
    assert about["changed"]["page"]["to"]["id"] == "about"
    assert about["changed"]["records"] == {"person": {"declared": "before"}}
