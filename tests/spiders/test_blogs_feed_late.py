"""A post the sitemap names before the feed does: kept when the feed, read later, names it.

The blogs spider keeps a page that declares nothing of an article (no ``<article>``, no
JSON-LD, no date, a URL no article pattern matches) only when a list hints it: its feed. Which of
the sitemap's request and the feed's comes first depends on timing: on a real site (a Zola
blog's ``/books/<post>/``) the page was fetched from the sitemap, judged for want of the
feed's hint, and lost for the round, while the feed listing it was read a moment later. Here
the feed is held until the page was judged (an event, not a delay: the page's only link was
requested, and the spider follows a page's links before it judges the page), so the page is
always judged first: it must still be stored, once, after the feed names it. (Held only until
the page was served, the feed's answer sometimes overtook the page's under load.)
"""

from __future__ import annotations

import threading
from pathlib import Path

import yaml

from harvest.util.loopback import LoggedRequest, Reply
from tests import read_jsonl, scrapy_crawl
from tests.servers import loopback_server

POST = "/books/field-notes-on-moss"
OTHER = "/about-the-garden"
TEXT = " ".join(
    f"Paragraph {i} of the field notes: the moss on the north wall grew a finger's width since "
    "spring, greener where the gutter drips, and the lichen beside it did not move at all."
    for i in range(12)
)


PHOTOS = "/moss-photos"


def plain_page(title: str, link: str = "") -> str:
    paragraphs = "".join(f"<p>{TEXT}</p>" for _ in range(2))
    return (
        f"<!doctype html><html lang='en'><head><title>{title}</title></head>"
        f"<body><div class='content'><h1>{title}</h1>{paragraphs}{link}</div></body></html>"
    )


def test_a_page_judged_before_the_feed_named_it_is_kept_when_the_feed_comes(tmp_path: Path) -> None:
    judged = threading.Event()
    with loopback_server() as server:
        base = server.base_url

        def photos(request: LoggedRequest) -> Reply:
            judged.set()  # linked from the post only: the post was read
            return Reply(body="<html><body><p>Photos</p></body></html>")

        def feed(request: LoggedRequest) -> Reply:
            judged.wait(60)  # only a hang guard: the post is read long before
            entries = f"<item><title>Field notes on moss</title><link>{base}{POST}</link></item>"
            rss = (
                f"<?xml version='1.0'?><rss version='2.0'><channel><title>t</title>{entries}</channel></rss>"
            )
            return Reply(body=rss, content_type="application/rss+xml")

        server.add(
            "/robots.txt",
            Reply(body=f"User-agent: *\nSitemap: {base}/sitemap.xml\n", content_type="text/plain"),
        )
        urls = "".join(f"<url><loc>{base}{path}</loc></url>" for path in (POST, OTHER))
        sitemap = f"<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{urls}</urlset>"
        server.add("/sitemap.xml", Reply(body=sitemap, content_type="application/xml"))
        feed_link = f"<link rel='alternate' type='application/rss+xml' href='{base}/feed.xml'>"
        home = f"<html><head><title>Garden</title>{feed_link}</head><body><p>Home</p></body></html>"
        server.add("/", Reply(body=home))
        server.add("/feed.xml", feed)
        server.add(POST, Reply(body=plain_page("Field notes on moss", f"<a href='{PHOTOS}'>photos</a>")))
        server.add(PHOTOS, photos)
        server.add(OTHER, Reply(body=plain_page("About the garden")))
        config = tmp_path / "config"
        config.mkdir()
        sites = [{"name": "garden", "start_urls": [f"{base}/"]}]
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": sites}), encoding="utf-8")
        result = scrapy_crawl(
            "blogs",
            settings={"HARVEST_CONFIG_DIR": config, "HARVEST_DATA_DIR": tmp_path / "data"},
            timeout=120,
        )
        paths = [r.path for r in server.requests]
    assert result.returncode == 0, result.stderr[-3000:]
    docs = read_jsonl(tmp_path / "data" / "blogs" / "document.jsonl")
    stored = [doc["url"].removeprefix(base) for doc in docs]
    assert stored == [POST], stored  # the page no list hints is not kept
    assert docs[0]["title"] == "Field notes on moss"
    # Fetched from the sitemap (before the feed was answered), then again for the feed's hint.
    assert paths.count(POST) == 2, paths
    assert paths.count(OTHER) == 1, paths
    assert "'harvest/blogs/asked_again_after_feed': 1" in result.stderr
