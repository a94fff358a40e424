"""Doxygen 1.9 (API documentation for C and C++), its default HTML output: the held-out ``doxygen`` sources.

A small C library as Doxygen documents one (``include/lessons.h``: a ``@file`` comment, an
enum, a struct and four functions with ``@brief``, ``@param``, ``@return`` and ``@code`` …
``@endcode`` examples; CC0) and the corpus as Doxygen's Markdown pages (``pages/**.md`` in the
``INPUT``): each file starts with a level-1 header with a header id, ``# Title {#slug}``, which
Doxygen takes as the page's title and name (the page is ``<slug>.html``). ``pages/mainpage.md``
is the main page (``USE_MDFILE_AS_MAINPAGE``: ``index.html``), a welcome text whose sentences
name the three sections with ``@subpage``; each section page (``guide.md``, ``reference.md``,
``appendix.md``: a sentence and a ``@subpage`` list of its pages, the install page first in the
Guide) makes the tree of "Related Pages" (``pages.html``). About is a subpage of the main page.
Fenced code keeps the corpus' language names (```` ```python ````: Doxygen accepts the name with
or without ``{.…}``). The install page has no tabs (Doxygen has none): the two commands in turn,
the notes as ``@warning`` and ``@note`` paragraphs, the note's code block after it. The CSV post's
in-page links (``[Counting rows](#counting-rows)``) point at header ids given to its two headings
(``## Counting rows {#counting-rows}``), Doxygen's way of naming a section (its own ids are
``autotoc_mdN``). Doxygen has no drafts, dates, tags or feeds: the draft is left out.

``Doxyfile``: only what differs from ``doxygen -g``'s defaults (the project's name and brief, the
inputs, ``OPTIMIZE_OUTPUT_FOR_C``, the main page; ``HAVE_DOT = NO``: Debian's default is ``YES``
but Graphviz is only suggested by the package, and its graphs are images; ``GENERATE_LATEX = NO``),
plus the defaults the set relies on written out (``GENERATE_TREEVIEW = NO``, ``SEARCHENGINE =
YES``, ``SOURCE_BROWSER = NO``, ``HTML_TIMESTAMP = NO``).
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _write

SECTIONS = (
    ("guide", "Guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("reference", "Reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("appendix", "Appendix", "Field reports and short notes."),
)

#: No tabs in Doxygen: the two commands in turn, the notes as @warning and @note paragraphs.
DOXYGEN_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

@warning **Python 3.10 or later.** Older versions lack `zoneinfo`; the tool refuses to start on them.

@note The configuration lives in `~/.config/lessons/config.toml`:

```toml
[output]
color = true
```"""

LESSONS_H = """/**
 * @file lessons.h
 * @brief Small helpers behind the Small Lessons site: slugs, reading times and excerpts.
 *
 * The functions work on UTF-8 strings and never allocate: the caller gives the buffer.
 *
 * @code
 * #include "lessons.h"
 *
 * char slug[64];
 * lesson_slugify("Quick note", slug, sizeof slug);
 * @endcode
 *
 * @author Ana Lima
 * @copyright CC0-1.0
 */

#ifndef SMALL_LESSONS_H
#define SMALL_LESSONS_H

#include <stddef.h>
#include <time.h>

/**
 * @brief Where the site files a lesson.
 */
enum lesson_section {
    LESSON_GUIDE,     /**< Lessons to read first. */
    LESSON_REFERENCE, /**< Notes to look things up in. */
    LESSON_APPENDIX   /**< Field reports and short notes. */
};

/**
 * @brief One lesson of the site, as its front matter describes it.
 *
 * The strings are borrowed: a lesson owns none of them.
 */
struct lesson {
    const char *slug;            /**< The last part of the lesson's URL. */
    const char *title;           /**< The title, as written. */
    const char *date;            /**< The day it was published, `YYYY-MM-DD`. */
    enum lesson_section section; /**< Where the site files it. */
    const char *body;            /**< The Markdown body. */
};

/**
 * @brief Turns a title into the last part of a URL.
 *
 * Letters and digits are kept (ASCII ones lower-cased, others as they are); every run of other
 * characters becomes one hyphen, and no hyphen begins or ends the result.
 *
 * @param title The title, as written.
 * @param out The buffer the slug is written to, with its terminating null.
 * @param size The size of @p out in bytes.
 * @return The slug's length, or 0 when it does not fit in @p out.
 *
 * @code
 * char slug[64];
 * lesson_slugify("Rust vs Go | A field report - part 2", slug, sizeof slug);
 * // slug is "rust-vs-go-a-field-report-part-2"
 * @endcode
 */
size_t lesson_slugify(const char *title, char *out, size_t size);

/**
 * @brief Estimates how long a text takes to read.
 *
 * Words are runs of characters between spaces; a text in Chinese or Japanese, written without
 * spaces, counts each character as a word.
 *
 * @param text The text, Markdown or plain.
 * @param words_per_minute The reader's speed; 0 means 200.
 * @return Whole minutes, at least one.
 *
 * @code
 * unsigned minutes = lesson_reading_time(lesson.body, 0);
 * @endcode
 */
unsigned lesson_reading_time(const char *text, unsigned words_per_minute);

/**
 * @brief Copies the first paragraph of a Markdown body, cut at a word boundary.
 *
 * @param body The Markdown body.
 * @param out The buffer the excerpt is written to, with its terminating null.
 * @param length The longest excerpt, in bytes, the null included.
 * @return The excerpt's length; it ends in an ellipsis when it was cut.
 *
 * @code
 * char text[21];
 * lesson_excerpt("A generator is a function that remembers where it stopped.", text, sizeof text);
 * // text is "A generator is a…"
 * @endcode
 */
size_t lesson_excerpt(const char *body, char *out, size_t length);

/**
 * @brief Reads a lesson's date, as midnight UTC.
 *
 * @param value A date written `YYYY-MM-DD`.
 * @param date Where the date is stored; left alone on failure.
 * @return 0 on success, -1 when @p value is not a date.
 *
 * @code
 * struct tm day;
 * if (lesson_parse_date("2024-02-29", &day) == 0)
 *     printf("%d\\n", day.tm_mday);  // 29
 * @endcode
 */
int lesson_parse_date(const char *value, struct tm *date);

#endif /* SMALL_LESSONS_H */
"""

MAINPAGE = """# Small Lessons

Short programming lessons, and the small C library that builds their site.

Start with the @subpage guide, look things up in the @subpage reference, and read the field
reports in the @subpage appendix. Who writes them is on the @subpage about page.

The library's reference is the file lessons.h:

```c
#include "lessons.h"

char slug[64];
lesson_slugify("Quick note", slug, sizeof slug);
```

Released under CC0.
"""

DOXYFILE = """# Doxyfile 1.9.4: only what differs from `doxygen -g`, and the defaults the site relies on.
PROJECT_NAME           = "Small Lessons"
PROJECT_BRIEF          = "Short programming lessons, and the C library that builds their site."
OUTPUT_DIRECTORY       = build
OPTIMIZE_OUTPUT_FOR_C  = YES
INPUT                  = include pages
FILE_PATTERNS          = *.h *.md
RECURSIVE              = YES
USE_MDFILE_AS_MAINPAGE = pages/mainpage.md
QUIET                  = YES
# HTML, with Doxygen's defaults: no tree view, the JavaScript search, no source browser, no date.
GENERATE_HTML          = YES
GENERATE_TREEVIEW      = NO
SEARCHENGINE           = YES
SOURCE_BROWSER         = NO
HTML_TIMESTAMP         = NO
GENERATE_LATEX         = NO
# Debian's doxygen defaults to YES, but Graphviz (dot) is only suggested: its graphs are images.
HAVE_DOT               = NO
"""

#: The CSV post's two in-page links point at these headings: Doxygen header ids.
HEADER_IDS = {"## Counting rows": "counting-rows", "## Aggregating by chunk": "aggregating-by-chunk"}


def _page(label: str, title: str, body: str) -> str:
    """A Markdown page: the level-1 header with its id (the page's title and name), the body."""
    for heading, anchor in HEADER_IDS.items():
        body = body.replace(f"\n{heading}\n", f"\n{heading} {{#{anchor}}}\n")
    return f"# {title} {{#{label}}}\n\n{body}"


def _post(p: Post) -> str:
    return _page(p.slug, p.title, p.body)


def section_page(slug: str, title: str, intro: str) -> str:
    """A section: its sentence and the list of its pages (``@subpage``), in the corpus' order."""
    children = ["install"] if slug == "guide" else []
    children += [p.slug for p in published() if DOC_SECTIONS[p.slug] == slug]
    return _page(slug, title, intro + "\n\n" + "".join(f"- @subpage {c}\n" for c in children))


def doxygen() -> None:
    """``Doxyfile``, ``include/lessons.h``, ``pages/mainpage.md``, ``pages/<section>.md``,
    ``pages/<section>/<slug>.md`` per post (the install page in ``guide/``) and ``pages/about.md``."""
    src = _fresh("doxygen")
    pages = src / "pages"
    _write(pages / "mainpage.md", MAINPAGE)
    for slug, title, intro in SECTIONS:
        _write(pages / f"{slug}.md", section_page(slug, title, intro))
    install = _install_page(DOXYGEN_TABS)
    _write(pages / "guide" / "install.md", _page("install", INSTALL_TITLE, install.split("\n", 2)[2]))
    for p in published():
        _write(pages / DOC_SECTIONS[p.slug] / f"{p.slug}.md", _post(p))
    _write(pages / "about.md", _post(ABOUT))
    _write(src / "include" / "lessons.h", LESSONS_H)
    _write(src / "Doxyfile", DOXYFILE)
