"""``scrapy crawl blogs`` on the held-out set: real sites of generators the dev set does not have.

tests/fixtures/heldout holds eighty-nine small sites built with generators the development set
does not have (and two it has, as Debian packages them). Their sources were written for this set
(bench/heldout), built by bench/heldout/build.sh with the generators' usual listings (tags,
categories, archives, pagination, feeds, sitemaps), and their
``oracle.json`` and ``listings.json`` come from the sources and the build, never from harvest.

Each is served on 127.0.0.1 (its own host ``https://<generator>.heldout.example`` mapped to that
server, a canary server for any other loopback origin), crawled once with nothing but its start
page in the YAML (``source: docs`` for the forty-four docs generators), and compared with its oracle:
the issue 33 targets (every post, titles, dates, code blocks, no listing page), plus code
languages where the page declares them.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.devsites import (
    HELDOUT,
    HELDOUT_FIXTURES,
    HELDOUT_SOURCES,
    HELDOUT_UNDECLARED_LANGUAGES,
    Crawled,
    DevSite,
    crawl_site,
)
from tests.spiders.test_blogs_devset import CODE, DATES, FOUND, LISTINGS, TITLES

#: Share of the code blocks whose page declares a language stored with it.
LANGUAGES = 0.98
#: Sites whose listing pages no link leads to: Sphinx's genindex.html and search.html are named
#: by ``<link rel="index">``/``<link rel="search">`` and a search form's ``action`` only, never
#: followed. (Their home pages were once counted as listing pages.)
LISTINGS_NOT_LINKED = frozenset({"sphinx-furo", "mkdocs-rtd"})


#: The module's fixture crawls every site (two at a time) before its first test, and the time it
#: takes counts toward that test: a bound that only stops a hang (the set takes minutes).
pytestmark = pytest.mark.timeout(3600)


@pytest.fixture(scope="module")
def heldout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Crawled]]:
    """Every held-out site crawled once (two at a time), by generator."""
    work = tmp_path_factory.mktemp("heldout")

    def run(site: DevSite) -> tuple[str, Crawled]:
        return site.folder, crawl_site(site, HELDOUT_FIXTURES, work / site.folder, timeout=300)

    with ThreadPoolExecutor(max_workers=2) as pool:
        yield dict(pool.map(run, HELDOUT))


def _report(crawled: Crawled) -> str:
    s = crawled.score
    return (
        f"{s.row()}\nmissing {s.missing[:10]}\nwrong titles {s.wrong_titles[:5]}\n"
        f"wrong dates {s.wrong_dates[:5]}\ninvented dates {s.invented_dates[:5]}\n"
        f"code short {s.code_short[:5]}\n"
        f"languages lost {s.langs_lost[:5]}\nlistings {s.listings[:10]}\n" + crawled.stderr[-2000:]
    )


@pytest.mark.parametrize("site", HELDOUT, ids=[s.folder for s in HELDOUT])
def test_heldout_site_against_its_oracle(heldout: dict[str, Crawled], site: DevSite) -> None:
    crawled = heldout[site.folder]
    s = crawled.score
    report = _report(crawled)
    assert crawled.returncode == 0, report
    assert "'finish_reason': 'finished'" in crawled.stderr, report
    assert " WARNING" not in crawled.stderr, report
    assert s.posts >= 8
    assert s.found >= FOUND * s.posts, report
    assert s.titles_right >= TITLES * s.posts, report
    assert s.dates_right + s.dates_as_declared >= DATES * s.dated, report
    assert not s.invented_dates, report  # no date where the sources have none (a build's time)
    assert s.code_kept >= CODE * s.code_oracle, report
    assert s.listings_stored <= LISTINGS * s.posts, report
    assert s.foreign_requests == 0, report
    # A language is never invented; where the page declares it, it is kept.
    assert s.langs_wrong == 0, report
    if site.folder not in HELDOUT_UNDECLARED_LANGUAGES:
        assert s.langs_kept >= LANGUAGES * s.langs_oracle, report
    if set(site.listing_paths) - {"/"} and site.folder not in LISTINGS_NOT_LINKED:
        # Listing pages were fetched (followed for discovery) and recognised by what they are
        # (the home page, a listing of asciidoctor's, is counted as harvest/blogs/home_pages),
        # or left out as they ask (mdBook's print.html, the whole book on one page, noindex).
        recognised = crawled.stats.get("harvest/blogs/listing_pages", 0)
        assert recognised + crawled.stats.get("harvest/blogs/noindex_pages", 0) > 0, report


def test_heldout_set_covers_generators_the_devset_lacks() -> None:
    """Eighty-nine generators, each with its oracle, its listings and enough posts to score.

    Blog sources have at least 30 listing pages, but the Eleventy base blog and nanoc: each writes
    25 (the home page, the archive, the tags page and one page per tag; no pagination, no
    categories), Blosxom 24 (the home page, five categories, two years and sixteen months; no
    tags, no pagination), Wagtail's tutorial blog 24 (the blog index, the tags page and its 22 tag
    queries; no pagination, archives or categories), the Nuxt Content blog 24 (the home page, the
    tags page and its 22 tag pages; Nuxt Content has no pagination, archives or categories of its
    own), Wintersmith's blog template 7 (the paginator's six pages, three articles each, and the
    archive; no tags or categories), org-publish 2 (its sitemap of posts and its index; Org has
    no tags, archive or pagination pages), the pandoc site and the nbconvert blog 2 each (their
    scripts' index of every post and tags page), VitePress with @sugarat/theme 1 (its home page:
    its pages and tag filter are drawn in the browser; no tag, archive or category pages), and
    the LaTeXML notes 1 (the site's own index of every note; LaTeXML writes no listing pages),
    and Material for MkDocs' blog 20 (the blog's four pages, two years' archives in five pages, five
    categories in six pages, the author's four pages and the one tags page: the tags plugin writes no
    page per tag), Urubu 28 (the blog's four pages, the tags index and 22 tag pages, the home
    page; Urubu has no categories or archives), Harp 25 (the home page, the posts' index, the
    tags index and 22 tag pages; Harp has no pagination, archives or categories) and Valaxy 13
    (the home page and its four /page/N pages, the posts, archives, categories and tags pages,
    each of the four as <route>.html and <route>/index.html: a tag's or category's posts are
    listed in the browser, at ?tag= and ?category=, no page of their own).
    """
    # Every built site is scored, and every scored site is built.
    built = sorted(p.name for p in HELDOUT_FIXTURES.iterdir() if (p / "oracle.json").is_file())
    assert built == sorted(HELDOUT_SOURCES) and len(built) == 89
    blogs = [s for s in HELDOUT if s.source == "blog"]
    fewer = {
        "eleventy-base-blog": 25,
        "nanoc": 25,
        "org-publish": 2,
        "blosxom": 24,
        "wagtail": 24,
        "nuxt-content": 24,
        "wintersmith": 7,
        "pandoc": 2,
        "nbconvert": 2,
        "vitepress-sugarat": 1,
        "latexml": 1,
        "mkdocs-material-blog": 20,
        "urubu": 28,
        "harp": 25,
        "valaxy": 13,
    }
    assert all(len(s.listing_paths) >= fewer.get(s.folder, 30) for s in blogs), [
        (s.folder, len(s.listing_paths)) for s in blogs
    ]


def test_feeds_and_sitemaps_no_page_links_are_found(heldout: dict[str, Crawled]) -> None:
    """vuepress-theme-reco and Zensical write a feed no page links (reco's ``/rss.xml``, Zensical's
    ``/feed_rss_created.xml`` is not conventional: its sitemap suffices); Gatsby's starter declares
    its sitemap with ``<link rel="sitemap">`` (``/sitemap-index.xml``), robots.txt names none.

    Before: reco's feed was never read (its dates lost with it), Gatsby's sitemap never fetched
    (its About page and paginated lists, linked from no page, never reached).
    """
    reco = heldout["vuepress-reco"].stats
    assert reco.get("harvest/blogs/discovered/guess", 0) >= 1, reco
    assert reco.get("harvest/blogs/feeds", 0) >= 1, reco
    gatsby = heldout["gatsby-blog"].stats
    assert gatsby.get("harvest/blogs/sitemaps", 0) >= 1, gatsby
