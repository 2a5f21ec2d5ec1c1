"""GET /metrics in Prometheus text format: sessions open and queued, invocations by outcome, stage
latencies, browser endpoints up. Counters and histograms are fed from receipts; gauges are read from
the runtime when scraped. One registry per runtime (several services may share a process in tests)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

if TYPE_CHECKING:
    from . import Runtime

STAGE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class _RuntimeGauges:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def collect(self) -> Iterator[GaugeMetricFamily]:
        runtime = self.runtime
        yield GaugeMetricFamily("pling_sessions_open", "Sessions open now", value=len(runtime.sessions))
        yield GaugeMetricFamily("pling_sessions_queued", "Requests waiting for a session slot", value=runtime.sessions.waiting)
        yield GaugeMetricFamily("pling_sessions_max", "PLING_MAX_SESSIONS", value=runtime.sessions.max_sessions)
        yield GaugeMetricFamily("pling_invocations_waiting", "Invocations waiting for their session while another runs",
                                value=runtime.invocations_waiting)
        pending = GaugeMetricFamily("pling_pending", "Requests waiting for a person", labels=["kind"])
        for kind in ("confirmation", "handoff"):
            pending.add_metric([kind], sum(1 for p in runtime.pending_requests.waiting() if p.kind == kind))
        yield pending
        up = GaugeMetricFamily("pling_browser_endpoint_up", "Whether a browser endpoint is connected", labels=["endpoint"])
        sessions = GaugeMetricFamily("pling_browser_endpoint_sessions", "Sessions on a browser endpoint", labels=["endpoint"])
        for endpoint in runtime.controller.endpoints:
            up.add_metric([endpoint.name], 1 if endpoint.up else 0)
            sessions.add_metric([endpoint.name], endpoint.sessions)
        yield up
        yield sessions


class Metrics:
    def __init__(self, runtime: Runtime) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.invocations = Counter("pling_invocations", "Invocations by outcome (ok, or the error code)",
                                   ["outcome"], registry=self.registry)
        self.dropped = Counter("pling_invocations_dropped", "Invocations that never started: their caller had gone "
                               "(caller_gone) or the session stayed busy past PLING_INVOKE_WAIT (session_busy)",
                               ["reason"], registry=self.registry)
        self.stages = Histogram("pling_stage_seconds", "Time spent in each lifecycle stage", ["stage"],
                                buckets=STAGE_BUCKETS, registry=self.registry)
        self.registry.register(_RuntimeGauges(runtime))  # type: ignore[arg-type]

    def observe(self, receipt: dict[str, Any]) -> None:
        outcome = "ok" if receipt.get("ok") else str((receipt.get("error") or {}).get("code", "UNKNOWN"))
        self.invocations.labels(outcome=outcome).inc()
        for stage, ms in (receipt.get("timings_ms") or {}).items():
            self.stages.labels(stage=stage).observe(ms / 1000)

    def text(self) -> bytes:
        return generate_latest(self.registry)
