"""What the environment throws at a user: one clear line and a documented exit code, no traceback.

Real runs of ``scrapy crawl`` and ``run_all.py`` against loopback servers: an unreachable host
(exit 1, the fleet's words), a data folder this process cannot write (exit 2, before any
request), a misspelt spider (exit 2, with a "did you mean"), a config folder given but missing
(exit 2), a dashboard port already taken (exit 2, naming the address).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from tests import PROJECT_ROOT, require, scrapy_crawl
from tests.servers import LoopbackServer

#: Root without the capabilities that let it write anywhere: a user's view of a folder it does
#: not own (the permission bits apply).
NO_OVERRIDE = [
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
    "--",
]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed on return: a connection is refused


def _said(stderr: str) -> str:
    return [line for line in stderr.splitlines() if line.strip()][-1]


def _run(argv: list[str], *, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("GITHUB_TOKEN", None)
    return subprocess.run(argv, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=timeout, env=env)


def test_an_unreachable_host_exits_1_with_the_fleets_words(tmp_path: Path) -> None:
    port = _closed_port()
    base = f"http://127.0.0.1:{port}"
    result = scrapy_crawl(
        "trending",
        settings={
            "GITHUB_WEB_URL": base,
            "GITHUB_RAW_URL": f"{base}/raw",
            "GITHUB_API_URL": f"{base}/api",
            "HARVEST_DATA_DIR": tmp_path / "data",
        },
    )
    assert result.returncode == 1, result.stderr[-3000:]
    assert f"cannot reach 127.0.0.1:{port} (connection refused)" in _said(result.stderr)
    assert "Traceback" not in result.stderr and "Gave up retrying" not in result.stderr
    assert "'finish_reason': 'cannot_reach'" in result.stderr


def test_an_unwritable_data_folder_is_exit_2_before_any_request(
    server: LoopbackServer, tmp_path: Path
) -> None:
    require(shutil.which("setpriv") and os.geteuid() == 0, "needs root and setpriv (util-linux) to drop")
    owned = tmp_path / "someone-elses"
    owned.mkdir()
    os.chown(owned, 65534, 65534)
    owned.chmod(0o755)
    data = owned / "data"
    crawl = [sys.executable, "-m", "scrapy", "crawl", "trending", "-s", f"HARVEST_DATA_DIR={data}"]
    crawl += ["-s", f"GITHUB_WEB_URL={server.base_url}", "-s", f"GITHUB_RAW_URL={server.base_url}"]
    result = _run(NO_OVERRIDE + crawl)
    assert result.returncode == 2, result.stderr[-3000:]
    said = (
        f"error: the data folder {data} (HARVEST_DATA_DIR) cannot hold files: cannot create {data}: "
        "Permission denied (owned by uid 65534, mode drwxr-xr-x; this process runs as uid 0)"
    )
    assert _said(result.stderr).endswith(said)
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) <= 5
    assert server.paths_requested() == []
    # The fleet says the same, in one line, and starts nothing.
    fleet = _run(NO_OVERRIDE + [sys.executable, "run_all.py", "--once", "--data-dir", str(data)])
    assert fleet.returncode == 2, fleet.stderr[-3000:]
    assert _said(fleet.stderr) == f"run_all.py: {said}"
    assert "Traceback" not in fleet.stderr + fleet.stdout and not data.exists()


def test_a_misspelt_spider_lists_the_spiders_with_a_guess(tmp_path: Path) -> None:
    result = _run([sys.executable, "-m", "scrapy", "crawl", "trendng", "-s", f"HARVEST_DATA_DIR={tmp_path}"])
    assert result.returncode == 2, result.stderr[-3000:]
    assert _said(result.stderr).endswith(
        "error: no spider named 'trendng' (spiders: blogs, github_search, trending, trending_history); "
        "did you mean 'trending'?"
    )
    assert "Traceback" not in result.stderr and "KeyError" not in result.stderr
    fleet = _run([sys.executable, "run_all.py", "--spiders", "trendng", "--data-dir", str(tmp_path)])
    assert fleet.returncode == 2
    assert _said(fleet.stderr).endswith("did you mean 'trending'?")


def test_a_config_folder_given_but_missing_is_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-config"
    result = _run(
        [sys.executable, "-m", "scrapy", "crawl", "trending", "-s", f"HARVEST_DATA_DIR={tmp_path / 'data'}",
         "-s", f"HARVEST_CONFIG_DIR={missing}"]
    )  # fmt: skip
    assert result.returncode == 2, result.stderr[-3000:]
    assert _said(result.stderr).endswith(f"error: HARVEST_CONFIG_DIR: {missing} is not a folder: give the "
                                         "folder of the spiders' YAML files (leave the setting out to use "
                                         "spiders_config/)")  # fmt: skip
    assert "Traceback" not in result.stderr and not (tmp_path / "data").exists()


def test_a_busy_dashboard_port_names_the_address(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = _run(
            [sys.executable, "run_all.py", "--once", "--spiders", "trending", "--data-dir", str(tmp_path),
             "--dashboard", f"127.0.0.1:{port}", "-s", f"GITHUB_WEB_URL=http://127.0.0.1:{_closed_port()}"]
        )  # fmt: skip
    assert result.returncode == 2, result.stderr[-3000:]
    assert _said(result.stderr) == (
        f"run_all.py: error: argument --dashboard: cannot listen on 127.0.0.1:{port}: address already in "
        "use; another program listens there: choose another port"
    )


def test_a_misspelt_yaml_key_gets_a_did_you_mean(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "blogs.yaml").write_text(
        "sites:\n  - name: one\n    start_url: [http://127.0.0.1:9/]\nrefresh_intervall: 1d\nzzz: 1\n"
    )
    result = _run(
        [sys.executable, "-m", "scrapy", "crawl", "blogs", "-s", f"HARVEST_CONFIG_DIR={config}",
         "-s", f"HARVEST_DATA_DIR={tmp_path / 'data'}"]
    )  # fmt: skip
    assert result.returncode == 2, result.stderr[-3000:]
    assert "sites[0].start_url: unknown key; did you mean 'start_urls'?" in result.stderr
    assert "refresh_intervall: unknown key; did you mean 'refresh_interval'?" in result.stderr
    assert "zzz: unknown key (check the spelling)" in result.stderr
    assert "Traceback" not in result.stderr


def test_argument_errors_name_the_argument_once_in_our_words(tmp_path: Path) -> None:
    cases = {
        (
            "trending",
            "developers=maybe",
        ): "  -a developers: expected true or false (1/0, yes/no, on/off), got 'maybe'",
        ("blogs", "url=notaurl"): "  -a url: expected an absolute http(s) URL, got 'notaurl'",
        ("trending", "since=hourly"): "  -a since: expected 'daily', 'weekly' or 'monthly', got 'hourly'",
    }
    for (spider, argument), said in cases.items():
        result = _run(
            [
                sys.executable,
                "-m",
                "scrapy",
                "crawl",
                spider,
                "-a",
                argument,
                "-s",
                f"HARVEST_DATA_DIR={tmp_path}",
            ]
        )
        assert result.returncode == 2, result.stderr[-2000:]
        assert _said(result.stderr) == said, result.stderr[-2000:]
        assert "Value error" not in result.stderr and "Input should be" not in result.stderr
