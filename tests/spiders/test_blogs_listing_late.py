"""A post judged before the listing that dates it: kept when the listing, read later, dates it.

The blogs spider keeps a page that declares nothing of an article (no ``<article>``, no
JSON-LD, no date, a URL no article pattern matches) only when something hints it: a feed entry,
or a listing that shows a date beside its link (Fossil's timeline dates its technotes, which say
nothing of what they are). A listing's dates are read when the listing is judged, after its
links were followed: a page fetched before that was judged without the date and lost for the
round. On the held-out Fossil site, crawled 32 requests at a time, two or three of its 17
technotes were fetched before ``/timeline?y=e`` was read, every run. Here the archive is held
until the post was judged (an event, not a delay: the post's only link was requested, and the
spider follows a page's links before it judges the page), so the post is always judged first:
it must still be stored, once, with the archive's date, and a second listing dating it later
asks for it no more.
"""

from __future__ import annotations

import threading
from pathlib import Path

import yaml

from harvest.util.loopback import LoggedRequest, Reply
from tests import read_jsonl, scrapy_crawl
from tests.servers import loopback_server

POST = "/books/field-notes-on-moss"
#: Linked from the post only: requested once the post's links were followed.
PHOTOS = "/moss-photos"
ARCHIVE = "/timeline"
TAG = "/topics/moss"
#: Posts that show their date under their title: hinted by themselves, whenever they are read.
DATED = {"/books/lichen-by-the-gate": "2023-05-12", "/books/the-rain-barrel": "2023-04-03"}
TEXT = " ".join(
    f"Paragraph {i} of the field notes: the moss on the north wall grew a finger's width since "
    "spring, greener where the gutter drips, and the lichen beside it did not move at all."
    for i in range(12)
)


def plain_page(title: str, top: str = "") -> str:
    paragraphs = "".join(f"<p>{TEXT}</p>" for _ in range(2))
    return (
        f"<!doctype html><html lang='en'><head><title>{title}</title></head>"
        f"<body><div class='content'><h1>{title}</h1>{top}{paragraphs}</div></body></html>"
    )


def listing(title: str, links: str = "") -> str:
    """A dated list of every post, newest first: ``<time>`` and link, one entry a line."""
    entries = {POST: "2023-06-01", **DATED}
    items = "".join(
        f"<li><time datetime='{day}'>{day}</time> <a href='{path}'>{path.rsplit('/', 1)[1]}</a></li>"
        for path, day in entries.items()
    )
    return (
        f"<!doctype html><html lang='en'><head><title>{title}</title></head>"
        f"<body><div class='content'><h1>{title}</h1><ul>{items}</ul>{links}</div></body></html>"
    )


def test_a_page_judged_before_the_listing_dated_it_is_kept_when_the_listing_comes(tmp_path: Path) -> None:
    judged = threading.Event()
    with loopback_server() as server:
        base = server.base_url

        def photos(request: LoggedRequest) -> Reply:
            judged.set()  # linked from the post only: the post was read
            return Reply(body="<html><body><p>Photos</p></body></html>")

        def archive(request: LoggedRequest) -> Reply:
            judged.wait(60)  # only a hang guard: the post is read long before
            return Reply(body=listing("Archive", f"<p><a href='{TAG}'>moss</a></p>"))

        links = f"<a href='{POST}'>Moss</a> <a href='{ARCHIVE}'>Archive</a>"
        home = f"<html><head><title>Garden</title></head><body>{links}</body></html>"
        server.add("/", Reply(body=home))
        server.add(POST, Reply(body=plain_page("Field notes on moss", f"<a href='{PHOTOS}'>photos</a>")))
        server.add(PHOTOS, photos)
        server.add(ARCHIVE, archive)
        server.add(TAG, Reply(body=listing("Posts tagged moss")))
        for path, day in DATED.items():
            server.add(path, Reply(body=plain_page(path.rsplit("/", 1)[1], f"<p>Posted {day}</p>")))
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
    assert " WARNING" not in result.stderr, result.stderr[-3000:]
    docs = read_jsonl(tmp_path / "data" / "blogs" / "document.jsonl")
    stored = {doc["url"].removeprefix(base): doc for doc in docs}
    assert len(stored) == len(docs), [doc["url"] for doc in docs]  # each page once
    assert sorted(stored) == sorted([POST, *DATED]), sorted(stored)
    assert stored[POST]["title"] == "Field notes on moss"
    assert stored[POST]["published"].startswith("2023-06-01"), stored[POST]["published"]
    # Fetched from the home page (before the archive was answered), then again for its date;
    # the tag page, read after, dates it too and asks for nothing more.
    assert paths.count(POST) == 2, paths
    assert paths.count(TAG) == 1, paths
    assert all(paths.count(path) == 1 for path in DATED), paths
    assert "'harvest/blogs/asked_again_after_listing': 1" in result.stderr
