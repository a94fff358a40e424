"""One way to build a crawl: every entry point runs the same components (harvest/crawl/build.py).

For each spider, the components of the running crawler (Scrapy's own "Enabled ..." lists, and
harvest's line naming the scheduler and duplicate filter) are read from the logs of a real run
under ``scrapy crawl``, under ``python run_all.py`` and as a scrapyd job, against the demo sites.
The fleet's set is exactly ``scrapy crawl``'s plus the fleet's own additions; scrapyd's is
``scrapy crawl``'s.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harvest.demo import DemoSites, write_demo_config
from tests import scrapy_crawl
from tests.deploy.scrapyd import Scrapyd, clean_copy, deploy, require_scrapyd, start_scrapyd
from tests.runner.conftest import run_fleet

pytestmark = pytest.mark.timeout(400)

SPIDERS = ("trending", "github_search", "blogs")
LISTS = ("extensions", "downloader middlewares", "spider middlewares", "item pipelines")
#: What run_all.py adds to a crawl, and nothing else.
FLEET_ADDITIONS = {
    "extensions": {"harvest.extensions.fleet.FleetExtension"},
    "downloader middlewares": {"harvest.extensions.reachability.ReachabilityMiddleware"},
}
GITHUB_API = "harvest.github.middleware.GithubApiMiddleware"
Components = dict[str, list[str]]


def components(log: str) -> Components:
    """The enabled components a Scrapy log lists, by kind, in order."""
    found: Components = {}
    for kind in LISTS:
        m = re.search(rf"Enabled {kind}:\n(\[.*?\])\n", log, re.DOTALL)
        assert m, f"no 'Enabled {kind}' list in the log:\n{log[-3000:]}"
        found[kind] = list(ast.literal_eval(m.group(1)))
    m = re.search(r"Scheduler: (\S+) \(duplicate filter: (\S+)\)", log)
    assert m, f"no scheduler line in the log:\n{log[-3000:]}"
    found["scheduler"], found["duplicate filter"] = [m.group(1)], [m.group(2)]
    return found


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoSites, Path]]:
    sites = DemoSites().start()
    config = tmp_path_factory.mktemp("config")
    write_demo_config(config, sites)
    yield sites, config
    sites.stop()


def settings_for(sites: DemoSites, config: Path, data: Path) -> dict[str, str]:
    return {
        **sites.settings(),
        "HARVEST_CONFIG_DIR": str(config),
        "HARVEST_DATA_DIR": str(data),
        "AUTOTHROTTLE_ENABLED": "False",
        "LOG_LEVEL": "INFO",
    }


@pytest.fixture(scope="module")
def under_scrapy_crawl(
    demo: tuple[DemoSites, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    sites, config = demo
    found = {}
    for spider in SPIDERS:
        data = tmp_path_factory.mktemp(f"crawl-{spider}")
        result = scrapy_crawl(spider, settings=settings_for(sites, config, data), timeout=180)
        assert result.returncode == 0, result.stderr[-3000:]
        found[spider] = result.stderr
    return found


@pytest.fixture(scope="module")
def under_the_fleet(demo: tuple[DemoSites, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    sites, config = demo
    data = tmp_path_factory.mktemp("fleet")
    argv = [sys.executable, "run_all.py", "--data-dir", str(data), "--once", "--spiders", ",".join(SPIDERS)]
    for key, value in settings_for(sites, config, data).items():
        if key != "HARVEST_DATA_DIR":
            argv += ["-s", f"{key}={value}"]
    result = run_fleet(argv, timeout=240)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    found = {}
    for spider in SPIDERS:
        logs = sorted((data / "logs" / spider).glob("*.log"))
        assert len(logs) == 1, logs
        found[spider] = logs[0].read_text(encoding="utf-8")
    return found


@pytest.fixture(scope="module")
def under_scrapyd(
    demo: tuple[DemoSites, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, str]]:
    require_scrapyd()
    sites, config = demo
    server: Scrapyd = start_scrapyd(tmp_path_factory.mktemp("scrapyd"))
    try:
        deploy(server, clean_copy(tmp_path_factory.mktemp("clone")), "parity")
        data = tmp_path_factory.mktemp("scrapyd-data")
        jobs = {
            spider: server.schedule(
                "harvest", spider, {**settings_for(sites, config, data), "TELNETCONSOLE_ENABLED": "False"}
            )
            for spider in SPIDERS
        }
        server.wait_finished("harvest", list(jobs.values()), timeout=240)
        yield {spider: server.job_log("harvest", job) for spider, job in jobs.items()}
    finally:
        server.stop()


@pytest.mark.parametrize("spider", SPIDERS)
def test_the_fleet_runs_what_scrapy_crawl_runs_plus_its_own(
    spider: str, under_scrapy_crawl: dict[str, str], under_the_fleet: dict[str, str]
) -> None:
    crawl, fleet = components(under_scrapy_crawl[spider]), components(under_the_fleet[spider])
    for kind, listed in crawl.items():
        additions = FLEET_ADDITIONS.get(kind, set())
        assert not additions & set(listed), f"{kind}: a fleet component is on outside the fleet"
        assert [c for c in fleet[kind] if c not in additions] == listed, kind
        assert additions <= set(fleet[kind]), kind


@pytest.mark.parametrize("spider", SPIDERS)
def test_a_scrapyd_job_runs_what_scrapy_crawl_runs(
    spider: str, under_scrapy_crawl: dict[str, str], under_scrapyd: dict[str, str]
) -> None:
    assert components(under_scrapyd[spider]) == components(under_scrapy_crawl[spider])


def test_the_github_api_middleware_is_on_for_the_spiders_that_use_the_api(
    under_scrapy_crawl: dict[str, str], under_the_fleet: dict[str, str]
) -> None:
    for logs in (under_scrapy_crawl, under_the_fleet):
        found = {spider: components(log) for spider, log in logs.items()}
        assert GITHUB_API in found["github_search"]["downloader middlewares"]
        assert GITHUB_API in found["trending"]["downloader middlewares"]
        assert GITHUB_API not in found["blogs"]["downloader middlewares"]
        for spider in SPIDERS:
            assert found[spider]["scheduler"] == ["harvest.crawl.frontier.FrontierScheduler"]


def test_a_normal_run_prints_no_warning(
    under_scrapy_crawl: dict[str, str], under_the_fleet: dict[str, str], under_scrapyd: dict[str, str]
) -> None:
    """Warnings are for what a user should act on; a normal run of each spider has none."""
    for entry, logs in (("scrapy crawl", under_scrapy_crawl), ("run_all.py", under_the_fleet),
                        ("scrapyd", under_scrapyd)):  # fmt: skip
        for spider, log in logs.items():
            warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
            assert warnings == [], f"{entry} {spider}: {warnings}"
