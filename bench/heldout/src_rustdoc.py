"""rustdoc (Rust 1.63 from Debian 12), its only theme: the held-out ``rustdoc`` sources.

A small Rust library crate, ``small_lessons``, documented the way crates document themselves:
``//!`` inner doc comments on the crate and its modules, ``///`` on items, rustdoc's Markdown
(pulldown-cmark: fenced code, tables, footnotes, strikethrough). The crate's own doc (``src/lib.rs``)
is the About text. The modules ``guide``, ``reference`` and ``appendix`` (the docs sections) hold
one submodule per post, its file ``src/<section>/<module>.rs`` holding only the post as ``//!``
lines (its title as the first ``#`` heading, then the body); module names are the slugs with ``_``
for ``-`` (a module name is an identifier). The install page is ``guide::install`` (no tabs: the
two commands in turn; its notes as block quotes, rustdoc 1.63 having no admonitions). Every code
block of the corpus names its language: rustdoc renders a non-Rust fence as it is (its doctests
only compile ``rust`` fences and fences with no language); the Rust fences that are fragments, not
programs (``restaurant-app-menu-tags-author``, ``rust-vs-go-field-report``), are marked
``rust,ignore`` as rustdoc's book says, so that ``cargo test --doc`` passes. The crate's real items
sit at its root: a struct (``Lesson``), a trait (``Summary``, implemented for ``Lesson``) and two
functions (``slugify``, ``word_count``), each with ``///`` docs and an ``# Examples`` section (a
doctest). Each section module's doc is a sentence and the list of its lessons as intra-doc links.
rustdoc has no drafts, dates, tags or feeds: the writer leaves the draft out.
"""

from __future__ import annotations

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _myst_body, _write

CRATE = "small_lessons"
SECTIONS = ("guide", "reference", "appendix")

SECTION_TEXT = {
    "guide": "The guide: lessons to start with, from installing the tool to asynchronous code.",
    "reference": "The reference: short lessons to come back to, from storage engines to regular expressions.",
    "appendix": "The appendix: measurements, containers, caches and field reports.",
}

#: Posts whose Rust blocks are fragments (no ``main``, names defined elsewhere): ``rust,ignore``.
IGNORED_RUST = {"restaurant-app-menu-tags-author", "rust-vs-go-field-report"}

#: No tabs in rustdoc's Markdown: the two commands in turn; the notes as block quotes.
RUSTDOC_TABS = """With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

> **Warning:** Python 3.10 or later. Older versions lack `zoneinfo`; the tool refuses to start on them.

> **Note:** The configuration lives in `~/.config/lessons/config.toml`:
>
> ```toml
> [output]
> color = true
> ```"""

#: The crate's items, at its root after the crate's doc: a struct, a trait, two functions.
ITEMS = """
pub mod appendix;
pub mod guide;
pub mod reference;

/// One lesson of the notebook: its title and the section it belongs to.
///
/// # Examples
///
/// ```
/// use small_lessons::Lesson;
///
/// let lesson = Lesson::new("Reading a large CSV file in chunks", "reference");
/// assert_eq!(lesson.slug(), "reading-a-large-csv-file-in-chunks");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// The lesson's title, as its page shows it.
    pub title: String,
    /// The section: `guide`, `reference` or `appendix`.
    pub section: String,
}

impl Lesson {
    /// A lesson with this title in this section.
    pub fn new(title: &str, section: &str) -> Self {
        Lesson { title: title.to_string(), section: section.to_string() }
    }

    /// The lesson's slug: its title through [`slugify`].
    pub fn slug(&self) -> String {
        slugify(&self.title)
    }
}

/// Something that can say in one line what it is about.
///
/// # Examples
///
/// ```
/// use small_lessons::{Lesson, Summary};
///
/// let lesson = Lesson::new("Dockerfile tips", "appendix");
/// assert_eq!(lesson.summary(), "Dockerfile tips (appendix)");
/// ```
pub trait Summary {
    /// The one-line summary.
    fn summary(&self) -> String;
}

impl Summary for Lesson {
    fn summary(&self) -> String {
        format!("{} ({})", self.title, self.section)
    }
}

/// Make a title a slug: lower-case ASCII letters and digits, runs of anything else one `-`.
///
/// # Examples
///
/// ```
/// assert_eq!(small_lessons::slugify("Hello, World!"), "hello-world");
/// ```
pub fn slugify(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

/// Count the words of a text: its runs of characters between white space.
///
/// # Examples
///
/// ```
/// assert_eq!(small_lessons::word_count("one two  three"), 3);
/// ```
pub fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}
"""

CRATE_DOC_TAIL = """
The lessons are the modules of this crate, each section a module:

- [`guide`](guide): lessons to start with, beginning with [`guide::install`].
- [`reference`](mod@reference): short lessons to come back to.
- [`appendix`](appendix): measurements, containers, caches and field reports.

The crate's own items ([`Lesson`], [`Summary`], [`slugify`], [`word_count`]) are the helpers the
lessons describe. Released under CC0.
"""


def module_name(slug: str) -> str:
    """A post's module name: its slug, ``-`` made ``_``."""
    return slug.replace("-", "_")


def _inner_doc(text: str) -> str:
    """``text`` as ``//!`` lines (an empty line a bare ``//!``)."""
    return "".join(f"//! {line}".rstrip(" ") + "\n" for line in text.rstrip("\n").split("\n"))


def _post_text(p: Post) -> str:
    text = _myst_body(p)
    if p.slug in IGNORED_RUST:
        text = text.replace("```rust\n", "```rust,ignore\n")
    return text


def _section_module(section: str, posts: list[tuple[str, str]]) -> str:
    lines = [SECTION_TEXT[section], ""]
    # Inline links (``[`name`](name)``): ``[`name`]: 今日のメモ`` would be a link reference
    # definition (a label, a colon, one word), not a list item's text.
    lines += [f"- [`{name}`]({name}): {title}" for name, title in posts]
    body = _inner_doc("\n".join(lines))
    return body + "\n" + "".join(f"pub mod {name};\n" for name, _ in posts)


def rustdoc() -> None:
    """``src/``: ``Cargo.toml``, ``src/lib.rs`` (About and the items), ``src/<section>.rs`` (the
    section's doc and its ``pub mod`` lines) and ``src/<section>/<module>.rs`` per published post
    (the install page first in ``guide``)."""
    src = _fresh("rustdoc")
    _write(
        src / "Cargo.toml",
        '[package]\nname = "small_lessons"\nversion = "1.0.0"\nedition = "2021"\n'
        'description = "Short programming lessons, and the helpers they describe."\n'
        'license = "CC0-1.0"\nauthors = ["Ana Lima"]\n\n[dependencies]\n',
    )
    _write(src / "Cargo.lock", _LOCK)
    _write(src / "src" / "lib.rs", _inner_doc(_myst_body(ABOUT) + "\n" + CRATE_DOC_TAIL) + ITEMS)
    for section in SECTIONS:
        posts: list[tuple[str, str]] = []
        if section == "guide":
            _write(src / "src" / section / "install.rs", _inner_doc(_install_page(RUSTDOC_TABS)))
            posts.append(("install", INSTALL_TITLE))
        for p in published():
            if DOC_SECTIONS[p.slug] != section:
                continue
            name = module_name(p.slug)
            _write(src / "src" / section / f"{name}.rs", _inner_doc(_post_text(p)))
            posts.append((name, p.title))
        _write(src / "src" / f"{section}.rs", _section_module(section, posts))


_LOCK = """# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 3

[[package]]
name = "small_lessons"
version = "1.0.0"
"""
