"""JSDoc 4 (API documentation for JavaScript), its default template: the held-out ``jsdoc`` sources.

A small JavaScript library as JSDoc documents one (``lib/index.js``, an ES module: ``@module
small-lessons`` with a description holding a fenced code block, four exported functions, a class
and a ``@typedef``, with ``@param``, ``@returns``, ``@throws``, ``@example`` and ``{@link}``;
``package.json``, which the build does not hand to JSDoc: given one, the default template writes
the site under ``<name>/<version>/``), its ``README.md`` the home page (``-R README.md``), and the
corpus posts as JSDoc tutorials (``-u tutorials``: ``tutorials/<slug>.md``, one Markdown file per
post; ``tutorials/tutorials.json`` gives each its title and nests them by docs section under three
section tutorials, ``guide``, ``reference`` and ``appendix``, a short text each; the install page
the Guide's first child; About a top-level tutorial). A tutorial's page shows its title itself
(the layout's ``<h1>`` "Tutorial: <title>" and the tutorial's ``<h2>``), so the Markdown files
start with the text, not with a ``#`` heading. ``jsdoc.json``: the source folder, the Markdown
plugin (``plugins/markdown``: the doc comments are Markdown too) and the default template's
``outputSourceFiles`` (true, its default: the source file gets a page). JSDoc's Markdown has no
tabs or admonitions: on the install page the two commands in turn and the notes as block quotes.
JSDoc has no drafts: the writer leaves the draft out.
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _write

SECTIONS = (
    ("guide", "Guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("reference", "Reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("appendix", "Appendix", "Field reports and short notes."),
)

#: No tabs or admonitions in JSDoc's Markdown: the two commands in turn, the notes as quotes.
JSDOC_TABS = """With pip:

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

INDEX_JS = """/**
 * Small helpers behind the Small Lessons site: slugs, reading times, excerpts and an index of
 * lessons by tag.
 *
 * ```js
 * import { LessonIndex, slugify } from "small-lessons";
 *
 * const index = new LessonIndex();
 * index.add({ slug: slugify("Quick note"), title: "Quick note", date: "2023-06-01", tags: [], body: "" });
 * ```
 *
 * @module small-lessons
 * @license CC0-1.0
 */

/**
 * One lesson of the site, as its front matter describes it.
 *
 * @typedef {Object} Lesson
 * @property {string} slug - The last part of the lesson's URL.
 * @property {string} title - The title, as written.
 * @property {string} date - The day it was published, `YYYY-MM-DD`.
 * @property {string[]} tags - Its tags, in the order the author gave them.
 * @property {string} body - The Markdown body.
 */

/**
 * Turns a title into the last part of a URL.
 *
 * Letters and digits of any script are kept (lower-cased); every run of other characters
 * becomes one hyphen, and no hyphen begins or ends the result.
 *
 * @param {string} title - The title, as written.
 * @returns {string} The slug: lower-case letters, digits and single hyphens.
 *
 * @example
 * slugify("Rust vs Go | A field report - part 2");
 * // => "rust-vs-go-a-field-report-part-2"
 */
export function slugify(title) {
    return title
        .toLowerCase()
        .replace(/[^\\p{L}\\p{N}]+/gu, "-")
        .replace(/^-+|-+$/g, "");
}

/**
 * Estimates how long a text takes to read.
 *
 * Words are runs of characters between spaces; a text in Chinese or Japanese, written without
 * spaces, counts each character as a word.
 *
 * @param {string} text - The text, Markdown or plain.
 * @param {number} [wordsPerMinute=200] - The reader's speed.
 * @returns {number} Whole minutes, at least one.
 *
 * @example
 * readingTime("word ".repeat(450)); // => 3
 */
export function readingTime(text, wordsPerMinute = 200) {
    const words = text.split(/\\s+/).filter(Boolean).length;
    return Math.max(1, Math.ceil(words / wordsPerMinute));
}

/**
 * The first paragraph of a Markdown body, cut at a word boundary.
 *
 * @param {string} body - The Markdown body.
 * @param {number} [length=160] - The longest excerpt, in characters.
 * @returns {string} The excerpt, ending in an ellipsis when it was cut.
 *
 * @example
 * excerpt("A generator is a function that remembers where it stopped.", 20);
 * // => "A generator is a…"
 */
export function excerpt(body, length = 160) {
    const first = body.trim().split(/\\n\\s*\\n/)[0].replace(/\\s+/g, " ");
    if (first.length <= length) {
        return first;
    }
    return first.slice(0, first.lastIndexOf(" ", length)) + "…";
}

/**
 * Reads a lesson's date, as midnight UTC whatever the time zone the build runs in.
 *
 * @param {string} value - A date written `YYYY-MM-DD`.
 * @returns {Date} The date.
 * @throws {RangeError} When the value is not a date.
 *
 * @example
 * parseDate("2024-02-29").toISOString(); // => "2024-02-29T00:00:00.000Z"
 */
export function parseDate(value) {
    const date = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) {
        throw new RangeError(`not a date: ${value}`);
    }
    return date;
}

/**
 * The lessons of a site, newest first, looked up by tag.
 *
 * Adding a lesson keeps the order; a lesson added twice (the same slug) replaces the first.
 * Its lessons are {@link module:small-lessons~Lesson} objects.
 *
 * @example
 * const index = new LessonIndex();
 * index.add({ slug: "quick-note", title: "Quick note", date: "2023-06-01", tags: ["releases"], body: "" });
 * index.byTag("releases").map((lesson) => lesson.title); // => ["Quick note"]
 */
export class LessonIndex {
    /**
     * @param {Iterable<module:small-lessons~Lesson>} [lessons=[]] - The lessons to start with.
     */
    constructor(lessons = []) {
        /** @private */
        this.lessons = [];
        for (const lesson of lessons) {
            this.add(lesson);
        }
    }

    /**
     * How many lessons the index holds.
     *
     * @type {number}
     */
    get size() {
        return this.lessons.length;
    }

    /**
     * Adds a lesson, or replaces the one with the same slug.
     *
     * @param {module:small-lessons~Lesson} lesson - The lesson.
     * @returns {LessonIndex} The index itself, to chain calls.
     */
    add(lesson) {
        const at = this.lessons.findIndex((known) => known.slug === lesson.slug);
        if (at >= 0) {
            this.lessons.splice(at, 1);
        }
        this.lessons.push(lesson);
        this.lessons.sort((a, b) => b.date.localeCompare(a.date));
        return this;
    }

    /**
     * The lessons with a tag, newest first.
     *
     * @param {string} tag - The tag, as written in the front matter.
     * @returns {module:small-lessons~Lesson[]} The lessons, possibly none.
     */
    byTag(tag) {
        return this.lessons.filter((lesson) => lesson.tags.includes(tag));
    }

    /**
     * The newest lessons.
     *
     * @param {number} [count=5] - How many.
     * @returns {module:small-lessons~Lesson[]} At most `count` lessons, newest first.
     */
    newest(count = 5) {
        return this.lessons.slice(0, count);
    }
}
"""

README = """# Small Lessons

Short programming lessons, and the small JavaScript library that builds their site.

Start with the guide: {@tutorial install}. The library's reference is the
{@link module:small-lessons|small-lessons} module.

## The library

```js
import { LessonIndex, slugify } from "small-lessons";

const index = new LessonIndex();
index.add({ slug: slugify("Quick note"), title: "Quick note", date: "2023-06-01", tags: [], body: "" });
```

Released under CC0.
"""

PACKAGE = {
    "name": "small-lessons",
    "version": "1.0.0",
    "description": "Short programming lessons, and the helpers that build their site.",
    "license": "CC0-1.0",
    "author": "Ana Lima",
    "type": "module",
    "main": "lib/index.js",
    "scripts": {"docs": "jsdoc -c jsdoc.json -R README.md -u tutorials -d docs"},
}

CONFIG = {
    "source": {"include": ["lib"], "includePattern": "\\.js$"},
    "sourceType": "module",
    "plugins": ["plugins/markdown"],
    "tags": {"allowUnknownTags": True, "dictionaries": ["jsdoc", "closure"]},
    "templates": {"cleverLinks": False, "monospaceLinks": False, "default": {"outputSourceFiles": True}},
    "opts": {"encoding": "utf8"},
}


def _tutorial(p: Post) -> str:
    """A post's body as a tutorial: the Markdown, no title (the page writes it)."""
    return p.body


def tutorials_json() -> dict[str, dict[str, object]]:
    """The tutorials' titles and tree: the three sections (the install page first in the Guide),
    each post under its section in the corpus' order, About at the top level."""
    tree: dict[str, dict[str, object]] = {}
    for slug, title, _intro in SECTIONS:
        children: dict[str, dict[str, str]] = {}
        if slug == "guide":
            children["install"] = {"title": INSTALL_TITLE}
        for p in published():
            if DOC_SECTIONS[p.slug] == slug:
                children[p.slug] = {"title": p.title}
        tree[slug] = {"title": title, "children": children}
    tree["about"] = {"title": ABOUT.title}
    return tree


def jsdoc() -> None:
    """``tutorials/<name>.md`` for each section, post, the install page and About,
    ``tutorials/tutorials.json``, ``lib/index.js``, ``README.md``, ``package.json``, ``jsdoc.json``."""
    src = _fresh("jsdoc")
    tut = src / "tutorials"
    for slug, _title, intro in SECTIONS:
        _write(tut / f"{slug}.md", intro + "\n")
    install = _install_page(JSDOC_TABS)
    _write(tut / "install.md", install.split("\n", 2)[2])  # without its "# title" line
    for p in published():
        _write(tut / f"{p.slug}.md", _tutorial(p))
    _write(tut / "about.md", _tutorial(ABOUT))
    _write(tut / "tutorials.json", json.dumps(tutorials_json(), ensure_ascii=False, indent=2) + "\n")
    _write(src / "lib" / "index.js", INDEX_JS)
    _write(src / "README.md", README)
    _write(src / "package.json", json.dumps(PACKAGE, indent=2) + "\n")
    _write(src / "jsdoc.json", json.dumps(CONFIG, indent=2) + "\n")
