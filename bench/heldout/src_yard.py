"""YARD 0.9 (API documentation for Ruby), its default template: the held-out ``yard`` sources.

A small Ruby library as YARD documents one (``lib/small_lessons.rb``: the module
``SmallLessons`` with four module functions, a ``Lesson`` struct and a ``LessonIndex`` class,
their docs in YARD's tags: ``@param``, ``@option``, ``@return``, ``@raise``, ``@example``,
``@see``, ``@since``, ``@author``, ``@!attribute``, ``{SmallLessons::LessonIndex}`` links), its
``README.md`` the About text (YARD's index page, ``--readme``), and the corpus posts as YARD's
extra files (``docs/guide/*.md``, ``docs/reference/*.md``, ``docs/appendix/*.md``: the files
after the ``-`` in ``.yardopts``, each written as ``file.<name>.html``). Each extra file starts
with YARD's file header, ``# @title <post title>`` (the title of the file list and of the page's
``<title>``), then, as YARD's own docs/*.md do, a blank line and the title again as the text's
``#`` heading. ``.yardopts`` holds the command line (``--markup markdown --markup-provider
redcarpet``, the title, the README, the Ruby files, ``-`` and the extra files in order: the
install page first in the Guide, then each section's posts in the corpus' order), as a project
keeps it for ``yard doc`` and rubydoc.info. Redcarpet has no tabs or admonitions: the install
page's two commands in turn, the notes as block quotes. YARD has no dates, tags, drafts or feeds:
the draft is left out.
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _write

SECTIONS = ("guide", "reference", "appendix")

#: No tabs or admonitions in Redcarpet's Markdown: the two commands in turn, the notes as quotes.
YARD_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

> **Warning: Python 3.10 or later.** Older versions lack `zoneinfo`; the tool refuses to start on them.

> **Note:** the configuration lives in `~/.config/lessons/config.toml`:
>
> ```toml
> [output]
> color = true
> ```"""

LIB = """# frozen_string_literal: true

require "date"

# Small helpers behind the Small Lessons site: slugs, reading times, excerpts and an index of
# lessons by tag.
#
# The lessons themselves are the extra files of this documentation, listed under "Files".
#
# @example Index two lessons and find one by tag
#   index = SmallLessons::LessonIndex.new
#   index.add(SmallLessons::Lesson.new("quick-note", "Quick note", "2023-06-01", ["releases"], ""))
#   index.by_tag("releases").map(&:title) #=> ["Quick note"]
#
# @author Ana Lima
# @since 1.0.0
module SmallLessons
  # The library's version.
  VERSION = "1.0.0"

  # Words a reader reads in a minute, unless told otherwise.
  WORDS_PER_MINUTE = 200

  # One lesson of the site, as its front matter describes it.
  #
  # @!attribute [rw] slug
  #   @return [String] the last part of the lesson's URL
  # @!attribute [rw] title
  #   @return [String] the title, as written
  # @!attribute [rw] date
  #   @return [String] the day it was published, +YYYY-MM-DD+
  # @!attribute [rw] tags
  #   @return [Array<String>] its tags, in the order the author gave them
  # @!attribute [rw] body
  #   @return [String] the Markdown body
  Lesson = Struct.new(:slug, :title, :date, :tags, :body)

  module_function

  # Turns a title into the last part of a URL.
  #
  # Letters and digits of any script are kept (lower-cased); every run of other characters
  # becomes one hyphen, and no hyphen begins or ends the result.
  #
  # @param title [String] the title, as written
  # @return [String] the slug: lower-case letters, digits and single hyphens
  # @example
  #   SmallLessons.slugify("Rust vs Go | A field report - part 2")
  #   #=> "rust-vs-go-a-field-report-part-2"
  def slugify(title)
    title.downcase.gsub(/[^\\p{L}\\p{N}]+/, "-").gsub(/\\A-+|-+\\z/, "")
  end

  # Estimates how long a text takes to read.
  #
  # Words are runs of characters between spaces; a text in Chinese or Japanese, written without
  # spaces, counts each character as a word.
  #
  # @param text [String] the text, Markdown or plain
  # @param words_per_minute [Integer] the reader's speed
  # @return [Integer] whole minutes, at least one
  # @example
  #   SmallLessons.reading_time("word " * 450) #=> 3
  def reading_time(text, words_per_minute = WORDS_PER_MINUTE)
    words = text.split.size
    [1, (words.to_f / words_per_minute).ceil].max
  end

  # The first paragraph of a Markdown body, cut at a word boundary.
  #
  # @param body [String] the Markdown body
  # @param options [Hash] how to cut it
  # @option options [Integer] :length (160) the longest excerpt, in characters
  # @option options [String] :ellipsis ("…") what ends an excerpt that was cut
  # @return [String] the excerpt
  # @example
  #   SmallLessons.excerpt("A generator is a function that remembers where it stopped.", length: 20)
  #   #=> "A generator is a…"
  def excerpt(body, options = {})
    length = options.fetch(:length, 160)
    first = body.strip.split(/\\n\\s*\\n/).first.to_s.gsub(/\\s+/, " ")
    return first if first.length <= length

    first[0, first.rindex(" ", length) || length] + options.fetch(:ellipsis, "…")
  end

  # Reads a lesson's date.
  #
  # @param value [String] a date written +YYYY-MM-DD+
  # @return [Date] the date
  # @raise [ArgumentError] when the value is not a date
  # @example
  #   SmallLessons.parse_date("2024-02-29").leap? #=> true
  def parse_date(value)
    Date.strptime(value, "%Y-%m-%d")
  rescue Date::Error
    raise ArgumentError, "not a date: #{value}"
  end

  # The lessons of a site, newest first, looked up by tag.
  #
  # Adding a lesson keeps the order; a lesson added twice (the same slug) replaces the first.
  # Its lessons are {Lesson} structs.
  #
  # @example
  #   index = SmallLessons::LessonIndex.new
  #   index.add(SmallLessons::Lesson.new("quick-note", "Quick note", "2023-06-01", ["releases"], ""))
  #   index.newest(1).first.title #=> "Quick note"
  # @see SmallLessons.slugify
  class LessonIndex
    include Enumerable

    # @param lessons [Enumerable<Lesson>] the lessons to start with
    def initialize(lessons = [])
      @lessons = []
      lessons.each { |lesson| add(lesson) }
    end

    # How many lessons the index holds.
    #
    # @return [Integer]
    def size
      @lessons.size
    end

    # Adds a lesson, or replaces the one with the same slug.
    #
    # @param lesson [Lesson] the lesson
    # @return [self] the index itself, to chain calls
    def add(lesson)
      @lessons.reject! { |known| known.slug == lesson.slug }
      @lessons << lesson
      @lessons.sort_by! { |known| known.date }.reverse!
      self
    end
    alias << add

    # Calls the block once for each lesson, newest first.
    #
    # @yieldparam lesson [Lesson] a lesson
    # @return [Enumerator, self] an enumerator without a block
    def each(&block)
      return enum_for(:each) unless block

      @lessons.each(&block)
      self
    end

    # The lessons with a tag, newest first.
    #
    # @param tag [String] the tag, as written in the front matter
    # @return [Array<Lesson>] the lessons, possibly none
    def by_tag(tag)
      @lessons.select { |lesson| lesson.tags.include?(tag) }
    end

    # The newest lessons.
    #
    # @param count [Integer] how many
    # @return [Array<Lesson>] at most +count+ lessons, newest first
    def newest(count = 5)
      @lessons.first(count)
    end
  end
end
"""

#: The project's title, shown in every page's <title> and the index's heading.
TITLE = "Small Lessons"


def _extra_file(title: str, body: str) -> str:
    """An extra file as YARD's own docs write one: the ``@title`` header, then the title again as
    the text's heading."""
    return f"# @title {title}\n\n# {title}\n\n{body}"


def _readme() -> str:
    """About: the README, YARD's index page (its file header names it "About" in the file list)."""
    return _extra_file(ABOUT.title, ABOUT.body)


def _post(p: Post) -> str:
    return _extra_file(p.title, p.body)


def extra_files() -> list[str]:
    """The extra files in the order of ``.yardopts`` (the file list's): the install page first in
    the Guide, then each section's posts in the corpus' order."""
    files: list[str] = []
    for section in SECTIONS:
        if section == "guide":
            files.append("docs/guide/install.md")
        files += [f"docs/{section}/{p.slug}.md" for p in published() if DOC_SECTIONS[p.slug] == section]
    return files


def yardopts() -> str:
    lines = [
        "--markup markdown",
        "--markup-provider redcarpet",
        f'--title "{TITLE}"',
        "--readme README.md",
        "--output-dir doc",
        "lib/**/*.rb",
        "-",
        *extra_files(),
    ]
    return "\n".join(lines) + "\n"


def yard() -> None:
    """``README.md`` (About), ``docs/<section>/<slug>.md`` per published post and
    ``docs/guide/install.md``, ``lib/small_lessons.rb``, ``.yardopts``."""
    src = _fresh("yard")
    _write(src / "README.md", _readme())
    install = _install_page(YARD_TABS)
    _write(src / "docs" / "guide" / "install.md", _extra_file(INSTALL_TITLE, install.split("\n", 2)[2]))
    for p in published():
        _write(src / "docs" / DOC_SECTIONS[p.slug] / f"{p.slug}.md", _post(p))
    _write(src / "lib" / "small_lessons.rb", LIB)
    _write(src / ".yardopts", yardopts())
