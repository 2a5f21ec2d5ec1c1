"""GET /metrics, read back with Prometheus's own text parser."""

from __future__ import annotations

import httpx
from prometheus_client.parser import text_string_to_metric_families

from .conftest import Pages


def _samples(client: httpx.Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def test_metrics_count_sessions_outcomes_stages_and_endpoints(client: httpx.Client, pages: Pages) -> None:
    before = _samples(client)
    page = pages.open("demo/todos.html")
    page.invoke("add_todo", {"text": "counted"})
    page.invoke("nope")
    after = _samples(client)
    assert after[("pling_sessions_open", ())] >= 1
    assert ("pling_sessions_queued", ()) in after
    ok = ("pling_invocations_total", (("outcome", "ok"),))
    missing = ("pling_invocations_total", (("outcome", "ACTION_NOT_FOUND"),))
    assert after[ok] - before.get(ok, 0) == 1 and after[missing] - before.get(missing, 0) == 1
    assert after[("pling_stage_seconds_count", (("stage", "execute"),))] >= 1
    assert after[("pling_browser_endpoint_up", (("endpoint", "local"),))] == 1
