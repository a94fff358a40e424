"""Article extraction on real pages: every post of the Octopress blog (checked against its own
Atom feed and URLs), Sphinx pages of the Scrapy docs and MkDocs pages (code blocks stay fenced,
with the language the page gives), and our pages in legacy encodings."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest

from harvest.parsers.article import extract_article, looks_like_article
from harvest.parsers.discovery import parse_feed
from tests import OWN_FIXTURES, shared_fixture, skip_or_fail

OCTO = ("blogs", "octopress-1up4developers-github-io", "site")
BASE = "http://1up4dev.org/"
SCRAPY_DOCS = Path("/usr/share/doc/python-scrapy-doc/html")
MKDOCS = Path("/usr/share/doc/mkdocs/html")
FENCE_RE = re.compile(r"^(`{3,})([^\n`]*)\n(.*?)\n\1$", re.M | re.S)


def fences(markdown: str) -> list[tuple[str, str]]:
    """(language, code) of every fenced block."""
    return [(m.group(2), m.group(3)) for m in FENCE_RE.finditer(markdown)]


def octo_posts() -> list[tuple[str, Path]]:
    site = shared_fixture(*OCTO)
    return [
        (BASE + p.parent.relative_to(site).as_posix() + "/", p)
        for p in sorted(site.glob("20[0-9][0-9]/[0-9][0-9]/*/index.html"))
    ]


def docs_page(root: Path, rel: str) -> Path:
    path = root / rel
    if not path.exists():
        skip_or_fail(f"{path} not found (apt-get install mkdocs-doc python-scrapy-doc)")
    return path


def test_every_octopress_post_extracts_with_title_and_date() -> None:
    posts = octo_posts()
    assert len(posts) == 109  # SOURCE.md
    feed = {e.url: e for e in parse_feed(shared_fixture(*OCTO, "atom.xml").read_bytes(), BASE)}
    checked_against_feed = 0
    for url, path in posts:
        article = extract_article(path.read_text(encoding="utf-8"), url)
        assert article is not None, url
        assert len(article.markdown) > 100, url
        # Octopress permalinks carry year and month; the page's <time pubdate> gives the day.
        year, month = re.search(r"/(\d{4})/(\d{2})/", url).groups()  # type: ignore[union-attr]
        assert article.published is not None and article.published.startswith(f"{year}-{month}-"), url
        assert article.canonical_url == url
        assert article.title
        heading = lxml.html.fromstring(path.read_bytes()).findtext(".//h1[@class='entry-title']")
        # The theme title-cases the <h1>; the stored title keeps the author's casing.
        assert article.title.casefold() == heading.strip().casefold(), url
        if url in feed:
            entry = feed[url]
            assert article.title == entry.title
            assert article.published == entry.published[:10]  # type: ignore[index]
            checked_against_feed += 1
    assert checked_against_feed == 20


def test_octopress_post_metadata_and_code() -> None:
    url = BASE + "2014/04/alguns-truques-com-o-repl-do-clojure/"
    html = shared_fixture(*OCTO, "2014", "04", "alguns-truques-com-o-repl-do-clojure", "index.html")
    article = extract_article(html.read_text(encoding="utf-8"), url)
    assert article is not None
    assert article.title == "Alguns truques com o REPL do Clojure"
    assert article.author == "Plínio Balduino"
    assert article.published == "2014-04-25"
    assert article.language == "en"  # what the page declares (<html lang="en">), not a guess
    blocks = fences(article.markdown)
    assert len(blocks) == 8 == article.code_blocks
    assert all(lang == "clojure" for lang, _ in blocks)
    first = blocks[0][1]
    assert first.startswith('(find-doc "socket")\n; -------------------------')
    # The line-number gutter is not part of the code, and no table is left behind.
    assert not re.search(r"^\d+$", first, re.M)
    assert "|  |" not in article.markdown
    assert "Disqus" not in article.markdown and "Tweet" not in article.markdown


def test_sphinx_page_keeps_every_code_block_with_its_language() -> None:
    page = docs_page(SCRAPY_DOCS, "topics/settings.html")
    html = page.read_text(encoding="utf-8")
    article = extract_article(html, "https://docs.scrapy.org/en/latest/topics/settings.html")
    assert article is not None
    assert article.title == "Settings"
    blocks = fences(article.markdown)
    assert len(blocks) == html.count("<pre>") == 24
    languages = [lang for lang, _ in blocks]
    # Sphinx writes the language on a wrapper (div.highlight-python); "default" is Python.
    assert languages.count("python") >= 15 and set(languages) <= {"python", "sh", "text", ""}
    assert ("sh", "scrapy crawl myspider -s LOG_FILE=scrapy.log") in blocks
    spider = next(code for lang, code in blocks if "custom_settings = {" in code)
    assert "    custom_settings = {\n        'SOME_SETTING': 'some value',\n    }" in spider
    # Sphinx's pilcrow header links are gone.
    assert "¶" not in article.markdown and "](#" not in article.markdown
    assert "\n## Designating the settings\n" in article.markdown


def test_sphinx_docs_code_retention_across_the_whole_site() -> None:
    root = docs_page(SCRAPY_DOCS, "index.html").parent
    pages = [p for p in root.rglob("*.html") if "_modules" not in p.parts]
    total = kept = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        n = len(re.findall(r"<div class=\"[^\"]*highlight-[a-z]", html))
        article = extract_article(
            html, "https://docs.scrapy.org/en/latest/" + page.relative_to(root).as_posix()
        )
        total += n
        kept += len(fences(article.markdown)) if article else 0
    # trafilatura drops a few whole sections it judges boilerplate; the code inside goes with them.
    assert total > 400 and kept / total >= 0.95, (kept, total)


def test_mkdocs_page_one_line_blocks_stay_fenced() -> None:
    page = docs_page(MKDOCS, "user-guide/configuration.html")
    article = extract_article(
        page.read_text(encoding="utf-8"), "https://www.mkdocs.org/user-guide/configuration.html"
    )
    assert article is not None
    assert article.title == "Configuration"
    assert article.canonical_url == "https://www.mkdocs.org/user-guide/configuration.html"
    blocks = fences(article.markdown)
    assert len(blocks) == 44
    # trafilatura alone turns this one-line <pre> into inline code; here it stays a yaml block.
    assert ("yaml", "site_name: Marshmallow Generator") in blocks
    assert {lang for lang, _ in blocks} >= {"yaml", "python", "text"}
    assert "\n### site\\_url\n" in article.markdown or "\n### site_url\n" in article.markdown


@pytest.mark.parametrize(
    ("name", "encoding", "title", "phrase"),
    [
        ("latin1.html", "iso-8859-1", "Crème brûlée et façades naïves", "les accents (é, è, à, ç, ô, ï, û)"),
        ("gbk.html", "gbk", "中文编码测试：网页抓取", "爬虫必须根据页面声明的字符集正确解码"),
        ("shift_jis.html", "shift_jis", "文字コードのテスト記事", "シフトJISで保存されています"),
    ],
)
def test_legacy_encoding_pages(name: str, encoding: str, title: str, phrase: str) -> None:
    html = (OWN_FIXTURES / "blogs" / name).read_bytes().decode(encoding)
    article = extract_article(html, f"https://example.org/posts/{name}")
    assert article is not None
    assert article.title == title
    assert phrase in article.markdown


def test_page_without_content() -> None:
    assert extract_article("", "https://example.org/") is None
    assert (
        extract_article("<html><body><nav><a href='/'>Home</a></nav></body></html>", "https://example.org/x")
        is None
    )


def test_looks_like_article() -> None:
    assert looks_like_article('<head><meta property="og:type" content="article"></head>')
    assert looks_like_article("<head><meta content='article' property='og:type'></head>")
    assert looks_like_article('<script type="application/ld+json">{"@type": "BlogPosting"}</script>')
    assert looks_like_article('<meta property="article:published_time" content="2024-01-01T00:00:00Z">')
    assert not looks_like_article('<head><meta property="og:type" content="website"></head>')
    html = shared_fixture(*OCTO, "index.html").read_text(encoding="utf-8")
    assert not looks_like_article(html)
