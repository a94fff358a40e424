"""A real redis-server for tests: 127.0.0.1, a free port, no persistence, started and stopped here.

Also a TCP proxy in front of it that a test can cut and restore: Redis "going away" mid-crawl
(a network partition, a failover) while its data survives, so that a restart can resume.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

from tests import skip_or_fail
from tests.deploy.scrapyd import free_port


def require_redis_server() -> str:
    """Path of redis-server, or skip the test with the reason (CI: fail)."""
    path = shutil.which("redis-server")
    if path is None:
        skip_or_fail("redis-server is not installed (apt-get install redis-server)")
    return path


class RedisServer:
    """One redis-server process bound to 127.0.0.1 with persistence off (``--save '' --appendonly no``).

    ``host`` binds it to another address of the test's own (a network namespace's hub).
    """

    def __init__(
        self, workdir: Path, port: int | None = None, password: str | None = None, *, host: str = "127.0.0.1"
    ) -> None:
        self.workdir = workdir
        self.host = host
        self._fixed_port = port is not None
        self.port = port or free_port()
        self.password = password
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}{self.host}:{self.port}/0"

    def start(self) -> RedisServer:
        """Start it; on a port another test (an xdist worker) took meanwhile, again on a new one."""
        for _attempt in range(5):
            if self._start_once():
                return self
            if self._fixed_port:
                break
            self.port = free_port()
        raise RuntimeError(f"redis-server did not start: {(self.workdir / 'redis.log').read_text()}")

    def _start_once(self) -> bool:
        binary = require_redis_server()
        self.workdir.mkdir(parents=True, exist_ok=True)
        log_path = self.workdir / "redis.log"
        log_path.write_bytes(b"")
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    self.host,
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.workdir),
                    "--daemonize",
                    "no",
                    # Protected mode answers only loopback clients without a password; the
                    # test's own namespaces on the hub's bridge are the clients there.
                    "--protected-mode",
                    "yes" if self.host == "127.0.0.1" else "no",
                    *(["--requirepass", self.password] if self.password else []),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 10
        # Ours, not another test's server on the same port: its own log says it is ready.
        while b"Ready to accept connections" not in log_path.read_bytes() or not self.ping():
            if self.process.poll() is not None:
                self.process = None
                return False
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not start: {log_path.read_text()}")
            time.sleep(0.05)
        return True

    def ping(self) -> bool:
        try:
            with socket.create_connection((self.host, self.port), timeout=1) as sock:
                if self.password:
                    sock.sendall(f"AUTH {self.password}\r\n".encode())
                    if not sock.recv(16).startswith(b"+OK"):
                        return False
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None


class CuttableProxy:
    """A TCP proxy on 127.0.0.1 to a backend port; ``cut()`` drops every connection and refuses
    new ones (the backend keeps its data), ``restore()`` lets clients reconnect."""

    def __init__(self, backend_port: int) -> None:
        self.backend_port = backend_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._conns: list[socket.socket] = []
        self._cut = False
        self._closed = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def url(self, password: str | None = None) -> str:
        auth = f":{password}@" if password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.backend_port), timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns += [client, upstream]
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self) -> None:
        self._cut = True
        with self._lock:
            conns, self._conns = self._conns, []
        for sock in conns:
            try:
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            except OSError:
                pass

    def restore(self) -> None:
        self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()
