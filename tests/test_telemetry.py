"""OpenTelemetry: the span tree of one invocation (a span per stage under pling.invoke), its
attributes, and a caller's traceparent continued; OTEL_* decides whether anything is exported."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from pling_browser import telemetry

from .conftest import Pages

_EXPORTER = InMemorySpanExporter()


@pytest.fixture(scope="module")
def spans() -> Iterator[InMemorySpanExporter]:
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):  # the global provider can be set once per process
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    provider.add_span_processor(SimpleSpanProcessor(_EXPORTER))
    yield _EXPORTER


def test_one_invocation_is_a_span_with_a_child_per_stage(spans: InMemorySpanExporter, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    spans.clear()
    receipt = page.invoke("toggle@t3")
    assert receipt["ok"] is True
    finished = spans.get_finished_spans()
    [root] = [s for s in finished if s.name == "pling.invoke"]
    children = [s.name for s in finished if s.parent is not None and s.parent.span_id == root.context.span_id]
    assert children == ["pling.resolve", "pling.decode", "pling.validate", "pling.confirm", "pling.reveal",
                        "pling.execute", "pling.expect", "pling.diff"]
    attributes = dict(root.attributes or {})
    assert attributes["pling.action"] == "toggle@t3" and attributes["pling.ok"] is True
    assert attributes["pling.session"] == page.id and attributes["pling.record_types"] == ("task",)
    assert isinstance(attributes["pling.receipt_seq"], int)


def test_a_failure_names_its_code_stage_and_started(spans: InMemorySpanExporter, pages: Pages) -> None:
    page = pages.open("demo/todos.html")
    spans.clear()
    receipt = page.invoke("add_todo", {"text": ""})
    assert receipt["error"]["code"] == "INVALID_PARAMS"
    [root] = [s for s in spans.get_finished_spans() if s.name == "pling.invoke"]
    attributes = dict(root.attributes or {})
    assert (attributes["pling.code"], attributes["pling.stage"], attributes["pling.started"]) == ("INVALID_PARAMS", "validate", False)
    assert root.status.status_code == trace.StatusCode.ERROR


def test_the_callers_traceparent_is_continued(spans: InMemorySpanExporter, pages: Pages, client: httpx.Client) -> None:
    page = pages.open("demo/todos.html")
    spans.clear()
    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    answer = client.post(f"/sessions/{page.id}/invoke", json={"action": "toggle@t4"},
                         headers={"traceparent": f"00-{trace_id}-00f067aa0ba902b7-01"})
    assert answer.json()["result"]["ok"] is True
    [root] = [s for s in spans.get_finished_spans() if s.name == "pling.invoke"]
    assert format(root.context.trace_id, "032x") == trace_id
    assert root.parent is not None and format(root.parent.span_id, "016x") == "00f067aa0ba902b7"


def test_otel_variables_decide_whether_anything_is_exported() -> None:
    assert telemetry.configure_from_env({}) is False
    assert telemetry.configure_from_env({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"}) is False


def test_a_stage_span_is_made_only_under_a_recorded_invocation(spans: InMemorySpanExporter,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # No span is recording (no provider, or a trace not sampled): a stage's span would not be recorded
    # either, so it is not made (it cost ~20 us each, nine times per invocation).
    import contextlib

    made: list[str] = []
    monkeypatch.setattr(telemetry.TRACER, "start_as_current_span",
                        lambda name, **_: made.append(name) or contextlib.nullcontext())
    with telemetry.stage_span("resolve"):
        pass
    assert made == []
    with trace.get_tracer("test").start_as_current_span("parent"), telemetry.stage_span("resolve"):
        pass
    assert made == ["pling.resolve"]
