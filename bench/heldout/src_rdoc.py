"""RDoc 6.4 (Ruby's own documentation tool), its default generator (Darkfish): the held-out ``rdoc`` sources.

    python bench/heldout/write_sources.py rdoc

A small Ruby library as RDoc documents one, its comments in Markdown (``--markup markdown``, as
a project whose pages are Markdown sets it): ``lib/small_lessons.rb`` (the module
``SmallLessons`` with four module functions and two constants, a ``Lesson`` struct, a
``LessonIndex`` class; a ``:call-seq:`` directive, examples as indented code, cross-references
to ``SmallLessons::LessonIndex`` and ``#add``), ``README.md`` the About text (RDoc's main page,
``--main README.md``: ``index.html``) and the corpus posts as RDoc pages, Markdown files under
``doc/<section>/<slug>.md`` (RDoc renders every ``*.md`` file it is given as a page,
``doc/<section>/<slug>_md.html``, and lists it under "Pages" in the sidebar and in
``table_of_contents.html``). RDoc names a page by its file's name (the ``<title>`` is ``<name> -
Small Lessons``); the post's title is its ``#`` heading, the first line of the file, and its
date, as a book's author writes it in the text, a line of its own in italics under it
(``*Published 2023-01-15*``; none on About and the install page). RDoc's Markdown has no tabs or
admonitions: the install page's two commands in turn, its notes as block quotes. RDoc has no
dates, tags, drafts, feeds or sitemap: the draft is left out.
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from src_yard import YARD_TABS
from write_sources import _fresh, _install_page, _write

SECTIONS = ("guide", "reference", "appendix")

LIB = """# frozen_string_literal: true

require "date"

# Small helpers behind the Small Lessons site: slugs, reading times, excerpts and an index of
# lessons by tag.
#
# The lessons themselves are the pages of this documentation, listed under "Pages".
#
# Index two lessons and find one by tag:
#
#     index = SmallLessons::LessonIndex.new
#     index.add(SmallLessons::Lesson.new("quick-note", "Quick note", "2023-06-01", ["releases"], ""))
#     index.by_tag("releases").map(&:title) #=> ["Quick note"]
#
# Written by Ana Lima; since version 1.0.0.
module SmallLessons
  # The library's version.
  VERSION = "1.0.0"

  # Words a reader reads in a minute, unless told otherwise.
  WORDS_PER_MINUTE = 200

  # One lesson of the site, as its front matter describes it: its `slug` (the last part of its
  # URL), `title`, `date` (`YYYY-MM-DD`), `tags` (in the order the author gave them) and `body`
  # (the Markdown text).
  Lesson = Struct.new(:slug, :title, :date, :tags, :body)

  module_function

  # Turns a title into the last part of a URL.
  #
  # Letters and digits of any script are kept (lower-cased); every run of other characters
  # becomes one hyphen, and no hyphen begins or ends the result.
  #
  #     SmallLessons.slugify("Rust vs Go | A field report - part 2")
  #     #=> "rust-vs-go-a-field-report-part-2"
  def slugify(title)
    title.downcase.gsub(/[^\\p{L}\\p{N}]+/, "-").gsub(/\\A-+|-+\\z/, "")
  end

  # :call-seq:
  #   reading_time(text) -> integer
  #   reading_time(text, words_per_minute) -> integer
  #
  # Estimates how long a text takes to read, in whole minutes, at least one.
  #
  # Words are runs of characters between spaces; a text in Chinese or Japanese, written without
  # spaces, counts each character as a word.
  #
  #     SmallLessons.reading_time("word " * 450) #=> 3
  def reading_time(text, words_per_minute = WORDS_PER_MINUTE)
    words = text.split.size
    [1, (words.to_f / words_per_minute).ceil].max
  end

  # The first paragraph of a Markdown `body`, cut at a word boundary.
  #
  # Options:
  #
  # - `:length`: the longest excerpt, in characters (160)
  # - `:ellipsis`: what ends an excerpt that was cut (`"…"`)
  #
  # For example:
  #
  #     SmallLessons.excerpt("A generator is a function that remembers where it stopped.", length: 20)
  #     #=> "A generator is a…"
  def excerpt(body, options = {})
    length = options.fetch(:length, 160)
    first = body.strip.split(/\\n\\s*\\n/).first.to_s.gsub(/\\s+/, " ")
    return first if first.length <= length

    first[0, first.rindex(" ", length) || length] + options.fetch(:ellipsis, "…")
  end

  # Reads a lesson's date, written `YYYY-MM-DD`; raises ArgumentError when the value is not a
  # date.
  #
  #     SmallLessons.parse_date("2024-02-29").leap? #=> true
  def parse_date(value)
    Date.strptime(value, "%Y-%m-%d")
  rescue Date::Error
    raise ArgumentError, "not a date: #{value}"
  end

  # The lessons of a site, newest first, looked up by tag.
  #
  # Adding a lesson keeps the order; a lesson added twice (the same slug) replaces the first.
  # Its lessons are Lesson structs; their slugs come from SmallLessons.slugify.
  #
  #     index = SmallLessons::LessonIndex.new
  #     index.add(SmallLessons::Lesson.new("quick-note", "Quick note", "2023-06-01", ["releases"], ""))
  #     index.newest(1).first.title #=> "Quick note"
  class LessonIndex
    include Enumerable

    # A new index holding `lessons` (any Enumerable of Lesson), each added by #add.
    def initialize(lessons = [])
      @lessons = []
      lessons.each { |lesson| add(lesson) }
    end

    # How many lessons the index holds.
    def size
      @lessons.size
    end

    # Adds a lesson, or replaces the one with the same slug; returns the index itself, to chain
    # calls.
    def add(lesson)
      @lessons.reject! { |known| known.slug == lesson.slug }
      @lessons << lesson
      @lessons.sort_by! { |known| known.date }.reverse!
      self
    end
    alias << add

    # :call-seq:
    #   each { |lesson| ... } -> self
    #   each -> enumerator
    #
    # Calls the block once for each lesson, newest first.
    def each(&block)
      return enum_for(:each) unless block

      @lessons.each(&block)
      self
    end

    # The lessons with a tag (as written in the front matter), newest first; possibly none.
    def by_tag(tag)
      @lessons.select { |lesson| lesson.tags.include?(tag) }
    end

    # At most `count` of the newest lessons, newest first.
    def newest(count = 5)
      @lessons.first(count)
    end
  end
end
"""


def _page(p: Post) -> str:
    """The post's title as the page's ``#`` heading, its date a line of its own, the text."""
    dated = f"*Published {p.date}*\n\n" if p.date else ""
    return f"# {p.title}\n\n{dated}{p.body}"


def rdoc() -> None:
    """``README.md`` (About), ``doc/<section>/<slug>.md`` per published post and
    ``doc/guide/install.md``, ``lib/small_lessons.rb``."""
    src = _fresh("rdoc")
    _write(src / "README.md", f"# {ABOUT.title}\n\n{ABOUT.body}")
    _write(src / "doc" / "guide" / "install.md", _install_page(YARD_TABS))
    for p in published():
        _write(src / "doc" / DOC_SECTIONS[p.slug] / f"{p.slug}.md", _page(p))
    _write(src / "lib" / "small_lessons.rb", LIB)
