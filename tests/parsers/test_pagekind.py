"""Article or listing, from what the page is: saved pages of seven generators.

The pages are read in place from ../shared/fixtures/blogs (tests.devsites.PAGES).

Each page is classified under its own URL. The listing pages sit where posts sit (Jekyll's
``/2017/03/`` next to ``/2017/brexit/``, Eleventy's ``/posts/authors/larry/``), or hold one or two
entries only (a small year archive, a tag with one post), or declare themselves ``Article``
(Eleventy's starter puts that JSON-LD on every page): the verdict comes from their structure.
"""

from __future__ import annotations

import gzip
from functools import cache

import pytest

from harvest.parsers.article import extract_article
from harvest.parsers.pagekind import classify_page
from tests import OWN_FIXTURES, eval_pages, shared_fixture
from tests.devsites import heldout_page, page_html

CASES = [
    # (folder, file, the page's URL, expected kind)
    ("jekyll-archives-46bit", "post-brexit", "https://46b.it/2017/brexit/", "unknown"),
    ("jekyll-archives-46bit", "year-2014", "https://46b.it/2014/", "listing"),
    ("jekyll-archives-46bit", "month-2017-03", "https://46b.it/2017/03/", "listing"),
    ("jekyll-archives-46bit", "writing", "https://46b.it/writing/", "listing"),
    (
        "eleventy-starbugs-weekly",
        "post-larry-180",
        "https://starbugs-blog.netlify.app/posts/starbugs-weekly/180/larry-180/",
        "article",
    ),
    (
        "eleventy-starbugs-weekly",
        "author-larry",
        "https://starbugs-blog.netlify.app/posts/authors/larry/",
        "listing",
    ),
    ("eleventy-starbugs-weekly", "articles-3", "https://starbugs-blog.netlify.app/articles/3/", "listing"),
    (
        "eleventy-starbugs-weekly",
        "page-list-16",
        "https://starbugs-blog.netlify.app/page-list/16/",
        "listing",
    ),
    ("eleventy-starbugs-weekly", "tag-react", "https://starbugs-blog.netlify.app/tags/react/", "listing"),
    (
        "docusaurus-web-dev-docs",
        "doc-mongodb",
        "https://qr-web-dev.netlify.app/docs/Back%20End/Databases/mongodb",
        "unknown",
    ),
    (
        "docusaurus-web-dev-docs",
        "category-front-end",
        "https://qr-web-dev.netlify.app/docs/category/front-end-web-design",
        "listing",
    ),
    ("docusaurus-web-dev-docs", "blog", "https://qr-web-dev.netlify.app/blog", "listing"),
    (
        "docusaurus-web-dev-docs",
        "blog-tag-docusaurus",
        "https://qr-web-dev.netlify.app/blog/tags/docusaurus",
        "listing",
    ),
    (
        "docusaurus-web-dev-docs",
        "blog-post",
        "https://qr-web-dev.netlify.app/blog/Guide%20to%20using%20Docusaurus%20with%20Material%20UI",
        "article",
    ),
    (
        "hugo-andyibanez-com",
        "post-uimenu",
        "http://localhost:1313/posts/uimenu-improvements-ios14/",
        "article",
    ),
    ("hugo-andyibanez-com", "posts", "http://localhost:1313/posts/", "listing"),
    ("hugo-andyibanez-com", "tag-swift", "http://localhost:1313/tags/swift/", "listing"),
    (
        "octopress-1up4developers-github-io",
        "post",
        "http://1up4dev.org/2014/04/alguns-truques-com-o-repl-do-clojure/",
        "unknown",
    ),
    (
        "octopress-1up4developers-github-io",
        "category-hello",
        "http://1up4dev.org/categories/hello/",
        "listing",
    ),
    ("octopress-1up4developers-github-io", "page-2", "http://1up4dev.org/page/2/", "listing"),
    ("zola-mawadda-ar", "post-fear", "https://mawaddanaser.netlify.app/words/fear/", "unknown"),
    ("zola-mawadda-ar", "section-words", "https://mawaddanaser.netlify.app/words/", "listing"),
    (
        "jekyll-minima-bzoennchen-pages",
        "post-informatics",
        "https://bzoennchen.github.io/Pages/2021/06/08/Informatics-a-love-letter.html",
        "article",
    ),
    ("jekyll-minima-bzoennchen-pages", "posts", "https://bzoennchen.github.io/Pages/posts/", "listing"),
]


@pytest.mark.parametrize(("folder", "name", "url", "kind"), CASES, ids=[f"{c[0]}/{c[1]}" for c in CASES])
def test_page_kind(folder: str, name: str, url: str, kind: str) -> None:
    html = page_html(folder, name)
    page = classify_page(html, url)
    assert page.kind == kind, page


def test_posts_without_declarations_carry_their_date() -> None:
    """Jekyll (46b.it) and Zola posts declare nothing: the date under their title is the hint."""
    for folder, name, url in [
        ("jekyll-archives-46bit", "post-brexit", "https://46b.it/2017/brexit/"),
        ("zola-mawadda-ar", "post-fear", "https://mawaddanaser.netlify.app/words/fear/"),
    ]:
        html = page_html(folder, name)
        assert classify_page(html, url).dated, name


def test_search_form_page_is_not_content() -> None:
    html = (
        "<html><head><title>Search</title></head><body><main><h1>Search</h1>"
        "<form action='/search/'><input type='search' name='q'><button>Go</button></form>"
        "<p>Type a few words.</p></main></body></html>"
    )
    assert classify_page(html, "https://docs.example/search/").kind == "listing"


def test_docs_page_about_search_is_content() -> None:
    """A page whose path ends in /search/ but documents search is not a search page."""
    text = "<p>" + "The search plugin builds an index of every page at build time. " * 12 + "</p>"
    html = f"<html><body><main><h1>Search</h1>{text}<h2>Options</h2>{text}</main></body></html>"
    assert classify_page(html, "https://docs.example/appendix/search/").kind == "unknown"


def test_month_archive_with_one_post_is_a_listing() -> None:
    """Nikola's month archive holding one post (held-out set): a title and one dated link.

    Before: "no signal", and its date at the top made the spider store it as a post (14 month
    pages of the held-out Nikola site were stored). Its posts, short ones too, stay articles.
    """
    html = heldout_page("nikola", "2023/07/index.html")
    page = classify_page(html, "https://nikola.heldout.example/2023/07/")
    assert page.kind == "listing", page
    assert "dated list of 1" in page.reason
    for slug in ("quick-note-release", "comparing-storage-engines"):
        post = heldout_page("nikola", f"posts/{slug}/index.html")
        assert classify_page(post, f"https://nikola.heldout.example/posts/{slug}/").kind == "article"


def test_short_post_with_a_dated_link_is_not_only_a_list() -> None:
    """A short post: a dated list item of its own, and text besides it: not a listing."""
    text = "<p>" + "Shipped version 2.1 of the log viewer today, with the notes on its page. " * 2 + "</p>"
    html = (
        "<html><body><main><h1>Quick note</h1>"
        "<ul><li><time datetime='2023-06-01'>2023-06-01</time> <a href='/tags/news/'>news</a></li></ul>"
        f"{text}</main></body></html>"
    )
    assert classify_page(html, "https://blog.example/posts/quick-note/").kind != "listing"


def test_page_of_full_posts_whose_permalinks_are_elsewhere_is_a_listing() -> None:
    """Nikola's last index page (held-out set) shows one whole post, its permalink elsewhere.

    Before: "no signal" and stored as a post (a copy of /posts/dockerfile-tips/). The post's own
    page, whose ``rel=bookmark`` is itself, stays an article.
    """
    html = heldout_page("nikola", "index-4.html")
    page = classify_page(html, "https://nikola.heldout.example/index-4.html")
    assert page.kind == "listing", page
    assert "permalinks are other pages" in page.reason
    post = heldout_page("nikola", "posts/dockerfile-tips/index.html")
    assert 'rel="bookmark"' in post
    assert classify_page(post, "https://nikola.heldout.example/posts/dockerfile-tips/").kind == "article"


@cache
def _eval_pages() -> list[tuple[str, str, str]]:
    """trafilatura's evaluation pages, read once for this module's tests."""
    return list(eval_pages())


ARTICLES_AMONG_ENTRIES = [
    # (file of trafilatura's evaluation set, tuning side; the structure that made it a listing)
    ("laestrella.com.pa-laboral.html", "5 <article> entries"),
    ("pinup-fashion.de.korsetts.html", "9 headings link to other pages"),
    ("blog.teufel.de.leistung.html", "5 headings link to other pages"),
    ("californiaglobe.com.amazon.html", "4 dated links to other pages"),
    ("dailymail.co.uk.food.html", "links to the site make 62% of its text"),
]


@pytest.mark.parametrize(
    ("name", "entries"), ARTICLES_AMONG_ENTRIES, ids=[c[0] for c in ARTICLES_AMONG_ENTRIES]
)
def test_a_declared_article_among_related_stories_is_an_article(name: str, entries: str) -> None:
    """A news or blog article surrounded by teasers, related stories and "read next" cards.

    Each page declares itself an article (``og:type``, JSON-LD) and its main content holds
    entries of other pages besides its own text. Before: a listing, followed and never stored.
    """
    url, html = next((u, h) for f, u, h in _eval_pages() if f == name)
    page = classify_page(html, url)
    assert page.kind == "article", page
    assert entries in page.reason


UNDECLARED_ARTICLES_AMONG_ENTRIES = [
    # (file of trafilatura's evaluation set, tuning side; the structure after the body)
    ("dw.com.colonial.html", "9 headings link to other pages"),
    ("limespace.de.entloeten.html", "4 <article> entries"),
    ("verbaende.com.2023.html", "3 dated links to other pages"),
    ("dsv.de-synchronschwimmen.html", "links to the site make 59% of its text"),
]


@pytest.mark.parametrize(
    ("name", "entries"),
    UNDECLARED_ARTICLES_AMONG_ENTRIES,
    ids=[c[0] for c in UNDECLARED_ARTICLES_AMONG_ENTRIES],
)
def test_an_article_declaring_nothing_is_its_body_before_the_entries(name: str, entries: str) -> None:
    """The same, declaring nothing: the body comes first, the teasers after it.

    Before: a listing. A listing's entries begin at its top: the development and held-out
    sites' listings hold at most 972 characters of their own before the first entry.
    """
    url, html = next((u, h) for f, u, h in _eval_pages() if f == name)
    page = classify_page(html, url)
    assert page.kind == "article", page
    assert "before its first entry" in page.reason and entries in page.reason


def test_real_article_pages_are_rarely_taken_for_listings() -> None:
    """Over trafilatura's 945 real article pages (news, blogs, shops' magazines, institutions).

    Before: 366 (39%) were listings, each lost to a crawl of its site; 129 after the declared
    articles among entries, 96 after the undeclared ones whose body comes first, the declared
    ones in their one <article> and the cards of asides; most of the rest declare nothing and
    are made of teasers in their main content.
    """
    kinds = [classify_page(html, url).kind for _, url, html in _eval_pages()]
    assert len(kinds) == 945
    assert kinds.count("listing") <= 0.11 * len(kinds), kinds.count("listing")


def test_a_declared_post_in_its_one_article_beside_a_sidebar_of_recent_posts() -> None:
    """Hexo Butterfly (held-out set): the sidebar is a ``<div>`` inside ``<main>``, not an ``<aside>``.

    Its "Recent posts" card is five dated links; with the related posts under the article, every
    post (short, all of them) was a listing and none was stored. The page declares a
    ``BlogPosting`` and its one ``<article>`` holds the post and no entry.
    """
    path = "2023/01/15/python-generators-tour/index.html"
    url = f"https://hexo-butterfly.heldout.example/{path.removesuffix('index.html')}"
    page = classify_page(heldout_page("hexo-butterfly", path), url)
    assert page.kind == "article", page
    assert "its one <article>" in page.reason
    listing = classify_page(
        heldout_page("hexo-butterfly", "page/2/index.html"), "https://hexo-butterfly.heldout.example/page/2/"
    )
    assert listing.kind == "listing", listing


def test_read_more_cards_in_an_aside_are_not_the_pages_entries() -> None:
    """Ghost's Casper (held-out set): three "read more" ``<article>`` cards in an ``<aside>`` after
    every post made four ``<article>`` entries with the post's own: each post was a listing.
    """
    path = "python-generators-tour/index.html"
    page = classify_page(heldout_page("ghost", path), "https://ghost.heldout.example/python-generators-tour/")
    assert page.kind == "article", page
    home = classify_page(heldout_page("ghost", "index.html"), "https://ghost.heldout.example/")
    assert home.kind == "listing", home


def test_a_post_declared_in_microdata_alone() -> None:
    """Gatsby's blog starter (held-out set): ``<article itemscope itemtype="http://schema.org/Article">``.

    No JSON-LD, ``og:type`` website, no ``<time>``; and React writes its blocks with no space
    between them, so the date under the title ("…tour</h1><p>January 15, 2023</p>") was glued to
    the title in the page's text and not read either. The post was "unknown", stored only when a
    feed listed it; the home page, an ``itemtype`` card per post, stays a listing.
    """
    url = "https://gatsby-blog.heldout.example/python-generators-tour/"
    page = classify_page(heldout_page("gatsby-blog", "python-generators-tour/index.html"), url)
    assert page.kind == "article" and page.dated, page
    home = classify_page(heldout_page("gatsby-blog", "index.html"), "https://gatsby-blog.heldout.example/")
    assert home.kind == "listing", home


def test_a_wiki_s_section_edit_links_are_not_entries() -> None:
    """MediaWiki (held-out set): ``<h2>…Pipelines<span class="mw-editsection">[<a href=
    "/w/index.php?…&action=edit&section=2">edit</a>]</span></h2>`` in every section heading.

    Three headings "linked to other pages" made four posts listings: the bracketed control is
    no link of the heading's.
    """
    page = "wiki/Generators_in_Python:_a_practical_tour"
    kind = classify_page(heldout_page("mediawiki", page), f"https://mediawiki.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize("page", ["wiki/Category:Python", "wiki/Category:C"])
def test_a_wiki_category_is_an_index_by_initials(page: str) -> None:
    """MediaWiki: a category page's members under their initials ("G" over "Generators in
    Python"), after a line on the category and a count; one member for Category:C.

    Too few links to be a listing by their share of the text (the page's text is mostly the
    wiki's chrome): 26 category pages were stored as articles. A one-letter heading over a list
    of titles only is an index. (Category:Python's links now make most of its text too, once
    its links into itself and its form controls are not counted as its text.)
    """
    kind = classify_page(heldout_page("mediawiki", page), f"https://mediawiki.heldout.example/{page}")
    assert kind.kind == "listing", kind.reason
    assert "index" in kind.reason or "links to the site" in kind.reason, kind.reason


def test_a_manual_s_navigation_links_are_not_entries() -> None:
    """Texinfo (held-out set): a one-line Japanese page under "Next: <a rel="next">…</a>,
    Previous: <a rel="prev">…</a>, Up: <a rel="up">…</a> [Contents][Index]".

    The header's links outweighed the twelve characters of text: a listing, never stored.
    """
    kind = classify_page(
        heldout_page("texinfo", "Jin-Ri-nomemo.html"), "https://texinfo.heldout.example/Jin-Ri-nomemo.html"
    )
    assert kind.kind != "listing", kind.reason


def test_a_one_line_page_over_its_pager_is_not_a_listing() -> None:
    """Fumadocs (held-out set): a twelve-character Japanese page, then its previous and next
    pages as two cards (no ``rel``), both in the sidebar. Their text made 72% of the page's: a
    listing. Links after all of a page's text, to pages of the site's menu, are its pager.
    """
    page = "docs/appendix/kyou-no-memo"
    kind = classify_page(heldout_page("fumadocs", f"{page}.html"), f"https://fumadocs.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize(
    ("page", "reason"),
    [
        ("appendix:start", "dated links"),  # <li><div class="li"><a>Title</a> (2024-05-02)</div></li>
        ("sidebar", "only lists"),  # a heading over Home, Guide, Reference, Appendix, About
    ],
)
def test_a_wiki_s_index_and_navigation_pages_are_listings(page: str, reason: str) -> None:
    """DokuWiki (held-out set): a namespace's start page lists its pages, each link followed by
    its date in parentheses (a date in text after the link, no element of its own); the sidebar
    page is a heading over a list of links and no paragraph. Both were stored as documents.
    """
    kind = classify_page(heldout_page("dokuwiki", page), f"https://dokuwiki.heldout.example/{page}")
    assert kind.kind == "listing" and reason in kind.reason, kind.reason


@pytest.mark.parametrize("path", ["2024/04/12/kyou-no-memo/", "2023/06/01/quick-note-release/", "about/"])
def test_a_declared_post_beside_a_widget_of_recent_posts_is_an_article(path: str) -> None:
    """Hexo's Icarus (held-out set): the post's ``<article>`` holds the page's ``<h1>``; five
    ``<article class="media">`` "recent posts" cards in a sidebar widget sit beside it, and no
    ``<main>`` says which is the page's. The widgets' links made three one-line posts and the
    About page listings. Among several ``<article>``s, the one holding the title is the post.
    """
    kind = classify_page(
        heldout_page("hexo-icarus", f"{path}index.html"), f"https://hexo-icarus.heldout.example/{path}"
    )
    assert kind.kind == "article", kind.reason


@pytest.mark.parametrize(("tag", "entries"), [("docker", 1), ("data", 2), ("news", 3)])
def test_a_tag_page_of_one_to_four_entries_under_its_line_is_a_listing(tag: str, entries: int) -> None:
    """TiddlyWiki (held-out set): a tag's page is its title, "Pages with the tag <strong>docker
    </strong>, newest first:" and a list of one to four links (``<li><a class="tc-tiddlylink">``).
    With five or more the link share caught it; with fewer: "no signal", stored as a document.
    One sentence over a list whose every item is one link to the site is a listing, however
    few its items. The site's posts (a one-line note among them) stay what they were.
    """
    url = f"https://tiddlywiki.heldout.example/static/{tag}.html"
    kind = classify_page(heldout_page("tiddlywiki", f"static/{tag}.html"), url)
    assert kind.kind == "listing" and f"only lists of {entries} links" in kind.reason, kind.reason
    for post in ("Quick%20note.html", "TIL%3A%20git%20switch%20-.html", "About.html"):
        url = f"https://tiddlywiki.heldout.example/static/{post}"
        assert classify_page(heldout_page("tiddlywiki", f"static/{post}"), url).kind != "listing"


@pytest.mark.parametrize(
    ("folder", "page"),
    [
        ("hugo-deb", "posts/kyou-no-memo/index.html"),  # one sentence, its date, "Tags:" <ul> after it
        ("jupyter-book", "appendix/til-git-switch.html"),  # a download menu's <li> before its sentence
    ],
)
def test_a_one_sentence_post_with_a_list_of_links_is_not_a_listing(folder: str, page: str) -> None:
    """A post of one sentence ("ビルドが三倍速くなった。") with its tags listed under it shows its
    date; a page whose list comes before its sentence is not that sentence's list."""
    kind = classify_page(heldout_page(folder, page), f"https://{folder}.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize(
    ("page", "reason"),
    [
        ("modules.html", "links to the site make"),  # <dl><dt><a>…</a></dt>, a Settings panel beside
        ("modules/index.html", "only lists of 6 links"),  # one sentence over <dt> entries
    ],
)
def test_an_api_index_beside_a_settings_panel_is_a_listing(page: str, reason: str) -> None:
    """TypeDoc (held-out set): no ``<main>``; its sidebar (a ``<div>``) holds a Settings panel
    (``<label><input type=checkbox>``, ``<select><option>``) and "On This Page" links to the
    page's own fragments, which made the entries' links 42% of the text; the entries are
    ``<dl><dt><a href="documents/x.html">`` terms. Both were stored. Links into the page and
    form controls' words are not the page's text; a ``<dt>`` is a list's item.
    """
    kind = classify_page(heldout_page("typedoc", page), f"https://typedoc.heldout.example/{page}")
    assert kind.kind == "listing" and reason in kind.reason, kind.reason


def test_a_page_of_headings_only_has_nothing_to_store() -> None:
    """TypeDoc's hierarchy page (held-out set): "Small Lessons", "Hierarchy Summary" and a
    settings panel; its tree is drawn by a script. Stored as a document of two headings. The
    same kind of page: a 404 page, an empty general index (Sphinx's genindex.html)."""
    kind = classify_page(
        heldout_page("typedoc", "hierarchy.html"), "https://typedoc.heldout.example/hierarchy.html"
    )
    assert kind.kind == "empty", kind.reason
    genindex = classify_page(heldout_page("sphinx-furo", "genindex.html"), "https://x.example/genindex.html")
    assert genindex.kind == "empty", genindex.reason
    for path in ("documents/Quick_note.html", "classes/index.LessonIndex.html"):
        page = classify_page(heldout_page("typedoc", path), f"https://typedoc.heldout.example/{path}")
        assert page.kind != "empty", (path, page.reason)


@pytest.mark.parametrize(
    ("folder", "path", "url_path"),
    [
        ("trac", "wiki/Guide.html", "wiki/Guide"),  # "Where to start." over Guide/* links
        ("trac", "wiki/Appendix.html", "wiki/Appendix"),
        ("pdoc", "small_lessons/guide.html", "small_lessons/guide.html"),  # <code><a>…</a></code>: title
        ("pdoc", "small_lessons/reference.html", "small_lessons/reference.html"),
    ],
)
def test_a_page_listing_the_pages_below_its_own_path_is_an_index(
    folder: str, path: str, url_path: str
) -> None:
    """Trac's section pages (``/wiki/Guide``: one line, then ``<div class="titleindex">`` of links
    to ``/wiki/Guide/…``) and pdoc's package pages (``guide.html``: one sentence, then
    ``<li><code><a href="guide/install.html">small_lessons.guide.install</a></code>: Installing
    the command-line tool``, its source under it) said "no signal" and were stored as documents:
    Trac has no ``<main>`` (its menus and footer dilute any share), and pdoc's items say a title
    after their link. Lists of links to the pages below the page's own path, each followed by a
    label at most, under no more than a line of the page's own, are an index of them.
    The pages below stay what they were.
    """
    url = f"https://{folder}.heldout.example/{url_path}"
    kind = classify_page(heldout_page(folder, path), url)
    assert kind.kind == "listing" and "pages below its own" in kind.reason, kind.reason
    child = {"trac": "wiki/Guide/Installation", "pdoc": "small_lessons/guide/install"}[folder]
    child_path = f"{child}.html"
    child_url = f"https://{folder}.heldout.example/{child if folder == 'trac' else child_path}"
    assert classify_page(heldout_page(folder, child_path), child_url).kind != "listing"


def test_a_wiki_start_page_of_dated_links_is_a_listing() -> None:
    """Trac's WikiStart (held-out set): a sentence, then headings over lists of
    ``<li><a>title</a> (2023-05-30)</li>``: the date follows the link in the item's own text, and
    the walk up from the item found its list's 6 links, no single entry: stored as a document.
    The item holding the date and one link is that entry."""
    kind = classify_page(
        heldout_page("trac", "wiki/WikiStart.html"), "https://trac.heldout.example/wiki/WikiStart"
    )
    assert kind.kind == "listing" and "dated links" in kind.reason, kind.reason
    assert len(kind.entry_dates) >= 15


def test_a_form_that_queries_the_page_itself_is_no_article() -> None:
    """Trac's timeline (held-out set): its content is ``<h1>Timeline</h1>`` and a ``<form
    method="get" action="/timeline">`` of filters (dates, authors, checkboxes), no text: stored as
    a document. A form that asks the page itself again with the reader's choices, with little
    else, is a search page: what it shows is made by the query."""
    kind = classify_page(heldout_page("trac", "timeline.html"), "https://trac.heldout.example/timeline")
    assert kind.kind == "listing" and kind.reason == "a search form", kind.reason
    post = classify_page(heldout_page("trac", "wiki/About.html"), "https://trac.heldout.example/wiki/About")
    assert post.kind != "listing", post.reason


@pytest.mark.parametrize(("path", "entries"), [("programming/index.html", 7), ("data/index.html", 2)])
def test_sibling_stories_each_with_its_permalink_are_a_listing(path: str, entries: int) -> None:
    """Blosxom's category pages (held-out set): bare ``<div>``s, each ``<h3><a name="slug">Title
    </a></h3>``, the story and "posted at: 12:00 | path: /news | <a href="…/2024/04/10#slug">
    permanent link to this entry</a>"; no ``<article>``, no heading links anywhere: stored as
    documents. Sibling blocks that each begin with a heading and hold a link of the same words
    to a page of their own are entries. A day's page holds one such story: it is the post.
    """
    url = "https://blosxom.heldout.example/" + path.removesuffix("index.html")
    kind = classify_page(heldout_page("blosxom", path), url)
    assert kind.kind == "listing" and f"{entries} blocks alike" in kind.reason, kind.reason
    day = classify_page(
        heldout_page("blosxom", "2023/01/15/index.html"), "https://blosxom.heldout.example/2023/01/15/"
    )
    assert day.kind != "listing", day.reason


@pytest.mark.parametrize("page", ["tutorial-guide.html", "tutorial-reference.html"])
def test_a_sections_own_header_is_not_the_sites(page: str) -> None:
    """JSDoc's tutorial pages (held-out set): ``<section><header><ul>`` six links to the lessons
    ``</ul><h2>Guide</h2></header><article><p>Lessons to read first…</p></article></section>``.
    Every ``<header>`` outside ``<article>``/``<main>`` was dropped as the site's banner, the list
    with it: a one-line page, stored. A ``<header>`` inside a sectioning element is that
    section's (HTML's scoping)."""
    kind = classify_page(heldout_page("jsdoc", page), f"https://jsdoc.heldout.example/{page}")
    assert kind.kind == "listing", kind.reason
    lesson = classify_page(
        heldout_page("jsdoc", "tutorial-install.html"), "https://jsdoc.heldout.example/tutorial-install.html"
    )
    assert lesson.kind != "listing", lesson.reason


@pytest.mark.parametrize("page", ["Quick_note.html", "TIL__git_switch__.html", "_____.html"])
def test_a_one_line_post_beside_a_sidebar_of_archive_and_tag_links(page: str) -> None:
    """Chronicle (held-out set): a one-line post in ``<div class="entry">``, then ``<div
    id="sidebar">`` with 16 month links and 22 tag links, no ``<aside>``, ``<nav>`` or ``<main>``:
    "links to the site make 59-67% of its text", a listing, never stored. Measured without the
    sidebar (the complementary area's widespread name) the post is no list of links; a page of
    entries (the index, a tag page of several posts) still is one."""
    kind = classify_page(heldout_page("chronicle", page), f"https://chronicle.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize(
    ("page", "why"),
    [
        # "Notes to look things up in: …" over six links, under the #titlearea banner and
        # beside an <address class="footer">: the links made 49% of the page's text.
        ("reference.html", "links to the site make"),
        # "include Directory Reference": a <table class="memberdecls"> whose row is one file's
        # link (and its "[code]" link) and the next row its description.
        ("dir_d44c64559bbebec7f509842c48db8b23.html", "only a table of 1 links"),
    ],
)
def test_a_doxygen_index_under_its_banner_is_a_listing(page: str, why: str) -> None:
    """Doxygen (held-out set): both pages were stored as posts. The blocks before the element
    showing the page's title (the ``<title>`` after the site's name) that link home are the
    site's banner, an ``<address>`` outside any ``<article>`` is the page's footer; a table
    whose rows each list one page of the site is a list of them."""
    kind = classify_page(heldout_page("doxygen", page), f"https://doxygen.heldout.example/{page}")
    assert kind.kind == "listing" and why in kind.reason, kind.reason
    post = classify_page(
        heldout_page("doxygen", "quick-note-release.html"),
        "https://doxygen.heldout.example/quick-note-release.html",
    )
    assert post.kind != "listing", post.reason


@pytest.mark.parametrize("path", ["Appendix/Kyou no memo", "Appendix/Til git switch"])
def test_a_wiki_page_s_own_views_are_no_entries(path: str) -> None:
    """gitit (held-out set): a one-line page under its tabs ``/_edit/<page>``,
    ``/_history/<page>``, ``/_discuss/<page>`` and the login links, no ``<main>`` or ``<article>``.

    The tabs made the page's links 67-77% of its text: a listing, never stored.
    """
    url = "https://gitit.heldout.example/" + path.replace(" ", "%20")
    kind = classify_page(heldout_page("gitit", path), url)
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize("page", ["blog/kyou-no-memo", "blog/quick-note-release"])
def test_a_menu_marking_the_page_as_current_is_no_list_of_entries(page: str) -> None:
    """dumi (held-out set): the site's sidebar inside ``<main>`` (``<div
    class="dumi-default-sidebar"><dl><dt>2024</dt><dd><a aria-current="page" …>``), named no
    "sidebar", beside a one-line post: its links made 61% of the page's text, a listing."""
    kind = classify_page(heldout_page("dumi", f"{page}/index.html"), f"https://dumi.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


def test_a_one_line_japanese_post_with_scripts_is_no_app_shell() -> None:
    """nbconvert (held-out set): ``<h1>今日のメモ¶</h1><p><em>Ana Lima, 2024-04-12</em></p>
    <p>ビルドが三倍速くなった。</p>`` on a page naming require.js and MathJax: fewer than forty
    characters, so "no text without its scripts", and the post was never stored. A Chinese
    character or kana says as much as a short word."""
    path = "posts/kyou-no-memo.html"
    kind = classify_page(heldout_page("nbconvert", path), f"https://nbconvert.heldout.example/{path}")
    assert not kind.needs_script, kind.reason


def test_a_list_index_beside_a_logo_link_home_is_a_listing() -> None:
    """rustdoc (held-out set): "List of all items" (``all.html``), lists of links to every item,
    and in the same ``<main>`` the crate's logo, an image linking to the crate's page: not every
    link of the page was in the lists, and the index was stored as a document."""
    path = "small_lessons/all.html"
    kind = classify_page(heldout_page("rustdoc", path), f"https://rustdoc.heldout.example/{path}")
    assert kind.kind == "listing", kind.reason


JAVADOC = "https://javadoc.heldout.example/"


@pytest.mark.parametrize(
    "page",
    [
        "org/example/lessons/guide/package-summary.html",
        "org/example/lessons/guide/package-tree.html",
        "allclasses-index.html",
        "allpackages-index.html",
        "index-all.html",
        "overview-tree.html",
        "constant-values.html",
    ],
)
def test_an_api_generator_s_indexes_are_listings(page: str) -> None:
    """Javadoc (held-out set): a package's summary (a sentence, its classes as a grid of
    ``<div>`` cells: the class's link, then its summary in the next cell), its class tree
    (nested items under "java.lang.Object"), the A-Z index's terms and definitions, the
    constants page's captions over their declarations.

    None is a list of links only, a table, or an index of pages below its own: all eleven were
    read as "no signal" and stored as documents.
    """
    kind = classify_page(heldout_page("javadoc", page), JAVADOC + page)
    assert kind.kind == "listing", kind.reason
    # The A-Z index is also an index by initials: its letters over terms (<dt>).
    assert "index naming" in kind.reason or (page == "index-all.html" and "initials" in kind.reason), (
        kind.reason
    )


@pytest.mark.parametrize(
    "page", ["org/example/lessons/appendix/KyouNoMemo.html", "org/example/lessons/guide/Install.html"]
)
def test_a_class_page_naming_its_package_and_types_is_no_index(page: str) -> None:
    """Javadoc: a one-line post's class page names its package and ``java.lang.Object`` and lists
    its members (links in code, into the page itself): no index of other pages."""
    kind = classify_page(heldout_page("javadoc", page), JAVADOC + page)
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize(
    ("folder", "page"),
    [
        ("mediawiki", "wiki/Quick_note"),
        ("mezzanine", "kyou-no-memo/index.html"),
        ("chronicle", "Quick_note.html"),
    ],
)
def test_a_short_post_over_its_categories_or_beside_the_site_s_menus_is_no_index(
    folder: str, page: str
) -> None:
    """A one-line post with its categories under it and the wiki's "Retrieved from <address>"
    (MediaWiki), or in a page with no main area whose menus list every post (Mezzanine), or
    beside a sidebar of every post (Chronicle): rows that each name one page, but not the page's
    text (an address is no page's name; a page with no main area says nothing by its rows)."""
    kind = classify_page(heldout_page(folder, page), f"https://{folder}.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize(
    ("folder", "page"),
    [
        ("yard", "class_list.html"),
        ("yard", "method_list.html"),
        ("yard", "top-level-namespace.html"),
        ("pydoctor", "small_lessons.guide.html"),
        ("pydoctor", "moduleIndex.html"),
        ("pydoctor", "classIndex.html"),
    ],
)
def test_api_indexes_of_names_in_code_and_of_one_entry_are_listings(folder: str, page: str) -> None:
    """YARD's class and method lists (no main area: a row of "Classes Methods Files" over the
    list, each item a link and its parent's name), its top-level namespace (a breadcrumb, then
    "Modules: SmallLessons"), pydoctor's package pages (``<code><a>…install</a></code>:
    Installing…``, then a table of the same), its module index and its class tree of one class.

    Stored as documents: their names are code, their page has no main area, or they name one
    or two pages and say nothing else.
    """
    kind = classify_page(heldout_page(folder, page), f"https://{folder}.heldout.example/{page}")
    assert kind.kind == "listing", kind.reason


@pytest.mark.parametrize(
    ("folder", "page"),
    [
        ("gitit", "About"),
        ("gitit", "Appendix/Kyou%20no%20memo"),
        ("rustdoc", "small_lessons/appendix/kyou_no_memo/index.html"),
    ],
)
def test_a_short_page_beside_its_tabs_or_under_its_categories_is_no_index(folder: str, page: str) -> None:
    """gitit's pages have no main area: the page's tabs ("view edit history discuss") and a
    one-line post's three categories are rows naming pages; its sidebar is no part of the
    title's block. rustdoc's one-line module: its "source" link beside the title is one row,
    and the line is the page's own."""
    path = page.replace("%20", " ")
    kind = classify_page(heldout_page(folder, path), f"https://{folder}.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


def test_a_post_s_title_linking_to_itself_is_no_other_page() -> None:
    """A blog post (trafilatura's evaluation set) whose ``<h2>`` title links to the post with an
    apostrophe its address escapes (``mercurial%27s-journey``): "1 dated title links to another
    page", a listing."""
    url, html = next((u, h) for f, u, h in _eval_pages() if f == "gregoryszorc.com.python3.html")
    assert classify_page(html, url).kind != "listing"


def test_a_timeline_s_day_rows_date_the_entries_under_them() -> None:
    """Fossil (held-out set): its technotes' timeline is a table whose day is a row of its own
    (``<tr class="timelineDateRow"><td><div class="timelineDate">2024-05-02</div>``), then a
    row per note: its time (a link to the timeline itself), "technote: [<a>5e48cfae6f</a>]",
    its user's and its tags' links. No date sat beside one link: the notes, which show none,
    had no date, and no hint that they are posts."""
    page = "timeline?y=e"
    kind = classify_page(heldout_page("fossil", page), f"https://fossil.heldout.example/{page}")
    assert kind.kind == "listing"
    notes = {target: day for target, day in kind.entry_dates.items() if target.startswith("/technote/")}
    assert len(notes) == 17
    assert notes["/technote/5e48cfae6f32d261f8d9a568401b2024451bd01d"] == "2024-05-02"
    assert not any(target.startswith("/timeline") for target in kind.entry_dates)


def test_a_one_line_post_over_its_arrowed_pager_is_no_listing() -> None:
    """Urubu (held-out set): a twelve-character Japanese post, its tag, then "← Newer: TIL: git
    switch -" and "Older: 使用 SQLite 做本地缓存 →" without ``rel``: links to the site made 69% of
    its text, a listing never stored. A link opening or ending with an arrow is a pager's."""
    page = "blog/kyou-no-memo.html"
    kind = classify_page(heldout_page("urubu", page), f"https://urubu.heldout.example/{page}")
    assert kind.kind != "listing", kind.reason


@pytest.mark.parametrize(
    ("folder", "page"),
    [("haddock", "src/SmallLessons.Guide.Install.html"), ("rustdoc", "src/small_lessons/lib.rs.html")],
)
def test_a_source_file_s_view_is_nothing_to_store(folder: str, page: str) -> None:
    """Haddock's and rustdoc's "Source" pages: the module again as one block of code (rustdoc's
    line numbers a second ``<pre>``), no heading, no ``<title>`` of Haddock's. Each was stored as
    a document that repeats its module's page, comments and all (19 of Haddock's, 22 of rustdoc's)."""
    kind = classify_page(heldout_page(folder, page), f"https://{folder}.heldout.example/{page}")
    assert kind.kind == "empty", kind.reason


def test_a_manual_page_set_as_plain_text_is_no_source_view() -> None:
    """Postfix's HTML manuals (``postfix-doc``): each man page is one ``<pre>`` of its text, bold
    section names and links, no heading. Read as a source file's view, 68 of its 125 documents
    were never stored; its words are prose, unhighlighted, and it is a document of its own."""
    url = "http://www.postfix.org/access.5.html"
    html = (OWN_FIXTURES / "realdocs" / "postfix" / "access.5.html").read_text(encoding="utf-8")
    kind = classify_page(html, url)
    assert kind.kind not in {"empty", "listing"}, kind.reason
    article = extract_article(html, url)
    assert article is not None
    assert "describes access control on remote SMTP client" in " ".join(article.markdown.split())


def test_a_javadoc_uses_page_is_a_listing_and_its_class_page_a_document() -> None:
    """Javadoc 17's "Uses of Interface" pages (``libcommons-lang3-java-doc``): a grid of rows each
    naming a member of the class's own page (``FailableDoubleConsumer.<a href="…#NOP">NOP</a>``,
    ``<code><a>andThen</a>(Failable<E> after)</code>``) with its description. Its entries were
    counted as the one page they lead to, and a name followed by its parameters as a signature's
    type: 220 such pages were stored as documents. The class page itself stays a document."""
    base = "https://commons.apache.org/proper/commons-lang/apidocs/org/apache/commons/lang3/function/"
    folder = OWN_FIXTURES / "realdocs" / "javadoc"
    uses = classify_page(
        (folder / "class-use-FailableDoubleConsumer.html").read_text(encoding="utf-8"),
        base + "class-use/FailableDoubleConsumer.html",
    )
    assert uses.kind == "listing", uses.reason
    html = (folder / "FailableDoubleConsumer.html").read_text(encoding="utf-8")
    page = classify_page(html, base + "FailableDoubleConsumer.html")
    assert page.kind != "listing", page.reason


def test_qdoc_s_member_lists_and_class_groups_are_listings_and_a_class_page_is_not() -> None:
    """QDoc (``qtbase5-doc-html``, Qt 5.15) has no main element: the page's body, with the
    licence under it in a ``<div class="footer">`` (a paragraph of 330 characters), which made
    every index there prose and no index. Its lists of a class's members (a member's name, its
    parameters) and its groups of classes (``<td><p><a>QTimeLine</a></p></td>`` and the class's
    one line in the next cell, not counted as the row's description) were stored as documents:
    258 of Qt Core's pages. The class page itself stays a document."""
    folder = OWN_FIXTURES / "realdocs" / "qdoc"
    base = "https://doc.qt.io/qt-5/"
    for name in ("qabstractanimation-members.html", "animation.html"):
        page = classify_page((folder / name).read_text(encoding="utf-8"), base + name)
        assert page.kind == "listing", (name, page.reason)
    page = classify_page((folder / "qpointer.html").read_text(encoding="utf-8"), base + "qpointer.html")
    assert page.kind != "listing", page.reason


@pytest.mark.parametrize("name", ["qjsonobject.html", "qvariantanimation.html"])
def test_a_class_page_whose_member_headings_link_their_types_is_no_listing(name: str) -> None:
    """QDoc's member headings are declarations whose return or property type links its class
    (``<h3><a>QJsonObject::iterator</a> QJsonObject::begin()</h3>``, ``easingCurve :
    <a>QEasingCurve</a>``): each was taken for an entry's title linking another page, and the
    class pages with two or three such headings were stored as nothing (listings)."""
    html = (OWN_FIXTURES / "realdocs" / "qdoc" / name).read_text(encoding="utf-8")
    page = classify_page(html, "https://doc.qt.io/qt-5/" + name)
    assert page.kind != "listing", page.reason


def test_sections_headed_by_the_file_they_document_are_no_entries() -> None:
    """BoostBook's header references (``libboost1.74-doc``): a section per header, its heading
    "Header <boost/type_index.hpp>" linking the header file, then its text and synopsis. Each
    heading was taken for an entry's title linking another page, and the reference pages were never
    stored (Boost.Units' of 295 headers among them). A link to a file that is no web page titles no entry."""
    name = "boost_typeindex_header_reference.html"
    html = (OWN_FIXTURES / "realdocs" / "boost" / name).read_text(encoding="utf-8")
    page = classify_page(html, "https://www.boost.org/doc/libs/1_74_0/doc/html/" + name)
    assert page.kind != "listing", page.reason


def test_a_part_with_its_contents_and_an_introduction_is_a_document() -> None:
    """PostgreSQL's parts (DocBook XSL, ``postgresql-doc-15``): "Part III. Server Administration"
    is a ``<div class="toc">`` of its chapters under the part's own introduction, paragraphs found
    nowhere else; the contents' links made most of its words and 28 such pages were lists never
    stored. A chapter that is its contents alone ("Getting Started") stays a list."""
    folder = OWN_FIXTURES / "realdocs" / "postgresql"
    base = "https://www.postgresql.org/docs/15/"
    part = classify_page((folder / "admin.html").read_text(encoding="utf-8"), base + "admin.html")
    assert part.kind != "listing", part.reason
    contents = classify_page(
        (folder / "tutorial-start.html").read_text(encoding="utf-8"), base + "tutorial-start.html"
    )
    assert contents.kind == "listing", contents.reason


def test_a_sphinx_chapter_introducing_its_toctree_is_a_document() -> None:
    """Sphinx (``python3.11-doc``): "Concrete Objects Layer" is two paragraphs of its own over its
    ``<div class="toctree-wrapper">``, which Sphinx names a table of contents as DocBook names its
    ``div.toc``: its links made half its text, and such chapters of Python's docs were lists, never
    stored."""
    html = (OWN_FIXTURES / "realdocs" / "python" / "concrete.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://docs.python.org/3.11/c-api/concrete.html")
    assert page.kind != "listing", page.reason


def test_an_index_of_terms_by_initials_is_a_listing() -> None:
    """gtk-doc's API index (held-out set): one-letter headings, each over loose ``<dt>`` terms
    ("sl_excerpt, function in Text helpers", both links to that page) with empty ``<dd>``s: it
    was stored as a document of broken lines. Its glossary (definitions under the letters) and
    its posts are no index."""
    page = classify_page(
        heldout_page("gtk-doc", "api-index-full.html"), "https://gtk-doc.heldout.example/api-index-full.html"
    )
    assert page.kind == "listing" and "initials" in page.reason, page
    for path in ("annotation-glossary.html", "python-generators-tour.html"):
        assert (
            classify_page(heldout_page("gtk-doc", path), f"https://gtk-doc.heldout.example/{path}").kind
            != "listing"
        )


def test_a_back_of_book_index_is_a_listing() -> None:
    """PostgreSQL's index (DocBook's ``bookindex.html``, 445 KB, kept gzipped): one-letter headings
    over ``<dt>`` terms each naming every page it is on ("age, Date/Time Functions, System
    Information Functions"), sub-terms in a ``<dd>``'s list under a term of no page of its own. Its
    12,812 characters of terms, before any entry heading, read as a body of its own: it was stored
    as a document. A glossary's terms (PostgreSQL's acronyms: definitions in the ``<dd>``) are no
    index."""
    realdocs = OWN_FIXTURES / "realdocs" / "postgresql"
    html = gzip.decompress((realdocs / "bookindex.html.gz").read_bytes()).decode("utf-8")
    page = classify_page(html, "https://www.postgresql.org/docs/15/bookindex.html")
    assert page.kind == "listing" and "initials" in page.reason, page
    url = "https://www.postgresql.org/docs/15/acronyms.html"
    assert classify_page((realdocs / "acronyms.html").read_text(encoding="utf-8"), url).kind != "listing"


def test_a_declared_table_of_contents_is_a_listing() -> None:
    """DocBook's section of reference pages (PostgreSQL's "Interface Functions", no ``<h1>``: its
    title an ``<h2>``, no main area) is only its ``<dl class="toc">``, each entry a page and its
    purpose ("SPI_connect — connect a C function to the SPI manager"); gtk-doc's API part page is
    a sentence over its contents of two pages. Both were stored as documents; the pages they list
    are not listings."""
    realdocs = OWN_FIXTURES / "realdocs" / "postgresql"
    url = "https://www.postgresql.org/docs/15/spi-interface.html"
    page = classify_page((realdocs / "spi-interface.html").read_text(encoding="utf-8"), url)
    assert page.kind == "listing", page
    url = "https://www.postgresql.org/docs/15/sql-lock.html"
    assert classify_page((realdocs / "sql-lock.html").read_text(encoding="utf-8"), url).kind != "listing"
    page = classify_page(
        heldout_page("gtk-doc", "api-reference.html"), "https://gtk-doc.heldout.example/api-reference.html"
    )
    assert page.kind == "listing", page
    path = "small-lessons-SlLesson.html"
    assert (
        classify_page(heldout_page("gtk-doc", path), f"https://gtk-doc.heldout.example/{path}").kind
        != "listing"
    )


def test_cards_dated_by_a_time_in_their_meta_row_are_a_listing() -> None:
    """Valaxy's posts page (held-out set): five cards, each its title's link, a meta row holding
    ``<time>`` three levels down (a span, a div, a div), an excerpt; no ``<h1>``, the ``<title>``
    the site's name. The date was more than three levels from the entry's link: "no signal", and
    the page was stored as an article dated by its first card."""
    page = classify_page(heldout_page("valaxy", "posts/index.html"), "https://valaxy.heldout.example/posts/")
    assert page.kind == "listing", page
    assert page.entry_dates["/posts/rust-vs-go-field-report"] == "2024-05-02"
    path = "posts/rust-vs-go-field-report.html"
    assert (
        classify_page(heldout_page("valaxy", path), f"https://valaxy.heldout.example/{path}").kind
        != "listing"
    )


@pytest.mark.parametrize(
    ("folder", "path"), [("pkgdown", "404.html"), ("starlight", "404.html"), ("hugo-deb", "404.html")]
)
def test_a_page_saying_it_is_not_found_is_nothing_to_store(folder: str, path: str) -> None:
    """A "soft 404", served with 200: pkgdown lists its ``404.html`` in its sitemap ("Page not
    found (404)", "Content not found. Please use links in the navbar."), and it was stored as a
    document; Starlight's declares itself an article. Its heading says 404 or "not found", and it
    says little besides its links."""
    page = classify_page(heldout_page(folder, path), f"https://{folder}.heldout.example/{path}")
    assert page.kind == "empty" and "not found" in page.reason, page
    about = classify_page(
        heldout_page("pkgdown", "articles/install.html"),
        "https://pkgdown.heldout.example/articles/install.html",
    )
    assert about.kind != "empty"


@pytest.mark.parametrize(
    ("path", "url"),
    [
        # Sphinx, Django's theme: the site's <h1> a link, the sidebar's "Table of Contents", and
        # section headings holding a cross-reference beside their own permalink ("¶").
        ("django/usage.html", "https://docs.djangoproject.com/en/3.2/faq/usage/"),
        # Apache httpd's manual: a module of one directive, its preamble's table and the
        # directive's section each a "Description:" link to a different glossary page.
        ("apache/mod_allowmethods.html", "https://httpd.apache.org/docs/2.4/mod/mod_allowmethods.html"),
        # Sphinx, CMake's theme: one sentence naming a page mid-way.
        (
            "cmake/CMAKE_MAJOR_VERSION.html",
            "https://cmake.org/cmake/help/v3.25/variable/CMAKE_MAJOR_VERSION.html",
        ),
        # Sections with permalinks, each naming other commands.
        (
            "cmake/target_compile_options.html",
            "https://cmake.org/cmake/help/v3.25/command/target_compile_options.html",
        ),
    ],
)
def test_a_reference_page_is_no_listing(path: str, url: str) -> None:
    """Real reference pages taken for listings and dropped (30 of Django's pages: "N headings
    link to other pages"; 26 of Apache's module pages: "2 blocks alike, each a heading and its
    own permalink"; 21 of CMake's: "an index naming 1 pages"). A heading with its own permalink
    is a section of the page; blocks alike are of one tag and class; a link inside a sentence is
    no index's row."""
    page = classify_page((OWN_FIXTURES / "realdocs" / path).read_text(encoding="utf-8"), url)
    assert page.kind != "listing", page


def test_an_index_below_a_title_with_a_linked_sentence_is_a_listing() -> None:
    """Apache httpd's module index: no main area, the ``<h1>`` in a preamble whose sentence links
    one page ("See also the complete alphabetical list of all Apache HTTP Server directives"),
    then a ``<dl>`` of 135 modules, each a link and a line. The preamble was taken for the block
    of the index's rows (a row naming one page beside the title) and the page stored as a
    document; rows are three at least."""
    html = (OWN_FIXTURES / "realdocs" / "apache" / "mod-index.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://httpd.apache.org/docs/2.4/mod/")
    assert page.kind == "listing", page


def test_a_reference_page_s_signature_headings_are_no_entries() -> None:
    """rustdoc (Cargo's ``syn`` crate): each trait implementation and method is a heading whose
    types are links (``impl <a>Parse</a> for <a>While</a>``, ``fn <a>parse</a>(input: <a>
    ParseStream</a>)``): every item page of the crate (300 of 338) was taken for a list of entries.
    A listing's entry heading is its link, most of its words."""
    html = (OWN_FIXTURES / "realdocs" / "rustdoc" / "struct.While.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://docs.rs/syn/1.0.107/syn/token/struct.While.html")
    assert page.kind != "listing", page


def test_cards_that_lead_nowhere_else_are_sections() -> None:
    """Erlang/OTP's reference (erl_docgen) writes each function as an ``<article class="func">``
    whose heading's links are its own anchor, an edit-on-GitHub icon and the types it returns
    (``category(Token) -> <a href="#type-category">category()</a>``): 412 module pages were
    taken for lists of 3 to 76 entries. A listing's cards lead to other pages; a Hugo site built
    for ``http://localhost:1313/`` links its posts there, and its cards stay entries."""
    html = (OWN_FIXTURES / "realdocs" / "erlang" / "erl_scan.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://www.erlang.org/doc/man/erl_scan.html")
    assert page.kind != "listing", page
    html = shared_fixture("blogs", "hugo-andyibanez-com", "site", "posts", "index.html").read_text(
        encoding="utf-8"
    )
    page = classify_page(html, "https://andyibanez.com/posts/")
    assert page.kind == "listing" and "<article> entries" in page.reason, page


def test_two_entries_each_linked_again_below_their_heading_are_a_listing() -> None:
    """Mezzanine's archive pages of two posts: each an ``<h2>`` link, an ``<h6>`` byline of links
    (author, categories: no entry's title) and a "read more" link to the post again. A
    repository page's sidebar boxes ("Releases" and "+ 65 releases") are no list."""
    url = "https://mezzanine.heldout.example/category/c/"
    page = classify_page(heldout_page("mezzanine", "category/c/index.html"), url)
    assert page.kind == "listing" and "each again below it" in page.reason, page
    ((_, repo, html),) = [p for p in eval_pages() if p[0] == "github.com.yapapi.html"]
    assert classify_page(html, repo).kind != "listing"


def test_a_cover_of_headings_over_a_footer_is_empty() -> None:
    """Erlang/OTP's part covers (``users_guide.html`` of each application): the part's title, its
    version and date in ``<center>`` headings, then ``<div class="footer">`` with the copyright
    line, a ``<p>`` of 55 characters: 84 covers were stored as documents of four lines."""
    html = (OWN_FIXTURES / "realdocs" / "erlang" / "users_guide.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://www.erlang.org/doc/apps/stdlib/users_guide.html")
    assert page.kind == "empty", page


def test_a_page_written_without_paragraphs_beside_a_list_of_links_is_no_listing() -> None:
    """The Debian Administrator's Handbook (Publican) writes its paragraphs as ``<div
    class="para">``: a section of 48 words beside its "Prev", "Home", "Next" list had no ``<p>``
    and every link in a list, and was taken for a list of links (22 of the book's 126 pages)."""
    html = (OWN_FIXTURES / "realdocs" / "debian-handbook" / "sect.aptosid.html").read_text(encoding="utf-8")
    # As Debian installs it, served from a host of its own (its links to debian-handbook.info are
    # then another site's).
    page = classify_page(html, "https://docs.example.org/debian-handbook/html/en-US/sect.aptosid.html")
    assert page.kind != "listing", page


def test_a_section_s_index_under_its_introduction_is_a_listing() -> None:
    """MkDocs' own "User Guide" page: a sentence on what the guide is for, how to read it, then a
    list of its eight pages, nothing else (stored as a document of its introduction). A page with
    more prose than an introduction beside its sub-pages' list stays a page (Creative Commons'
    "About", one of trafilatura's articles), as does one with a list of its own."""
    html = (OWN_FIXTURES / "realdocs" / "mkdocs" / "user-guide.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://www.mkdocs.org/user-guide/")
    assert page.kind == "listing" and "8 pages below its own" in page.reason, page
    ((_, about, html),) = [p for p in eval_pages() if p[0] == "creativecommons.org.html"]
    assert classify_page(html, about).kind != "listing"
    # Nor a page with a list of its own above its pages' (Django's "Writing code": ways to help).
    html = (OWN_FIXTURES / "realdocs" / "django" / "writing-code.html").read_text(encoding="utf-8")
    page = classify_page(html, "https://docs.djangoproject.com/en/3.2/internals/contributing/writing-code/")
    assert page.kind != "listing", page
