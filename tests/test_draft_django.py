"""Drafts of a real app nobody here wrote, used unedited (as in tests/test_draft_apps.py): each passes
`check` (no error finding), and the generic policy of the bench adds something and removes it again.

Django 5.2's admin (PyPI; tests/django_app.py, the same server the shipped adapter is tested on),
server-rendered, each page a document of its own, behind its sign-in. The sign-in page is drafted as
it is; the group list, the add form, a group's page and its delete confirmation are drafted with
`--do` after the sign-in draft's own "Log in" (a draft matches its own path, with any query, not the
pages below it). The generic policy signs in, adds a group with the add form's Save (a POST answered
by a redirect to the list) and removes one with the list's link to it, its Delete link and "Yes, I'm
sure"; each receipt says which page the action left for, the list the session then shows has the
group or has it no more, and the database agrees. `check` opens the pages signed in (a saved profile).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench.miniwob import policy_generic
from bench.miniwob.agent_pling import PlingAgent
from pling_browser.ci.check import check

from .conftest import ServiceThread, serving
from .django_app import PASSWORD, USER, DjangoAdmin
from .drafts import Draft, draft_all, errors

# Django admin pages behind the sign-in, each drafted after it: the group list, the add form, the page
# of the group "Reviewers" (id 2) and its delete confirmation.
ADMIN = {"list.js": "/admin/auth/group/", "add.js": "/admin/auth/group/add/", "change.js": "/admin/auth/group/2/change/",
         "delete.js": "/admin/auth/group/2/delete/"}


@pytest.fixture(scope="module")
def django_admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DjangoAdmin, ServiceThread]]:
    app = DjangoAdmin().start()
    app.reset()
    folder = tmp_path_factory.mktemp("django-drafts")
    try:
        sign_in = "log_in " + json.dumps({"username": USER, "password": PASSWORD})
        draft_all([Draft(app.url("/admin/login/"), folder / "login.js"),
                   *(Draft(app.url("/admin/login/?next=" + path), folder / name, (sign_in,)) for name, path in ADMIN.items())])
        from cryptography.fernet import Fernet  # the sign-in is kept as a profile, and profiles only encrypted

        with serving(adapters=str(folder), approve=("danger",),
                     profiles_key=Fernet.generate_key().decode()) as service:
            yield app, service
    finally:
        app.stop()


def _groups(model: dict[str, Any]) -> list[str]:
    """The list's rows as the model shows them (their labels)."""
    rows = [r for r in (model.get("records") or {}).values() if any(i.get("label") == "Editors" for i in r.get("items") or [])]
    assert len(rows) == 1, model.get("records")
    return sorted(i["label"] for i in rows[0]["items"])


def test_django_admin_drafts_pass_check_and_the_generic_policy_adds_and_removes_a_group(
        django_admin: tuple[DjangoAdmin, ServiceThread]) -> None:
    app, service = django_admin

    async def go() -> None:
        async with httpx.AsyncClient(base_url=service.url, timeout=120) as client:
            agent = PlingAgent(client)
            receipts: list[dict[str, Any]] = []
            original = agent.invoke

            async def invoke(action: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
                receipts.append(await original(action, args))
                return receipts[-1]
            agent.invoke = invoke  # type: ignore[method-assign]
            model = await agent.open(app.url("/admin/login/?next=/admin/auth/group/add/"))
            try:
                await policy_generic.solve(agent, model, instruction=f'Log in with the username "{USER}" and the password "{PASSWORD}"')
                assert [r["action"]["id"] for r in receipts] == ["log_in"] and receipts[0]["ok"], receipts
                assert receipts[0]["changed"]["page"]["to"]["url"] == app.url("/admin/auth/group/add/")
                saved = await client.post(f"/sessions/{agent.sid}/profile", json={"name": "django-admin"})
                assert saved.status_code == 201, saved.text
                for name, path in ADMIN.items():   # each draft, unedited, on its page signed in
                    found = service.in_service(lambda runtime: check(runtime, app.url(path), adapter=name, profile="django-admin"), 120)  # noqa: B023 (run before the next)
                    assert errors(found) == [], (name, errors(found))
                assert errors(service.in_service(lambda runtime: check(runtime, app.url("/admin/login/"), adapter="login.js"), 120)) == []

                receipts.clear()
                await policy_generic.solve(agent, await agent.model(), instruction='Save the name "Translators"')
                assert [r["action"]["id"] for r in receipts] == ["save"] and receipts[0]["ok"], json.dumps(receipts)[:2000]
                # The POST answered with a redirect to the list: the receipt says the page it left for.
                assert receipts[0]["changed"]["page"]["to"]["url"] == app.url("/admin/auth/group/"), receipts[0]["changed"]
                model = await agent.model()
                assert _groups(model) == ["Authors", "Editors", "Reviewers", "Translators"]
                assert sorted((await asyncio.to_thread(app.groups)).values()) == ["Authors", "Editors", "Reviewers", "Translators"]

                steps = []
                for instruction in ('Open the group "Reviewers"', 'Press "Delete"', 'Press "Yes, I’m sure"'):
                    receipts.clear()
                    await policy_generic.solve(agent, model, instruction=instruction)
                    assert len(receipts) == 1 and receipts[0]["ok"], json.dumps(receipts)[:2000]
                    steps.append(receipts[0])
                    model = await agent.model()
                assert [(s["changed"]["page"]["from"]["url"], s["changed"]["page"]["to"]["url"]) for s in steps] == [
                    (app.url("/admin/auth/group/"), app.url("/admin/auth/group/2/change/")),
                    (app.url("/admin/auth/group/2/change/"), app.url("/admin/auth/group/2/delete/")),
                    (app.url("/admin/auth/group/2/delete/"), app.url("/admin/auth/group/"))]
                assert _groups(model) == ["Authors", "Editors", "Translators"]
                assert sorted((await asyncio.to_thread(app.groups)).values()) == ["Authors", "Editors", "Translators"]
            finally:
                await agent.close()
    asyncio.run(go())
