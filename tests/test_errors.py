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


def test_every_playwright_exception_class_is_translated() -> None:
    import playwright._impl._errors as playwright_errors

    classes = [cls for _, cls in inspect.getmembers(playwright_errors, inspect.isclass) if issubclass(cls, Exception)]
    assert classes, "playwright's error module moved"
    for cls in classes:
        error = cls("Target page, context or browser has been closed")
        assert isinstance(translate(error), errors.ServiceError), cls
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    assert isinstance(translate(PlaywrightTimeout("Timeout 30000ms exceeded.")), errors.PageUnresponsive)
    assert isinstance(translate(playwright_errors.Error("net::ERR_CONNECTION_REFUSED at http://x")), errors.PageUnreachable)
    assert isinstance(translate(playwright_errors.TargetClosedError()), errors.SessionLost)
