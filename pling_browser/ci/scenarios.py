"""Scenario files: steps that invoke declared actions and assert on their receipts.

The format (JSON; YAML too when PyYAML is installed) is in docs/ci.md. Every scenario opens a fresh
session on its page and runs its steps in order; the first failing step fails the scenario and the
steps after it are skipped (they depend on it). One scenario is one JUnit testcase.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from ..bodies import PROFILE_NAME
from ..models import RecordsDeclared
from .compare import same
from .junit import Case, SuiteReport
from .record import fill

if TYPE_CHECKING:
    from ..models import Receipt
    from ..runtime import Runtime
    from .progress import Progress

__all__ = ["ScenarioFileError", "Suite", "Scenario", "Step", "load_suite", "run_suite", "suite_report"]

_SUITE_KEYS = {"name", "description", "url", "profile", "approve", "scenarios"}
_SCENARIO_KEYS = {"name", "description", "url", "profile", "steps"}
_STEP_KEYS = {"name", "invoke", "args", "expect", "evidence"}
_EXPECT_KEYS = {"ok", "error", "added", "removed", "updated", "state", "warning", "verified", "feedback", "data", "type"}


class ScenarioFileError(ValueError):
    """The file cannot be read as a scenario suite; the message names the file and the place."""


@dataclass
class Step:
    number: int
    action: str
    args: Any = None
    expect: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    evidence: bool = True

    @property
    def title(self) -> str:
        return f"step {self.number} {self.action}" + (f" ({self.name})" if self.name else "")


@dataclass
class Scenario:
    name: str
    url: str
    steps: list[Step]
    profile: str | None = None  # the saved sign-in its page needs (GET /profiles); opened with it


@dataclass
class Suite:
    name: str
    path: str
    approve: tuple[str, ...]
    scenarios: list[Scenario]

    def hosts(self) -> set[str]:
        return {(urlsplit(s.url).hostname or "").lower() for s in self.scenarios} - {""}


def _parse(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            import yaml  # type: ignore[import-untyped]
        except ImportError:
            raise ScenarioFileError(f"{path}: YAML scenarios need PyYAML (pip install pyyaml), or write the file as JSON") from None
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise ScenarioFileError(f"{path}: not valid YAML: {error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioFileError(f"{path}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}") from None


def _need(condition: bool, where: str, problem: str) -> None:
    if not condition:
        raise ScenarioFileError(f"{where}: {problem}")


def _check_keys(value: Any, allowed: set[str], where: str) -> None:
    _need(isinstance(value, dict), where, "must be an object")
    unknown = sorted(set(value) - allowed)
    _need(not unknown, where, f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(allowed))}")


def _check_expect(expect: Any, where: str) -> dict[str, Any]:
    _check_keys(expect, _EXPECT_KEYS, where)
    for key in ("ok", "verified"):
        _need(key not in expect or isinstance(expect[key], bool), f"{where}.{key}", "must be true or false")
    _need("error" not in expect or isinstance(expect["error"], str), f"{where}.error", "must be an error code, e.g. \"INVALID_PARAMS\"")
    _need(not (expect.get("ok") is True and "error" in expect), where, "cannot expect both ok: true and an error")
    for key in ("added", "removed", "updated"):
        if key in expect:
            value = expect[key]
            good = (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or \
                   (isinstance(value, list) and all(isinstance(v, str) for v in value))
            _need(good, f"{where}.{key}", "must be a count or a list of record ids")
    _need("type" not in expect or isinstance(expect["type"], str), f"{where}.type", "must be a record type")
    _need("state" not in expect or isinstance(expect["state"], dict), f"{where}.state", "must be an object of state keys and values")
    _need("warning" not in expect or isinstance(expect["warning"], (bool, str)), f"{where}.warning",
          "must be false (no warning), true (a warning) or text the warning contains")
    _need("feedback" not in expect or isinstance(expect["feedback"], str), f"{where}.feedback", "must be text a new feedback message contains")
    return expect


def load_suite(path: str | Path, base_url: str | None = None) -> Suite:
    """Read and check a scenario file; relative page URLs are resolved against `base_url`."""
    path = Path(path)
    data = _parse(path)
    where = str(path)
    _check_keys(data, _SUITE_KEYS, where)
    _need(isinstance(data.get("scenarios"), list) and data["scenarios"], where, "needs \"scenarios\": a non-empty list")
    approve = data.get("approve", [])
    if isinstance(approve, str):
        approve = [part.strip() for part in approve.split(",") if part.strip()]
    _need(isinstance(approve, list) and all(isinstance(a, str) for a in approve), f"{where}.approve",
          "must be a list of risks or action ids (like PLING_APPROVE)")

    def resolve(url: Any, at: str) -> str:
        _need(isinstance(url, str) and url.strip() != "", at, "needs a page \"url\"")
        if urlsplit(url).scheme:
            return url
        _need(bool(base_url), at, f"{url!r} is relative: pass --base-url (or set PLING_BASE_URL)")
        return urljoin(base_url.rstrip("/") + "/", url.lstrip("/"))  # type: ignore[union-attr]

    scenarios: list[Scenario] = []
    names: set[str] = set()
    for n, raw in enumerate(data["scenarios"], 1):
        at = f"{where}: scenarios[{n - 1}]"
        _check_keys(raw, _SCENARIO_KEYS, at)
        name = raw.get("name") or f"scenario {n}"
        _need(isinstance(name, str), f"{at}.name", "must be text")
        _need(name not in names, f"{at}.name", f"{name!r} is used twice (JUnit names testcases by it)")
        names.add(name)
        url = resolve(raw.get("url", data.get("url")), at)
        profile = raw.get("profile", data.get("profile"))
        _need(profile is None or (isinstance(profile, str) and re.fullmatch(PROFILE_NAME, profile) is not None),
              f"{at}.profile", "must be the name of a saved profile (letters, digits, `_`, `.`, `-`)")
        _need(isinstance(raw.get("steps"), list) and raw["steps"], at, "needs \"steps\": a non-empty list")
        steps = []
        for k, step in enumerate(raw["steps"], 1):
            step_at = f"{at}.steps[{k - 1}]"
            _check_keys(step, _STEP_KEYS, step_at)
            _need(isinstance(step.get("invoke"), str) and step["invoke"], step_at, "needs \"invoke\": an action id or ACTION@RECORD")
            _need("evidence" not in step or isinstance(step["evidence"], bool), f"{step_at}.evidence", "must be true or false")
            _need("name" not in step or isinstance(step["name"], str), f"{step_at}.name", "must be text")
            expect = _check_expect(step.get("expect", {}), f"{step_at}.expect")
            steps.append(Step(number=k, action=step["invoke"], args=step.get("args"), expect=expect,
                              name=step.get("name"), evidence=step.get("evidence", True)))
        scenarios.append(Scenario(name=name, url=url, steps=steps, profile=profile))
    suite_name = data.get("name") or path.stem
    _need(isinstance(suite_name, str), f"{where}.name", "must be text")
    return Suite(name=suite_name, path=str(path), approve=tuple(approve), scenarios=scenarios)


# ---- assertions ------------------------------------------------------------------------------------


def _show(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "…"


def _error_text(receipt: Receipt) -> str:
    error = receipt.error
    if error is None:
        return "?"
    text = error.code
    if error.stage:
        text += f" at {error.stage}"
    if error.message:
        text += f": {error.message[:200]}"
    if error.details.get("reason"):
        text += f" ({str(error.details['reason'])[:120]})"
    return text


def _same(expected: Any, actual: Any) -> bool:
    """JSON equality, type-aware (ci/compare.py): `1` is not `true`; `1` and `1.0` are one number."""
    return same(expected, actual)


def _contains(expected: Any, actual: Any) -> bool:
    """`expected` matches `actual`: objects by the keys given, everything else by type-aware equality."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _contains(v, actual[k]) for k, v in expected.items())
    return _same(expected, actual)


def check_receipt(expect: dict[str, Any], receipt: Receipt, state: dict[str, Any] | None) -> list[str]:
    """What in the receipt (and the state after the step) does not match the step's expectations."""
    problems: list[str] = []
    want_ok = False if "error" in expect else expect.get("ok", True)
    if want_ok and not receipt.ok:
        return [f"expected ok, got {_error_text(receipt)}"]
    if not want_ok and receipt.ok:
        wanted = f"error {expect['error']}" if "error" in expect else "a failure"
        return [f"expected {wanted}, but the action succeeded"]
    if "error" in expect and (receipt.error.code if receipt.error else None) != expect["error"]:
        return [f"expected error {expect['error']}, got {_error_text(receipt)}"]
    if "verified" in expect and receipt.verified is not expect["verified"]:
        problems.append(f"expected verified {str(expect['verified']).lower()}, got {_show(receipt.verified)}")
    if "warning" in expect:
        want = expect["warning"]
        if want is False and receipt.warning:
            problems.append(f"expected no warning, got {_show(receipt.warning)}")
        elif want is True and not receipt.warning:
            problems.append("expected a warning, got none")
        elif isinstance(want, str) and want not in (receipt.warning or ""):
            problems.append(f"expected a warning containing {_show(want)}, got {_show(receipt.warning)}")
    changes = [key for key in ("added", "removed", "updated", "feedback") if key in expect]
    if changes and receipt.changed is None:
        problems.append(f"cannot check {', '.join(changes)}: the receipt has no `changed` (no evidence was taken)")
    elif receipt.changed is not None:
        by_type = receipt.changed.records
        if "type" in expect:
            by_type = {t: c for t, c in by_type.items() if t == expect["type"]}
        actual: dict[str, list[str]] = {"added": [], "removed": [], "updated": []}
        omitted: dict[str, int] = {"added": 0, "removed": 0, "updated": 0}
        for records in by_type.values():
            if isinstance(records, RecordsDeclared):
                continue  # a type only one of two pages declares is not diffed
            # Another page (RecordsInView): records entered or left the view; none was added or removed.
            actual["added"] += getattr(records, "added", [])
            actual["removed"] += getattr(records, "removed", [])
            actual["updated"] += [str(u.get("id")) for u in records.updated]
            for key in omitted:
                omitted[key] += records.omitted.get(key, 0)
        for key in ("added", "removed", "updated"):
            if key not in expect:
                continue
            want = expect[key]
            if isinstance(want, int):
                count = len(actual[key]) + omitted[key]
                if count != want:
                    problems.append(f"expected {want} record(s) {key}, got {count} {_show(actual[key])}")
            elif sorted(want) != sorted(actual[key]) or omitted[key]:
                more = f" (+{omitted[key]} not listed)" if omitted[key] else ""
                problems.append(f"expected records {key} {_show(want)}, got {_show(actual[key])}{more}")
        if "feedback" in expect:
            texts = [entry.text for entry in receipt.changed.feedback.added]
            if not any(expect["feedback"] in text for text in texts):
                problems.append(f"expected new feedback containing {_show(expect['feedback'])}, got {_show(texts)}")
    if "data" in expect and not _contains(expect["data"], receipt.data):
        problems.append(f"expected data {_show(expect['data'])}, got {_show(receipt.data)}")
    for key, want in (expect.get("state") or {}).items():
        if state is None or key not in state:
            problems.append(f"expected state {key} = {_show(want)}, but the page declares no state {key!r}")
        elif not _same(want, state[key]):
            problems.append(f"expected state {key} = {_show(want)}, got {_show(state[key])}")
    return problems


# ---- running -----------------------------------------------------------------------------------------


@dataclass
class StepResult:
    step: Step
    problems: list[str]
    receipt: dict[str, Any] | None
    seconds: float


@dataclass
class ScenarioResult:
    scenario: Scenario
    status: str                     # passed | failed | error
    steps: list[StepResult]
    seconds: float
    message: str = ""

    def ledger(self) -> str:
        lines = []
        done = {r.step.number: r for r in self.steps}
        for step in self.scenario.steps:
            result = done.get(step.number)
            if result is None:
                lines.append(f"- {step.title}: skipped")
            elif result.problems:
                lines.append(f"✗ {step.title} ({result.seconds:.2f} s)")
                lines.extend(f"    {problem}" for problem in result.problems)
            else:
                lines.append(f"✓ {step.title} ({result.seconds:.2f} s)")
        return "\n".join(lines)


async def _run_scenario(runtime: Runtime, scenario: Scenario, label: str, progress: Progress) -> ScenarioResult:
    from ..errors import PlingError

    started = time.monotonic()
    results: list[StepResult] = []
    progress.status(f"{label} · opening {scenario.url}" + (f" as profile {scenario.profile}" if scenario.profile else ""))
    try:
        session = await runtime.open(scenario.url, profile=scenario.profile)
    except PlingError as error:
        return ScenarioResult(scenario, "error", [], time.monotonic() - started, f"{error.code}: {error.message}")
    added_by_step: dict[int, list[str]] = {}  # the ids each step added, for `{stepN.added.I}` (ci/record.py)
    try:
        for step in scenario.steps:
            progress.status(f"{label} · {step.title} ({step.number}/{len(scenario.steps)})")
            begun = time.monotonic()
            receipt = await runtime.invoke(session, fill(step.action, added_by_step), fill(step.args, added_by_step),
                                           evidence=step.evidence)
            added_by_step[step.number] = [rid for change in (receipt.changed.records.values() if receipt.changed else ())
                                          for rid in change.added]
            expect = fill(step.expect, added_by_step)
            state = None
            if "state" in expect:
                model = await runtime.model(session, {"limit": 0})
                state = {key: entry.value for key, entry in model.state.items()}
            problems = check_receipt(expect, receipt, state)
            results.append(StepResult(step, problems, receipt.model_dump(mode="json", exclude_none=True,
                                                                           exclude={"timings_ms"}), time.monotonic() - begun))
            if not progress.live:
                outcome = "ok" if not problems else "FAILED: " + "; ".join(problems)
                progress.line(f"    {step.title}: {outcome} ({results[-1].seconds:.2f} s)")
            if problems:
                return ScenarioResult(scenario, "failed", results, time.monotonic() - started,
                                      f"{step.title}: {problems[0]}" + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""))
    except PlingError as error:  # the session itself failed (the page crashed, the browser went away)
        return ScenarioResult(scenario, "error", results, time.monotonic() - started, f"{error.code}: {error.message}")
    finally:
        try:
            await runtime.close(session.id)
        except PlingError:
            pass
    return ScenarioResult(scenario, "passed", results, time.monotonic() - started)


async def run_suite(runtime: Runtime, suite: Suite, progress: Progress, *, first: int = 1, total: int | None = None) -> list[ScenarioResult]:
    total = total or len(suite.scenarios)
    out = []
    async with progress.ticking():
        for n, scenario in enumerate(suite.scenarios, first):
            label = f"[{n}/{total}] {scenario.name}"
            if not progress.live:
                progress.line(f"{label}")
            result = await _run_scenario(runtime, scenario, label, progress)
            out.append(result)
            progress.clear()
            steps = f"{len(result.steps)}/{len(scenario.steps)} steps"
            if result.status == "passed":
                progress.line(f"PASS  {label} ({steps}, {result.seconds:.1f} s)")
            else:
                progress.line(f"{'FAIL ' if result.status == 'failed' else 'ERROR'} {label}: {result.message}")
    return out


def suite_report(suite: Suite, results: list[ScenarioResult]) -> SuiteReport:
    report = SuiteReport(name=suite.name, seconds=sum(r.seconds for r in results))
    for result in results:
        case = Case(name=result.scenario.name, classname=suite.name, seconds=result.seconds, file=suite.path,
                    output=f"page: {result.scenario.url}\n{result.ledger()}")
        if result.status != "passed":
            text = [result.message, "", result.ledger()]
            if result.steps and result.steps[-1].problems and result.steps[-1].receipt is not None:
                text += ["", f"receipt of {result.steps[-1].step.title}:",
                         json.dumps(result.steps[-1].receipt, ensure_ascii=False, indent=2)[:8000]]
            if result.status == "failed":
                case.failure = (result.message, "\n".join(text))
            else:
                case.error = (result.message, "\n".join(text))
        report.cases.append(case)
    return report
