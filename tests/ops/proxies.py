"""The shipped proxies started as an operator starts them, for every test that puts them in front of
something (tests/ops/test_front_door.py in front of `make serve`, test_proxy_logs.py in front of
failing upstreams, test_streams_come_back.py in front of stream servers that die): deploy/Caddyfile
with Caddy's internal CA, deploy/nginx.conf filled in with envsubst as its header says, each on free
loopback ports, in a directory of its own that holds every log the proxy writes.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.servers import REPO, Server, free_port, own_clock, program

DEPLOY = REPO / "deploy"

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


# OpenSSL's flag for a check of the chain without the certificates' dates (x509_vfy.h)
X509_V_FLAG_NO_CHECK_TIME = 0x200000

class Proxy(Server):
    """A proxy listening with TLS on ``port``, trusted through ``tls``; ``directory`` holds everything
    it writes."""

    def __init__(self, name: str, command: list[str], directory: Path, port: int, tls: ssl.SSLContext,
                 env: dict | None = None):
        super().__init__(name, command, directory / f"{name}.out", cwd=directory, env=env)
        self.port, self.tls, self.directory = port, tls, directory

    def request(self, method: str, path: str, *, headers: dict | None = None, body: bytes | None = None,
                timeout: float = 30) -> tuple[int, http.client.HTTPMessage, bytes]:
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.tls, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.msg, response.read()
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

    def output(self) -> str:
        return self.written()[-4000:]

    def stop(self, grace: float = 5) -> None:
        # Caddy waits for requests it still holds for long after a stop; what it wrote is written
        super().stop(grace)

    def written(self) -> str:
        """Every file the proxy wrote in its directory, logs and output alike."""
        return "\n".join(path.read_text(errors="replace") for path in sorted(self.directory.rglob("*"))
                         if path.is_file() and path.suffix in (".log", ".out"))


@contextlib.contextmanager
def proxy_in_front(name: str, web: str, streams: list[str]) -> Iterator[Proxy]:
    """Caddy or nginx in front of ``web`` and ``streams``, answering over TLS; stopped, and its
    directory removed, when the block ends."""
    # not under pytest's private directory: nginx's workers, which drop root's rights, write here
    directory = Path(tempfile.mkdtemp(prefix=f"mighty-{name}-"))
    try:
        proxy = (_caddy if name == "caddy" else _nginx)(directory, web, streams)
        try:
            yield proxy
        finally:
            proxy.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _answering(proxy: Proxy, ready: Callable[[], bool]) -> Proxy:
    try:
        proxy.wait_for("TLS answer", ready, seconds=60)
    except BaseException:
        proxy.stop()
        raise
    return proxy


def _caddy(directory: Path, web: str, streams: list[str]) -> Proxy:
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
    command = [caddy, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
    proxy = Proxy("caddy", command, directory, port, ssl.create_default_context(), env)
    root = directory / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def trusted() -> bool:
        """Caddy makes its internal CA as it starts: the client trusts that root, as a phone would."""
        if not root.exists():
            return False
        proxy.tls = ssl.create_default_context(cafile=str(root))
        # Caddy (a Go program: a faked clock does not reach it) signs for the hours ahead of the
        # machine's real time; a test run with the clock moved (faketime) checks the chain alone
        proxy.tls.verify_flags |= X509_V_FLAG_NO_CHECK_TIME
        return proxy.answers()

    return _answering(proxy, trusted)


def _nginx_site(directory: Path, web: str, streams: list[str]) -> tuple[int, Path]:
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
    # exactly the operator's command from the file's header
    header = (DEPLOY / "nginx.conf").read_text()
    names = re.search(r"envsubst '([^']+)'", header).group(1)
    assert set(names.replace("$", "").split()) == set(site), "the header's envsubst names every variable"
    filled = subprocess.run([envsubst, names], input=header, capture_output=True, text=True, check=True,
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **site}).stdout
    assert not [line for line in filled.splitlines() if "${" in line and not line.lstrip().startswith("#")]
    first = re.search(rf"^    server {re.escape(streams[0])}[^;\n]*;\n", filled, re.M).group(0)
    more = "".join(first.replace(streams[0], stream) for stream in streams[1:])
    (directory / "mighty-ledger.conf").write_text(filled.replace(first, first + more))
    (directory / "nginx.conf").write_text(NGINX_MAIN.format(directory=directory))
    return port, certificate


def _nginx(directory: Path, web: str, streams: list[str]) -> Proxy:
    nginx = program("nginx")
    port, certificate = _nginx_site(directory, web, streams)
    command = [nginx, "-p", str(directory), "-c", str(directory / "nginx.conf"),
               "-e", str(directory / "main-error.log"), "-g", "daemon off;"]
    proxy = Proxy("nginx", command, directory, port, ssl.create_default_context(cafile=str(certificate)),
                  own_clock())
    return _answering(proxy, proxy.answers)
