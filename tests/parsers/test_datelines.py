"""A post's date under its title, and dates that are only mentions, on the real pages that needed them.

The held-out sites declare no date in their markup where these themes print it as text
(Gatsby's blog starter: "May 2, 2024" under the ``<h1>``; vuepress-theme-reco: "5/2/2024",
month first as ``en-US`` writes it), and their docs pages declare none at all: htmldate's
fast mode then took the first bare ISO date of the text, a sentence's ("Updated on
2024-06-01 with the memory figures") or a code sample's.
"""

from __future__ import annotations

import pytest

from harvest.parsers.article import _parse, extract_article
from harvest.parsers.datelines import dateline, mentioned_only, shown_date
from harvest.parsers.pagekind import classify_page, parse_html
from tests import eval_pages
from tests.devsites import heldout_page


def test_a_date_in_a_sentence_is_not_the_date_the_title_shows() -> None:
    """Gatsby blog starter: the post says it was updated on 2024-06-01; it is dated May 2, 2024."""
    path = "rust-vs-go-field-report/index.html"
    html = heldout_page("gatsby-blog", path)
    tree = _parse(html)
    assert tree is not None
    assert mentioned_only(tree, "2024-06-01", "https://gatsby-blog.heldout.example/rust-vs-go-field-report/")
    found = dateline(tree, "en")
    assert found is not None and found[1] == "2024-05-02"
    article = extract_article(html, "https://gatsby-blog.heldout.example/rust-vs-go-field-report/")
    assert article is not None
    assert article.published == "2024-05-02"


@pytest.mark.parametrize(
    ("path", "date"),
    [
        ("blogs/programming/python-generators-tour.html", "2023-01-15"),
        ("blogs/programming/rust-vs-go-field-report.html", "2024-05-02"),  # 5/2/2024: en-US
        ("blogs/programming/regulyarnye-vyrazheniya.html", "2023-10-05"),
    ],
)
def test_the_date_a_theme_prints_under_the_title(path: str, date: str) -> None:
    """vuepress-theme-reco: ``<i class="iconfont reco-date"><span>1/15/2023</span></i>``, no markup date."""
    article = extract_article(
        heldout_page("vuepress-reco", path), f"https://vuepress-reco.heldout.example/{path}"
    )
    assert article is not None
    assert article.published == date


@pytest.mark.parametrize(
    "path", ["reference/regulyarnye-vyrazheniya.html", "appendix/rust-vs-go-field-report.html"]
)
def test_a_docs_page_declaring_no_date_has_none(path: str) -> None:
    """Rspress: a code sample's date (``"Релиз вышел 2023-10-05."``) and a sentence's were stored."""
    url = f"https://rspress.heldout.example/{path.removesuffix('.html')}"
    article = extract_article(heldout_page("rspress", path), url)
    assert article is not None
    assert article.published is None


def test_a_dateline_in_a_short_paragraph_under_the_title() -> None:
    """trafilatura's evaluation set (tuning side): ``<h1>…</h1><p><em>10.11.2021</em></p>``."""
    url, html = next((u, h) for f, u, h in eval_pages() if f == "bundespolizei.de-Belarus.html")
    article = extract_article(html, url)
    assert article is not None
    assert article.published == "2021-11-10"


@pytest.mark.parametrize(
    ("text", "language", "date"),
    [
        ("5/2/2024", "en-US", "2024-05-02"),
        ("5/2/2024", "de", "2024-02-05"),
        ("5/2/2024", None, None),  # either, and no language to say which
        ("1/15/2023", None, "2023-01-15"),  # no 15th month
        ("Posted on January 15, 2023", None, "2023-01-15"),
        ("Updated January 15, 2023", None, None),
        ("2023年1月15日", "zh", "2023-01-15"),
    ],
)
def test_a_shown_date_is_read_in_the_page_language_order(
    text: str, language: str | None, date: str | None
) -> None:
    assert shown_date(text, language) == date


@pytest.mark.parametrize(
    ("folder", "path", "first"),
    [
        # Author, date and tags beside icon-font <i>s, in a <div> under the title: stored as
        # "*Ana Lima*", "*5/30/2023*", "*javascript日本語*" before the text.
        (
            "vuepress-reco",
            "blogs/programming/hiddouki-shori-no-kihon.html",
            "# 非同期処理の基本\n\nJavaScript の非同期処理は",
        ),
        # "<p>April 10, 2024</p>" under the title: the one-line post ended with its title and date.
        (
            "gatsby-blog",
            "til-git-switch/index.html",
            "`git switch -` goes back to the branch you were on before.\n",
        ),
    ],
)
def test_the_dateline_is_metadata_not_text(folder: str, path: str, first: str) -> None:
    article = extract_article(heldout_page(folder, path), f"https://{folder}.heldout.example/{path}")
    assert article is not None
    assert article.markdown.startswith(first), article.markdown[:200]
    assert article.published is not None


def test_no_space_between_two_japanese_lines() -> None:
    """vuepress-theme-reco: the source's line break inside a paragraph, between two Japanese
    characters, became a space no browser shows ("きました。 この記事")."""
    path = "blogs/programming/hiddouki-shori-no-kihon.html"
    article = extract_article(
        heldout_page("vuepress-reco", path), f"https://vuepress-reco.heldout.example/{path}"
    )
    assert article is not None
    assert "進化してきました。この記事では" in article.markdown


def test_a_file_s_time_in_script_data_is_no_publication_date() -> None:
    """HonKit (held-out set): ``gitbook.page.hasChanged({... "file": {"mtime": "…"}, "gitbook":
    {"time": "…"}})`` in every page, the source file's and the build's times.

    htmldate's timestamp search reads the page's scripts: every page of the book, which dates
    nothing, was dated the day it was built.
    """
    html = heldout_page("honkit", "guide/install.html")
    tree = _parse(html)
    assert tree is not None
    stamp = html.split('"mtime":"', 1)[1][:10]
    assert mentioned_only(tree, stamp, "https://honkit.heldout.example/guide/install.html")
    article = extract_article(html, "https://honkit.heldout.example/guide/install.html")
    assert article is not None
    assert article.published is None


def test_a_listing_s_dates_in_c_s_asctime_date_its_entries() -> None:
    """ikiwiki (held-out set): its archive shows "Posted <span class="date">Thu May  2 00:00:00
    2024</span>" beside each post's link; the post itself only an edit date, in the same form.

    The posts a feed had not dated when they were stored had no date (5 of 17 in one crawl,
    none in another): the listing's date beside the link is the post's, read in C's asctime.
    """
    kind = classify_page(
        heldout_page("ikiwiki", "posts/index.html"), "https://ikiwiki.heldout.example/posts/"
    )
    assert kind.kind == "listing"
    assert len(kind.entry_dates) == 17
    assert shown_date(kind.entry_dates["/posts/rust-vs-go-field-report/"], None) == "2024-05-02"
    assert shown_date("Thu Jun  1 00:00:00 2023", None) == "2023-06-01"


@pytest.mark.parametrize("path", ["about.html", "guide/install.html"])
def test_a_footer_s_build_stamp_is_no_publication_date(path: str) -> None:
    """Asciidoctor (held-out set): every page ends with ``<div id="footer"><div id="footer-text">Last
    updated 2024-06-15 12:00:00 UTC</div></div>``, the source file's time as the build found it.

    htmldate's last resort took that bare ISO date, and the two pages whose source has no date
    were dated the day the site was built.
    """
    url = f"https://asciidoctor.heldout.example/{path}"
    html = heldout_page("asciidoctor", path)
    tree = _parse(html)
    assert tree is not None
    assert mentioned_only(tree, "2024-06-15", url)
    article = extract_article(html, url)
    assert article is not None
    assert article.published is None


def test_a_post_with_the_footer_s_build_stamp_keeps_its_date() -> None:
    """Asciidoctor: a post's own date (its revision line under the title) stays the post's."""
    path = "guide/python-generators-tour.html"
    article = extract_article(
        heldout_page("asciidoctor", path), f"https://asciidoctor.heldout.example/{path}"
    )
    assert article is not None
    assert article.published == "2023-01-15"


#: Two of Fossil's technotes (held-out set) whose ids hold a "02" after where a port's "2023" goes.
FOSSIL_NOTES = [
    "technote/5e48cfae6f32d261f8d9a568401b2024451bd01d",
    "technote/a16c9a05f7ebc615d9c4a035c2b8728bcb02ca20",
]


@pytest.mark.parametrize("port", [42023, 20230])
@pytest.mark.parametrize("path", FOSSIL_NOTES)
def test_a_port_or_an_id_is_no_date_in_the_url(path: str, port: int) -> None:
    """Fossil's technotes show no date; every page ends with the build's stamp, ``<div
    class="footer">This page was generated in about 0.002s by Fossil 2.21 [3c53b6364e] 2023-02-26
    19:24:24</div>``, which htmldate's last resort takes and the footer rule refuses.

    Served on 127.0.0.1:42023 (the held-out test's loopback server, on a port the system
    picks), the URL held "2023" (the port) and then "02" (in the note's id): that was read as a
    date in the URL, which keeps whatever date htmldate found, and the two notes were dated
    2023-02-26 (crawls on other ports dated them right: a flaky test).
    """
    origin = f"http://127.0.0.1:{port}"
    html = heldout_page("fossil", path).replace("https://fossil.heldout.example", origin)
    url = f"{origin}/{path}"
    tree = _parse(html)
    assert tree is not None
    assert mentioned_only(tree, "2023-02-26", url)
    article = extract_article(html, url)
    assert article is not None
    assert article.published is None


def test_a_year_and_month_in_the_url_path_keep_a_date_the_text_names() -> None:
    """Lektor (held-out set) files a post under ``/blog/2023/10/``; its code sample writes
    "2023-10-05" first, but the URL's year and month say the date is the post's."""
    path = "blog/2023/10/regulyarnye-vyrazheniya/"
    html = heldout_page("lektor", f"{path}index.html")
    tree = _parse(html)
    assert tree is not None
    assert not mentioned_only(tree, "2023-10-05", f"https://lektor.heldout.example/{path}")
    # Served on a loopback port, the path still names them.
    assert not mentioned_only(tree, "2023-10-05", f"http://127.0.0.1:42023/{path}")


@pytest.mark.parametrize(
    ("folder", "path"),
    [
        # <div id="postamble"><p class="date">Published: 2023-10-05</p>
        ("org-publish", "posts/regulyarnye-vyrazheniya.html"),
        # <li id="footer-info-lastmod"> This page was last edited on 5 October 2023, at 09:30.</li>
        ("mediawiki", "wiki/Регулярные_выражения_без_боли"),
    ],
)
def test_a_date_shown_on_its_own_is_no_mention_though_code_writes_it_first(folder: str, path: str) -> None:
    """Org mode's postamble and MediaWiki's footer show the post's date; its code sample
    (``DATE.search("Релиз вышел 2023-10-05.")``) has the same date first in the text.

    The date was refused as a mere mention, and the post had none.
    """
    url = f"https://{folder}.heldout.example/{path}"
    html = heldout_page(folder, path)
    tree = _parse(html)
    assert tree is not None
    assert not mentioned_only(tree, "2023-10-05", url)
    article = extract_article(html, url)
    assert article is not None
    assert article.published == "2023-10-05"


TIDDLYWIKI_TOUR = "static/Generators%20in%20Python%3A%20a%20practical%20tour.html"


def test_the_date_under_a_page_s_h2_title() -> None:
    """TiddlyWiki's static pages (held-out set): no ``<h1>``, the tiddler's title an ``<h2
    class="tc-title">`` and its date under it, ``<div class="tc-subtitle tc-clearfix">15th
    January 2023 at 9:30am</div>``.

    Datelines were looked for after an ``<h1>`` only, and an ordinal day or a time of day was
    no date: no post had a date, and the date was the text's first line.
    """
    url = f"https://tiddlywiki.heldout.example/{TIDDLYWIKI_TOUR}"
    html = heldout_page("tiddlywiki", TIDDLYWIKI_TOUR)
    tree = _parse(html)
    assert tree is not None
    found = dateline(tree, None)
    assert found is not None and found[1] == "2023-01-15"
    article = extract_article(html, url)
    assert article is not None
    assert article.published == "2023-01-15"
    assert "2023" not in article.markdown[:200]
    assert article.markdown.startswith("A generator is a function"), article.markdown[:200]


@pytest.mark.parametrize(
    ("folder", "path"),
    [
        # <h2>Posts by <a href="author/ana-lima.html">Ana Lima</a></h2>, then "2024-05-02 - <a>…"
        ("ablog", "blog/author.html"),
    ],
)
def test_no_dateline_under_an_h2_that_links_elsewhere(folder: str, path: str) -> None:
    """ABlog's author page (a listing): its ``<h2>`` links to the author's page, and the first
    entry's date and link under it were taken for the page's dateline and left out of its text."""
    tree = _parse(heldout_page(folder, path))
    assert tree is not None
    assert dateline(tree, None) is None


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("15th January 2023 at 9:30am", "2023-01-15"),
        ("1st June 2023", "2023-06-01"),
        ("2nd May 2024 at 12:05pm", "2024-05-02"),
        ("3rd February 2023, 09:30", "2023-02-03"),
        ("5 October 2023, at 09:30", "2023-10-05"),
        ("January 15, 2023, 9:30 PM", "2023-01-15"),
        ("15th January 2023 at noon", None),
    ],
)
def test_ordinal_days_and_a_time_of_day(text: str, date: str | None) -> None:
    assert shown_date(text, None) == date


@pytest.mark.parametrize("path", ["module-small-lessons.html", "index.js.html"])
def test_a_time_stamp_written_only_in_code_is_a_mention(path: str) -> None:
    """JSDoc (held-out set): the API pages' example ``parseDate("2024-02-29").toISOString(); //
    => "2024-02-29T00:00:00.000Z"``; htmldate took the time stamp, and the page was dated
    2024-02-29 (the text's first bare date, another example's, was not it)."""
    html = heldout_page("jsdoc", path)
    tree = _parse(html)
    assert tree is not None
    assert mentioned_only(tree, "2024-02-29", f"https://jsdoc.heldout.example/{path}")
    article = extract_article(html, f"https://jsdoc.heldout.example/{path}")
    assert article is not None and article.published is None


def test_a_dateline_may_end_with_its_byline() -> None:
    """nanoc's "Posted on January 15, 2023 by Ana Lima"; a sentence is no dateline for it."""
    assert shown_date("Posted on January 15, 2023 by Ana Lima", "en") == "2023-01-15"
    assert shown_date("15 March 2024 by Jan van der Berg", "en") == "2024-03-15"
    assert shown_date("January 15, 2023 by the river", "en") is None


def test_a_date_written_only_in_rows_of_code_lines_is_a_mention() -> None:
    """Doxygen (held-out set): the post's code is ``<div class="fragment"><div class="line">``
    rows, no ``<pre>``; its ``DATE.search("Релиз вышел 2023-10-05.")`` dated the undated page."""
    tree = parse_html(heldout_page("doxygen", "regulyarnye-vyrazheniya.html"))
    assert tree is not None
    assert mentioned_only(tree, "2023-10-05", "https://doxygen.heldout.example/regulyarnye-vyrazheniya.html")


def test_a_date_shown_as_a_field_after_a_date_mentioned_in_prose() -> None:
    """Javadoc (held-out set): the class comment's first paragraph says "(Updated on 2024-06-01
    with the memory figures.)", the page's notes list below it ``<dt>Since:</dt><dd>2024-05-02
    </dd>``. htmldate took the first bare date, a mention: the post had no date.
    """
    path = "org/example/lessons/appendix/RustVsGoFieldReport.html"
    html = heldout_page("javadoc", path)
    article = extract_article(html, f"https://javadoc.heldout.example/{path}")
    assert article is not None
    assert article.published == "2024-05-02"
    assert "2024-06-01" in article.markdown  # the mention is text, as written


def test_a_label_glued_to_a_date_is_syntax_not_a_field() -> None:
    """Trac's TracLinks page lists link syntax: ``<li>timeline:2008-01-29</li>`` is an example,
    no date of the page (it has none)."""
    path = "wiki/TracLinks?version=1.html"
    article = extract_article(heldout_page("trac", path), f"https://trac.heldout.example/{path}")
    assert article is not None
    assert article.published is None


def test_a_date_line_with_the_post_s_tags_after_the_date() -> None:
    """Urubu (held-out set): ``<p class="text-muted">14 Jul 2023 <a class="label">databases</a>
    <a class="label">benchmarks</a></p>`` under the title, no date in the markup. The line's
    whole text is no date: 12 of 17 posts had none, and the line stayed in the text."""
    path = "blog/comparing-storage-engines.html"
    article = extract_article(heldout_page("urubu", path), f"https://urubu.heldout.example/{path}")
    assert article is not None
    assert article.published == "2023-07-14"
    assert "14 Jul 2023" not in article.markdown
