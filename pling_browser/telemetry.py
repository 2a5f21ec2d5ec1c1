"""OpenTelemetry: one span per invocation (``pling.invoke``) with a child per lifecycle stage
(``pling.resolve`` … ``pling.diff``), continuing the caller's trace when a ``traceparent`` header
comes with the request.

Configured by the standard ``OTEL_*`` variables: with ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``, or ``OTEL_TRACES_EXPORTER=otlp``) set, spans go to that
collector over OTLP/HTTP (``pip install 'pling-browser[otel]'``); unset, nothing is sent and the
spans cost a no-op. An application that embeds the service may set its own tracer provider instead.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from opentelemetry import propagate, trace
from opentelemetry.trace import Status, StatusCode

if TYPE_CHECKING:
    from fastapi import FastAPI
    from opentelemetry.context import Context

__all__ = ["configure_from_env", "instrument_app", "parent_from", "invocation_span", "stage_span", "record_receipt"]

log = logging.getLogger("pling_browser.telemetry")
TRACER = trace.get_tracer("pling_browser")


def configure_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """Install an OTLP exporter when the OTEL_* variables ask for one; True when spans will be sent."""
    env = os.environ if environ is None else environ
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    endpoint = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if exporter == "none" or not (endpoint or exporter == "otlp"):
        return False
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning("OTEL_* asks for traces, but the OpenTelemetry SDK or its OTLP exporter is not installed: "
                    "pip install 'pling-browser[otel]'; no spans are sent")
        return False
    provider = TracerProvider(resource=Resource.create({"service.name": env.get("OTEL_SERVICE_NAME", "pling-browser")}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    log.info("OpenTelemetry: spans go to %s over OTLP/HTTP", endpoint or "the default endpoint")
    return True


def instrument_app(app: FastAPI) -> None:
    """HTTP spans from the FastAPI instrumentation, when it is installed."""
    try:
        from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor
    except ImportError:
        return
    FastAPIInstrumentor.instrument_app(app, excluded_urls="healthz,metrics")


def parent_from(headers: Mapping[str, str]) -> Context:
    """The caller's trace context (W3C ``traceparent``), so an agent's own trace continues through Pling."""
    return propagate.extract(dict(headers))


@contextlib.contextmanager
def invocation_span(parent: Context | None, session: str, request: Any, caller: str | None = None) -> Iterator[trace.Span]:
    """The span of one invocation; the lifecycle's stage spans become its children."""
    kind, name = (request[0], request[1]) if isinstance(request, list) and len(request) > 1 else ("invoke", None)
    with TRACER.start_as_current_span("pling.invoke", context=parent, kind=trace.SpanKind.INTERNAL,
                                      record_exception=False, set_status_on_exception=False) as span:
        span.set_attribute("pling.session", session)
        span.set_attribute("pling.request", str(kind))
        if isinstance(name, dict) and isinstance(name.get("action"), str):
            span.set_attribute("pling.action", name["action"][:300])
        elif isinstance(name, str):
            span.set_attribute("pling.action", name[:300])
        if caller:
            span.set_attribute("pling.caller", caller)
        yield span


def record_receipt(span: trace.Span, receipt: dict[str, Any], seq: int) -> None:
    """What the receipt says, as attributes of the invocation's span."""
    span.set_attribute("pling.action", str(receipt.get("action", {}).get("id", ""))[:300])
    span.set_attribute("pling.ok", bool(receipt.get("ok")))
    span.set_attribute("pling.receipt_seq", seq)
    if receipt.get("caller"):
        span.set_attribute("pling.caller", str(receipt["caller"]))
    if receipt.get("fidelity"):
        span.set_attribute("pling.fidelity", str(receipt["fidelity"]))
    changed = receipt.get("changed") or {}
    types = sorted((changed.get("records") or {}).keys())
    if types:
        span.set_attribute("pling.record_types", types[:20])
    error = receipt.get("error")
    if error:
        span.set_attribute("pling.code", str(error.get("code")))
        span.set_attribute("pling.stage", str(error.get("stage")))
        span.set_attribute("pling.started", bool(error.get("started")))
        span.set_status(Status(StatusCode.ERROR, str(error.get("code"))))
    else:
        span.set_attribute("pling.started", True)


@contextlib.contextmanager
def stage_span(name: str) -> Iterator[None]:
    # Under an invocation span nobody records (no tracer provider, or a trace not sampled) a stage span
    # would not be recorded either (parent-based sampling): it is not made. A no-op span still costs
    # ~20 us to make and attach, nine times per invocation.
    if not trace.get_current_span().is_recording():
        yield
        return
    with TRACER.start_as_current_span(f"pling.{name}", record_exception=False, set_status_on_exception=False):
        yield
