"""Javadoc (OpenJDK 17's ``javadoc``, its standard doclet and stylesheet): the held-out ``javadoc`` sources.

A small Java library, ``org.example.lessons``, documented as a Java library is: Javadoc comments
are HTML. ``overview.html`` (``-overview``) is the About text. The packages
``org.example.lessons.guide``, ``.reference`` and ``.appendix`` (the docs sections; each a
``package-info.java``: a sentence and a ``<ul>`` of ``{@link}``s to its classes) hold one class
per published post, named after its slug in PascalCase (``python-generators-tour``:
``PythonGeneratorsTour``). A class comment is the post: its title as the comment's first heading,
``<h2>`` (Javadoc 17's doclint takes the page's own ``<h1>``, "Class PythonGeneratorsTour", as
the implicit heading before a class comment: an ``<h1>`` in it is an error), the post's ``##``
sections as ``<h3>``, paragraphs ``<p>``, lists ``<ul>``/``<ol>``, pipe tables
``<table class="striped">`` with a ``<caption>`` (doclint's accessibility check wants a caption
or a summary: the caption is the table's header row, as a sentence), fenced code
``<pre><code class="language-LANG">`` (Javadoc keeps the attribute as written; a bare fence has
no class), inline code ``{@code ...}`` (``<code>`` when its braces are unbalanced), then the block
tags ``@author Ana Lima`` and ``@since <post date>`` (the page prints "Since:" and "Author:"
under the text). Each class also has a few real members so its page looks like an API page: a
``PUBLISHED`` field, a constructor, ``hasTag(String)`` and ``codeBlock(int)`` with ``@param`` and
``@return``. The install page is ``guide.Install`` (its notes as bold-led paragraphs: Javadoc has
no admonitions). No drafts in Javadoc: the draft is left out.

Escapes a comment needs: ``@`` at a line's start would open a block tag and ``*/`` would close the
comment (``&#64;``, ``*&#47;``), ``\\u`` is a Unicode escape to the compiler (``&#92;u``); HTML's
``<``, ``>``, ``&`` as entities. The backspace (U+0008) in the terminal post is kept, as the
other sites keep it.

    python bench/heldout/write_sources.py javadoc
"""

from __future__ import annotations

import html
import re

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _fresh, _write

PACKAGE = "org.example.lessons"
SECTIONS = (
    ("guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("appendix", "Field reports and short notes."),
)

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")
_ITEM = re.compile(r"^( *)(?:([-*])|(\d+)\.) (.*)$")


def escape(text: str) -> str:
    """HTML's special characters, and what a Javadoc comment cannot hold as written."""
    text = html.escape(text, quote=False)
    text = text.replace("*/", "*&#47;").replace("\\u", "&#92;u").replace("@", "&#64;")
    return text


def class_name(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.split("-"))


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def inline(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group(1) is not None:
            code = m.group(1)
            if _balanced(code) and "@" not in code and "*/" not in code and "\\u" not in code:
                out.append("{@code " + code + "}")
            else:
                out.append("<code>" + escape(code) + "</code>")
        elif m.group(2) is not None:
            out.append("<strong>" + inline(m.group(2)) + "</strong>")
        else:
            out.append(f'<a href="#{m.group(4)}">' + escape(m.group(3)) + "</a>")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _list(lines: list[str]) -> list[str]:
    """Nested Markdown lists (two spaces a level): a sublist inside the ``<li>`` it follows."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []
    for line in lines:
        m = _ITEM.match(line)
        assert m, line
        indent, kind = len(m.group(1)), "ul" if m.group(2) else "ol"
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and stack[-1][1] != kind)):
            out += ["</li>", f"</{stack.pop()[1]}>"]
        if stack and stack[-1][0] == indent:
            out.append("</li>")
        else:
            out.append(f"<{kind}>")
            stack.append((indent, kind))
        out.append("<li>" + inline(m.group(4)))
    while stack:
        out += ["</li>", f"</{stack.pop()[1]}>"]
    return out


def _table(lines: list[str]) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]
    caption = "Columns: " + ", ".join(inline(c) for c in head)
    return [
        '<table class="striped">',
        f"<caption>{caption}</caption>",
        "<thead>",
        "<tr>" + "".join(f'<th scope="col">{inline(c)}</th>' for c in head) + "</tr>",
        "</thead>",
        "<tbody>",
        *("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>" for r in body),
        "</tbody>",
        "</table>",
    ]


def body_html(body: str) -> str:
    """A post's Markdown body as the HTML of a Javadoc comment (``##`` headings ``<h3>``)."""
    lines = body.rstrip("\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            code = escape("\n".join(lines[i + 1 : j]))
            attr = f' class="language-{lang}"' if lang else ""
            out.append(f"<pre><code{attr}>{code}</code></pre>")
            i = j + 1
        elif line.startswith("## "):
            title = line[3:]
            out.append(f'<h3 id="{slug(title)}">{inline(title)}</h3>')
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j])
            i = j
        elif _ITEM.match(line):
            j = i
            while j < len(lines) and _ITEM.match(lines[j]):
                j += 1
            out += _list(lines[i:j])
            i = j
        elif not line.strip():
            i += 1
        else:
            j = i
            while (
                j < len(lines)
                and lines[j].strip()
                and not lines[j].startswith(("```", "## ", "|"))
                and not _ITEM.match(lines[j])
            ):
                j += 1
            out.append("<p>" + inline("\n".join(lines[i:j])) + "</p>")
            i = j
    return "\n".join(out) + "\n"


INSTALL = """<p>The tool ships for Python and Node.js; pick one.</p>
<p><strong>Warning: Python 3.10 or later.</strong> Older versions lack {@code zoneinfo}; the tool
refuses to start on them.</p>
<p>With pip:</p>
<pre><code class="language-bash">pip install lessons-cli</code></pre>
<p>With npm:</p>
<pre><code class="language-bash">npm install --global lessons-cli</code></pre>
<p><strong>Note:</strong> the configuration lives in {@code ~/.config/lessons/config.toml}:</p>
<pre><code class="language-toml">[output]
color = true</code></pre>
<p>Check the installation:</p>
<pre><code class="language-bash">lessons --version</code></pre>
"""


def _comment(text: str, indent: str = "") -> str:
    """``text`` as a Javadoc comment: ``/**``, each line after `` * ``, `` */``."""
    lines = [f"{indent} *" + (" " + line if line else "") for line in text.rstrip("\n").split("\n")]
    return f"{indent}/**\n" + "\n".join(lines) + f"\n{indent} */\n"


def _java_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def java_class(section: str, name: str, title: str, date: str, body: str, tags: tuple[str, ...]) -> str:
    """A post's class: the comment (title, text, ``@author``, ``@since``) and its members."""
    doc = f"<h2>{escape(title)}</h2>\n{body}\n@author Ana Lima\n"
    if date:
        doc += f"@since {date}\n"
    tag_list = ", ".join(_java_string(t) for t in tags)
    return (
        f"package {PACKAGE}.{section};\n\n"
        "import java.util.List;\n\n"
        + _comment(doc)
        + f"public final class {name} {{\n\n"
        + _comment("The day the lesson was published, as an ISO 8601 date.", "    ")
        + f"    public static final String PUBLISHED = {_java_string(date)};\n\n"
        + f"    private static final List<String> TAGS = List.of({tag_list});\n\n"
        + "    private final List<String> codeBlocks;\n\n"
        + _comment("Creates the lesson with its code blocks, in the order the text shows them.", "    ")
        + f"    public {name}() {{\n"
        + "        this.codeBlocks = List.of();\n"
        + "    }\n\n"
        + _comment(
            "Tells whether the lesson is filed under a tag.\n\n"
            "@param tag the tag's name, in lower case\n"
            "@return {@code true} when the lesson carries {@code tag}",
            "    ",
        )
        + "    public boolean hasTag(String tag) {\n"
        + "        return TAGS.contains(tag);\n"
        + "    }\n\n"
        + _comment(
            "Returns one of the lesson's code blocks.\n\n"
            "@param index the block's position, from 0\n"
            "@return the block's source text\n"
            "@throws IndexOutOfBoundsException when the lesson has fewer blocks",
            "    ",
        )
        + "    public String codeBlock(int index) {\n"
        + "        return codeBlocks.get(index);\n"
        + "    }\n"
        + "}\n"
    )


def _package_info(section: str, text: str, classes: list[tuple[str, str]]) -> str:
    items = "\n".join(f"<li>{{@link {name}}}: {escape(title)}</li>" for name, title in classes)
    return _comment(f"{text}\n\n<ul>\n{items}\n</ul>") + f"package {PACKAGE}.{section};\n"


OVERVIEW_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Small Lessons</title>
</head>
<body>
"""


def javadoc() -> None:
    """``src/org/example/lessons/<section>/<Class>.java`` and ``package-info.java`` per section,
    ``overview.html`` (About)."""
    src = _fresh("javadoc")
    base = src / "src" / PACKAGE.replace(".", "/")
    for section, text in SECTIONS:
        classes: list[tuple[str, str]] = []
        if section == "guide":
            _write(
                base / section / "Install.java",
                java_class(section, "Install", INSTALL_TITLE, "", INSTALL, ("installation",)),
            )
            classes.append(("Install", INSTALL_TITLE))
        for p in published():
            if DOC_SECTIONS[p.slug] != section:
                continue
            name = class_name(p.slug)
            _write(base / section / f"{name}.java", _post_class(section, name, p))
            classes.append((name, p.title))
        _write(base / section / "package-info.java", _package_info(section, text, classes))
    _write(
        src / "overview.html",
        OVERVIEW_HEAD + f"<h2>{escape(ABOUT.title)}</h2>\n" + body_html(ABOUT.body) + "</body>\n</html>\n",
    )


def _post_class(section: str, name: str, p: Post) -> str:
    return java_class(section, name, p.title, p.date, body_html(p.body), p.tags)
