"""pdoc 15 (API documentation for Python), its default template: the held-out ``pdoc`` sources.

A small Python package, ``small_lessons``, as pdoc documents one: its module docstrings are
Markdown (``pdoc --docformat markdown``). One submodule per post, grouped in the subpackages
``guide``, ``reference`` and ``appendix`` (the docs sections); a post's module docstring is the
post (its title as the first ``#`` heading, then the body), written as a raw string (``r\"\"\"``)
so that its backslashes stay as written. A few modules also define a function or two with their
own docstrings, as real pdoc sites have (``read_lines`` and ``only_errors`` beside the generators
post, ``count_rows`` beside the CSV post, ``to_local`` beside the time-zone post). The install page
is ``small_lessons.guide.install`` (its notes as GitHub alerts, which pdoc's Markdown, markdown2's
``alerts`` extra, renders; no tabs: the two commands in turn), About is ``small_lessons.about``.
Each subpackage's docstring is a sentence and the list of its modules, named in backticks (pdoc
links an identifier in backticks to its page); the package's own docstring is the welcome text.
pdoc has no drafts: the writer leaves the draft out. Module names are the slugs with ``_`` for
``-`` (a module name is a Python identifier).
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _myst_body, _write

PACKAGE = "small_lessons"
SECTIONS = ("guide", "reference", "appendix")

SECTION_TEXT = {
    "guide": "The guide: lessons to start with, from installing the tool to asynchronous code.",
    "reference": "The reference: short lessons to come back to, from storage engines to regular expressions.",
    "appendix": "The appendix: measurements, containers, caches and field reports.",
}

#: No tabs in pdoc's Markdown: the two commands in turn; the notes as GitHub alerts.
PDOC_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

> [!WARNING]
> **Python 3.10 or later.** Older versions lack `zoneinfo`; the tool refuses to start on them.

> [!NOTE]
> The configuration lives in `~/.config/lessons/config.toml`:
>
> ```toml
> [output]
> color = true
> ```"""

#: Code beside a post's docstring, by slug: what the post shows, as functions with docstrings.
FUNCTIONS = {
    "python-generators-tour": '''from collections.abc import Iterable, Iterator


def read_lines(path: str) -> Iterator[str]:
    """Yield the lines of the file at `path`, one at a time, without their line ends.

    The file is read as UTF-8 and never held in memory as a whole.
    """
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            yield line.rstrip("\\n")


def only_errors(lines: Iterable[str]) -> Iterator[str]:
    """Keep the lines of a log that report an error (those holding ` ERROR `).

    Lazy, as `read_lines` is: a line is read only when the caller asks for the next one.
    """
    return (line for line in lines if " ERROR " in line)
''',
    "reading-large-csv-in-chunks": '''import csv


def count_rows(path: str) -> int:
    """Count the rows of the CSV file at `path`, its header row included.

    One row is in memory at a time, whatever the file's size.
    """
    with open(path, newline="") as handle:
        return sum(1 for _ in csv.reader(handle))
''',
    "zeitzonen-richtig-behandeln": '''from datetime import datetime
from zoneinfo import ZoneInfo


def to_local(moment: datetime, zone: str) -> datetime:
    """Convert a stored UTC `moment` to the user's time zone, for display only.

    `zone` is an IANA name such as `Europe/Berlin`; the stored value stays in UTC.
    """
    return moment.astimezone(ZoneInfo(zone))
''',
}

PACKAGE_DOC = f"""# Small Lessons

Short programming lessons, written as the docstrings of a small Python package and published with
pdoc: each lesson is a module, each section a subpackage.

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


def _section_doc(section: str, posts: list[tuple[str, str]]) -> str:
    lines = [SECTION_TEXT[section], ""]
    lines += [f"- `{PACKAGE}.{section}.{name}`: {title}" for name, title in posts]
    return "\n".join(lines) + "\n"


def pdoc() -> None:
    """``src/small_lessons``: the package, its three section subpackages of one module per
    published post (the install page first in ``guide``), ``about.py``; ``pyproject.toml``."""
    src = _fresh("pdoc")
    pkg = src / PACKAGE
    _write(pkg / "__init__.py", _module(PACKAGE_DOC, '__version__ = "1.0.0"\n'))
    for section in SECTIONS:
        posts: list[tuple[str, str]] = []
        if section == "guide":
            _write(pkg / section / "install.py", _module(_install_page(PDOC_TABS)))
            posts.append(("install", INSTALL_TITLE))
        for p in published():
            if DOC_SECTIONS[p.slug] != section:
                continue
            name = module_name(p.slug)
            _write(pkg / section / f"{name}.py", _post_module(p))
            posts.append((name, p.title))
        _write(pkg / section / "__init__.py", _module(_section_doc(section, posts)))
    _write(pkg / "about.py", _module(_myst_body(ABOUT)))
    _write(
        src / "pyproject.toml",
        '[project]\nname = "small-lessons"\nversion = "1.0.0"\n'
        'description = "Short programming lessons, and the helpers they describe."\n'
        'license = "CC0-1.0"\nauthors = [{ name = "Ana Lima" }]\nrequires-python = ">=3.10"\n',
    )


def _post_module(p: Post) -> str:
    return _module(_myst_body(p), FUNCTIONS.get(p.slug, ""))
