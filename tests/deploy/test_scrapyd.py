"""harvest deployed with the real ``scrapyd-deploy`` to a real scrapyd, and run through its API.

End to end, as the README's deployment section does it: a scrapyd with basic auth on 127.0.0.1,
``scrapyd-deploy`` of a clean copy of the working tree, ``schedule.json`` with ``setting=``
overrides and spider arguments, ``listjobs.json`` polled until the job finished, then the items
the job wrote to the data folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from harvest.parsers.trending import parse_trending_repos
from tests import read_jsonl, shared_fixture
from tests.deploy.scrapyd import Scrapyd, clean_copy, deploy, require_scrapyd, start_scrapyd
from tests.github_emulator import Limits, github_emulator
from tests.scale.blog_site import BlogSite, octopress_root, post_paths
from tests.servers import LoggedRequest, LoopbackServer, Reply

pytestmark = pytest.mark.timeout(240)

#: Settings every scheduled job gets: loopback endpoints, no politeness delays, no local servers.
FAST = {
    "AUTOTHROTTLE_ENABLED": "False",
    "TELNETCONSOLE_ENABLED": "False",
    "REMOTE_CONTROL_ENABLED": "False",
    "LOG_LEVEL": "INFO",
}


@pytest.fixture(scope="module")
def scrapyd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scrapyd]:
    require_scrapyd()
    server = start_scrapyd(tmp_path_factory.mktemp("scrapyd"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def deployed(scrapyd: Scrapyd, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """harvest deployed from a clean copy of the working tree (as a fresh clone holds it)."""
    source = clean_copy(tmp_path_factory.mktemp("clone"))
    return deploy(scrapyd, source, "r1")


def trending_site(server: LoopbackServer) -> set[str]:
    """Serve the 2026 daily Trending page and a README per repository; the repos listed."""
    page = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")
    server.add_file("/trending", page)
    repos = {row.repo for row in parse_trending_repos(page.read_text(encoding="utf-8"), server.base_url)}
    assert repos and None not in repos

    def readme(request: LoggedRequest) -> Reply:
        match = re.fullmatch(r"/([^/]+)/([^/]+)/HEAD/README\.md", request.path)
        if not match:
            return Reply(404, "not found", content_type="text/plain")
        repo = f"{match[1]}/{match[2]}"
        return Reply(
            body=f"# {repo}\n\nThe README of {repo}, served on loopback.\n",
            content_type="text/plain; charset=utf-8",
        )

    for repo in repos:
        server.add(f"/{repo}/HEAD/README.md", readme)
    return {r for r in repos if r}


def finished_cleanly(scrapyd: Scrapyd, job: str) -> str:
    log = scrapyd.job_log("harvest", job)
    assert "'finish_reason': 'finished'" in log, log[-4000:]
    out = (scrapyd.root / "scrapyd.out").read_text(errors="replace")
    assert not re.search(rf"Process died.*{job}", out), out[-3000:]
    return log


def test_api_refuses_requests_without_the_password(scrapyd: Scrapyd) -> None:
    assert requests.get(f"{scrapyd.url}/daemonstatus.json", timeout=10).status_code == 401
    wrong = requests.get(f"{scrapyd.url}/daemonstatus.json", auth=("harvest", "wrong"), timeout=10)
    assert wrong.status_code == 401


def test_deploy_uploads_every_spider(scrapyd: Scrapyd, deployed: dict[str, object]) -> None:
    assert deployed["project"] == "harvest"
    listed = scrapyd.get("listspiders.json", project="harvest")["spiders"]
    assert {"trending", "github_search", "blogs"} <= set(listed)
    assert deployed["spiders"] == len(listed)
    assert scrapyd.get("listversions.json", project="harvest")["versions"] == ["r1"]


def test_the_three_spiders_run_as_scrapyd_jobs(
    scrapyd: Scrapyd, deployed: dict[str, object], server: LoopbackServer, tmp_path: Path
) -> None:
    """schedule.json with setting= overrides, spider arguments and a config folder on the host."""
    repos = trending_site(server)
    blog = BlogSite(octopress_root()).start()
    limits = Limits(search_window=2.0)
    query = "topic:web-scraping created:>=2025-10-01"
    try:
        with github_emulator(limits=limits) as api:
            matching = {r.full_name for r in api.matching(query)}
            assert matching
            config_dir = tmp_path / "host-config"
            config_dir.mkdir()
            (config_dir / "trending.yaml").write_text("periods: [daily]\nreadmes: true\n", encoding="utf-8")
            (config_dir / "blogs.yaml").write_text(
                f"sites:\n  - name: octopress\n    start_urls: ['{blog.base_url}/']\n", encoding="utf-8"
            )
            data_dir = tmp_path / "data"
            common = {**FAST, "HARVEST_DATA_DIR": str(data_dir), "HARVEST_CONFIG_DIR": str(config_dir)}
            jobs = [
                # A spider argument overrides the host's YAML for this run only.
                scrapyd.schedule(
                    "harvest",
                    "trending",
                    {
                        **common,
                        "GITHUB_WEB_URL": server.base_url,
                        "GITHUB_RAW_URL": server.base_url,
                    },
                    {"developers": "false"},
                ),
                scrapyd.schedule(
                    "harvest",
                    "github_search",
                    {**common, "GITHUB_API_URL": api.base_url},
                    {"query": query, "readmes": "false"},
                ),
                scrapyd.schedule("harvest", "blogs", common),
            ]
            scrapyd.wait_finished("harvest", jobs, timeout=150)
            for job in jobs:
                finished_cleanly(scrapyd, job)
            assert api.violations == []
    finally:
        blog.stop()

    observed = read_jsonl(data_dir / "trending" / "trending_repo.jsonl")
    assert {row["repo"] for row in observed} == repos
    assert sorted(row["rank"] for row in observed) == list(range(1, len(repos) + 1))
    documents = read_jsonl(data_dir / "trending" / "document.jsonl")
    assert {doc["repo"] for doc in documents} == repos
    for doc in documents:
        assert f"The README of {doc['repo']}" in Path(doc["path"]).read_text(encoding="utf-8")
    # -a developers=false reached the spider: no developers page was asked for.
    assert not [p for p in server.paths_requested() if p.startswith("/trending/developers")]

    found = read_jsonl(data_dir / "github_search" / "repo.jsonl")
    assert sorted(r["repo"] for r in found) == sorted(matching)
    assert all(r["query"] == query for r in found)

    posts = post_paths(octopress_root())
    articles = read_jsonl(data_dir / "blogs" / "document.jsonl")
    assert {d["url"].removeprefix(blog.base_url).rstrip("/") + "/" for d in articles} == posts
    assert len(articles) == len(posts)
    assert all(Path(d["path"]).is_file() for d in articles)


def test_trending_job_uses_the_configs_packaged_in_the_egg(
    scrapyd: Scrapyd, server: LoopbackServer, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No HARVEST_CONFIG_DIR on the host: the job reads spiders_config/ as it was deployed."""
    source = clean_copy(tmp_path_factory.mktemp("custom-clone"))
    # What a user does before deploying: edit the YAML (here: no developers pages, 1 period).
    (source / "spiders_config" / "trending.yaml").write_text(
        "periods: [weekly]\ndevelopers: false\nreadmes: false\n", encoding="utf-8"
    )
    deploy(scrapyd, source, "custom1", project="harvest_custom")
    page = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")
    server.add_file("/trending", page)
    data_dir = tmp_path_factory.mktemp("custom-data")
    job = scrapyd.schedule(
        "harvest_custom",
        "trending",
        {
            **FAST,
            "GITHUB_WEB_URL": server.base_url,
            "GITHUB_RAW_URL": server.base_url,
            "HARVEST_DATA_DIR": str(data_dir),
        },
    )
    scrapyd.wait_finished("harvest_custom", [job], timeout=120)
    log = scrapyd.job_log("harvest_custom", job)
    assert not (scrapyd.root / "spiders_config").exists()
    assert "packaged with harvest" in log, log[-4000:]
    requested = server.paths_requested()
    # The spider's own defaults would ask for ?since=daily, developers pages and READMEs.
    assert [p for p in requested if p.startswith("/trending")] == ["/trending?since=weekly"]
    assert not [p for p in requested if "/HEAD/" in p]
    observed = read_jsonl(data_dir / "trending" / "trending_repo.jsonl")
    assert observed and all(row["since"] == "weekly" for row in observed)


def test_trending_history_runs_as_a_scrapyd_job(
    scrapyd: Scrapyd, deployed: dict[str, object], tmp_path: Path
) -> None:
    """The archive spider as a job: spider arguments for the window, settings for the archive."""
    from tests.archive_emulator import ArchiveEmulator

    page = shared_fixture(
        "trending", "go-trending", "2019-05-11_7f9d151", "testdata", "github.com_trending.html"
    )
    with ArchiveEmulator() as archive:
        archive.capture("20190511093000", "https://github.com/trending", page.read_bytes())
        archive.capture("20200101000000", "https://github.com/trending", page.read_bytes())
        data_dir = tmp_path / "data"
        job = scrapyd.schedule(
            "harvest",
            "trending_history",
            {
                **FAST,
                "HARVEST_DATA_DIR": str(data_dir),
                "HARVEST_ARCHIVE_CDX_URL": f"{archive.base_url}/cdx/search/cdx",
                "HARVEST_ARCHIVE_WEB_URL": f"{archive.base_url}/web",
                "HARVEST_ARCHIVE_CDX_PER_MINUTE": "6000",
                "HARVEST_ARCHIVE_WEB_PER_SECOND": "100",
            },
            {"from": "2019-05-01", "to": "2019-05-31", "developers": "false"},
        )
        scrapyd.wait_finished("harvest", [job], timeout=120)
        finished_cleanly(scrapyd, job)
        assert archive.playbacks() == [("20190511093000", "https://github.com/trending")]
    observed = read_jsonl(data_dir / "trending_history" / "trending_repo.jsonl")
    assert len(observed) == 25
    assert {row["observed_at"] for row in observed} == {"2019-05-11T09:30:00Z"}
    assert all(row["archived"] is True for row in observed)
