"""The error codes in the code, in SPEC's table and in the README agree; Playwright's errors are all
translated at the controller boundary."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from pling_browser import errors
from pling_browser.core.playwright import translate

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\|\s*([A-Z_]+(?:\s*/\s*[A-Z_]+)*)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|", re.M)


def _table(text: str) -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for codes, stage, started in ROW.findall(text):
        for code in re.split(r"\s*/\s*", codes):
            if code in errors.INVOCATION_CODES:
                rows[code] = (stage, started)
    return rows


def _in_code() -> dict[str, tuple[str, str]]:
    out = {}
    for code, cls in errors.INVOCATION_CODES.items():
        started = {True: "true", False: "false", None: "—"}[cls.default_started]
        out[code] = (cls.default_stage, started)
    return out


def test_every_invocation_error_is_in_the_registry() -> None:
    classes = {cls for _, cls in inspect.getmembers(errors, inspect.isclass)
               if issubclass(cls, errors.InvocationError) and cls is not errors.InvocationError}
    assert classes == set(errors.INVOCATION_CODES.values())
    services = {cls for _, cls in inspect.getmembers(errors, inspect.isclass)
                if issubclass(cls, errors.ServiceError) and cls is not errors.ServiceError}
    assert services == set(errors.SERVICE_CODES.values())


def test_readme_table_matches_the_code() -> None:
    readme = _table((ROOT / "README.md").read_text())
    assert readme == _in_code()
    text = (ROOT / "README.md").read_text()
    for code, cls in errors.SERVICE_CODES.items():
        assert re.search(rf"^\| {code} \| {cls.status} \|", text, re.M), code


def test_spec_table_matches_the_code() -> None:
    spec = ROOT.parent / "shared" / "SPEC.md"
    if not spec.exists():
        pytest.skip("../shared/SPEC.md is not beside this checkout")
    rows = _table(spec.read_text())
    assert set(rows) == set(errors.INVOCATION_CODES)
    for code, (stage, started) in rows.items():
        ours_stage, ours_started = _in_code()[code]
        # SPEC writes some stages loosely ("reveal / availability", "a flow step").
        assert ours_stage in stage or (code == "STEP_FAILED" and "flow" in stage), code
        assert ours_started == started, code


def test_every_error_has_a_hint_and_a_stage_or_status() -> None:
    for cls in errors.INVOCATION_CODES.values():
        error = cls("x")
        assert error.hint and error.stage and error.to_dict()["code"] == cls.code
    for cls in errors.SERVICE_CODES.values():
        assert cls("x").hint and 400 <= cls.status < 600


# Each Playwright error class, with a message that means nothing in particular, and the code it must
# become. Listed by hand: a new class in playwright's module fails the test until someone says what
# it means for the caller.
EXPECTED_BY_CLASS = {
    "Error": "PAGE_UNRESPONSIVE",
    "TimeoutError": "PAGE_UNRESPONSIVE",
    "TargetClosedError": "SESSION_LOST",
    "WebError": None,  # not an exception a call raises: only mapped when it is one
}

# The CDP messages a replaced document produces, each as Chromium words it, and what it must become.
NAVIGATION_MESSAGES = [
    "Execution context was destroyed, most likely because of a navigation",
    "Protocol error (Runtime.callFunctionOn): Execution context was destroyed.",
    "Inspected target navigated or closed",
    "Frame was detached",
    "Element is not attached to the DOM: frame got detached",
    "Protocol error (DOM.describeNode): Cannot find context with specified id",
    "Navigation interrupted by another navigation",
]


def test_every_playwright_exception_class_is_translated_to_its_code() -> None:
    import playwright._impl._errors as playwright_errors

    classes = {name: cls for name, cls in inspect.getmembers(playwright_errors, inspect.isclass)
               if issubclass(cls, Exception) and cls.__module__ == playwright_errors.__name__}
    assert classes, "playwright's error module moved"
    unknown = set(classes) - set(EXPECTED_BY_CLASS)
    assert not unknown, f"new Playwright error classes: say what each means in core/playwright.py: {unknown}"
    for name, cls in classes.items():
        expected = EXPECTED_BY_CLASS[name]
        if expected is None:
            continue
        error = cls("Something went wrong in the browser")
        assert translate(error).code == expected, name


@pytest.mark.parametrize("message", NAVIGATION_MESSAGES)
def test_navigation_messages_are_a_navigation_not_a_stuck_page(message: str) -> None:
    from playwright.async_api import Error as PlaywrightError

    assert translate(PlaywrightError(message)).code == "PAGE_NAVIGATED"


@pytest.mark.parametrize(("message", "code"), [
    ("Target page, context or browser has been closed", "SESSION_LOST"),
    ("Browser has been closed", "SESSION_LOST"),
    ("Connection closed", "SESSION_LOST"),
    ("net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/", "PAGE_UNREACHABLE"),
    ("Timeout 30000ms exceeded.", "PAGE_UNRESPONSIVE"),
])
def test_closed_and_unreachable_messages(message: str, code: str) -> None:
    from playwright.async_api import Error as PlaywrightError

    assert translate(PlaywrightError(message)).code == code


def test_a_timeout_is_unresponsive_even_when_its_message_names_a_navigation() -> None:
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    # The class decides first: a click that timed out while a navigation was pending is a timeout.
    assert translate(PlaywrightTimeout("Timeout 5000ms exceeded; waiting for navigation")).code == "PAGE_UNRESPONSIVE"
    assert translate(RuntimeError("the driver's pipe broke")).code == "PAGE_UNRESPONSIVE"
