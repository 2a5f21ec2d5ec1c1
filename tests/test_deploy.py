"""The container and cluster files stay valid and true to the code. No Docker engine runs here, so
what they run is run without it: the service command and the browser-server configuration (the
latter by every remote-endpoint test, through tests/spawn.py)."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import yaml

from pling_browser.server.api import create_app

from . import patient
from .router import TEMPLATE, template_variables
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


def test_the_cluster_runs_the_image_of_this_version() -> None:
    """The manifests name the image `pling-browser:VERSION` (what docker/Dockerfile builds and the
    release tags): the package's own version, which pyproject.toml also takes from pling_browser."""
    from pling_browser import __version__

    tags = {path.name: re.findall(r"^\s*image: pling-browser:(\S+)$", path.read_text(), re.M)
            for path in (DOCKER / "k8s").glob("*.yaml")}
    assert {name: found for name, found in tags.items() if found} == {"browser-server.yaml": [__version__],
                                                                      "pling.yaml": [__version__]}
    assert version("pling-browser") == __version__  # the installed distribution's, from the same line


def _template_variables() -> set[str]:
    return template_variables(TEMPLATE.read_text())


def test_compose_runs_two_replicas_behind_the_router_with_two_browser_servers() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"router", "pling-0", "pling-1", "browser-1", "browser-2"}
    assert all(services[name]["init"] is True for name in ("pling-0", "pling-1", "browser-1", "browser-2"))
    assert services["browser-1"]["command"][-1] == "/etc/pling/browser-server.json"
    for name in ("pling-0", "pling-1"):
        env = services[name]["environment"]
        assert set(env) <= _settings_in_code()
        assert env["PLING_BROWSER_ENDPOINT"].split(",") == ["ws://browser-1:3000/pling", "ws://browser-2:3000/pling"]
        # The name in session ids is the name the router resolves; every replica answers the router's PLING_ANY.
        assert env["PLING_REPLICA"] == name == env["PLING_EGRESS_ADVERTISE"]
        assert services[name]["networks"]["default"]["aliases"] == [services["router"]["environment"]["PLING_ANY"]]
    router = services["router"]
    assert router["volumes"] == ["./nginx/pling.conf.template:/etc/nginx/templates/pling.conf.template:ro"]
    _router_environment(router["environment"])
    assert router["environment"]["PLING_REPLICA_DOMAIN"] == ""


def _router_environment(env: dict[str, str]) -> None:
    # Every variable of the template is set; NGINX_LOCAL_RESOLVERS by the official image, when asked.
    assert _template_variables() - {"NGINX_LOCAL_RESOLVERS"} <= set(env), _template_variables() - set(env)
    assert env["NGINX_ENTRYPOINT_LOCAL_RESOLVERS"] == "1"
    assert env["PLING_PORT"] == "8000"  # the port the image serves on (its CMD, checked above)


def test_kubernetes_manifests_match_the_service() -> None:
    kustomization = yaml.safe_load((DOCKER / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == sorted(f"k8s/{path.name}" for path in (DOCKER / "k8s").glob("*.yaml"))
    documents = [doc for name in kustomization["resources"] for doc in yaml.safe_load_all((DOCKER / name).read_text())]
    kinds = sorted(doc["kind"] for doc in documents)
    assert kinds == ["Deployment", "Deployment", "HorizontalPodAutoscaler", "Service", "Service", "Service", "StatefulSet"]
    app = create_app()  # routes of included routers are in the OpenAPI document, not flat in app.routes
    routes = {getattr(route, "path", None) for route in app.routes} | set(app.openapi()["paths"])
    pling = next(doc for doc in documents if doc["kind"] == "StatefulSet")
    container = pling["spec"]["template"]["spec"]["containers"][0]
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] in routes
    assert {env["name"] for env in container["env"]} <= _settings_in_code()
    # Pods are named pling-N under the headless Service pling: the names the router's template resolves.
    assert pling["metadata"]["name"] == pling["spec"]["serviceName"] == "pling"
    assert "pling-[0-9]+" in TEMPLATE.read_text()
    for doc in documents:
        if doc["kind"] == "StatefulSet":
            assert doc["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    hpa = next(doc for doc in documents if doc["kind"] == "HorizontalPodAutoscaler")
    assert hpa["spec"]["metrics"][0]["pods"]["metric"]["name"] == "pling_sessions_open"
    metrics = (Path(__file__).resolve().parent.parent / "pling_browser" / "runtime" / "metrics.py").read_text()
    assert '"pling_sessions_open"' in metrics  # the metric the HPA reads is one /metrics exports


def test_kubernetes_and_compose_run_the_same_router_and_browser_files() -> None:
    """One copy of each: the ConfigMaps are generated from the files compose mounts, and the pods mount
    them where compose does."""
    kustomization = yaml.safe_load((DOCKER / "kustomization.yaml").read_text())
    generated = {entry["name"]: entry["files"] for entry in kustomization["configMapGenerator"]}
    assert generated == {"pling-router": ["nginx/pling.conf.template"], "browser-server": ["browser-server.json"]}
    deployments = {doc["metadata"]["name"]: doc["spec"]["template"]["spec"]
                   for name in kustomization["resources"] for doc in yaml.safe_load_all((DOCKER / name).read_text())
                   if doc["kind"] == "Deployment"}
    for name, config, folder in (("pling-router", "pling-router", "/etc/nginx/templates"),
                                 ("browser-server", "browser-server", "/etc/pling")):
        pod = deployments[name]
        volume = next(v["name"] for v in pod["volumes"] if v.get("configMap", {}).get("name") == config)
        assert {"name": volume, "mountPath": folder} in pod["containers"][0]["volumeMounts"]
    router = deployments["pling-router"]["containers"][0]
    _router_environment({env["name"]: env.get("value", "") for env in router["env"]})
    assert router["image"] == yaml.safe_load((DOCKER / "compose.yaml").read_text())["services"]["router"]["image"]
    # Nothing else under docker/ carries a copy of either: no other nginx routing, no ConfigMap written out.
    for path in DOCKER.rglob("*"):
        if path.is_file() and path != TEMPLATE:
            assert "proxy_pass" not in path.read_text(), path
    for path in (DOCKER / "k8s").glob("*.yaml"):
        assert all(doc["kind"] != "ConfigMap" for doc in yaml.safe_load_all(path.read_text())), path


def test_the_container_command_serves_on_all_addresses_with_a_token(tmp_path: Path) -> None:
    process, url = serve("--host", "0.0.0.0", env={"PLING_TOKEN": "container-token", "PLING_DATA_DIR": str(tmp_path)})
    try:
        assert patient.get(f"{url}/sessions").status_code == 401  # served, and guarded by the token
    finally:
        kill_group(process)
