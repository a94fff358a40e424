"""Title and date from the page's own declarations, on every post of every site of the development set.

The oracle of each site (shared/fixtures/blogs/<folder>/oracle.json) gives each post's title and
date as its source wrote them. Pages that declare no date (Jekyll 46b.it, Zola, Octopress) give
None here: the spider then falls back to the feed, the sitemap and the text.
"""

from __future__ import annotations

import json
from urllib.parse import unquote

import pytest

from harvest.parsers.pagekind import parse_html
from harvest.parsers.pagemeta import declared_date, declared_title, normalize_date
from tests import OWN_FIXTURES, eval_pages, shared_fixture
from tests.devsites import HELDOUT, HELDOUT_FIXTURES, SITES, heldout_page, page_html

ORACLE_SITES = [s.folder for s in SITES if s.folder != "octopress-1up4developers-github-io"]


def _posts(folder: str) -> list[tuple[dict[str, str], str]]:
    root = shared_fixture("blogs", folder)
    out = []
    for entry in json.loads((root / "oracle.json").read_text(encoding="utf-8")):
        file = root / "site" / entry["url_path"].lstrip("/")
        file = file / "index.html" if file.is_dir() else file
        out.append((entry, file.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize("folder", ORACLE_SITES)
def test_titles_and_dates_of_every_post(folder: str) -> None:
    posts = _posts(folder)
    titles_right = dates_declared = dates_right = 0
    for entry, html in posts:
        tree = parse_html(html)
        assert tree is not None
        if " ".join((declared_title(tree) or "").split()) == " ".join(entry["title"].split()):
            titles_right += 1
        date = declared_date(tree)
        if date is not None:
            dates_declared += 1
            dates_right += date == entry["date"]
    assert titles_right >= 0.98 * len(posts), (folder, titles_right, len(posts))
    # Hugo writes the front matter's publishDate as datePublished; the oracle holds its `date`:
    # they differ on 3 of 110 posts, and the page, its JSON-LD and its feed agree with each other.
    assert dates_right >= 0.97 * dates_declared, (folder, dates_right, dates_declared)


def test_title_loses_the_site_name() -> None:
    html = page_html("docusaurus-web-dev-docs", "doc-mongodb")
    tree = parse_html(html)
    assert tree is not None
    assert tree.findtext(".//title") == "MongoDB | QR Web Dev"
    assert declared_title(tree) == "MongoDB"


def test_date_from_json_ld_before_the_sitemap() -> None:
    """Hugo: JSON-LD datePublished and the <time> agree on 2020-06-18; its sitemap's lastmod is the 24th."""
    html = page_html("hugo-andyibanez-com", "post-uimenu")
    tree = parse_html(html)
    assert tree is not None
    assert declared_date(tree) == "2020-06-18"


def test_date_of_the_time_in_the_article_header() -> None:
    """Zola declares nothing but the <time> under the post's title."""
    html = page_html("zola-mawadda-ar", "post-fear")
    tree = parse_html(html)
    assert tree is not None
    assert declared_date(tree) is not None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2021-03-25T00:00:00+01:00", "2021-03-25"),
        ("Thu, 18 Jun 2020 07:00:00 -0400", "2020-06-18"),
        ("2023-01-07", "2023-01-07"),
        ("not a date", None),
        # Hugo's "no date" (Go's zero time) in every undated page's feed entry: the email parser
        # read the year 0001 as 2001.
        ("Mon, 01 Jan 0001 00:00:00 +0000", None),
        ("0001-01-01T00:00:00Z", None),
        (None, None),
    ],
)
def test_normalize_date(value: str | None, expected: str | None) -> None:
    assert normalize_date(value) == expected


@pytest.mark.parametrize("folder", [s.folder for s in HELDOUT])
def test_every_title_of_the_heldout_sites(folder: str) -> None:
    """The held-out generators' <title> forms: "T - Site", "T | Site", "T — Site documentation".

    "TIL: git switch -" lost its own dash to the cut (stored "TIL: git switch") on the four
    generators that append the site's name. Lektor's quickstart writes the site's name as the
    page's only <h1> (in its header) and the post's title as an <h2>: every title was the
    site's name.
    """
    root = HELDOUT_FIXTURES / folder
    wrong = []
    for entry in json.loads((root / "oracle.json").read_text(encoding="utf-8")):
        # The path as the server's files name it: TiddlyWiki's are the percent-encoded titles,
        # their URLs encode those percent signs again ("/static/Quick%2520note.html").
        file = root / "site" / unquote(entry["url_path"]).lstrip("/")
        file = file / "index.html" if entry["url_path"].endswith("/") else file
        if not file.is_file():  # a clean URL (Rspress): /guide/install served from guide/install.html
            file = file.with_name(file.name + ".html")
        tree = parse_html(file.read_text(encoding="utf-8"))
        assert tree is not None
        if declared_title(tree) != entry["title"]:
            wrong.append((entry["title"], declared_title(tree)))
    assert wrong == []


def test_the_post_s_heading_wins_over_the_site_s_heading() -> None:
    """Octopress: ``<h1>1up4developers</h1>`` (the site) and the post's title-cased ``<h1>``.

    Both pieces of "Novos rumos - 1up4developers" are a heading of the page; the piece before
    the separator is the post's (taking the longest piece picked the site's name).
    """
    page = shared_fixture(
        "blogs", "octopress-1up4developers-github-io", "site", "2013/04/novos-rumos/index.html"
    )
    tree = parse_html(page.read_text(encoding="utf-8"))
    assert tree is not None
    assert declared_title(tree) == "Novos rumos"


def test_a_title_glued_to_the_site_s_name() -> None:
    """TiddlyWiki (held-out set): ``<title>Generators in Python: a practical tour: Small Lessons
    — Short programming lessons</title>``, the page's only title heading an ``<h2>``.

    No space before the colon: no cut was found there, and the whole ``<title>`` was stored.
    """
    page = "static/Generators%20in%20Python%3A%20a%20practical%20tour.html"
    tree = parse_html(heldout_page("tiddlywiki", page))
    assert tree is not None
    assert declared_title(tree) == "Generators in Python: a practical tour"


def test_a_headline_and_its_subtitle_stay_whole_under_a_shorter_h1() -> None:
    """trafilatura's evaluation set: ``<title>Tote Hummeln unter Linden: Die Erklärung |
    Hummeln</title>`` under ``<h1>Tote Hummeln unter Linden</h1>``: the headline, not the ``<h1>``."""
    html = next(h for f, _, h in eval_pages() if f == "aktion-hummelschutz.de.hummeln.html")
    tree = parse_html(html)
    assert tree is not None
    assert declared_title(tree) == "Tote Hummeln unter Linden: Die Erklärung"


@pytest.mark.parametrize(
    ("folder", "path", "title"),
    [
        # <title>Guide/PythonGeneratorsTour – Small Lessons</title>: the wiki page's name.
        ("trac", "wiki/Guide/PythonGeneratorsTour.html", "Generators in Python: a practical tour"),
        # <title>small_lessons.guide.install API documentation</title> over the breadcrumb
        # <h1><a href="./../../small_lessons.html">small_lessons</a>.<a …>guide</a>.install</h1>.
        ("pdoc", "small_lessons/guide/install.html", "Installing the command-line tool"),
    ],
)
def test_a_title_that_is_the_page_s_name_gives_way_to_its_heading(folder: str, path: str, title: str) -> None:
    """Trac and pdoc (held-out set) title a page with its name or module path, not its heading.

    Trac's ``<title>`` is the wiki page's name, CamelCase words joined by slashes; pdoc's is the
    module's dotted path, which its first ``<h1>`` shows as links to the modules above. The
    whole ``<title>`` was stored ("Guide/PythonGeneratorsTour – Small Lessons"), on every page.
    """
    tree = parse_html(heldout_page(folder, path))
    assert tree is not None
    assert declared_title(tree) == title


def test_a_title_after_a_generator_s_prefixes_and_a_heading_s_label() -> None:
    """JSDoc (held-out set): ``<title>JSDoc: Tutorial: Generators in Python: a practical
    tour</title>``, ``<h1>Tutorial: Generators in Python: a practical tour</h1>``, then the
    tutorial's ``<h2>Generators in Python: a practical tour</h2>``: the whole ``<title>`` was
    stored (no cut has spaces on both sides)."""
    tree = parse_html(heldout_page("jsdoc", "tutorial-python-generators-tour.html"))
    assert tree is not None
    assert declared_title(tree) == "Generators in Python: a practical tour"


def test_a_day_s_page_titled_with_the_site_s_name_and_the_date() -> None:
    """Blosxom (held-out set): ``<title>Small Lessons 15 01 2023</title>``, ``<h1>Small
    Lessons</h1><p>15 01 2023</p>``, ``<h2>Sun, 15 Jan 2023</h2>``, then the post's ``<h3>``.

    The site's name and the day named no post: every post was stored under that title.
    """
    tree = parse_html(heldout_page("blosxom", "2023/01/15/index.html"))
    assert tree is not None
    assert declared_title(tree) == "Generators in Python: a practical tour"


def test_the_date_a_link_carries_beside_a_date_written_with_slashes() -> None:
    """Trac (held-out set): "Last modified" ``<a href="/timeline?from=2023-02-03T09%3A30%3A00Z…"
    title="See timeline at 02/03/23 09:30:00">``; htmldate read 02/03/23 day first (2023-03-02),
    on 8 of 19 pages whose day was 12 or less."""
    tree = parse_html(heldout_page("trac", "wiki/Guide/RestaurantAppMenuTagsAuthor.html"))
    assert tree is not None
    assert declared_date(tree) == "2023-02-03"


def test_a_headline_after_a_one_word_prefix() -> None:
    """trafilatura's evaluation set: ``<title>SONNENENERGIE: Der WindRebell</title>`` over
    ``<h1>Der WindRebell</h1>``: the magazine's name before the colon is no part of the title."""
    html = next(h for f, _, h in eval_pages() if f == "sonnenernergie.de.Windrebell.html")
    tree = parse_html(html)
    assert tree is not None
    assert declared_title(tree) == "Der WindRebell"


@pytest.mark.parametrize(
    ("folder", "path"),
    [
        # <div class="headertitle"><div class="title">Generators in Python: a practical tour
        # </div></div>, the site's name in the breadcrumb's link to index.html; its <h1>s are
        # the post's own sections.
        ("doxygen", "python-generators-tour.html"),
        # <h1><a href="https://chronicle.heldout.example/">Small Lessons</a></h1>, then
        # <div class="entry"><div class="title">Generators in Python: a practical tour</div>.
        ("chronicle", "Generators_in_Python__a_practical_tour.html"),
    ],
)
def test_a_title_after_the_site_s_name_the_home_link_says(folder: str, path: str) -> None:
    """Doxygen and Chronicle (held-out set): ``<title>Small Lessons: Generators in Python: a
    practical tour</title>``, the site's name first and a colon against it, the post's title
    in no heading: the whole ``<title>`` was stored, on every page. The site's name is what a
    link to the home page says; the rest is the title when an element shows it whole."""
    tree = parse_html(heldout_page(folder, path))
    assert tree is not None
    assert declared_title(tree) == "Generators in Python: a practical tour"


@pytest.mark.parametrize(
    ("site", "path", "title"),
    [
        # nbconvert's <title> is the notebook's file name when its metadata names no title.
        ("nbconvert", "posts/python-generators-tour.html", "Generators in Python: a practical tour"),
        # rustdoc: "Module small_lessons::guide::python_generators_tour" over the module's doc,
        # which opens with its title; the <title> names the module.
        (
            "rustdoc",
            "small_lessons/guide/python_generators_tour/index.html",
            "Generators in Python: a practical tour",
        ),
    ],
)
def test_a_title_that_is_a_file_or_item_name_gives_way_to_the_page_s_heading(
    site: str, path: str, title: str
) -> None:
    tree = parse_html(heldout_page(site, path))
    assert tree is not None
    assert declared_title(tree) == title


def test_a_chapter_s_number_is_no_part_of_its_title() -> None:
    """bookdown (held-out set): ``<h1><span class="header-section-number">Chapter 12</span>
    Reading a large CSV file in chunks</h1>``, the ``<title>`` "Chapter 12 Reading a large CSV
    file in chunks | Small Lessons": the chapter's place in the book was stored in its title."""
    tree = parse_html(heldout_page("bookdown", "reading-large-csv-in-chunks.html"))
    assert tree is not None
    assert declared_title(tree) == "Reading a large CSV file in chunks"


def test_a_heading_s_way_back_to_the_top_is_no_part_of_its_title() -> None:
    """RDoc (held-out set): ``<h1>Quick note<span><a href="#…">&para;</a> <a href="#top">&uarr;
    </a></span></h1>``: every title and heading ended with " ↑". One symbol or punctuation mark
    as a link's whole text is a mark, not words."""
    path = "doc/reference/quick-note-release_md.html"
    tree = parse_html(heldout_page("rdoc", path))
    assert tree is not None
    assert declared_title(tree) == "Quick note"


@pytest.mark.parametrize(
    ("folder", "path", "title"),
    [
        ("mandoc", "small-lessons-python-generators-tour.7.html", "Generators in Python: a practical tour"),
        ("mandoc", "lessons.1.html", "read and search the small lessons"),
        ("pod2html", "Small/Lessons/Guide/Install.html", "Installing the command-line tool"),
        ("pod2html", "Small/Lessons/Appendix/TilGitSwitch.html", "TIL: git switch -"),
    ],
)
def test_a_manual_page_s_title_is_its_name_line_s_description(folder: str, path: str, title: str) -> None:
    """mandoc and Pod::Simple (held-out set) write a manual page: its ``<title>`` the page's name
    ("SMALL-LESSONS-PYTHON-GENERATORS-TOUR(7)", "Small::Lessons::Guide::Install"), its first
    heading "NAME", the line under it "name — what it is". Every title was the name, or "NAME"."""
    tree = parse_html(heldout_page(folder, path))
    assert tree is not None
    assert declared_title(tree) == title


@pytest.mark.parametrize(
    ("path", "title"),
    [("python-generators-tour.html", "Generators in Python: a practical tour"), ("about.html", "About")],
)
def test_the_site_s_declared_name_is_cut_after_a_glued_colon(path: str, title: str) -> None:
    """gtk-doc (held-out set): ``<title>Generators in Python: a practical tour: Small Lessons
    Reference Manual</title>``, the manual's name declared by ``<link rel="home" title="Small
    Lessons Reference Manual">``: a colon glued to the words before it is no cut, and a heading
    and a colon is also a headline and its subtitle. The declared name makes it a cut."""
    tree = parse_html(heldout_page("gtk-doc", path))
    assert tree is not None
    assert declared_title(tree) == title


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("python/controlflow.html", "More Control Flow Tools"),
        ("postgresql/runtime-config-connection.html", "Connections and Authentication"),
        ("rust-book/ch03-02-data-types.html", "Data Types"),
        # The <title> names the chapter as the book's contents do ("A - Keywords"); the page's
        # <main> opens with its own heading.
        ("rust-book/appendix-01-keywords.html", "Appendix A: Keywords"),
    ],
)
def test_real_documentation_titles(path: str, title: str) -> None:
    """Real trees (tests/fixtures/realdocs): Sphinx writes a section's number in a span of its
    own, "4. " with its dot (``<span class="section-number">4. </span>More Control Flow Tools``);
    DocBook's stylesheet joins "20.3." to the words by a no-break space; mdBook's menu bar holds
    the book's name as the page's only ``<h1>``, the chapter beginning at its ``<h2>``
    (``<title>Data Types - The Rust Programming Language</title>``): 81 of 104 chapters were
    titled with the book's name."""
    tree = parse_html((OWN_FIXTURES / "realdocs" / path).read_text(encoding="utf-8"))
    assert tree is not None
    assert declared_title(tree) == title


def test_the_site_s_banner_is_cut_from_the_title() -> None:
    """Apache httpd's manual: "mod_allowmethods - Apache HTTP Server Version 2.4", where every
    page shows "Apache HTTP Server Version 2.4" as a line of its own at its top (``<p
    class="apache">``, no link, no heading), and the ``<h1>`` reads "Apache Module
    mod_allowmethods": the whole ``<title>`` was stored on 102 of the manual's pages."""
    html = (OWN_FIXTURES / "realdocs" / "apache" / "mod_allowmethods.html").read_text(encoding="utf-8")
    assert declared_title(parse_html(html)) == "mod_allowmethods"


def test_the_site_s_name_shown_first_is_cut_from_the_title() -> None:
    """Doxygen's manual (``doxygen-doc``): "Doxygen: Getting started", the project's name shown
    first in its named block (``<div id="projectname">Doxygen</div>``), then the page's title as
    a line of its own (``<div class="title">Getting started</div>``), no heading: the whole
    ``<title>`` was stored on all 68 of the manual's pages. A news page's kicker and headline,
    both shown, stay whole (the 945 pages' titles are unchanged)."""
    html = (OWN_FIXTURES / "realdocs" / "doxygen" / "starting.html").read_text(encoding="utf-8")
    assert declared_title(parse_html(html)) == "Getting started"


@pytest.mark.parametrize(
    ("path", "title"),
    [
        # "AnnotationUtils (Apache Commons Lang 3.12.0 API)" over the <h1> "Class AnnotationUtils"
        ("javadoc/FailableDoubleConsumer.html", "FailableDoubleConsumer"),
        ("javadoc/MultilineRecursiveToStringStyle.html", "MultilineRecursiveToStringStyle"),
    ],
)
def test_the_site_s_name_in_brackets_after_a_labelled_heading_is_cut(path: str, title: str) -> None:
    """Javadoc 17 (``libcommons-lang3-java-doc``): "FailableDoubleConsumer (Apache Commons Lang
    3.12.0 API)", whose ``<h1>`` is the page's kind, then its name and type parameters
    ("Interface FailableDoubleConsumer<E extends Throwable>"): the whole ``<title>``, the
    library's name in it, was stored on all 227 class pages."""
    html = (OWN_FIXTURES / "realdocs" / path).read_text(encoding="utf-8")
    assert declared_title(parse_html(html)) == title


def test_a_module_s_name_shown_over_a_part_s_heading_is_its_title() -> None:
    """Haddock (``ghc-doc``, GHC's ``base``): a module without text of its own shows its name as
    the caption of its header (``<p class="caption">Control.Category</p>``, the ``<title>``) and
    then its declarations under the part heading ``<h1>Documentation</h1>``: 119 module pages
    were titled "Documentation". A module whose text opens with a heading of its own is titled
    by it (the held-out Haddock site's guides)."""
    html = (OWN_FIXTURES / "realdocs" / "haddock" / "Control-Category.html").read_text(encoding="utf-8")
    assert declared_title(parse_html(html)) == "Control.Category"
    html = heldout_page("haddock", "SmallLessons-Guide-Install.html")
    assert declared_title(parse_html(html)) == "Installing the command-line tool"


def test_an_api_item_named_apart_from_its_module_is_titled_by_its_path() -> None:
    """rustdoc (``cargo-doc``, ``syn``): "While in syn::token - Rust" over the ``<h1>`` "Struct
    syn::token::While": the whole ``<title>`` was stored, the documentation's name with it, on
    syn's struct, enum, trait and function pages. The item's path is its title; a module's page, "syn::token -
    Rust", was titled by its path already."""
    html = (OWN_FIXTURES / "realdocs" / "rustdoc" / "struct.While.html").read_text(encoding="utf-8")
    assert declared_title(parse_html(html)) == "syn::token::While"
    tree = parse_html(heldout_page("rustdoc", "small_lessons/guide/index.html"))
    assert declared_title(tree) == "small_lessons::guide"
