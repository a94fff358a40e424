"""``scrapy crawl blogs`` beside sites whose robots.txt cannot be read: one line each, said in the data.

Three sites on loopback in one crawl: one whose robots.txt connection is reset mid-answer, one
whose robots.txt answers 503 on every try, and a control whose robots.txt is fine. Scrapy's
policy stands (the pages of a site with an unreadable robots.txt are still fetched), but the
user reads one WARNING line per such site naming its robots.txt, no ERROR and no traceback, and
each document says ``rights.robots_txt: "unreadable"`` instead of claiming robots.txt allowed it.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

from tests import read_jsonl, scrapy_crawl
from tests.faultserver import FaultServer

PAGES = ["/f/good/p1", "/f/good/p2"]
#: A page only the fine site's sitemap lists, which only its robots.txt names.
SITEMAP_ONLY = "/f/good/from-sitemap"


SITEMAP = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<url><loc>" + SITEMAP_ONLY.encode() + b"</loc></url></urlset>"
)


@dataclass
class Crawl:
    result: subprocess.CompletedProcess[str]
    docs: list[dict[str, Any]]
    servers: dict[str, FaultServer]

    def docs_of(self, name: str) -> list[dict[str, Any]]:
        base = self.servers[name].base_url
        return [doc for doc in self.docs if doc["url"].startswith(base)]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawl]:
    tmp = tmp_path_factory.mktemp("robots")
    with ExitStack() as stack:
        servers = {
            # A distinct page name per site: the same text twice would be one document.
            name: stack.enter_context(
                FaultServer(
                    index_links=[f"{page}-{name}" for page in PAGES],
                    faults={"/robots.txt": fault} if fault else None,
                    sitemaps=[] if fault else ["/f/sitemap.xml"],
                    pages={} if fault else {"/f/sitemap.xml": (SITEMAP, "application/xml")},
                )
            )
            for name, fault in (("reset", "/f/reset/robots"), ("busy", "/f/burst/robots/99"), ("fine", None))
        }
        sites = [
            {"name": name, "start_urls": [server.url("/")], "article_patterns": ["/f/good/"]}
            for name, server in servers.items()
        ]
        config = tmp / "config"
        config.mkdir()
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": sites}), encoding="utf-8")
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config,
                "HARVEST_DATA_DIR": tmp / "data",
                "RETRY_TIMES": 1,
                "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
            },
            timeout=180,
        )
        (tmp / "crawl.log").write_text(result.stderr, encoding="utf-8")
        yield Crawl(result, read_jsonl(tmp / "data" / "blogs" / "document.jsonl"), servers)


def test_each_unreadable_robots_txt_is_one_warning_line_without_traceback(crawl: Crawl) -> None:
    stderr = crawl.result.stderr
    assert crawl.result.returncode == 0, stderr[-3000:]
    assert "Traceback" not in stderr, stderr[-5000:]
    assert not re.findall(r"\] ERROR: .*", stderr), re.findall(r"\] ERROR: .*", stderr)
    for name, why in (("reset", "the connection closed before the whole answer"), ("busy", "(HTTP 50")):
        robots = crawl.servers[name].url("/robots.txt")
        lines = [line for line in stderr.splitlines() if "] WARNING: " in line and robots in line]
        assert len(lines) == 1, lines
        assert why in lines[0] and 'rights.robots_txt "unreadable"' in lines[0], lines[0]
    fine = crawl.servers["fine"].url("/robots.txt")
    assert not [line for line in stderr.splitlines() if "WARNING" in line and fine in line]
    assert "'harvest/robots/unreadable': 2" in stderr


def test_pages_of_a_site_with_an_unreadable_robots_txt_are_kept_and_say_so(crawl: Crawl) -> None:
    for name in ("reset", "busy"):
        docs = crawl.docs_of(name)
        assert sorted(doc["url"].rsplit("/", 1)[1] for doc in docs) == [f"p1-{name}", f"p2-{name}"]
        assert {doc["rights"]["robots_txt"] for doc in docs} == {"unreadable"}


def test_a_readable_robots_txt_still_records_allowed(crawl: Crawl) -> None:
    docs = crawl.docs_of("fine")
    assert len(docs) == len(PAGES) + 1
    assert {doc["rights"]["robots_txt"] for doc in docs} == {"allowed"}


def test_a_site_is_asked_for_its_robots_txt_once_and_its_sitemap_lines_are_still_read(
    crawl: Crawl,
) -> None:
    # Scrapy's robots.txt middleware and the blogs spider (for its Sitemap: lines) each fetched
    # it: the spider now gets the middleware's answer.
    fine = crawl.servers["fine"]
    assert [path for _, path in fine.log].count("/robots.txt") == 1, fine.log
    assert SITEMAP_ONLY in {doc["url"].removeprefix(fine.base_url) for doc in crawl.docs_of("fine")}
    assert "'harvest/robots/shared': 1" in crawl.result.stderr
