"""A real scrapyd for tests: 127.0.0.1, a free port, basic auth, its own config and folders.

Also: a clean copy of the working tree (what a fresh clone holds: tracked files plus new files
git does not ignore, without changing git state) and ``scrapyd-deploy`` run on it for real.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import requests

from tests import PROJECT_ROOT, skip_or_fail

#: Basic-auth credentials of the test scrapyd (as in the README's scrapyd.conf).
USERNAME = "harvest"
PASSWORD = "s3cret-for-tests"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def require_scrapyd() -> None:
    """Skip (CI: fail) when scrapyd or scrapyd-client is missing; fail when setuptools would break scrapyd."""
    for dist in ("scrapyd", "scrapyd-client"):
        try:
            metadata.version(dist)
        except metadata.PackageNotFoundError:
            skip_or_fail(f"{dist} is not installed (pip install -e '.[test]')")
    if shutil.which("scrapyd-deploy") is None:
        skip_or_fail("scrapyd-deploy is not on PATH (pip install -e '.[test]')")
    major = int(metadata.version("setuptools").split(".")[0])
    if major >= 81:
        pytest.fail("setuptools >= 81 has no pkg_resources; scrapyd 1.6 jobs need setuptools<81")


def clean_copy(dest: Path) -> Path:
    """Copy what a fresh clone of the working tree holds into ``dest`` (git state untouched)."""
    if shutil.which("git") is None or not (PROJECT_ROOT / ".git").exists():
        skip_or_fail("not a git checkout: cannot tell which files a clean clone would hold")
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listed):
        source = PROJECT_ROOT / rel
        if source.is_file():  # tracked files deleted in the working tree are skipped
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


def ignored_by_git(paths: list[str]) -> set[str]:
    """Which of ``paths`` (relative to the project) the project's .gitignore ignores."""
    if not paths:
        return set()
    out = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin", "-z"],
        cwd=PROJECT_ROOT,
        input="\0".join(paths).encode(),
        capture_output=True,
    ).stdout.decode()
    return set(filter(None, out.split("\0")))


@dataclass
class Scrapyd:
    """A running scrapyd and the folders it owns."""

    root: Path
    port: int
    process: subprocess.Popen[bytes]
    env: dict[str, str]
    session: requests.Session = field(default_factory=requests.Session)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, endpoint: str, **params: str) -> dict[str, Any]:
        response = self.session.get(f"{self.url}/{endpoint}", params=params, timeout=10)
        response.raise_for_status()
        return dict(response.json())

    def post(self, endpoint: str, data: list[tuple[str, str]]) -> dict[str, Any]:
        response = self.session.post(f"{self.url}/{endpoint}", data=data, timeout=10)
        response.raise_for_status()
        return dict(response.json())

    def schedule(
        self, project: str, spider: str, settings: dict[str, str], args: dict[str, str] | None = None
    ) -> str:
        """``schedule.json`` with ``setting=NAME=VALUE`` overrides and spider arguments; the job id."""
        data = [("project", project), ("spider", spider)]
        data += [("setting", f"{k}={v}") for k, v in settings.items()]
        data += list((args or {}).items())
        reply = self.post("schedule.json", data)
        assert reply["status"] == "ok", reply
        return str(reply["jobid"])

    def wait_finished(self, project: str, jobs: list[str], timeout: float) -> dict[str, dict[str, Any]]:
        """Poll ``listjobs.json`` until every job is finished; their entries by job id."""
        deadline = time.monotonic() + timeout
        while True:
            listing = self.get("listjobs.json", project=project)
            finished = {job["id"]: job for job in listing["finished"] if job["id"] in jobs}
            if len(finished) == len(jobs):
                return finished
            if time.monotonic() > deadline:
                logs = "\n".join(self.job_log(project, j)[-3000:] for j in jobs)
                raise AssertionError(f"jobs not finished after {timeout}s: {listing}\n{logs}")
            time.sleep(0.5)

    def job_log(self, project: str, job: str) -> str:
        """The Scrapy log of one job (all spiders' folders are searched)."""
        logs = list((self.root / "logs" / project).glob(f"*/{job}.log"))
        return logs[0].read_text(encoding="utf-8", errors="replace") if logs else "(no log)"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


def _start_scrapyd_once(root: Path, port: int) -> Scrapyd | None:
    """Start scrapyd on ``port``; None if it exited at once (the port was taken meanwhile)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        "bind_address = 127.0.0.1\n"
        f"http_port = {port}\n"
        f"username = {USERNAME}\n"
        f"password = {PASSWORD}\n"
        "eggs_dir = eggs\n"
        "logs_dir = logs\n"
        "dbs_dir = dbs\n"
        "max_proc = 3\n"
        # Jobs start within half a second of being scheduled (the default poll is 5 s).
        "poll_interval = 0.5\n",
        encoding="utf-8",
    )
    home = root / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ)
    # A private HOME: neither a ~/.scrapyd.conf nor a ~/.scrapy.cfg of this machine applies.
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), PYTHONUNBUFFERED="1")
    for name in ("GITHUB_TOKEN", "SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT", "HARVEST_STATE_URL"):
        env.pop(name, None)
    log = (root / "scrapyd.out").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "scrapyd"], cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    server = Scrapyd(root, port, process, env)
    server.session.auth = (USERNAME, PASSWORD)
    deadline = time.monotonic() + 30
    while True:
        try:
            # Ours, not another test's scrapyd on the same port: its own log says it listens.
            ours = f"Site starting on {port}" in (root / "scrapyd.out").read_text(errors="replace")
            if ours and server.get("daemonstatus.json")["status"] == "ok":
                return server
        except requests.RequestException:
            pass
        if process.poll() is not None and "Address already in use" in (root / "scrapyd.out").read_text(
            errors="replace"
        ):
            server.stop()
            return None
        if process.poll() is not None or time.monotonic() > deadline:
            server.stop()
            out = (root / "scrapyd.out").read_text(errors="replace")
            raise RuntimeError(f"scrapyd did not start on port {port}:\n{out[-3000:]}")
        time.sleep(0.2)


def start_scrapyd(root: Path) -> Scrapyd:
    """Start scrapyd in ``root`` with a scrapyd.conf like the README's (basic auth on)."""
    for _attempt in range(4):
        server = _start_scrapyd_once(root, free_port())
        if server is not None:
            return server
    raise RuntimeError(
        f"scrapyd found no free port:\n{(root / 'scrapyd.out').read_text(errors='replace')[-3000:]}"
    )


def deploy(scrapyd: Scrapyd, project_dir: Path, version: str, project: str = "harvest") -> dict[str, Any]:
    """Run ``scrapyd-deploy`` in ``project_dir`` to a target written to the user's ~/.scrapy.cfg."""
    home = Path(scrapyd.env["HOME"])
    (home / ".scrapy.cfg").write_text(
        "[deploy:test]\n"
        f"url = {scrapyd.url}\n"
        "project = harvest\n"
        f"username = {USERNAME}\n"
        # scrapyd-client expands environment variables: the password stays out of the file.
        "password = ${SCRAPYD_TEST_PASSWORD}\n",
        encoding="utf-8",
    )
    env = {**scrapyd.env, "SCRAPYD_TEST_PASSWORD": PASSWORD}
    result = subprocess.run(
        ["scrapyd-deploy", "test", "--version", version, "--project", project],
        cwd=project_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, f"scrapyd-deploy failed:\n{result.stdout}\n{result.stderr}"
    reply = json.loads(result.stdout.strip().splitlines()[-1])
    assert reply["status"] == "ok", reply
    return dict(reply)
