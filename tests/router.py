"""The shipped router run as an operator runs it, on loopback: Debian's nginx with
docker/nginx/pling.conf.template filled in as the official nginx image fills it, in front of replicas
(`pling-browser serve` processes named pling-0, pling-1…) that share Playwright browser servers.

As in a cluster, the router finds replicas by name through DNS: a small DNS server on 127.0.0.1
(dnslib) answers `pling-N.pling.test` with the replica's own loopback address (127.0.0.2,
127.0.0.3…, all loopback) and `pling.test`, the headless Service's name, with every live replica's.
So the template runs unchanged: only its variables are set, to loopback values."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from dnslib import QTYPE, RCODE, RR, A
from dnslib.server import BaseResolver, DNSLogger, DNSServer

from .spawn import BrowserServer, kill_group, serve

TEMPLATE = Path(__file__).resolve().parent.parent / "docker" / "nginx" / "pling.conf.template"
DOMAIN = "pling.test"
TOKEN = "router-test-token"


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def template_variables(text: str) -> set[str]:
    return set(re.findall(r"\$\{([A-Z_]+)\}", text))


def fill(text: str, values: dict[str, str]) -> str:
    """The official image's step (`envsubst` with the names of the variables set): `${NAME}` for each
    name given is replaced, nothing else (nginx's own `$variables` stay)."""
    return re.sub(r"\$\{([A-Z_]+)\}", lambda m: values[m.group(1)] if m.group(1) in values else m.group(0), text)


class Names(BaseResolver):
    """A records for the replicas that are up; NXDOMAIN for any other name, as a cluster's DNS answers
    for a pod that does not exist."""

    def __init__(self) -> None:
        self.table: dict[str, list[str]] = {}

    def resolve(self, request, handler):  # type: ignore[no-untyped-def]
        reply = request.reply()
        name = str(request.q.qname).rstrip(".").lower()
        addresses = self.table.get(name)
        if not addresses:
            reply.header.rcode = RCODE.NXDOMAIN
        elif request.q.qtype == QTYPE.A:
            for address in addresses:
                reply.add_answer(RR(request.q.qname, QTYPE.A, rdata=A(address), ttl=1))
        return reply


def _port_free_on(addresses: list[str]) -> int:
    """A port no one listens on at any of `addresses` (replicas serve on one port, as pods do)."""
    for _ in range(50):
        with socket.socket() as first:
            first.bind((addresses[0], 0))
            port = int(first.getsockname()[1])
            try:
                for address in addresses[1:]:
                    with socket.socket() as other:
                        other.bind((address, port))
            except OSError:
                continue
        return port
    raise RuntimeError("no port free on every replica address")


class Replica:
    def __init__(self, name: str, address: str, port: int, env: dict[str, str], data: Path) -> None:
        self.name, self.address, self.port, self.env, self.data = name, address, port, env, data
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Replica:
        env = {**self.env, "PLING_REPLICA": self.name, "PLING_DATA_DIR": str(self.data)}
        self.process, _ = serve(env=env, port=self.port, host=self.address, log=self.data / "service.log")
        return self

    def kill(self) -> None:
        if self.process is not None:
            kill_group(self.process)
            self.process = None


class Cluster:
    """nginx on 127.0.0.1, `count` replicas, `browsers` browser servers, and the DNS that names them."""

    def __init__(self, allow_hosts: str, count: int = 2, browsers: int = 2) -> None:
        nginx = nginx_binary()
        assert nginx is not None
        self.nginx = nginx
        self.folder = Path(tempfile.mkdtemp(prefix="pling-router-"))
        os.chmod(self.folder, 0o755)  # nginx's workers (another user, under root) write their temp files here
        self.names = Names()
        self.dns = DNSServer(self.names, address="127.0.0.1", port=0,
                             logger=DNSLogger("-request,-reply,-truncated,-error,-recv,-send,-data", prefix=False))
        self.browsers = [BrowserServer() for _ in range(browsers)]
        addresses = [f"127.0.0.{2 + n}" for n in range(count)]
        port = _port_free_on(addresses)
        env = {"PLING_TOKEN": TOKEN, "PLING_ALLOW_HOSTS": allow_hosts,
               "PLING_BROWSER_ENDPOINT": ",".join(browser.url for browser in self.browsers)}
        self.replicas = [Replica(f"pling-{n}", address, port, env, self.folder / f"pling-{n}")
                         for n, address in enumerate(addresses)]
        self.router_port = _port_free_on(["127.0.0.1"])
        self.process: subprocess.Popen[bytes] | None = None
        self._dns_running = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.router_port}"

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)

    def publish(self) -> None:
        """What the cluster's DNS says now: each live replica by name, and all of them as the Service."""
        live = [replica for replica in self.replicas if replica.process is not None]
        self.names.table = {f"{replica.name}.{DOMAIN}": [replica.address] for replica in live}
        self.names.table[DOMAIN] = [replica.address for replica in live]

    def start(self) -> Cluster:
        self.dns.start_thread()
        self._dns_running = True
        try:
            for browser in self.browsers:
                browser.start()
            for replica in self.replicas:
                replica.data.mkdir()
                replica.start()
            self.publish()
            self._start_nginx()
        except BaseException:
            self.stop()
            raise
        return self

    def config(self) -> str:
        """The template filled in with loopback values: the file nginx includes in `http { }`."""
        dns_port = self.dns.server.server_address[1]
        return fill(TEMPLATE.read_text(), {
            "PLING_ROUTER_LISTEN": f"127.0.0.1:{self.router_port}", "NGINX_LOCAL_RESOLVERS": f"127.0.0.1:{dns_port}",
            "PLING_PORT": str(self.replicas[0].port), "PLING_REPLICA_DOMAIN": f".{DOMAIN}", "PLING_ANY": DOMAIN})

    def _start_nginx(self) -> None:
        conf = self.folder / "conf.d"
        conf.mkdir()
        (conf / "pling.conf").write_text(self.config())
        temp = self.folder / "temp"
        # The main file of the official image, cut to what a test needs: its own pid, logs and temp paths.
        main = self.folder / "nginx.conf"
        main.write_text(f"""daemon off;
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log notice;
events {{ worker_connections 512; }}
http {{
    access_log {self.folder}/access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {conf}/*.conf;
}}
""")
        temp.mkdir()
        os.chmod(temp, 0o777)
        check = subprocess.run([self.nginx, "-t", "-p", str(self.folder), "-c", str(main), "-e", str(self.folder / "error.log")],
                               capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, check.stderr + self.log()
        self.process = subprocess.Popen([self.nginx, "-p", str(self.folder), "-c", str(main), "-e", str(self.folder / "error.log")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.router_port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        raise RuntimeError("nginx did not start: " + self.log())

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text()[-3000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        for replica in self.replicas:
            replica.kill()
        for browser in self.browsers:
            browser.stop()
        if self._dns_running:
            self.dns.stop()
        self.dns.server.server_close()
        shutil.rmtree(self.folder, ignore_errors=True)
