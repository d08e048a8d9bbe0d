"""The shipped proxies started as an operator starts them, for the tests that put them in front of
something: deploy/Caddyfile with Caddy's internal CA, deploy/nginx.conf filled in with envsubst as
its header says, each on free loopback ports, in a directory of the test's that holds every log
the proxy writes. tests/ops/test_front_door.py starts them the same way in front of `make serve`.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ON_CI = os.environ.get("CI", "").lower() == "true"

NGINX_MAIN = """\
# the main context a Debian host's /etc/nginx/nginx.conf gives; the site is deploy/nginx.conf
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/main-error.log warn;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    client_body_temp_path {directory}/tmp/body;
    proxy_temp_path {directory}/tmp/proxy;
    fastcgi_temp_path {directory}/tmp/fastcgi;
    uwsgi_temp_path {directory}/tmp/uwsgi;
    scgi_temp_path {directory}/tmp/scgi;
    include {directory}/mighty-ledger.conf;
}}
"""


def missing(what: str) -> None:
    if ON_CI:
        pytest.fail(f"{what}, and CI needs it")
    pytest.skip(what)


def program(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if p.exists()), None)
    if found is None:
        missing(f"{name} is not installed (bash scripts/ensure_proxies.sh installs it from Debian)")
    return found


@dataclass
class Proxy:
    """A proxy running in its own process group; ``directory`` holds everything it writes."""

    name: str
    port: int
    tls: ssl.SSLContext
    directory: Path
    process: subprocess.Popen | None = None

    def request(self, method: str, path: str, *, headers: dict | None = None, body: bytes | None = None,
                timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.tls, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def answers(self) -> bool:
        """Whether it shakes hands over TLS, whatever its upstreams do."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as raw, \
                    self.tls.wrap_socket(raw, server_hostname="127.0.0.1"):
                return True
        except (OSError, ssl.SSLError):
            return False

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            # Caddy waits for requests it still holds for long after a stop; what it wrote is written
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def written(self) -> str:
        """Every file the proxy wrote in its directory, logs and output alike."""
        return "\n".join(path.read_text(errors="replace") for path in sorted(self.directory.rglob("*"))
                         if path.is_file() and path.suffix in (".log", ".out"))


def _start(proxy: Proxy, command: list[str], env: dict | None = None, ready=None) -> Proxy:
    with (proxy.directory / f"{proxy.name}.out").open("wb") as out:
        proxy.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True, cwd=proxy.directory, env=env)
    deadline = time.monotonic() + 60
    while not (ready or proxy.answers)():
        if proxy.process.poll() is not None or time.monotonic() > deadline:
            proxy.stop()
            pytest.fail(f"{proxy.name} did not start:\n" + proxy.written()[-3000:])
        time.sleep(0.1)
    return proxy


def start_caddy(directory: Path, web: str, streams: list[str]) -> Proxy:
    """deploy/Caddyfile as it ships, with MIGHTY_TLS=internal and free ports."""
    caddy = program("caddy")
    port = free_port()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(directory),
        # Caddy's certificates and its internal CA stay in this directory
        "XDG_DATA_HOME": str(directory / "data"), "XDG_CONFIG_HOME": str(directory / "config"),
        "MIGHTY_SITE": "127.0.0.1", "MIGHTY_TLS": "internal", "MIGHTY_CADDY_ADMIN": "off",
        "MIGHTY_HTTPS_PORT": str(port), "MIGHTY_HTTP_PORT": str(free_port()),
        "MIGHTY_WEB": web, "MIGHTY_STREAMS": " ".join(streams),
    }
    proxy = Proxy("caddy", port, ssl.create_default_context(), directory)
    root = directory / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def ready() -> bool:
        if not root.exists():
            return False
        proxy.tls = ssl.create_default_context(cafile=str(root))
        return proxy.answers()

    command = [caddy, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
    return _start(proxy, command, env, ready)


def nginx_site(directory: Path, web: str, streams: list[str]) -> tuple[int, Path]:
    """deploy/nginx.conf filled in with envsubst as its header says, each stream server beyond the
    first a line of its own, in a main context of its own: the port and the certificate."""
    envsubst, openssl = program("envsubst"), program("openssl")
    directory.chmod(0o755)
    (directory / "tmp").mkdir(exist_ok=True)
    (directory / "tmp").chmod(0o777)
    certificate, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    port = free_port()
    site = {
        "MIGHTY_SERVER_NAME": "127.0.0.1", "MIGHTY_HTTPS_PORT": f"127.0.0.1:{port}",
        "MIGHTY_HTTP_PORT": f"127.0.0.1:{free_port()}", "MIGHTY_WEB": web, "MIGHTY_STREAMS": streams[0],
        "MIGHTY_TLS_CERT": str(certificate), "MIGHTY_TLS_KEY": str(key),
        "MIGHTY_ACCESS_LOG": str(directory / "access.log"), "MIGHTY_ERROR_LOG": str(directory / "error.log"),
    }
    header = (DEPLOY / "nginx.conf").read_text()
    names = re.search(r"envsubst '([^']+)'", header).group(1)
    assert set(names.replace("$", "").split()) == set(site), "the header's envsubst names every variable"
    filled = subprocess.run([envsubst, names], input=header, capture_output=True, text=True, check=True,
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **site}).stdout
    first = re.search(rf"^    server {re.escape(streams[0])}[^;\n]*;\n", filled, re.M).group(0)
    more = "".join(first.replace(streams[0], stream) for stream in streams[1:])
    (directory / "mighty-ledger.conf").write_text(filled.replace(first, first + more))
    (directory / "nginx.conf").write_text(NGINX_MAIN.format(directory=directory))
    return port, certificate


def start_nginx(directory: Path, web: str, streams: list[str]) -> Proxy:
    nginx = program("nginx")
    port, certificate = nginx_site(directory, web, streams)
    proxy = Proxy("nginx", port, ssl.create_default_context(cafile=str(certificate)), directory)
    command = [nginx, "-p", str(directory), "-c", str(directory / "nginx.conf"),
               "-e", str(directory / "main-error.log"), "-g", "daemon off;"]
    return _start(proxy, command)


def start_proxy(name: str, directory: Path, web: str, streams: list[str]) -> Proxy:
    return (start_caddy if name == "caddy" else start_nginx)(directory, web, streams)
