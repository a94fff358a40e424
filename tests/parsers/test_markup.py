"""Nothing of an article lost to markup: each repair on the real page that showed the loss.

- Scrapy's "Requests and Responses" page (Sphinx, Debian's python-scrapy-doc): the section
  "Other functions related to requests" is ``<section id="other-functions-related-to-requests">``;
  trafilatura took "related" for a related-posts box and dropped the section and its code.
- A literal backspace (U+0008) in a real post (as an author's source had it): trafilatura raised
  "All strings must be XML compatible" and the whole page was lost.
- A docutils ``toc-backref`` heading (the heading's text is a link back to the table of
  contents): the short section counted as link-dense.
- Hexo's code blocks (held-out set, tests/fixtures/heldout/hexo): the language is a bare class
  of the ``<figure class="highlight go">`` around a line-number table; every block lost it.
- VitePress's code blocks (held-out set): ``<span class="lang">sql</span>`` beside the ``<pre>``
  in ``<div class="language-sql">`` became a stray "sql" line above every block.
"""

from __future__ import annotations

import re

import lxml.html

from harvest.parsers.article import extract_article
from harvest.parsers.markup import (
    MOVED_ID,
    declare_code_languages,
    drop_code_language_labels,
    neutralize_own_names,
    strip_xml_invalid,
    unlink_heading_self_links,
)
from tests.devsites import heldout_page, page_html
from tests.parsers.test_article import SCRAPY_DOCS, docs_page

SPHINX_URL = "https://docs.scrapy.org/en/latest/topics/request-response.html"
SECTION = "Other functions related to requests"


def _sphinx_page() -> str:
    # Debian's python-scrapy-doc (make install-system), read in place.
    return docs_page(SCRAPY_DOCS, "topics/request-response.html").read_text(encoding="utf-8")


def _section_code(html: str) -> int:
    start = html.index('<section id="other-functions-related-to-requests">')
    end = html.index("</section>", start)
    return html.count("<pre", start, end)


def test_section_named_related_is_kept() -> None:
    html = _sphinx_page()
    assert _section_code(html) >= 1
    article = extract_article(html, SPHINX_URL)
    assert article is not None
    assert SECTION in article.markdown
    # Every code block of the page, that section's included.
    assert article.code_blocks == html.count("<pre")
    assert "request_from_dict" in article.markdown


def test_only_the_article_s_own_ids_move() -> None:
    tree = lxml.html.document_fromstring(_sphinx_page())
    before = {el.get("id") for el in tree.iter() if el.get("id")}
    moved = neutralize_own_names(tree)
    assert moved > 0
    assert tree.xpath(f"//section[@{MOVED_ID}='other-functions-related-to-requests']")
    # Ids that are not a heading's own (the theme's navigation, API anchors) stay.
    kept = {el.get("id") for el in tree.iter() if el.get("id")}
    assert "scrapy.http.Request" in kept and kept < before


def test_control_character_does_not_lose_the_page() -> None:
    post = page_html("octopress-1up4developers-github-io", "post")
    html = re.sub(r"(<div class=\"entry-content\">\s*<p>)", "\\1Ctrl-H is \x08 here. ", post, count=1)
    assert "\x08" in html
    article = extract_article(html, "http://1up4dev.org/2014/04/alguns-truques-com-o-repl-do-clojure/")
    assert article is not None
    assert "Ctrl-H is here." in article.markdown  # the character gone, the spaces around it one
    assert strip_xml_invalid("a\x08b\x00c\td\ufffe") == "abc\td"


def test_toc_backref_heading_keeps_its_section() -> None:
    html = _sphinx_page().replace(
        f"<h2>{SECTION}<a", f'<h2><a class="toc-backref" href="#id7" role="doc-backlink">{SECTION}</a><a', 1
    )
    tree = lxml.html.document_fromstring(html)
    assert unlink_heading_self_links(tree, SPHINX_URL) >= 1
    assert not tree.xpath("//a[contains(@class, 'toc-backref')]")
    article = extract_article(html, SPHINX_URL)
    assert article is not None and SECTION in article.markdown
    assert f"[{SECTION}]" not in article.markdown


HEXO_POST = "2023/09/18/hello-world-seven-languages/index.html"
HEXO_URL = "https://hexo.heldout.example/2023/09/18/hello-world-seven-languages/"


def test_code_language_named_by_the_highlighter_wrapper_is_kept() -> None:
    html = heldout_page("hexo", HEXO_POST)
    assert '<figure class="highlight go">' in html
    article = extract_article(html, HEXO_URL)
    assert article is not None
    langs = re.findall(r"^```(\S+)$", article.markdown, re.M)
    assert langs == ["go", "rust", "c", "java", "ruby", "haskell", "sql"]
    # The line-number gutter stays out of the code.
    assert "\n1\n2\n" not in article.markdown


def test_only_wrappers_with_a_highlighter_marker_name_a_language() -> None:
    tree = lxml.html.fromstring(
        "<div><div class='go'><pre>not declared</pre></div>"
        "<div class='highlight python'><pre><code class='language-ruby'>own</code></pre></div>"
        "<div class='hljs foo'><pre>unknown name</pre></div>"
        "<div class='highlight sql'><table><tr><td class='code'><pre>SELECT 1;</pre></td></tr></table></div>"
        "</div>"
    )
    assert declare_code_languages(tree) == 1
    classes = [pre.get("class") for pre in tree.iter("pre")]
    assert classes == [None, None, None, "language-sql"]


VITEPRESS_PAGE = "reference/hello-world-seven-languages.html"
VITEPRESS_URL = "https://vitepress.heldout.example/reference/hello-world-seven-languages.html"


def test_language_label_beside_the_code_is_not_text() -> None:
    html = heldout_page("vitepress", VITEPRESS_PAGE)
    assert '<span class="lang">go</span>' in html
    article = extract_article(html, VITEPRESS_URL)
    assert article is not None
    lines = article.markdown.splitlines()
    # Before: a line "go" (then "rust", "c"...) above each fence.
    for lang in ("go", "rust", "c", "java", "ruby", "haskell", "sql"):
        assert f"```{lang}" in lines
        assert lang not in lines


def test_only_labels_that_repeat_the_declared_language_go() -> None:
    tree = lxml.html.fromstring(
        "<div><div class='language-sql'><span>SQL</span><span>Copy</span><pre>SELECT 1;</pre></div>"
        "<div class='box'><span>sql</span><pre>SELECT 2;</pre></div></div>"
    )
    assert drop_code_language_labels(tree) == 1
    assert [s.text for s in tree.iter("span")] == ["Copy", "sql"]
