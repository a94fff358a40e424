"""Haddock 2.25 (API documentation for Haskell, Hackage's), its default theme: the held-out
``haddock`` sources.

A small Haskell library, ``small-lessons``, as Haddock documents one: ``haddock --html`` run on
its modules (no ``.cabal`` file, no Hackage download), the prologue (``prologue.txt``: the About
text) the contents page's text. One module per post, ``SmallLessons.Guide.*``,
``SmallLessons.Reference.*``, ``SmallLessons.Appendix.*`` (the docs sections; the module name the
slug in CamelCase), the install page first in the Guide (``SmallLessons.Guide.Install``). A post
is its module's header, a ``-- |`` comment: the Haskell header fields (``Module``,
``Description`` (the post's title: the contents page shows it beside the module's name),
``Copyright``, ``License``, ``Maintainer``, ``Stability``), then the post in Haddock markup: its
title as a level-1 heading (``= Title``), the date a line in emphasis under it
(``/Published: 2023-01-15/``: Haddock has no date field; the page's only date), ``##`` sections
as ``== Section``, fenced code as bird tracks (``> code``: Haddock renders them as a bare
``<pre>``, the text literal; ``@ ... @`` blocks would read the code as markup), pipe tables as
grid tables (Haddock 2.17 and later; one right under a heading, with no blank line between: a
blank line there and Haddock 2.25 prints the table as a paragraph of its ``+---+`` lines), lists as ``*`` and ``1.`` items (nested ones indented by
four spaces), inline code as ``@code@``, strong as ``__text__``, links as ``[text](url)``, an
in-page link's target an anchor (``#name#``) in its heading. Everything else that Haddock reads
as markup (``/``, ``'``, ``"``, ``<``, ``@``, ``#``, ``\\``, ``_``, and ``*``, ``>``, ``=``,
``[``, a number at a line's start) is escaped with a backslash.

A few modules also export real functions and a data type with their own docs, as real Haskell
packages have: ``SmallLessons`` (the ``Lesson`` record, ``slugify``, ``readingTime``), the
generators post (``onlyErrors``), the CSV post (``chunksOf``). Haddock has no drafts, tags or
feeds: the draft is left out.

    python bench/heldout/write_sources.py haddock
"""

from __future__ import annotations

import re

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

SECTIONS = ("guide", "reference", "appendix")
ROOT_MODULE = "SmallLessons"

_SPECIAL = re.compile(r"""([\\/'"<>@#_*\[\]=$`])""")
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)]+)\)")
_FENCE = re.compile(r"^```(\w*)\s*$")
_ITEM = re.compile(r"^( *)(?:([-*])|(\d+)\.) (.*)$")


def module_name(slug: str) -> str:
    """A post's module name: its slug in CamelCase (``python-generators-tour`` is
    ``PythonGeneratorsTour``)."""
    return "".join(part.capitalize() for part in slug.split("-"))


def _escape(text: str) -> str:
    out = _SPECIAL.sub(r"\\\1", text)
    # a number and a dot (or a number in parentheses) at a line's start would open a list
    return re.sub(r"^(\s*)(\d+)([.)])", r"\1\2\\\3", out)


def inline(text: str) -> str:
    """One line of Markdown's inline markup in Haddock's."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(_escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append("@" + _escape(m.group(1)) + "@")
        elif m.group(2) is not None:
            out.append("__" + _escape(m.group(2)) + "__")
        else:
            out.append(f"[{_escape(m.group(3))}]({m.group(4)})")
        pos = m.end()
    out.append(_escape(text[pos:]))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _grid_table(rows: list[list[str]]) -> list[str]:
    """A grid table (the header row, then ``+===+``): the widths in characters, as Haddock counts."""
    cells = [[inline(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]

    def rule(ch: str) -> str:
        return "+" + "+".join(ch * (w + 2) for w in widths) + "+"

    lines = [rule("-")]
    for n, row in enumerate(cells):
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
        lines.append(rule("=" if n == 0 else "-"))
    return lines


def body_haddock(body: str, anchors: dict[str, str] | None = None) -> str:
    """A post's Markdown body in Haddock markup. ``anchors``: heading text -> anchor name, for the
    in-page links (``[text](#name)``)."""
    anchors = anchors or {}
    lines = body.strip("\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := _FENCE.match(line):
            code = []
            i += 1
            while not lines[i].startswith("```"):
                code.append(lines[i])
                i += 1
            i += 1
            out += [f"> {c}" if c else ">" for c in code]
            out.append("")
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            text = line[level:].strip()
            anchor = f" #{anchors[text]}#" if text in anchors else ""
            out += ["=" * level + " " + inline(text) + anchor, ""]
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.fullmatch(r"\|[-:| ]+\|", lines[i].strip()):
                    rows.append(_cells(lines[i]))
                i += 1
            if len(out) > 1 and not out[-1] and out[-2].startswith("="):
                out.pop()  # Haddock 2.25 reads a table a blank line under a heading as a paragraph
            out += _grid_table(rows) + [""]
            continue
        if _ITEM.match(line):
            # items one a line; a blank line where the depth changes (Haddock's nested lists)
            depth = 0
            while i < len(lines) and (m := _ITEM.match(lines[i])):
                mark = "*" if m.group(2) else f"{m.group(3)}."
                if len(m.group(1)) // 2 != depth and out[-1]:
                    out.append("")
                depth = len(m.group(1)) // 2
                out.append("    " * depth + f"{mark} {inline(m.group(4))}")
                i += 1
            out.append("")
            continue
        if not line.strip():
            if out and out[-1]:
                out.append("")
            i += 1
            continue
        para = []
        while (
            i < len(lines)
            and lines[i].strip()
            and not _FENCE.match(lines[i])
            and not lines[i].startswith(("#", "|"))
            and not _ITEM.match(lines[i])
        ):
            para.append(inline(lines[i]))
            i += 1
        out += para + [""]
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _anchors(body: str) -> dict[str, str]:
    """The headings an in-page link of the body names: heading text -> the link's anchor."""
    targets = set(re.findall(r"\]\(#([\w-]+)\)", body))
    found = {}
    for text in re.findall(r"^#+ (.+)$", body, re.M):
        slug = re.sub(r"[^\w]+", "-", text.lower()).strip("-")
        if slug in targets:
            found[text] = slug
    return found


def _comment(text: str) -> str:
    """``text`` as a Haddock ``-- |`` comment (a line comment each line)."""
    lines = text.rstrip("\n").split("\n")
    return "\n".join(("-- " + line).rstrip() if line else "--" for line in lines) + "\n"


def header(module: str, description: str, doc: str) -> str:
    """A module header: the fields, then the documentation."""
    fields = (
        f"|\nModule      : {module}\nDescription : {description}\nCopyright   : (c) Ana Lima, 2024\n"
        "License     : CC0-1.0\nMaintainer  : ana@example.org\nStability   : experimental\n\n"
    )
    return _comment(fields + doc)


def post_doc(p: Post) -> str:
    """A post's documentation: the title heading, the date line, the body."""
    return f"= {inline(p.title)}\n\n/Published: {p.date}/\n\n{body_haddock(p.body, _anchors(p.body))}"


INSTALL = f"""= {INSTALL_TITLE}

The tool ships for Python and Node.js; pick one.

__Warning: Python 3.10 or later.__ Older versions lack @zoneinfo@; the tool refuses to start on them.

With pip:

> pip install lessons-cli

With npm:

> npm install --global lessons-cli

__Note:__ the configuration lives in @~\\/.config\\/lessons\\/config.toml@:

> [output]
> color = true

Check the installation:

> lessons --version

Then read "SmallLessons.Guide.PythonGeneratorsTour", the first lesson.
"""

#: Code beside a post's documentation, by slug: the export list and the declarations.
CODE = {
    "python-generators-tour": (
        "\n  ( -- * Filtering\n    onlyErrors\n  , isError\n  ) where\n\n"
        "import Data.List (isInfixOf)\n\n"
        '-- | Keep the lines of a log that report an error (those holding @\\" ERROR \\"@).\n'
        "--\n-- Lazy, as a generator is: a line is looked at only when the caller asks for the next one.\n"
        '--\n-- >>> onlyErrors ["a ERROR b", "ok"]\n-- ["a ERROR b"]\n'
        "onlyErrors :: [String] -> [String]\nonlyErrors = filter isError\n\n"
        '-- | Whether a line reports an error.\nisError :: String -> Bool\nisError = isInfixOf " ERROR "\n'
    ),
    "reading-large-csv-in-chunks": (
        "\n  ( chunksOf\n  ) where\n\n"
        "-- | Split a list of rows into chunks of @n@ rows, one chunk in memory at a time.\n"
        "--\n-- The last chunk may be shorter.\n--\n-- >>> chunksOf 2 [1, 2, 3 :: Int]\n-- [[1,2],[3]]\n"
        "chunksOf\n  :: Int   -- ^ Rows per chunk; must be positive.\n  -> [a]   -- ^ The rows.\n"
        '  -> [[a]]\nchunksOf n rows\n  | n < 1 = error "chunksOf: size must be positive"\n'
        "  | null rows = []\n  | otherwise = let (chunk, rest) = splitAt n rows in chunk : chunksOf n rest\n"
    ),
}

ROOT_DOC = """Small helpers behind the lessons: a lesson's record, its slug and its reading time.

The lessons themselves are the modules of the Guide, the Reference and the Appendix, beginning
with "SmallLessons.Guide.Install".
"""

ROOT_CODE = """
  ( -- * Lessons
    Lesson (..)
    -- * Helpers
  , slugify
  , readingTime
  ) where

import Data.Char (isAlphaNum, toLower)

-- | A lesson, as the index lists it.
data Lesson = Lesson
  { lessonSlug  :: String    -- ^ Its slug, the last part of its module's name in lower case.
  , lessonTitle :: String    -- ^ Its title.
  , lessonDate  :: String    -- ^ Its date, @YYYY-MM-DD@.
  , lessonTags  :: [String]  -- ^ Its tags.
  } deriving (Eq, Show)

-- | A title's slug: lower case, runs of other characters than letters and digits made one @-@.
--
-- >>> slugify "Generators in Python: a practical tour"
-- "generators-in-python-a-practical-tour"
slugify :: String -> String
slugify = go . map toLower
  where
    go s = case dropWhile (not . isAlphaNum) s of
      "" -> ""
      s' -> let (word, rest) = span isAlphaNum s'
                more = go rest
            in if null more then word else word ++ "-" ++ more

-- | Minutes to read a text, at 200 words a minute, at least one.
readingTime :: String -> Int
readingTime text = max 1 (length (words text) `div` 200)
"""


def _module(name: str, description: str, doc: str, code: str = "") -> str:
    exports = code or " where\n"
    return f"{header(name, description, doc)}module {name}{exports}"


def haddock() -> None:
    """``src/SmallLessons.hs`` (the API), ``src/SmallLessons/<Section>/<Module>.hs`` per published
    post (the install page first in the Guide), ``src/prologue.txt`` (About), ``src/modules.txt``
    (the modules in order, Haddock's command line)."""
    src = _fresh("haddock")
    modules = [f"{ROOT_MODULE}.hs"]
    _write(src / f"{ROOT_MODULE}.hs", _module(ROOT_MODULE, "Helpers behind the lessons", ROOT_DOC, ROOT_CODE))
    for section in SECTIONS:
        folder = section.capitalize()
        if section == "guide":
            path = f"{ROOT_MODULE}/{folder}/Install.hs"
            _write(src / path, _module(f"{ROOT_MODULE}.{folder}.Install", INSTALL_TITLE, INSTALL))
            modules.append(path)
        for p in published():
            if DOC_SECTIONS[p.slug] != section:
                continue
            name = f"{ROOT_MODULE}.{folder}.{module_name(p.slug)}"
            path = f"{ROOT_MODULE}/{folder}/{module_name(p.slug)}.hs"
            _write(src / path, _module(name, p.title, post_doc(p), CODE.get(p.slug, "")))
            modules.append(path)
    _write(src / "prologue.txt", body_haddock(ABOUT.body))
    _write(src / "modules.txt", "\n".join(modules) + "\n")
