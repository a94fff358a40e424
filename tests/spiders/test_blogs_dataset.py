"""``scrapy crawl blogs`` and the dataset signals: language, rights and opt-outs, near-duplicates.

A small site on 127.0.0.1 made of real posts of the Octopress fixture blog (Portuguese, its theme
declaring ``lang="en"``), each carrying one opt-out or licence signal, a copy of a post in
another template, the Chinese fixture post, and ``/.well-known/tdmrep.json``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator

from harvest.parsers.neardup import signature, similarity
from tests import OWN_FIXTURES, shared_fixture
from tests.parsers.test_neardup import retemplate
from tests.servers import LoopbackServer, Reply, loopback_server
from tests.spiders.test_blogs import OCTO, OCTO_HOST, assert_finished, crawl

TDMREP = (
    '[{"location": "/2099/03/*", "tdm-reservation": 1, "tdm-policy": "https://rights.example/policy.json"},'
    ' {"location": "/*", "tdm-reservation": 0}]'
)


def _posts() -> list[str]:
    root = shared_fixture(*OCTO)
    posts = sorted(p for p in root.glob("201[2-5]/*/*/index.html") if p.stat().st_size > 20_000)
    return [p.read_text(encoding="utf-8") for p in posts[:8]]


def _with_head(html: str, tag: str) -> str:
    return html.replace("<head>", "<head>" + tag, 1)


def _serve(server: LoopbackServer, pages: dict[str, Reply]) -> None:
    base = server.base_url
    for path, reply in pages.items():
        if isinstance(reply.body, str):
            reply.body = reply.body.replace(OCTO_HOST.decode(), base)
        server.add(path, reply)
    links = "".join(f'<a href="{p}">{p}</a> ' for p in pages if p.startswith("/2099/"))
    server.add("/", Reply(body=f"<html><head><title>Index</title></head><body>{links}</body></html>"))
    server.add("/.well-known/tdmrep.json", Reply(body=TDMREP, content_type="application/json"))


def _site_pages(posts: list[str]) -> dict[str, Reply]:
    chinese = (OWN_FIXTURES / "blogs" / "gbk.html").read_bytes()
    return {
        "/2099/01/original/": Reply(body=posts[0]),
        "/2099/01/mirror/": Reply(body=retemplate(posts[0], "Republicado com permissão do autor.")),
        "/2099/02/meta-noai/": Reply(
            body=_with_head(posts[1], '<meta name="robots" content="noai, noimageai">')
        ),
        "/2099/02/header-noai/": Reply(body=posts[2], headers={"X-Robots-Tag": "harvest: noai"}),
        "/2099/02/header-tdm/": Reply(body=posts[3], headers={"tdm-reservation": "1"}),
        "/2099/02/meta-tdm/": Reply(body=_with_head(posts[4], '<meta name="tdm-reservation" content="1">')),
        "/2099/03/reserved/": Reply(body=posts[5]),
        "/2099/04/licensed/": Reply(
            body=_with_head(
                posts[6], '<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">'
            ),
            headers={"X-Robots-Tag": "noimageai, otherbot: noai"},
        ),
        "/2099/05/chinese/": Reply(body=chinese, content_type="text/html"),
    }


def _body(doc: dict[str, Any]) -> str:
    text = Path(doc["path"]).read_text(encoding="utf-8")
    return text.split("\n---\n", 1)[1].strip()


def _warc_bodies(data: Path) -> dict[str, tuple[bool, bytes]]:
    found = {}
    for path in (data / "blogs" / "warc").glob("*.warc.gz"):
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh):
                if record.rec_type == "response":
                    truncated = record.rec_headers.get_header("WARC-Truncated") == "unspecified"
                    found[record.rec_headers.get_header("WARC-Record-ID")] = (
                        truncated,
                        record.content_stream().read(),
                    )
    return found


def test_language_rights_and_near_duplicates(tmp_path: Path) -> None:
    posts = _posts()
    with loopback_server() as server:
        pages = _site_pages(posts)
        _serve(server, pages)
        site = {"name": "signals", "start_urls": [server.base_url + "/"]}
        result, docs, stats = crawl(tmp_path, [site], timeout=120, settings={"HARVEST_WARC_ENABLED": True})
        assert_finished(result)
        assert " WARNING" not in result.stderr, result.stderr[-3000:]
        assert server.paths_requested().count("/.well-known/tdmrep.json") == 1
        by_path = {re.sub(r"^http://[^/]+", "", d["url"]): d for d in docs}
        assert set(by_path) == set(pages)

        # Language: detected from the text; what the page declared is kept beside it.
        for path, doc in by_path.items():
            if path == "/2099/05/chinese/":
                assert (doc["language"], doc["language_declared"]) == ("zh", "zh-CN")
            elif path != "/2099/01/mirror/":
                assert (doc["language"], doc["language_declared"]) == ("pt", "en"), path
            assert doc["language_score"] > 0.5

        # Rights: each signal where it was given; opted-out documents keep metadata, not text.
        rights = {p: d["rights"] for p, d in by_path.items()}
        assert rights["/2099/02/meta-noai/"]["robots"] == ["noai", "noimageai"]
        assert rights["/2099/02/header-noai/"]["robots"] == ["noai"]
        assert rights["/2099/02/header-tdm/"]["tdm_source"] == "header"
        assert rights["/2099/02/meta-tdm/"]["tdm_source"] == "meta"
        assert rights["/2099/03/reserved/"] | {} == rights["/2099/03/reserved/"]
        assert rights["/2099/03/reserved/"]["tdm_source"] == "tdmrep.json"
        assert rights["/2099/03/reserved/"]["tdm_policy"] == "https://rights.example/policy.json"
        assert rights["/2099/04/licensed/"]["license_url"] == "https://creativecommons.org/licenses/by/4.0/"
        assert rights["/2099/04/licensed/"]["robots"] == ["noimageai"]
        assert rights["/2099/01/original/"]["tdm_reservation"] is False  # tdmrep.json's "/*" rule
        opted_out = {
            "/2099/02/meta-noai/",
            "/2099/02/header-noai/",
            "/2099/02/header-tdm/",
            "/2099/02/meta-tdm/",
            "/2099/03/reserved/",
        }
        for path, doc in by_path.items():
            assert doc["rights"]["robots_txt"] == "allowed"
            assert doc["rights"]["opted_out"] is (path in opted_out), path
            assert doc["text_withheld"] is (path in opted_out), path
            assert (_body(doc) == "") is (path in opted_out), path
            assert doc["title"] and doc["content_hash"]
        assert stats["harvest/rights/withheld"] == len(opted_out)
        # Their archived responses keep the headers, not the page (WARC-Truncated).
        bodies = _warc_bodies(tmp_path / "data")
        for path, doc in by_path.items():
            truncated, body = bodies[doc["warc_record_id"]]
            assert truncated is (path in opted_out), path
            assert (body == b"") is (path in opted_out), path

        # Near-duplicates: one of the two copies of the first post points at the other.
        pair = [by_path["/2099/01/original/"], by_path["/2099/01/mirror/"]]
        flagged = [d for d in pair if d["near_duplicate_of"]]
        assert len(flagged) == 1 and flagged[0]["near_duplicate_of"] in {d["url"] for d in pair}
        assert stats["harvest/dedup/near_duplicate"] == 1
        assert sum(1 for d in docs if d["near_duplicate_of"]) == 1
        first = next(d for d in pair if not d["near_duplicate_of"])

        # A later run finds a third copy through the persisted index (another URL, another line).
        third = retemplate(posts[0], "Texto copiado de outro blog, com uma linha a mais no começo.")
        a, b = signature(_body(first)), signature(_body(flagged[0]))
        assert a is not None and b is not None and similarity(a, b) >= 0.9
        server.add("/2099/06/third-copy/", Reply(body=third.replace(OCTO_HOST.decode(), server.base_url)))
        server.add("/", Reply(body='<html><body><a href="/2099/06/third-copy/">c</a></body></html>'))
        result2, docs2, stats2 = crawl(tmp_path, [site], timeout=120)
        assert_finished(result2)
        new = [d for d in docs2 if d["url"].endswith("/2099/06/third-copy/")]
        assert len(new) == 1 and new[0]["near_duplicate_of"] == first["url"]
        assert stats2["harvest/dedup/near_duplicate"] == 1
