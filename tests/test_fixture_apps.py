"""The fixture apps and pages themselves: the server-rendered task app's routes over plain HTTP
(httpx, no browser), the fixture server's request log, and one browser test that loads every page
in fixtures/pages/real/ and the task app's pages with the bridge and reads what they declared."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request

import httpx
import pytest

from . import patient
from .apps import SsrApp
from .server import FixtureServer

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture
def app():
    with SsrApp() as running:
        yield running


@pytest.fixture
def http(app):
    with httpx.Client(base_url=app.origin, follow_redirects=False, timeout=10) as client:
        yield client


# -- the server-rendered task app -----------------------------------------------------------------

def test_list_renders_the_tasks_with_business_ids(http):
    page = http.get("/tasks")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for task_id in ("task-1", "task-2", "task-3"):
        assert f'data-id="{task_id}"' in page.text
        assert f'href="/tasks/{task_id}"' in page.text
    assert '<script src="/static/model-tasks.js"></script>' in page.text
    assert 'id="flash"' not in page.text
    assert http.get("/").headers["location"] == "/tasks"


def test_adding_redirects_and_the_flash_shows_once(app, http):
    posted = http.post("/tasks", data={"title": "Water the plants"})
    assert posted.status_code == 303
    assert posted.headers["location"] == "/tasks"
    assert posted.headers["set-cookie"].startswith("flash=success%3ATask%20added;")

    first = http.get("/tasks")  # the client sends the cookie back, as a browser does
    assert 'data-kind="success">Task added<' in first.text
    assert 'data-id="task-4"' in first.text and "Water the plants" in first.text
    assert "Max-Age=0" in first.headers["set-cookie"]
    second = http.get("/tasks")
    assert "Task added" not in second.text
    assert app.titles()[-1] == "Water the plants"


@pytest.mark.parametrize("title, message", [("", "Title is required"), ("   ", "Title is required"),
                                            ("x" * 201, "Title is too long (200 at most)")])
def test_an_invalid_title_redirects_back_with_an_error(app, http, title, message):
    posted = http.post("/tasks", data={"title": title})
    assert posted.status_code == 303 and posted.headers["location"] == "/tasks"
    page = http.get("/tasks")
    assert f'data-kind="error">{message}<' in page.text
    assert len(app.titles()) == 3


def test_an_invalid_title_can_re_render_with_422_instead():
    with SsrApp(invalid="render") as app, httpx.Client(base_url=app.origin, timeout=60) as http:
        posted = http.post("/tasks", data={"title": "  "})
        assert posted.status_code == 422
        assert 'data-kind="error">Title is required<' in posted.text
        assert 'data-page="tasks"' in posted.text
        assert "set-cookie" not in posted.headers
        assert "Title is required" not in http.get("/tasks").text


def test_deleting_redirects_to_the_list_with_a_flash(app, http):
    posted = http.post("/tasks/task-2/delete")
    assert posted.status_code == 303 and posted.headers["location"] == "/tasks"
    page = http.get("/tasks")
    assert 'data-kind="success">Task deleted<' in page.text
    assert 'data-id="task-2"' not in page.text
    assert app.task("task-2") is None
    http.post("/tasks/task-99/delete")
    assert 'data-kind="error">No such task<' in http.get("/tasks").text


def test_the_task_page_and_marking_it_done(app, http):
    page = http.get("/tasks/task-1")
    assert page.status_code == 200
    assert 'data-page="task" data-task="task-1" data-done="false"' in page.text
    assert '<script src="/static/model-task.js"></script>' in page.text
    posted = http.post("/tasks/task-1/done")
    assert posted.status_code == 303 and posted.headers["location"] == "/tasks/task-1"
    done = http.get("/tasks/task-1")
    assert 'data-kind="success">Task marked done<' in done.text
    assert 'id="mark-done" type="submit" disabled' in done.text
    assert app.task("task-1")["done"] is True
    assert http.get("/tasks/task-42").status_code == 404


def test_the_other_pages(app, http):
    assert 'data-page="help"' in http.get("/help").text
    popups = http.get("/popups").text
    assert 'data-page="popups"' in popups and "window.open" in popups
    for path in ("/spa", "/spa/inbox", "/spa/settings"):
        assert 'src="/static/model-spa.js"' in http.get(path).text
    assert http.get("/favicon.ico").status_code == 204
    for name in ("tasks", "task", "help", "popups", "spa", "notfound"):
        script = http.get(f"/static/model-{name}.js")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert app.external_url == f"http://127.0.0.2:{app.port}/external"
    assert f'href="{app.external_url}"' in http.get("/tasks").text
    with pytest.raises(ValueError):
        SsrApp(host="0.0.0.0")


def test_the_request_log(app, http):
    http.get("/tasks")
    http.post("/tasks", data={"title": "A"})
    http.post("/tasks", data={"title": "B"})
    assert [tuple(r) for r in app.requests[:2]] == [("GET", "/tasks", {}), ("POST", "/tasks", {"title": "A"})]
    assert app.posts("/tasks") == 2
    assert app.wait_for_request("/tasks", 1, method="POST").form == {"title": "A"}

    since = len(app.requests)
    threading.Timer(0.2, lambda: patient.post(app.url("/tasks/task-1/done"))).start()
    started = time.monotonic()
    request = app.wait_for_request("/tasks/task-1/done", 30, since=since)
    assert request.method == "POST" and time.monotonic() - started >= 0.15
    with pytest.raises(TimeoutError):
        app.wait_for_request("/never", 0.1)
    http.get("/tasks?x=1")
    assert app.wait_for_request("/tasks?x=1", 1).path == "/tasks?x=1"

    app.reset()
    assert app.requests == [] and app.titles() == ["Buy milk", "Write the report", "Call the plumber"]
    assert app.add_task("Fresh") == "task-4"


def test_model_scripts_can_be_slow():
    with SsrApp(model_delay_ms=150) as app, httpx.Client(base_url=app.origin, timeout=60) as http:
        started = time.monotonic()
        assert http.get("/static/model-tasks.js").status_code == 200
        assert time.monotonic() - started >= 0.14


def test_the_fixture_server_logs_requests():
    server = FixtureServer().start()
    try:
        since = len(server.requests)
        patient.get(server.url("/pages/real/toast.html?v=1"))
        patient.post(server.url("/api/echo"), content=b"{}")
        assert server.wait_for_request("/pages/real/toast.html", 1, since=since) == ("GET", "/pages/real/toast.html?v=1")
        assert server.wait_for_request("/api/echo", 1, method="POST") == ("POST", "/api/echo")
        with pytest.raises(TimeoutError):
            server.wait_for_request("/api/echo", 0.1, method="GET")
    finally:
        server.stop()


# -- every page, in a browser ---------------------------------------------------------------------

# page file -> (page id, action ids, record types, state keys): what each page declares at load.
REAL_PAGES = {
    "react": ("shopping", {"item_text", "add_item", "add", "remove", "remove_item"}, {"item"},
              {"count", "draft", "confirming"}),
    "vue": ("notes", {"title", "add", "add_note", "remove"}, {"note"}, {"committed", "count"}),
    "vue_router": ("people", {"open", "remove", "about"}, {"person"}, {"count"}),
    "shadow": ("shadow", {"increment_closed", "name_closed", "increment_open", "name_open"}, set(),
               {"closed_clicks", "open_clicks", "closed_name", "open_name"}),
    "iframe": ("framed", {"frame_press", "frame_name", "frame_missing"}, set(),
               {"frame_clicks", "frame_name", "frame_typed", "frame_loaded"}),
    "disabled": ("disabled", {"press_disabled", "press_aria", "press_fieldset", "press_inert", "press_enabled",
                              "press_toggle", "type_fieldset", "type_disabled", "unlock"}, set(),
                 {"clicks", "total", "typed", "toggle_enabled"}),
    "two_types": ("crm", {"remove_order", "remove_customer", "rename_customer", "remove_row"}, {"order", "customer"},
                  {"orders", "customers"}),
    "toast": ("toasts", {"save", "save_button", "flash", "dismiss"}, set(), {"saves", "shown"}),
    "debounce": ("late", {"set_title", "search", "save", "save_awaited"}, {"result", "entry"},
                 {"title", "query", "saved"}),
    "surrogates": ("surrogates", {"weird", "touch", "lone_description"}, {"text", "odd_id"},
                   {"lone", "cut", "nan", "inf", "numbers"}),
    "gestures": ("gestures", {"search", "show_menu", "archive", "archive_via_menu", "edit_title", "title_text",
                              "rename", "nickname", "click_only"}, {"hit"},
                 {"searched", "menu_open", "archived", "editing", "title", "nickname", "clicks", "dblclicks"}),
}

# What a loaded page must show besides its declarations (React fills its records after a commit).
READY = {"react": lambda model: model["records"].get("item", {}).get("total") == 2}


async def read_model(page) -> dict:
    return json.loads(await page.evaluate("window.__plingBridge.call('model', '{}')"))


async def model_when(page, predicate, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        try:
            model = await read_model(page)
            if predicate(model):
                return model
        except Exception:  # the document is being replaced
            model = None
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never declared what was expected: {json.dumps(model)[:2000]}")
        await asyncio.sleep(0.05)


def declared(model: dict) -> tuple:
    return ((model["page"] or {}).get("id"), {a["id"] for a in model["actions"]}, set(model["records"]),
            set(model["state"]))


def test_every_page_declares_its_model_without_errors():
    pytest.importorskip("playwright")
    from playwright.async_api import async_playwright

    async def main(fixtures: FixtureServer, app: SsrApp) -> None:
        bridge = urllib.request.urlopen(fixtures.url("/pling.js")).read().decode()
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            context = await browser.new_context()
            await context.add_init_script(script=bridge)
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
            page.on("console", lambda message: errors.append(f"{page.url}: {message.text}")
                    if message.text.startswith("[pling]") else None)

            for name, expected in REAL_PAGES.items():
                await page.goto(fixtures.url(f"/pages/real/{name}.html"))
                ready = READY.get(name, lambda model: True)
                model = await model_when(page, lambda m: declared(m) == expected and ready(m))  # noqa: B023 (awaited here)
                assert model["problems"] == [], (name, model["problems"])
                assert await page.evaluate("window.__log") == [], name  # nothing ran on load

            # The task app: a form posted and redirected lands on a document that declares itself
            # (after its slow model script) with the flash as feedback.
            await page.goto(app.url("/tasks"))
            before = await model_when(page, lambda m: (m["page"] or {}).get("id") == "tasks")
            assert before["records"]["task"]["ids"] == ["task-1", "task-2", "task-3"]
            assert {"title", "submit", "add_task", "add", "delete", "open", "open_help", "open_popups", "open_spa",
                    "external", "refresh"} <= {a["id"] for a in before["actions"]}
            assert before["feedback"] == []
            await page.fill("#title", "Feed the cat")
            async with page.expect_navigation():
                await page.click("#add")
            after = await model_when(page, lambda m: (m["page"] or {}).get("id") == "tasks")
            assert after["records"]["task"]["ids"][-1] == "task-4"
            assert after["feedback"] == [{"kind": "success", "text": "Task added"}]
            assert app.posts("/tasks") == 1

            await page.goto(app.url("/tasks/task-4"))
            detail = await model_when(page, lambda m: (m["page"] or {}).get("id") == "task")
            assert {a["id"] for a in detail["actions"]} == {"mark_done", "delete_task", "back"}

            await page.goto(app.url("/spa"))
            inbox = await model_when(page, lambda m: (m["page"] or {}).get("id") == "inbox")
            assert {"archive", "go_settings", "settings_link", "open_tasks"} == {a["id"] for a in inbox["actions"]}
            await page.click("#settings-link")
            settings = await model_when(page, lambda m: (m["page"] or {}).get("id") == "settings")
            assert {a["id"] for a in settings["actions"]} == {"set_theme", "go_inbox", "inbox_link", "open_tasks"}
            assert settings["records"] == {} and set(settings["state"]) == {"theme"}
            assert page.url == app.url("/spa/settings")

            assert errors == []
            await browser.close()

    fixtures = FixtureServer().start()
    try:
        with SsrApp(model_delay_ms=100) as app:
            asyncio.run(asyncio.wait_for(main(fixtures, app), 60))
    finally:
        fixtures.stop()
