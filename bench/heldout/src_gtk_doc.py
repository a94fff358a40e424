"""gtk-doc 1.33 (GNOME's C API documentation tool, DocBook-based): the held-out ``gtk-doc`` sources.

A small C library as a GLib-style project documents one with gtk-doc (CC0): ``small-lessons/``
holds the public header ``small-lessons.h`` (the ``SlLesson`` struct and the ``SlSection`` enum,
documented by gtk-doc comments in the header) and two source files whose comments document the
functions and hold the ``SECTION:`` comments (``lesson.c``: the lesson record, ``text.c``: slugs,
reading times, excerpts): ``Returns:``, ``Since:``, ``Deprecated:``, introspection annotations
(``(nullable)``, ``(out caller-allocates)``…) and ``|[<!-- language="C" --> … ]|`` examples.

``docs/`` is the documentation module as gtk-doc's manual lays one out: ``small-lessons-docs.xml``
(the main DocBook file, after the template ``gtkdoc-mkdb`` writes: a ``<book>`` with its
``<bookinfo>``, hand-written parts XIncluded, the API reference's ``xml/*.xml`` that gtkdoc-mkdb
generates, the API index, the indexes of deprecated symbols and of new symbols in 1.2 and the
annotation glossary), ``small-lessons-sections.txt`` (the symbols of each API page, kept by hand
as the manual asks) and the hand-written chapters, one file a post, each a DocBook 4.5
``<chapter>`` valid on its own (its own DOCTYPE, as GTK's and GLib's hand-written chapters are):
``about.xml`` the book's ``<preface>``, then three ``<part>``s (Guide, Reference, Appendix, each a
``<partintro>``) of ``docs/<section>/<slug>.xml`` chapters (the install page the Guide's first).
A post's date is its ``<chapterinfo><pubdate>``, which the stylesheets show under the chapter's
title (``<p class="pubdate">``); its tags are a ``<keywordset>`` (the page's ``<meta
name="keywords">``). gtk-doc has no tags, categories, feeds or drafts: the draft is left out.

The posts' Markdown is written out in DocBook by ``src_docbook.body_docbook``, then fitted to
gtk-doc: the ``##`` headings are ``<simplesect>``s, not ``<section>``s (DocBook XSL chunks a
chapter's top-level sections into pages of their own, and gtk-doc keeps the default
``chunk.section.depth``: a post stays one page), and each code block is an ``<informalexample>``
around its ``<programlisting language="…">``, the form gtk-doc's own manual and mkdb's ``|[ ]|``
use (gtkdoc-fixxref colours those, with line numbers). XML 1.0 allows no U+0008 backspace: it is
dropped.

    python bench/heldout/write_sources.py gtk-doc
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from src_docbook import INSTALL, body_docbook, escape
from write_sources import INSTALL_TITLE, _fresh, _write

MODULE = "small-lessons"

SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)

CHAPTER_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE {kind} PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"
               "http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd">
"""


def gtkdoc_body(body: str, prefix: str) -> str:
    """The post's body in DocBook, its ``##`` headings ``<simplesect>``s and its code blocks
    ``<informalexample>``s (the escaped text holds no ``<`` of its own: plain replacements)."""
    xml = body_docbook(body, prefix)
    xml = xml.replace("<section id=", "<simplesect id=").replace("</section>", "</simplesect>")
    xml = xml.replace("<programlisting", "<informalexample><programlisting")
    return xml.replace("</programlisting>", "</programlisting></informalexample>")


def chapter(p: Post) -> str:
    keywords = "".join(f"<keyword>{escape(t)}</keyword>" for t in p.tags)
    return (
        CHAPTER_HEAD.format(kind="chapter")
        + f'<chapter id="{p.slug}">\n'
        + f"<chapterinfo>\n<pubdate>{p.date}</pubdate>\n<keywordset>{keywords}</keywordset>\n</chapterinfo>\n"
        + f"<title>{escape(p.title)}</title>\n"
        + gtkdoc_body(p.body, p.slug)
        + "</chapter>\n"
    )


def install_chapter() -> str:
    body = INSTALL.replace("<programlisting", "<informalexample><programlisting")
    body = body.replace("</programlisting>", "</programlisting></informalexample>")
    return (
        CHAPTER_HEAD.format(kind="chapter")
        + f'<chapter id="install">\n<title>{INSTALL_TITLE}</title>\n'
        + body
        + "</chapter>\n"
    )


def about_preface() -> str:
    return (
        CHAPTER_HEAD.format(kind="preface")
        + f'<preface id="{ABOUT.slug}">\n<title>{escape(ABOUT.title)}</title>\n'
        + gtkdoc_body(ABOUT.body, ABOUT.slug)
        + "</preface>\n"
    )


def main_xml(by_section: dict[str, list[Post]]) -> str:
    """``small-lessons-docs.xml``: gtkdoc-mkdb's template filled in (no ``gtkdocentities.ent``:
    the build system that writes it is not used; the names are written out)."""
    parts = []
    for title, key, text in SECTIONS:
        files = (["guide/install.xml"] if key == "guide" else []) + [
            f"{key}/{p.slug}.xml" for p in by_section[key]
        ]
        includes = "".join(f'    <xi:include href="{f}"/>\n' for f in files)
        parts.append(
            f'  <part id="{key}">\n    <title>{title}</title>\n'
            f"    <partintro>\n      <para>{escape(text)}</para>\n    </partintro>\n{includes}  </part>\n"
        )
    return (
        """<?xml version="1.0"?>
<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"
               "http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd"
[
  <!ENTITY % local.common.attrib "xmlns:xi  CDATA  #FIXED 'http://www.w3.org/2003/XInclude'">
]>
<book id="index" xmlns:xi="http://www.w3.org/2003/XInclude">
  <bookinfo>
    <title>Small Lessons Reference Manual</title>
    <releaseinfo>
      for Small Lessons 1.2.
      The latest version of this documentation can be found on-line at
      <ulink role="online-location" url="https://gtk-doc.heldout.example/">https://gtk-doc.heldout.example/</ulink>.
    </releaseinfo>
    <authorgroup>
      <author><firstname>Ana</firstname><surname>Lima</surname></author>
    </authorgroup>
    <copyright><year>2024</year><holder>Ana Lima</holder></copyright>
    <legalnotice>
      <para>Dedicated to the public domain (CC0 1.0): copy, change and share it freely.</para>
    </legalnotice>
  </bookinfo>

  <xi:include href="about.xml"/>
"""
        + "".join(parts)
        + """  <reference id="api-reference">
    <title>API Reference</title>
    <partintro>
      <para>The C library behind the site's tools: the lesson record and its text helpers.</para>
    </partintro>
    <xi:include href="xml/lesson.xml"/>
    <xi:include href="xml/text.xml"/>
  </reference>
  <index id="api-index-full">
    <title>API Index</title>
    <xi:include href="xml/api-index-full.xml"><xi:fallback /></xi:include>
  </index>
  <index id="deprecated-api-index" role="deprecated">
    <title>Index of deprecated API</title>
    <xi:include href="xml/api-index-deprecated.xml"><xi:fallback /></xi:include>
  </index>
  <index id="api-index-1-2" role="1.2">
    <title>Index of new API in 1.2</title>
    <xi:include href="xml/api-index-1.2.xml"><xi:fallback /></xi:include>
  </index>
  <xi:include href="xml/annotation-glossary.xml"><xi:fallback /></xi:include>
</book>
"""
    )


SECTIONS_TXT = """<SECTION>
<FILE>lesson</FILE>
<TITLE>SlLesson</TITLE>
SlLesson
SlSection
sl_lesson_init
sl_lesson_is_published
sl_lesson_compare_dates
</SECTION>

<SECTION>
<FILE>text</FILE>
<TITLE>Text helpers</TITLE>
SL_SLUG_MAX
sl_slugify
sl_reading_time
sl_excerpt
sl_word_count
</SECTION>
"""

HEADER = """/* small-lessons.h: the helpers behind the Small Lessons site.
 *
 * Written by Ana Lima; dedicated to the public domain (CC0 1.0).
 */

#ifndef SMALL_LESSONS_H
#define SMALL_LESSONS_H

#include <stddef.h>

/**
 * SL_SLUG_MAX:
 *
 * The size of a buffer that holds any slug sl_slugify() writes, its terminating null
 * included.
 *
 * Since: 1.2
 */
#define SL_SLUG_MAX 96

/**
 * SlSection:
 * @SL_SECTION_GUIDE: lessons to read first.
 * @SL_SECTION_REFERENCE: notes to look things up in.
 * @SL_SECTION_APPENDIX: field reports and short notes.
 *
 * Where the site files a lesson.
 */
typedef enum {
  SL_SECTION_GUIDE,
  SL_SECTION_REFERENCE,
  SL_SECTION_APPENDIX
} SlSection;

/**
 * SlLesson:
 * @slug: the last part of the lesson's URL.
 * @title: the title, as written.
 * @date: the day it was published, `YYYY-MM-DD`, or `NULL` for a draft.
 * @section: where the site files it.
 * @body: the Markdown body.
 *
 * One lesson of the site, as its front matter describes it. The strings are borrowed: a
 * lesson owns none of them.
 */
typedef struct _SlLesson SlLesson;

struct _SlLesson {
  const char *slug;
  const char *title;
  const char *date;
  SlSection   section;
  const char *body;
};

void    sl_lesson_init          (SlLesson       *lesson,
                                 const char     *slug,
                                 const char     *title,
                                 const char     *date,
                                 SlSection       section,
                                 const char     *body);
int     sl_lesson_is_published  (const SlLesson *lesson);
int     sl_lesson_compare_dates (const SlLesson *a,
                                 const SlLesson *b);

size_t  sl_slugify              (const char     *title,
                                 char           *out,
                                 size_t          size);
unsigned int sl_reading_time    (const char     *text,
                                 unsigned int    words_per_minute);
const char *sl_excerpt          (const char     *body,
                                 size_t         *length);

#ifndef SL_DISABLE_DEPRECATED
unsigned int sl_word_count      (const char     *text);
#endif

#endif /* SMALL_LESSONS_H */
"""

LESSON_C = """/* lesson.c: the lesson record.
 *
 * Written by Ana Lima; dedicated to the public domain (CC0 1.0).
 */

#include <string.h>

#include "small-lessons.h"

/**
 * SECTION:lesson
 * @title: SlLesson
 * @short_description: one lesson of the site
 * @include: small-lessons.h
 * @see_also: #SlSection, sl_slugify()
 *
 * A #SlLesson is one lesson of the site: its slug, title, date, section and body, as its
 * front matter describes it. The strings are borrowed from the caller, who keeps them alive
 * as long as the lesson is used.
 *
 * |[<!-- language="C" -->
 * SlLesson lesson;
 *
 * sl_lesson_init (&lesson, "quick-note-release", "Quick note", "2023-06-01",
 *                 SL_SECTION_REFERENCE, "Version 2.0 is out.");
 * if (sl_lesson_is_published (&lesson))
 *   printf ("%s\\n", lesson.title);
 * ]|
 */

/**
 * sl_lesson_init:
 * @lesson: (out caller-allocates): the lesson to fill in
 * @slug: the last part of the lesson's URL
 * @title: the title, as written
 * @date: (nullable): the day it was published, `YYYY-MM-DD`, or `NULL` for a draft
 * @section: where the site files it
 * @body: the Markdown body
 *
 * Fills in @lesson. Nothing is copied: the strings must outlive the lesson.
 */
void
sl_lesson_init (SlLesson   *lesson,
                const char *slug,
                const char *title,
                const char *date,
                SlSection   section,
                const char *body)
{
  lesson->slug = slug;
  lesson->title = title;
  lesson->date = date;
  lesson->section = section;
  lesson->body = body;
}

/**
 * sl_lesson_is_published:
 * @lesson: a #SlLesson
 *
 * Tells whether @lesson is published: a lesson without a date is a draft, which the site
 * leaves out.
 *
 * Returns: 1 when @lesson has a date, 0 when it is a draft
 */
int
sl_lesson_is_published (const SlLesson *lesson)
{
  return lesson->date != NULL;
}

/**
 * sl_lesson_compare_dates:
 * @a: a published #SlLesson
 * @b: another published #SlLesson
 *
 * Compares two lessons by date, the newest first, as the site's lists show them; a
 * comparison function for qsort().
 *
 * Returns: a negative number when @a is newer than @b, 0 when they were published the same
 *   day, a positive number otherwise
 *
 * Since: 1.2
 */
int
sl_lesson_compare_dates (const SlLesson *a,
                         const SlLesson *b)
{
  return strcmp (b->date, a->date);
}
"""

TEXT_C = """/* text.c: slugs, reading times and excerpts.
 *
 * Written by Ana Lima; dedicated to the public domain (CC0 1.0).
 */

#include <ctype.h>
#include <string.h>

#include "small-lessons.h"

/**
 * SECTION:text
 * @title: Text helpers
 * @short_description: slugs, reading times and excerpts
 * @include: small-lessons.h
 *
 * The text helpers work on UTF-8 strings and never allocate: the caller gives the buffer.
 * Bytes outside ASCII are kept as they are, so a slug may hold letters of any script.
 */

/**
 * sl_slugify:
 * @title: the title, as written
 * @out: (out caller-allocates) (array length=size): the buffer the slug is written to,
 *   with its terminating null
 * @size: the size of @out in bytes
 *
 * Turns a title into the last part of a URL. Letters and digits are kept (ASCII ones
 * lower-cased, others as they are); every run of other characters becomes one hyphen, and no
 * hyphen begins or ends the result.
 *
 * |[<!-- language="C" -->
 * char slug[SL_SLUG_MAX];
 *
 * sl_slugify ("Rust vs Go | A field report - part 2", slug, sizeof slug);
 * // slug is "rust-vs-go-a-field-report-part-2"
 * ]|
 *
 * Returns: the slug's length, or 0 when it does not fit in @out
 */
size_t
sl_slugify (const char *title,
            char       *out,
            size_t      size)
{
  size_t n = 0;
  int hyphen = 0;

  for (; *title != '\\0'; title++)
    {
      unsigned char c = (unsigned char) *title;

      if (isalnum (c) || c >= 0x80)
        {
          if (hyphen && n > 0)
            {
              if (n + 1 >= size)
                return 0;
              out[n++] = '-';
            }
          hyphen = 0;
          if (n + 1 >= size)
            return 0;
          out[n++] = (char) tolower (c);
        }
      else
        hyphen = 1;
    }
  if (size == 0)
    return 0;
  out[n] = '\\0';
  return n;
}

/**
 * sl_word_count:
 * @text: a UTF-8 text
 *
 * Counts the words of @text: the runs of characters between spaces.
 *
 * Returns: the number of words
 *
 * Deprecated: 1.2: Use sl_reading_time(), which counts the same words and says what they
 *   mean for the reader.
 */
unsigned int
sl_word_count (const char *text)
{
  unsigned int words = 0;
  int in_word = 0;

  for (; *text != '\\0'; text++)
    {
      if (isspace ((unsigned char) *text))
        in_word = 0;
      else if (!in_word)
        {
          in_word = 1;
          words++;
        }
    }
  return words;
}

/**
 * sl_reading_time:
 * @text: a UTF-8 text
 * @words_per_minute: the reader's speed; 0 for the site's default, 200
 *
 * Tells how long @text takes to read, rounded up to the minute.
 *
 * Returns: the reading time in minutes, at least 1
 */
unsigned int
sl_reading_time (const char   *text,
                 unsigned int  words_per_minute)
{
  unsigned int words = sl_word_count (text);
  unsigned int speed = words_per_minute ? words_per_minute : 200;

  return words == 0 ? 1 : (words + speed - 1) / speed;
}

/**
 * sl_excerpt:
 * @body: a lesson's Markdown body
 * @length: (out) (optional): where to store the excerpt's length in bytes, or `NULL`
 *
 * Finds the excerpt of a lesson: its first paragraph, which the site's lists show under the
 * title.
 *
 * Returns: (transfer none) (nullable): the excerpt's first byte, inside @body, or `NULL` when
 *   @body is empty
 *
 * Since: 1.2
 */
const char *
sl_excerpt (const char *body,
            size_t     *length)
{
  const char *end;

  while (*body == '\\n')
    body++;
  if (*body == '\\0')
    return NULL;
  end = strstr (body, "\\n\\n");
  if (length != NULL)
    *length = end ? (size_t) (end - body) : strlen (body);
  return body;
}
"""


def gtk_doc() -> None:
    src = _fresh("gtk-doc")
    _write(src / MODULE / "small-lessons.h", HEADER)
    _write(src / MODULE / "lesson.c", LESSON_C)
    _write(src / MODULE / "text.c", TEXT_C)
    docs = src / "docs"
    by_section: dict[str, list[Post]] = {}
    for p in published():
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append(p)
        _write(docs / DOC_SECTIONS[p.slug] / f"{p.slug}.xml", chapter(p))
    _write(docs / "guide" / "install.xml", install_chapter())
    _write(docs / "about.xml", about_preface())
    _write(docs / f"{MODULE}-docs.xml", main_xml(by_section))
    _write(docs / f"{MODULE}-sections.txt", SECTIONS_TXT)
