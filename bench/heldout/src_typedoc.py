"""TypeDoc 0.28 (API documentation for TypeScript), its default theme: the held-out ``typedoc``
sources.

A small TypeScript library as TypeDoc documents one (``src/index.ts``: four exported functions, a
class and an interface, TSDoc comments with ``@param``, ``@returns``, ``@remarks`` and
``@example`` holding a fenced code block; ``package.json``, ``tsconfig.json``), its
``README.md`` the index page, and the corpus posts as TypeDoc's project documents (the
``projectDocuments`` option: Markdown files whose front matter names the document's ``title``, its
``group`` in the navigation (the docs section: Guide, Reference, Appendix) and its ``category``
(the post's)); the install page (GitHub-style alerts, which TypeDoc's Markdown renders; no tabs:
the two commands in turn) and About are documents too. ``typedoc.json``: the entry point, the
documents, ``highlightLanguages`` (the corpus' languages, so Shiki colours them),
``hostedBaseUrl`` (the sitemap and canonical links), ``navigation`` and ``sidebarLinks`` left at
their defaults. TypeDoc has no drafts: the writer leaves the draft out.
"""

from __future__ import annotations

import json

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _install_page, _myst_body, _write

HOST = "https://typedoc.heldout.example"

SECTIONS = ("guide", "reference", "appendix")

#: Every fence language of the corpus and the install page, plus TypeScript for the ``@example``s.
HIGHLIGHT = [
    "bash",
    "c",
    "dockerfile",
    "go",
    "haskell",
    "java",
    "javascript",
    "json",
    "python",
    "ruby",
    "rust",
    "sql",
    "toml",
    "typescript",
    "yaml",
]

#: No tabs in TypeDoc's Markdown: the two commands in turn; the notes as GitHub alerts.
TYPEDOC_TABS = """With pip:

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

INDEX_TS = """/**
 * Small helpers behind the Small Lessons site: slugs, reading times, excerpts and an index of
 * lessons by tag.
 *
 * @packageDocumentation
 */

/**
 * One lesson of the site, as its front matter describes it.
 */
export interface Lesson {
    /** The last part of the lesson's URL. */
    slug: string;
    /** The title, as written. */
    title: string;
    /** The day it was published, `YYYY-MM-DD`. */
    date: string;
    /** Its tags, in the order the author gave them. */
    tags: string[];
    /** The Markdown body. */
    body: string;
}

/**
 * Turns a title into the last part of a URL.
 *
 * @remarks
 * Letters and digits of any script are kept (lower-cased); every run of other characters
 * becomes one hyphen, and no hyphen begins or ends the result.
 *
 * @param title - The title, as written.
 * @returns The slug: lower-case letters, digits and single hyphens.
 *
 * @example
 * ```ts
 * slugify("Rust vs Go | A field report - part 2");
 * // => "rust-vs-go-a-field-report-part-2"
 * ```
 */
export function slugify(title: string): string {
    return title
        .toLowerCase()
        .replace(/[^\\p{L}\\p{N}]+/gu, "-")
        .replace(/^-+|-+$/g, "");
}

/**
 * Estimates how long a text takes to read.
 *
 * @remarks
 * Words are runs of characters between spaces; a text in Chinese or Japanese, written without
 * spaces, counts each character as a word.
 *
 * @param text - The text, Markdown or plain.
 * @param wordsPerMinute - The reader's speed.
 * @returns Whole minutes, at least one.
 *
 * @example
 * ```ts
 * readingTime("word ".repeat(450)); // => 3
 * ```
 */
export function readingTime(text: string, wordsPerMinute = 200): number {
    const words = text.split(/\\s+/).filter(Boolean).length;
    return Math.max(1, Math.ceil(words / wordsPerMinute));
}

/**
 * The first paragraph of a Markdown body, cut at a word boundary.
 *
 * @param body - The Markdown body.
 * @param length - The longest excerpt, in characters.
 * @returns The excerpt, ending in an ellipsis when it was cut.
 *
 * @example
 * ```ts
 * excerpt("A generator is a function that remembers where it stopped.", 20);
 * // => "A generator is a…"
 * ```
 */
export function excerpt(body: string, length = 160): string {
    const first = body.trim().split(/\\n\\s*\\n/)[0].replace(/\\s+/g, " ");
    if (first.length <= length) {
        return first;
    }
    return first.slice(0, first.lastIndexOf(" ", length)) + "…";
}

/**
 * Reads a lesson's date.
 *
 * @remarks
 * The date is read as midnight UTC, whatever the time zone the build runs in.
 *
 * @param value - A date written `YYYY-MM-DD`.
 * @returns The date as a `Date`.
 * @throws RangeError when the value is not a date.
 *
 * @example
 * ```ts
 * parseDate("2024-02-29").toISOString(); // => "2024-02-29T00:00:00.000Z"
 * ```
 */
export function parseDate(value: string): Date {
    const date = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) {
        throw new RangeError(`not a date: ${value}`);
    }
    return date;
}

/**
 * The lessons of a site, newest first, looked up by tag.
 *
 * @remarks
 * Adding a lesson keeps the order; a lesson added twice (the same slug) replaces the first.
 *
 * @example
 * ```ts
 * const index = new LessonIndex();
 * index.add({ slug: "quick-note", title: "Quick note", date: "2023-06-01", tags: ["releases"], body: "" });
 * index.byTag("releases").map((lesson) => lesson.title); // => ["Quick note"]
 * ```
 */
export class LessonIndex {
    private readonly lessons: Lesson[] = [];

    /**
     * @param lessons - The lessons to start with.
     */
    constructor(lessons: Iterable<Lesson> = []) {
        for (const lesson of lessons) {
            this.add(lesson);
        }
    }

    /** How many lessons the index holds. */
    get size(): number {
        return this.lessons.length;
    }

    /**
     * Adds a lesson, or replaces the one with the same slug.
     *
     * @param lesson - The lesson.
     * @returns The index itself, to chain calls.
     */
    add(lesson: Lesson): this {
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
     * @param tag - The tag, as written in the front matter.
     * @returns The lessons, possibly none.
     */
    byTag(tag: string): Lesson[] {
        return this.lessons.filter((lesson) => lesson.tags.includes(tag));
    }

    /**
     * The newest lessons.
     *
     * @param count - How many.
     * @returns At most `count` lessons, newest first.
     */
    newest(count = 5): Lesson[] {
        return this.lessons.slice(0, count);
    }
}
"""

README = """# Small Lessons

Short programming lessons, and the small TypeScript library that builds their site.

Start with the guide: [Installing the command-line tool](docs/guide/install.md).

## The library

```ts
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
    "main": "dist/index.js",
    "types": "dist/index.d.ts",
}

TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "NodeNext",
        "moduleResolution": "NodeNext",
        "strict": True,
        "declaration": True,
        "outDir": "dist",
        "lib": ["ES2022"],
        "types": [],
    },
    "include": ["src"],
}


def _document(p: Post, group: str, category: str) -> str:
    front = (
        f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ngroup: {group}\n"
        f"category: {category}\n---\n\n"
    )
    return front + _myst_body(p)


def typedoc() -> None:
    """``docs/<section>/<slug>.md`` per published post, ``docs/guide/install.md``,
    ``docs/about.md``, listed in ``typedoc.json``'s ``projectDocuments`` in the sidebar's order."""
    src = _fresh("typedoc")
    documents = ["docs/guide/install.md"]
    _write(
        src / "docs" / "guide" / "install.md",
        f"---\ntitle: {INSTALL_TITLE}\ngroup: Guide\ncategory: setup\n---\n\n" + _install_page(TYPEDOC_TABS),
    )
    for section in SECTIONS:
        for p in published():
            if DOC_SECTIONS[p.slug] != section:
                continue
            _write(src / "docs" / section / f"{p.slug}.md", _document(p, section.title(), p.category))
            documents.append(f"docs/{section}/{p.slug}.md")
    _write(src / "docs" / "about.md", f"---\ntitle: {ABOUT.title}\ngroup: About\n---\n\n" + _myst_body(ABOUT))
    documents.append("docs/about.md")
    _write(src / "src" / "index.ts", INDEX_TS)
    _write(src / "README.md", README)
    _write(src / "package.json", json.dumps(PACKAGE, indent=2) + "\n")
    _write(src / "tsconfig.json", json.dumps(TSCONFIG, indent=2) + "\n")
    config = {
        "$schema": "https://typedoc.org/schema.json",
        "name": "Small Lessons",
        "entryPoints": ["src/index.ts"],
        "readme": "README.md",
        "projectDocuments": documents,
        "highlightLanguages": HIGHLIGHT,
        "hostedBaseUrl": HOST + "/",
        "groupOrder": ["Guide", "Reference", "Appendix", "About", "*"],
    }
    _write(src / "typedoc.json", json.dumps(config, indent=2) + "\n")
