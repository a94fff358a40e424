"""A site whose feed and sitemap are XML bombs, crawled by ``scrapy crawl blogs`` (issue 30).

The feed is a billion-laughs document behind the comment trick (``<!-- <rss> -->`` before the
DOCTYPE), the gzip sitemap declares an external entity on a loopback canary. Each is refused in
one log line and counted; nothing is fetched from the canary; the site's pages are still
collected; no traceback.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from tests import read_jsonl
from tests.servers import Reply, loopback_server
from tests.test_address_guard import crawl

_LAUGHS = '<!ENTITY a0 "ha">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))


def _article(title: str) -> str:
    text = f"<p>{title} is an ordinary article of the configured site, long enough to keep. </p>" * 4
    article = f"<article><h1>{title}</h1>{text}</article>"
    return f"<html><head><title>{title}</title></head><body>{article}</body></html>"


def test_a_bomb_feed_and_sitemap_are_refused_in_one_line_each(tmp_path: Path) -> None:
    with loopback_server() as canary, loopback_server() as server:
        base = server.base_url
        posts = ("first", "second")
        links = "".join(f'<a href="{base}/posts/{p}/">{p}</a>' for p in posts)
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
        for post in posts:
            server.add(f"/posts/{post}/", Reply(body=_article(f"The {post} post")))
        feed = (
            f'<?xml version="1.0"?><!-- <rss> --><!DOCTYPE rss [{_LAUGHS}]><rss version="2.0"><channel>'
            f"<item><title>&a9;</title><link>{base}/posts/bomb/</link></item></channel></rss>"
        )
        server.add("/feed.xml", Reply(body=feed, content_type="application/rss+xml"))
        sitemap = (
            f'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "{canary.base_url}/xxe">]>'
            f"<urlset><url><loc>{base}/posts/&xxe;/</loc></url></urlset>"
        )
        server.add(
            "/sitemap.xml.gz", Reply(body=gzip.compress(sitemap.encode()), content_type="application/gzip")
        )
        site = {
            "name": "bombs",
            "start_urls": [base + "/"],
            "feeds": [base + "/feed.xml"],
            "sitemaps": [base + "/sitemap.xml.gz"],
        }
        result, _, _ = crawl(tmp_path, site)
        fetched = server.paths_requested()
        assert canary.paths_requested() == []
    output = result.stdout + result.stderr
    assert result.returncode == 0, result.stderr[-4000:]
    assert "Traceback" not in output
    assert {"/feed.xml", "/sitemap.xml.gz"} <= set(fetched)
    assert "/posts/bomb/" not in fetched  # nothing of the refused feed was read
    for path in ("/feed.xml", "/sitemap.xml.gz"):
        lines = [line for line in output.splitlines() if f"{base}{path}" in line and "Refused" in line]
        assert len(lines) == 1, lines
        assert "declares XML entities" in lines[0]
    # Counted once each, whichever crawl worker read it.
    assert sum(int(n) for n in re.findall(r"'harvest/blogs/xml_refused': (\d+)", result.stderr)) == 2
    # The site itself was collected (by whichever crawl worker owns each page).
    docs = [d for path in (tmp_path / "data" / "blogs").glob("document*.jsonl") for d in read_jsonl(path)]
    assert sorted(d["url"] for d in docs) == [f"{base}/posts/{p}/" for p in posts]
