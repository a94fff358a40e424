"""The fleet with the three real spiders: --demo, and --once against local copies of their sites."""

from __future__ import annotations

import importlib
import socket
from pathlib import Path

import pytest

from harvest.demo import DemoSites, write_demo_config
from harvest.runner.status import read_status
from tests import read_jsonl
from tests.runner.conftest import FleetDirs, fleet_env, run_fleet

pytestmark = pytest.mark.timeout(240)

REAL_SPIDERS = ("trending", "github_search", "blogs")


@pytest.mark.parametrize("name", REAL_SPIDERS)
def test_the_real_spiders_import(name: str) -> None:
    """Each real spider's module imports (an ImportError fails the test) and defines it."""
    module = importlib.import_module(f"harvest.spiders.{name}")
    assert any(getattr(obj, "name", None) == name for obj in vars(module).values() if isinstance(obj, type))


def jsonl_lines(data: Path) -> dict[str, int]:
    """<spider>/<file> -> lines, for every JSON Lines file the spiders wrote."""
    return {
        f"{path.parent.name}/{path.name}": len(read_jsonl(path))
        for spider in REAL_SPIDERS
        for path in sorted((data / spider).glob("*.jsonl"))
    }


def real_argv(data: Path, *args: str, **settings: str) -> list[str]:
    import sys

    argv = [sys.executable, "run_all.py", "--data-dir", str(data), *args]
    for key, value in settings.items():
        argv += ["-s", f"{key}={value}"]
    return argv


def test_demo_completes_offline_with_items_from_all_three_spiders(tmp_path: Path):
    data = tmp_path / "demo"
    result = run_fleet(real_argv(data, "--demo"), timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = jsonl_lines(data)
    assert lines.get("trending/trending_repo.jsonl", 0) > 0, lines
    assert lines.get("trending/document.jsonl", 0) > 0, lines
    assert lines.get("github_search/repo.jsonl", 0) > 0, lines
    assert lines.get("blogs/document.jsonl", 0) == 14, lines  # every post of the demo blog
    status = read_status(data / "fleet" / "status.json")
    assert status["items_total"] == sum(lines.values())
    assert {r["state"] for r in status["spiders"]} == {"done"}
    assert "Demo done" in result.stdout and str(data) in result.stdout
    assert "harvest fleet: summary" in result.stdout


def test_once_runs_the_three_spiders_in_distinct_processes(tmp_path: Path):
    dirs = FleetDirs(tmp_path)
    sites = DemoSites().start()
    try:
        write_demo_config(dirs.config, sites)
        result = run_fleet(
            real_argv(
                dirs.data,
                "--once",
                "--spiders",
                ",".join(REAL_SPIDERS),
                HARVEST_CONFIG_DIR=str(dirs.config),
                **sites.settings(),
            ),
            timeout=180,
        )
        served = sites.request_count()
    finally:
        sites.stop()
    assert result.returncode == 0, result.stdout + result.stderr
    status = read_status(dirs.status)
    assert status["state"] == "finished" and status["exit_code"] == 0
    by_name = {r["name"]: r for r in status["spiders"]}
    pids = [by_name[name]["pids"] for name in REAL_SPIDERS]
    assert all(len(p) == 1 for p in pids), pids
    flat = [p[0] for p in pids]
    assert len(set(flat)) == 3 and status["supervisor_pid"] not in flat
    lines = jsonl_lines(dirs.data)
    for spider in REAL_SPIDERS:
        assert by_name[spider]["items"] == sum(n for k, n in lines.items() if k.startswith(f"{spider}/"))
        assert by_name[spider]["items"] > 0
    # The shared counter that every child updates equals everything written.
    assert status["items_total"] == sum(lines.values())
    assert all(served[site] > 0 for site in ("web", "raw", "api", "blog")), served


def test_unreachable_hosts_fail_fast_with_cannot_reach(tmp_path: Path):
    dirs = FleetDirs(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    dirs.config.mkdir()
    (dirs.config / "blogs.yaml").write_text(f"sites:\n  - name: gone\n    start_urls: ['{dead}/']\n")
    (dirs.config / "github_search.yaml").write_text("queries:\n  - query: 'topic:web-scraping'\n")
    result = run_fleet(
        real_argv(
            dirs.data,
            "--once",
            "--spiders",
            ",".join(REAL_SPIDERS),
            HARVEST_CONFIG_DIR=str(dirs.config),
            GITHUB_WEB_URL=dead,
            GITHUB_RAW_URL=dead,
            GITHUB_API_URL=dead,
        ),
        timeout=120,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    by_name = {r["name"]: r for r in read_status(dirs.status)["spiders"]}
    host = dead.removeprefix("http://")
    for spider in REAL_SPIDERS:
        assert by_name[spider]["state"] == "unreachable", by_name[spider]
        assert by_name[spider]["last_error"] == f"cannot reach {host} (connection refused)"
        assert by_name[spider]["restarts"] == 0
    assert f"cannot reach {host}" in result.stdout


def test_fleet_env_has_no_token():
    assert "GITHUB_TOKEN" not in fleet_env()
