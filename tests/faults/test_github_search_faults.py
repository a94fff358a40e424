"""``scrapy crawl github_search`` through a fault-injecting proxy in front of the GitHub emulator.

Two READMEs fail for good (500 on every try, a connection reset mid-body). Every search page
and one README come back labelled ``Content-Encoding: gzip`` on their plain JSON: they must be
used as they are. The crawl must finish, store every repository and every other README (the
mislabelled one with its exact text), and count and log each failed README once with its URL
(a README that fails is not "unchanged").
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests import read_jsonl, scrapy_crawl
from tests.faultserver import FaultServer
from tests.github_emulator import Limits, github_emulator

TOKEN = "ghp_FaultProxyToken000000000000000000001"
QUERY = "topic:web-scraping created:>=2025-10-01"
RETRY_TIMES = 1
KINDS = ["/f/burst/a/50", "/f/reset/b"]


class _MislabellingProxy(FaultServer):
    """FaultServer's forwarding, adding ``Content-Encoding: gzip`` to the plain answers of
    the paths starting with ``mislabel``."""

    def __init__(self, *, mislabel: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mislabel = mislabel

    def _forward(self, h: BaseHTTPRequestHandler) -> None:
        if not h.path.startswith(self.mislabel):
            return super()._forward(h)
        send_header = h.send_header

        def with_label(keyword: str, value: str) -> None:
            send_header(keyword, value)
            if keyword.lower() == "content-length":
                send_header("Content-Encoding", "gzip")

        # For this answer only: the handler serves the next request of a keep-alive connection.
        h.send_header = with_label  # type: ignore[method-assign]
        try:
            super()._forward(h)
        finally:
            del h.send_header
        return None


@dataclass
class Run:
    result: subprocess.CompletedProcess[str]
    out: Path
    proxy: FaultServer
    repos: list[str]
    with_readme: list[str]
    broken: dict[str, str]  # README path -> the fault it gets
    mislabelled: str  # the repository whose README answer is labelled gzip
    readme_text: str  # its README, as the emulator holds it


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    tmp = tmp_path_factory.mktemp("github-search-faults")
    with github_emulator(tokens={TOKEN}, limits=Limits(search_limit=30, search_window=2.0)) as emulator:
        matching = emulator.matching(QUERY)
        assert 20 <= len(matching) <= 100  # one page of results
        with_readme = sorted(r.full_name for r in matching if r.readme is not None)
        broken = {f"/repos/{name}/readme": kind for name, kind in zip(with_readme, KINDS, strict=False)}
        mislabelled = with_readme[len(KINDS)]
        readme_text = next(r.readme for r in matching if r.full_name == mislabelled)
        mislabel = ("/search/repositories", f"/repos/{mislabelled}/readme")
        with _MislabellingProxy(mislabel=mislabel, faults=broken, upstream=emulator.base_url) as proxy:
            result = scrapy_crawl(
                "github_search",
                settings={
                    "GITHUB_API_URL": proxy.base_url,
                    "HARVEST_DATA_DIR": tmp / "data",
                    "HARVEST_GITHUB_RESET_MARGIN": 0.2,
                    "HARVEST_GITHUB_BACKOFF_BASE": 0.5,
                    "RETRY_TIMES": RETRY_TIMES,
                    "DOWNLOAD_TIMEOUT": 5,
                    "CLOSESPIDER_TIMEOUT": 60,
                },
                args={"query": QUERY},
                env={"GITHUB_TOKEN": TOKEN},
                timeout=90,
            )
            (tmp / "crawl.log").write_text(result.stderr, encoding="utf-8")
            yield Run(
                result,
                tmp / "data" / "github_search",
                proxy,
                sorted(r.full_name for r in matching),
                with_readme,
                broken,
                mislabelled,
                readme_text or "",
            )


def test_everything_else_is_collected(run: Run) -> None:
    assert run.result.returncode == 0, run.result.stderr[-3000:]
    assert "'finish_reason': 'finished'" in run.result.stderr
    assert "Traceback" not in run.result.stderr, run.result.stderr[-4000:]
    assert sorted(r["repo"] for r in read_jsonl(run.out / "repo.jsonl")) == run.repos
    failed = {path.split("/")[2] + "/" + path.split("/")[3] for path in run.broken}
    docs = sorted(d["repo"] for d in read_jsonl(run.out / "document.jsonl"))
    assert docs == sorted(set(run.with_readme) - failed)
    doc = next(d for d in read_jsonl(run.out / "document.jsonl") if d["repo"] == run.mislabelled)
    assert Path(doc["path"]).read_text(encoding="utf-8").endswith(run.readme_text)


def test_mislabelled_api_answers_are_counted_and_logged_once(run: Run) -> None:
    searches = sum(n for path, n in run.proxy.hits.items() if path.startswith("/search/repositories"))
    assert searches >= 1
    stat = re.search(r"'harvest/compression/mislabelled': (\d+)", run.result.stderr)
    assert stat is not None and int(stat.group(1)) == searches + 1
    lines = [
        line
        for line in run.result.stderr.splitlines()
        if "[harvest.middlewares.compression]" in line and run.proxy.base_url in line
    ]
    assert len(lines) == 1 and "] INFO: " in lines[0], lines


def test_each_failed_readme_is_counted_and_logged_once(run: Run) -> None:
    stat = re.search(r"'harvest/github_search/readme_failed': (\d+)", run.result.stderr)
    assert stat is not None and int(stat.group(1)) == len(run.broken)
    for path, kind in run.broken.items():
        url = run.proxy.url(path)
        lines = [
            line
            for line in run.result.stderr.splitlines()
            if re.search(r"\] (WARNING|ERROR|CRITICAL): ", line)
            and url in line
            and "Got data loss" not in line
        ]
        assert len(lines) == 1, (kind, lines)
        retried = kind.startswith(("/f/burst", "/f/reset"))
        assert run.proxy.count(path) == (RETRY_TIMES + 1 if retried else 1), kind
