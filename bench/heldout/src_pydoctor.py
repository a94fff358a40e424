"""pydoctor 25 (API documentation for Python, Twisted's), its default template: the held-out
``pydoctor`` sources.

A small Python package, ``small_lessons``, as pydoctor documents one: its docstrings are
reStructuredText (``pydoctor --docformat=restructuredtext``). One submodule per post, grouped in the
subpackages ``guide``, ``reference`` and ``appendix`` (the docs sections); a post's module
docstring is the post, written as a raw string (``r\"\"\"``) so that its backslashes stay as
written. The docstring opens as PEP 257 asks, with its summary line, here the post's title, then a
blank line and the body: a title written as a reST section title (``Title`` over ``=====``) is
lost, since docutils makes a lone top-level section the document's title and pydoctor renders the
document's body only. The body is the post's Markdown in reST by the rules of the
``sphinx-alabaster`` sources (``src_sphinx_alabaster.body_rst``: ``##`` headings as sections
underlined with ``-``, fenced code as ``.. code-block:: LANG``, pipe tables as ``.. list-table::``,
nested lists, inline literals, in-page links to a section title). The post's date closes the
docstring as a field (``:Date: 2023-01-15``): pydoctor renders a field list it does not know as a
field table after the text (``Unknown Field: date``) and says so in the build's output.

A few modules also define a function or a class with methods, with their own docstrings
(``:param:``, ``:returns:``, ``:raises:`` fields), as real pydoctor sites have: ``read_lines`` and
``only_errors`` beside the generators post, the ``ChunkReader`` class beside the CSV post,
``to_local`` beside the time-zone post. The install page is ``small_lessons.guide.install`` (its
notes as ``.. warning::`` and ``.. note::`` admonitions; the two commands in turn), About is
``small_lessons.about``. Each subpackage's docstring is a sentence and the list of its modules,
named as interpreted text (pydoctor links a dotted name in backticks to its page); the package's
own docstring is the welcome text. pydoctor has no drafts: the writer leaves the draft out. Module
names are the slugs with ``_`` for ``-`` (a module name is a Python identifier).

    python bench/heldout/write_sources.py pydoctor
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from src_sphinx_alabaster import body_rst, inline
from write_sources import INSTALL_TITLE, _fresh, _write

PACKAGE = "small_lessons"
SECTIONS = ("guide", "reference", "appendix")

SECTION_TEXT = {
    "guide": "The guide: lessons to start with, from installing the tool to asynchronous code.",
    "reference": "The reference: short lessons to come back to, from storage engines to regular expressions.",
    "appendix": "The appendix: measurements, containers, caches and field reports.",
}

INSTALL = f"""{INSTALL_TITLE}

The tool ships for Python and Node.js; pick one.

.. warning:: Python 3.10 or later: older versions lack ``zoneinfo``; the tool refuses to start on them.

With pip:

.. code-block:: bash

   pip install lessons-cli

With npm:

.. code-block:: bash

   npm install --global lessons-cli

.. note::

   The configuration lives in ``~/.config/lessons/config.toml``:

   .. code-block:: toml

      [output]
      color = true

Check the installation:

.. code-block:: bash

   lessons --version

Then read `{PACKAGE}.guide.python_generators_tour`, the first lesson.
"""

#: Code beside a post's docstring, by slug: what the post shows, with reST docstrings.
CODE = {
    "python-generators-tour": '''from collections.abc import Iterable, Iterator


def read_lines(path: str) -> Iterator[str]:
    """Yield the lines of a file, one at a time, without their line ends.

    The file is read as UTF-8 and never held in memory as a whole.

    :param path: The file to read.
    :returns: The lines, lazily.
    """
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            yield line.rstrip("\\n")


def only_errors(lines: Iterable[str]) -> Iterator[str]:
    """Keep the lines of a log that report an error (those holding ``" ERROR "``).

    Lazy, as `read_lines` is: a line is read only when the caller asks for the next one.

    :param lines: A log's lines, such as `read_lines` yields.
    """
    return (line for line in lines if " ERROR " in line)
''',
    "reading-large-csv-in-chunks": '''import csv
from collections.abc import Iterator


class ChunkReader:
    """Read a CSV file in chunks of rows, one chunk in memory at a time.

    :ivar path: The CSV file.
    :ivar size: Rows per chunk.
    """

    def __init__(self, path: str, size: int = 10_000) -> None:
        """
        :param path: The CSV file to read.
        :param size: Rows per chunk; the last chunk may be shorter.
        :raises ValueError: If ``size`` is not positive.
        """
        if size < 1:
            raise ValueError("size must be positive")
        self.path = path
        self.size = size

    def chunks(self) -> Iterator[list[list[str]]]:
        """Yield the file's rows, ``size`` at a time, its header row included.

        :returns: Lists of rows, each row a list of fields.
        """
        with open(self.path, newline="") as handle:
            chunk: list[list[str]] = []
            for row in csv.reader(handle):
                chunk.append(row)
                if len(chunk) == self.size:
                    yield chunk
                    chunk = []
            if chunk:
                yield chunk

    def count_rows(self) -> int:
        """Count the file's rows, its header row included.

        :returns: The number of rows, whatever the file's size.
        """
        return sum(len(chunk) for chunk in self.chunks())
''',
    "zeitzonen-richtig-behandeln": '''from datetime import datetime
from zoneinfo import ZoneInfo


def to_local(moment: datetime, zone: str) -> datetime:
    """Convert a stored UTC moment to the user's time zone, for display only.

    :param moment: An aware datetime in UTC, as stored.
    :param zone: An IANA name such as ``Europe/Berlin``.
    :returns: The same moment in ``zone``; the stored value stays in UTC.
    """
    return moment.astimezone(ZoneInfo(zone))
''',
}

PACKAGE_DOC = f"""Small Lessons: short programming lessons, written as the docstrings of a small Python package.

Published with pydoctor: each lesson is a module, each section a package.

- `{PACKAGE}.guide`: lessons to start with, beginning with `{PACKAGE}.guide.install`.
- `{PACKAGE}.reference`: short lessons to come back to.
- `{PACKAGE}.appendix`: measurements, containers, caches and field reports.
- `{PACKAGE}.about`: what this site is.

Released under CC0.
"""


def module_name(slug: str) -> str:
    """A post's module name: its slug, ``-`` made ``_``."""
    return slug.replace("-", "_")


def _docstring(text: str) -> str:
    """``text`` as a raw docstring (no line of the corpus ends in a backslash or holds ``\"\"\"``)."""
    if '"""' in text or text.rstrip("\n").endswith("\\"):
        raise ValueError("text cannot be a raw docstring")
    return f'r"""{text}"""\n'


def _module(text: str, code: str = "") -> str:
    return _docstring(text) + ("\n" + code if code else "")


def post_doc(p: Post) -> str:
    """A post's module docstring: its title as the summary line, the body in reST, the date field."""
    return f"{inline(p.title)}\n\n{body_rst(p.body)}\n:Date: {p.date}\n"


def _section_doc(section: str, posts: list[tuple[str, str]]) -> str:
    lines = [SECTION_TEXT[section], ""]
    lines += [f"- `{PACKAGE}.{section}.{name}`: {inline(title)}" for name, title in posts]
    return "\n".join(lines) + "\n"


def pydoctor() -> None:
    """``src/small_lessons``: the package, its three section subpackages of one module per
    published post (the install page first in ``guide``), ``about.py``; ``pyproject.toml``."""
    src = _fresh("pydoctor")
    pkg = src / PACKAGE
    _write(pkg / "__init__.py", _module(PACKAGE_DOC, '__version__ = "1.0.0"\n'))
    for section in SECTIONS:
        posts: list[tuple[str, str]] = []
        if section == "guide":
            _write(pkg / section / "install.py", _module(INSTALL))
            posts.append(("install", INSTALL_TITLE))
        for p in published():
            if DOC_SECTIONS[p.slug] != section:
                continue
            name = module_name(p.slug)
            _write(pkg / section / f"{name}.py", _module(post_doc(p), CODE.get(p.slug, "")))
            posts.append((name, p.title))
        _write(pkg / section / "__init__.py", _module(_section_doc(section, posts)))
    _write(pkg / "about.py", _module(f"{ABOUT.title}\n\n{body_rst(ABOUT.body)}"))
    _write(
        src / "pyproject.toml",
        '[project]\nname = "small-lessons"\nversion = "1.0.0"\n'
        'description = "Short programming lessons, and the helpers they describe."\n'
        'license = "CC0-1.0"\nauthors = [{ name = "Ana Lima" }]\nrequires-python = ">=3.10"\n',
    )
