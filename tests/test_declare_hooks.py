"""The declaration package in a page, without the service: a real Chromium loads the example pages and
the dev check page from the fixture server, and the test watches what the package asks of the bridge
(every `window.pling` call, counted by a proxy put in front of it after load) and what it prints.

- Re-rendering does not declare again: typing re-renders the app at every key, no declaration is made,
  and the state the model shows is the latest (the hooks read it through refs, the composables through
  getters). A component that mounts declares its own, and removes them when it unmounts.
- The dev check prints the problems of the model in the console, once each, and says when one is gone.
- Without a bridge, declaring does nothing and throws nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from pling_browser.config import find_chromium
from pling_browser.core.browsers import chromium_args

from .server import FixtureServer

# Put in front of the bridge once the page has declared itself: counts each declaration by kind, each
# remover called, and each problems() call (the dev check's).
COUNTING = """() => {
  const real = window.pling;
  const counts = window.__counts = { declared: {}, removed: 0, problems: 0 };
  // The bridge's object is frozen, and a proxy of a frozen object must answer its own values; this one
  // stands in front of an empty object instead.
  window.pling = new Proxy({}, { get(_, name) {
    const value = real[name];
    if (typeof value !== 'function') return value;
    if (name === 'problems') return () => { counts.problems += 1; return value(); };
    return (declaration) => {
      counts.declared[name] = (counts.declared[name] || 0) + 1;
      const remove = value(declaration);
      return () => { counts.removed += 1; return remove(); };
    };
  } });
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=find_chromium(None), args=chromium_args())
        yield launched
        launched.close()


class Watched:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[ConsoleMessage] = []
        self.errors: list[str] = []
        page.on("console", lambda message: self.console.append(message))
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def model(self) -> dict[str, Any]:
        return json.loads(self.page.evaluate("() => window.__plingBridge.call('model', '{}')"))

    def counts(self) -> dict[str, Any]:
        return self.page.evaluate("() => window.__counts")

    def printed(self, kind: str) -> list[str]:
        return [m.text for m in self.console if m.type == kind and m.text.startswith("[pling]")]

    def until(self, what: str, condition: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Polls `condition` until it is truthy (answering it), or fails after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            found = condition()
            if found:
                return found
            if time.monotonic() > deadline:
                pytest.fail(f"{what} did not happen within {timeout} s")
            self.page.wait_for_timeout(50)


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context()
    yield Watched(context.new_page())
    context.close()


@pytest.mark.parametrize("framework", ["react", "vue"])
def test_re_rendering_does_not_declare_again_and_mounting_does(framework: str, watched: Watched,
                                                               fixtures: FixtureServer) -> None:
    page = watched.page
    page.goto(fixtures.url(f"pages/declare/{framework}.html"))
    watched.until("the app declaring itself", lambda: "show_stats" in [a["id"] for a in watched.model()["actions"]])
    page.evaluate(COUNTING)

    page.locator("#title").press_sequentially("Kindred")  # a render at each key
    assert watched.model()["state"]["draft"]["value"] == "Kindred"  # the latest value, read live
    assert watched.counts()["declared"] == {} and watched.counts()["removed"] == 0

    page.locator("#toggle-stats").click()  # the Stats component mounts
    watched.until("the statistics declaring", lambda: watched.counts()["declared"].get("action", 0) >= 2)
    counts = watched.counts()
    # Its region, state and action; and show_stats again, whose description changed with the toggle.
    assert counts["declared"] == {"region": 1, "state": 1, "action": 2}
    model = watched.model()
    assert "clear_read" in [a["id"] for a in model["actions"]] and model["state"]["read_share"]["value"] == "1 of 2"

    page.locator("#title").press("End")
    page.locator("#title").press_sequentially(" by Octavia Butler")
    assert watched.model()["state"]["draft"]["value"] == "Kindred by Octavia Butler"
    assert watched.counts()["declared"] == counts["declared"]

    page.locator("#toggle-stats").click()  # it unmounts: what it declared is removed
    watched.until("the statistics going away", lambda: "clear_read" not in [a["id"] for a in watched.model()["actions"]])
    counts = watched.counts()
    assert counts["declared"] == {"region": 1, "state": 1, "action": 3}
    # The Stats component's three, and the show_stats declared at mount (replaced now).
    assert counts["removed"] == 4
    assert "read_share" not in watched.model()["state"]

    # The example pages run the dev check: the one problem it finds is the one this test made.
    watched.until("a dev check", lambda: watched.counts()["problems"] >= 1, timeout=20)
    assert watched.printed("warning") == [
        "[pling] 1 problem in this page's declarations (an agent reads them in model.problems):\n"
        "  - page: window.pling is no longer the Pling registry (the page replaced or removed it); declarations "
        "made through the replacement are not in this model"]
    assert watched.errors == []


def test_the_dev_check_prints_the_problems_of_the_model(watched: Watched, fixtures: FixtureServer) -> None:
    page = watched.page
    page.goto(fixtures.url("pages/declare/problems.html"))
    warned = watched.until("the dev check's warning", lambda: [t for t in watched.printed("warning") if "problems in" in t])
    assert warned == ["[pling] 4 problems in this page's declarations (an agent reads them in model.problems):\n"
                      "  - action broken: an action needs run() or target()\n"
                      "  - records item: 1 records repeated an id already seen and were skipped\n"
                      "  - action archive: is a family of record type 'folder', which is not declared\n"
                      "  - records item: names region 'shelf', which is not declared"]
    # The same problems are the model's (but for the references the model cannot state).
    assert [p["where"] for p in watched.model()["problems"]] == ["action broken", "records item"]

    page.evaluate("() => { fix(); }")
    gone = watched.until("the dev check noticing the fix", lambda: watched.printed("info"))
    assert gone == ["[pling] 1 problem is gone:\n  - records item: names region 'shelf', which is not declared"]
    assert len([t for t in watched.printed("warning") if "problems in" in t]) == 1  # nothing printed twice
    assert watched.errors == []


def test_without_a_bridge_declaring_does_nothing(watched: Watched, fixtures: FixtureServer) -> None:
    page = watched.page
    page.route("**/pling.js", lambda route: route.fulfill(status=404, body=""))
    page.goto(fixtures.url("pages/declare/problems.html"))
    told = watched.until("the dev check's note", lambda: watched.printed("info"))
    assert told == ["[pling] no bridge on this page: declarations do nothing until Pling opens it (or the page loads /pling.js)"]
    assert page.evaluate("() => [typeof window.pling, PlingDeclare.pling.action({ id: 'x', run: () => 1 })()]") == [
        "undefined", False]
    assert watched.errors == []


def test_a_composable_outside_a_component_lives_as_long_as_its_scope(watched: Watched, fixtures: FixtureServer) -> None:
    # In an effectScope rather than a component: declared at once, removed when the scope stops.
    page = watched.page
    page.goto(fixtures.url("pages/declare/vue.html"))
    watched.until("the app declaring itself", lambda: watched.model()["page"]["id"] == "reading")
    page.evaluate("""() => {
      const count = Vue.ref(1);
      window.__scope = Vue.effectScope();
      window.__scope.run(() => {
        PlingVue.usePlingState({ key: 'scoped', description: 'Declared in an effect scope', value: count });
        PlingVue.usePlingAction(() => ({ id: 'bump', description: 'Count ' + (count.value > 1 ? 'again' : 'once'),
                                          risk: 'write', run: () => { count.value += 1; } }));
      });
      window.__count = count;
    }""")
    model = watched.model()
    assert model["state"]["scoped"]["value"] == 1
    assert next(a for a in model["actions"] if a["id"] == "bump")["description"] == "Count once"
    page.evaluate("() => { window.__count.value = 2; }")
    # A description computed from reactive state is declared again when it changes (the watcher's flush).
    watched.until("the new description", lambda: next(
        a for a in watched.model()["actions"] if a["id"] == "bump")["description"] == "Count again")
    assert watched.model()["state"]["scoped"]["value"] == 2
    page.evaluate("() => window.__scope.stop()")
    model = watched.model()
    assert "bump" not in [a["id"] for a in model["actions"]] and "scoped" not in model["state"]
    assert watched.errors == []
