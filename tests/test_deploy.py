"""The container and cluster files stay valid and true to the code. No Docker engine runs here, so
what they run is run without it: the service command and the browser-server configuration (the
latter by every remote-endpoint test, through tests/spawn.py)."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import httpx
import yaml

from pling_browser.server.api import create_app

from .spawn import kill_group, serve

DOCKER = Path(__file__).resolve().parent.parent / "docker"


def _settings_in_code() -> set[str]:
    source = (Path(__file__).resolve().parent.parent / "pling_browser" / "config.py").read_text()
    return set(re.findall(r'"(PLING_[A-Z_]+)"', source))


def test_dockerfile_pins_playwright_and_runs_as_non_root_under_an_init() -> None:
    text = (DOCKER / "Dockerfile").read_text()
    image = re.search(r"^FROM mcr\.microsoft\.com/playwright/python:v([0-9.]+)-", text, re.M)
    assert image and image.group(1) == version("playwright")
    assert f'"playwright=={version("playwright")}"' in text
    assert re.search(r"^USER pwuser$", text, re.M)
    assert '"/usr/bin/tini", "--"' in text
    assert 'CMD ["pling-browser", "serve", "--host", "0.0.0.0", "--port", "8000"]' in text


def test_compose_runs_the_service_with_two_browser_servers() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"pling", "browser-1", "browser-2"}
    pling = services["pling"]
    assert pling["init"] is True and all(services[name]["init"] is True for name in ("browser-1", "browser-2"))
    endpoints = pling["environment"]["PLING_BROWSER_ENDPOINT"].split(",")
    assert endpoints == ["ws://browser-1:3000/pling", "ws://browser-2:3000/pling"]
    assert set(pling["environment"]) <= _settings_in_code()
    assert services["browser-1"]["command"][-1] == "/etc/pling/browser-server.json"


def test_kubernetes_manifests_match_the_service() -> None:
    documents = [doc for name in ("browser-server.yaml", "pling.yaml")
                 for doc in yaml.safe_load_all((DOCKER / "k8s" / name).read_text())]
    kinds = sorted(doc["kind"] for doc in documents)
    assert kinds == ["ConfigMap", "Deployment", "HorizontalPodAutoscaler", "Service", "Service", "StatefulSet"]
    app = create_app()  # routes of included routers are in the OpenAPI document, not flat in app.routes
    routes = {getattr(route, "path", None) for route in app.routes} | set(app.openapi()["paths"])
    pling = next(doc for doc in documents if doc["kind"] == "StatefulSet")
    container = pling["spec"]["template"]["spec"]["containers"][0]
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] in routes
    assert {env["name"] for env in container["env"]} <= _settings_in_code()
    for doc in documents:
        if doc["kind"] in ("Deployment", "StatefulSet"):
            assert doc["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    hpa = next(doc for doc in documents if doc["kind"] == "HorizontalPodAutoscaler")
    assert hpa["spec"]["metrics"][0]["pods"]["metric"]["name"] == "pling_sessions_open"
    metrics = (Path(__file__).resolve().parent.parent / "pling_browser" / "runtime" / "metrics.py").read_text()
    assert '"pling_sessions_open"' in metrics  # the metric the HPA reads is one /metrics exports


def test_the_container_command_serves_on_all_addresses_with_a_token() -> None:
    process, url = serve("--host", "0.0.0.0", env={"PLING_TOKEN": "container-token", "PLING_DATA_DIR": "/tmp/pling-deploy-test"})
    try:
        assert httpx.get(f"{url}/sessions").status_code == 401  # served, and guarded by the token
    finally:
        kill_group(process)
