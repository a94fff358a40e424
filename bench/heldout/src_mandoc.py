"""mandoc 1.14.6 (``mandoc -Thtml``, the BSD manual page compiler): the held-out ``mandoc`` sources.

A small project, ``small-lessons``, whose documentation is manual pages written in mdoc(7), as
the BSDs write theirs, published as HTML the way man-page sites are (man.openbsd.org,
manpages.debian.org: one page per manual page, ``<name>.<section>.html``, cross references as
links to the same folder, ``mandoc.css`` beside them, an apropos-style index):

- ``man7/small-lessons-<slug>.7`` per published post (section 7, miscellaneous information):
  ``.Dd`` the post's date (``January 15, 2023``: mandoc prints it in the page's footer),
  ``.Dt``, ``.Os``, ``.Sh NAME`` (``.Nm`` the page's name, ``.Nd`` the post's title), ``.Sh
  DESCRIPTION`` (the post: ``##`` headings as ``.Ss`` subsections, fenced code as ``.Bd
  -literal -offset indent`` displays (mdoc has no language for a display: the fence's name is
  written nowhere), pipe tables as ``.Bl -column`` (the header row in ``.Sy``), lists as ``.Bl
  -bullet``/``.Bl -enum`` with ``.It``, inline code ``.Ql``, strong ``.Sy``, an in-page link
  ``.Sx`` to its subsection), ``.Sh SEE ALSO`` (``.Xr`` to the introduction and to the pages
  sharing a tag) and ``.Sh AUTHORS`` (``.An``);
- ``man7/small-lessons-install.7``, the install page (its notes as indented ragged displays
  led by ``.Sy Warning :`` / ``.Sy Note :``);
- ``man7/small-lessons.7``, the introduction (the About text), listing every section-7 page by
  docs section (Guide, Reference, Appendix) in ``.Bl -tag`` lists of ``.Xr`` and the page's
  description, as intro(7)-style pages do;
- ``man1/lessons.1`` and ``man3/lessons_excerpt.3``: the project's command and one library
  function, as real ones are written (SYNOPSIS with ``.Op``/``.Fl``/``.Ar``, ``.In``/``.Ft``/
  ``.Fn``, ``.Ex -std``, RETURN VALUES, ENVIRONMENT, FILES, EXAMPLES);
- ``mandoc.css``: the style sheet of mandoc 1.14.6's source (Debian's source package mdocml
  1.14.6-1; the binary package does not install it), ISC licensed as its header says.

The index (``index.html``) is written by build.sh (:func:`index_html`): every page as
``apropos .`` prints it, name(section) and description (read from the pages' NAME sections:
makewhatis' database keeps descriptions in ASCII, ``?`` for each other byte), by section, as
man.cgi's result list. mdoc has no tags, categories, feeds or drafts: the draft is
left out. The U+0008 backspace is left out: mandoc reports it ("unsupported control character")
and prints ``?`` in its place.

    python bench/heldout/write_sources.py mandoc
    python bench/heldout/src_mandoc.py index SRC OUT   # build.sh: index.html
"""

from __future__ import annotations

import html
import re
import sys
from datetime import date
from pathlib import Path

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, ROOT, _fresh, _no_control, _write

PROJECT = "small-lessons"
OS = ".Os small-lessons 2.1"
SECTIONS = (
    ("Guide", "guide", "Lessons to read first: the tool, then the basics of Python, JavaScript and C."),
    ("Reference", "reference", "Notes to look things up in: benchmarks, checklists, recipes."),
    ("Appendix", "appendix", "Field reports and short notes."),
)
VOLUMES = {
    "1": "General Commands Manual",
    "3": "Library Functions Manual",
    "7": "Miscellaneous Information Manual",
}

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")
_ITEM = re.compile(r"^( *)(?:([-*])|(\d+)\.) (.*)$")
_MACRO_LIKE = re.compile(r"^[A-Z%][a-zA-Z]{1,2}$")
_DELIMITERS = set("([.,:;)]?!|")
_CLOSING = re.compile(r"^([.,:;)\]?!]+)(?=\s|$)")


def page_name(slug: str) -> str:
    """A post's manual page name (``small-lessons-python-generators-tour``)."""
    return f"{PROJECT}-{slug}"


def dd(iso: str) -> str:
    """mdoc's ``.Dd`` form of an ISO date: ``January 15, 2023``."""
    d = date.fromisoformat(iso)
    return f"{d:%B} {d.day}, {d.year}"


def text_escape(text: str) -> str:
    """A text line: roff's escape character doubled as ``\\e``; a leading control character
    (``.``/``'``) made plain with ``\\&``."""
    out = _no_control(text).replace("\\", "\\e")
    return "\\&" + out if out[:1] in (".", "'") else out


def arg(word: str) -> str:
    """A word on a macro line: escaped, quotes as ``\\(dq``, and ``\\&`` before a word mdoc
    would read as a macro (``Ta``, ``No``, ``At``) or a delimiter."""
    out = text_escape(word).replace('"', "\\(dq")
    if _MACRO_LIKE.match(out) or out in _DELIMITERS:
        out = "\\&" + out
    return out


def args(text: str) -> str:
    return " ".join(arg(w) for w in text.split())


def inline(text: str) -> list[str]:
    """A paragraph's (or an item's) Markdown inline markup as mdoc lines: text lines between
    ``.Ql`` (inline code), ``.Sy`` (strong) and ``.Sx`` (in-page link) lines, punctuation right
    after a macro's words as its trailing delimiters."""
    lines: list[str] = []
    pos, rest = 0, text
    pending = ""
    for m in _INLINE.finditer(text):
        pre = text[pos : m.start()]
        if lines and lines[-1].startswith("."):
            closing = _CLOSING.match(pre)
            if closing:
                lines[-1] += " " + " ".join(closing.group(1))
                pre = pre[closing.end() :]
            elif pre and not pre[0].isspace():
                raise ValueError(f"text glued to inline markup: {text!r}")
        pre = pending + pre
        pending = ""
        if pre.strip():
            if not pre[-1].isspace():
                raise ValueError(f"inline markup glued to text: {text!r}")
            lines.append(text_escape(pre.strip()))
        if m.group(1) is not None:
            lines.append(".Ql " + args(m.group(1)))
        elif m.group(2) is not None:
            lines.append(".Sy " + args(m.group(2)))
        else:
            lines.append(".Sx " + args(m.group(3)))
        pos = m.end()
    rest = text[pos:]
    if lines and lines[-1].startswith("."):
        closing = _CLOSING.match(rest)
        if closing:
            lines[-1] += " " + " ".join(closing.group(1))
            rest = rest[closing.end() :]
        elif rest and not rest[0].isspace():
            raise ValueError(f"text glued to inline markup: {text!r}")
    if rest.strip():
        lines.append(text_escape(rest.strip()))
    return [part for line in lines for part in _sentences(line)]


_SENTENCE_END = re.compile(r"(?<=[a-z0-9)][.!?])\s+(?=[A-Z(])")


def _sentences(line: str) -> list[str]:
    """mdoc's rule: a new sentence on a new line (a text line split after a sentence's end)."""
    return [line] if line.startswith(".") else _SENTENCE_END.split(line)


def _list(lines: list[str]) -> list[str]:
    """Nested Markdown lists (two spaces a level) as ``.Bl -bullet``/``.Bl -enum``."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, "bullet"|"enum")
    for line in lines:
        m = _ITEM.match(line)
        assert m, line
        indent, kind = len(m.group(1)), "bullet" if m.group(2) else "enum"
        while stack and stack[-1][0] > indent:
            stack.pop()
            out.append(".El")
        if stack and stack[-1][0] == indent and stack[-1][1] != kind:
            stack.pop()
            out.append(".El")
        if not stack or stack[-1][0] < indent:
            out.append(f".Bl -{kind} -compact" if stack else f".Bl -{kind}")
            stack.append((indent, kind))
        out.append(".It")
        out += inline(m.group(4))
    out += [".El"] * len(stack)
    return out


def _table(lines: list[str]) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]
    widths = [max((r[i] for r in rows[:1] + body), key=len) for i in range(len(head))]
    out = [".Bl -column " + " ".join('"' + w.replace('"', "\\(dq") + '"' for w in widths)]
    out.append(".It " + " Ta ".join("Sy " + args(c) for c in head))
    out += [".It " + " Ta ".join(args(c) for c in row) for row in body]
    out.append(".El")
    return out


def body_mdoc(body: str) -> list[str]:
    """A post's Markdown body as the lines of an mdoc DESCRIPTION."""
    lines = _no_control(body).rstrip("\n").split("\n")
    out: list[str] = []
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            if out and not out[-1].startswith((".Sh", ".Ss")):
                out.append(".Pp")
            out.extend(inline(" ".join(s.strip() for s in para)))
            para.clear()

    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            flush()
            j = lines.index("```", i + 1)
            out.append(".Bd -literal -offset indent")
            out += [text_escape(c) for c in lines[i + 1 : j]]
            out.append(".Ed")
            i = j + 1
        elif line.startswith("## "):
            flush()
            out.append(".Ss " + args(line[3:]))
            i += 1
        elif line.startswith("|"):
            flush()
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j])
            i = j
        elif _ITEM.match(line) and not line.startswith(" "):
            flush()
            j = i
            while j < len(lines) and _ITEM.match(lines[j]):
                j += 1
            out += _list(lines[i:j])
            i = j
        elif not line.strip():
            flush()
            i += 1
        else:
            para.append(line)
            i += 1
    flush()
    return out


def _header(name: str, section: str, iso: str, description: str) -> list[str]:
    return [
        f'.\\" {name}.{section}: written for the small-lessons test site (CC0)',
        f".Dd {dd(iso)}",
        f".Dt {name.upper()} {section}",
        OS,
        ".Sh NAME",
        f".Nm {name}",
        ".Nd " + args(description),
    ]


def _see_also(refs: list[tuple[str, str]]) -> list[str]:
    out = [".Sh SEE ALSO"]
    for k, (name, section) in enumerate(refs):
        out.append(f".Xr {name} {section}" + (" ," if k < len(refs) - 1 else ""))
    return out


AUTHORS = [".Sh AUTHORS", ".An Ana Lima Aq Mt ana@small-lessons.example"]


def post_page(p: Post, posts: tuple[Post, ...]) -> str:
    name = page_name(p.slug)
    related = [page_name(q.slug) for q in posts if q is not p and set(q.tags) & set(p.tags)]
    lines = _header(name, "7", p.date, p.title)
    lines += [".Sh DESCRIPTION", *body_mdoc(p.body)]
    lines += _see_also([("lessons", "1"), (PROJECT, "7"), *((r, "7") for r in sorted(related))])
    lines += AUTHORS
    return "\n".join(lines) + "\n"


INSTALL_DATE = "2024-06-01"
INSTALL = r""".Sh DESCRIPTION
The tool ships for Python and Node.js; pick one.
.Bd -ragged -offset indent
.Sy Warning :
Python 3.10 or later: older versions lack
.Ql zoneinfo ;
the tool refuses to start on them.
.Ed
With pip:
.Bd -literal -offset indent
pip install lessons-cli
.Ed
With npm:
.Bd -literal -offset indent
npm install --global lessons-cli
.Ed
.Bd -ragged -offset indent
.Sy Note :
The configuration lives in
.Pa ~/.config/lessons/config.toml .
.Ed
Check the installation:
.Bd -literal -offset indent
lessons --version
.Ed
.Sh FILES
.Bl -tag -width Ds
.It Pa ~/.config/lessons/config.toml
The configuration file.
.El
"""


def install_page() -> str:
    lines = _header(f"{PROJECT}-install", "7", INSTALL_DATE, INSTALL_TITLE)
    text = INSTALL + "\n".join(_see_also([("lessons", "1"), (PROJECT, "7")]) + AUTHORS) + "\n"
    return "\n".join(lines) + "\n" + text


def intro_page(posts: tuple[Post, ...]) -> str:
    """``small-lessons.7``: the About text, then every section-7 page by docs section."""
    lines = _header(PROJECT, "7", ABOUT.date, "a notebook of small programming lessons")
    lines += [".Sh DESCRIPTION", *body_mdoc(ABOUT.body)]
    lines += [".Pp", "Each lesson is a manual page in section 7;", "the command is", ".Xr lessons 1 ."]
    by_section: dict[str, list[tuple[str, str]]] = {}
    by_section["guide"] = [(f"{PROJECT}-install", INSTALL_TITLE)]
    for p in posts:
        by_section.setdefault(DOC_SECTIONS[p.slug], []).append((page_name(p.slug), p.title))
    for title, key, text in SECTIONS:
        lines += [".Ss " + title, text_escape(text), ".Bl -tag -width Ds"]
        for name, desc in by_section[key]:
            lines += [f".It Xr {name} 7", text_escape(desc)]
        lines.append(".El")
    lines += _see_also([("lessons", "1"), ("mandoc", "1"), ("lessons_excerpt", "3"), ("man", "7")])
    lines += [".Sh HISTORY", "The notebook was started in 2023.", *AUTHORS]
    return "\n".join(lines) + "\n"


LESSONS_1 = r""".\" lessons.1: written for the small-lessons test site (CC0)
.Dd June 1, 2024
.Dt LESSONS 1
.Os small-lessons 2.1
.Sh NAME
.Nm lessons
.Nd read and search the small lessons
.Sh SYNOPSIS
.Nm
.Op Fl hV
.Op Fl c Ar config
.Op Fl n Ar count
.Ar command
.Op Ar argument ...
.Sh DESCRIPTION
The
.Nm
utility lists, shows and searches the lessons of the
.Xr small-lessons 7
notebook.
.Pp
The options are as follows:
.Bl -tag -width Ds
.It Fl c Ar config
Read the configuration from
.Ar config
instead of
.Pa ~/.config/lessons/config.toml .
.It Fl h
Print a short usage message and exit.
.It Fl n Ar count
Show at most
.Ar count
lessons; the default is 10.
.It Fl V , Fl -version
Print the version and exit.
.El
.Pp
The commands are as follows:
.Bl -tag -width Ds
.It Cm list Op Ar tag
List the lessons, newest first, or only those tagged
.Ar tag .
.It Cm show Ar name
Show the lesson
.Ar name
with
.Xr man 1 .
.It Cm search Ar pattern
Print the lessons whose text matches the extended regular expression
.Ar pattern ,
with an excerpt of each
.Pq see Xr lessons_excerpt 3 .
.El
.Sh ENVIRONMENT
.Bl -tag -width LESSONS_CONFIG
.It Ev LESSONS_CONFIG
The configuration file to read when
.Fl c
is not given.
.It Ev PAGER
The pager
.Cm show
uses.
.El
.Sh FILES
.Bl -tag -width Ds -compact
.It Pa ~/.config/lessons/config.toml
the default configuration file
.El
.Sh EXIT STATUS
.Ex -std
.Sh EXAMPLES
List the lessons tagged python:
.Bd -literal -offset indent
$ lessons list python
.Ed
.Pp
Find the lessons that mention generators:
.Bd -literal -offset indent
$ lessons -n 3 search 'generator(s)?'
.Ed
.Sh SEE ALSO
.Xr lessons_excerpt 3 ,
.Xr small-lessons 7 ,
.Xr small-lessons-install 7
.Sh AUTHORS
.An Ana Lima Aq Mt ana@small-lessons.example
"""

LESSONS_EXCERPT_3 = r""".\" lessons_excerpt.3: written for the small-lessons test site (CC0)
.Dd June 1, 2024
.Dt LESSONS_EXCERPT 3
.Os small-lessons 2.1
.Sh NAME
.Nm lessons_excerpt
.Nd first sentence of a lesson
.Sh LIBRARY
Small Lessons library (liblessons, \-llessons)
.Sh SYNOPSIS
.In lessons.h
.Ft ssize_t
.Fn lessons_excerpt "const char *text" "char *buf" "size_t size"
.Sh DESCRIPTION
The
.Fn lessons_excerpt
function copies the first sentence of the NUL-terminated string
.Fa text
into
.Fa buf ,
cut at a word boundary so that it holds at most
.Fa size
bytes, including the terminating NUL.
Backspace sequences
.Pq a character, a backspace and the same character
are removed first.
.Sh RETURN VALUES
The
.Fn lessons_excerpt
function returns the length of the excerpt, or \-1 if an error occurred.
.Sh EXAMPLES
.Bd -literal -offset indent
char buf[80];

if (lessons_excerpt(text, buf, sizeof(buf)) == -1)
	err(1, "lessons_excerpt");
puts(buf);
.Ed
.Sh ERRORS
.Bl -tag -width Er
.It Bq Er EINVAL
.Fa size
is 0.
.It Bq Er EILSEQ
.Fa text
is not valid UTF-8.
.El
.Sh SEE ALSO
.Xr lessons 1 ,
.Xr small-lessons 7
.Sh AUTHORS
.An Ana Lima Aq Mt ana@small-lessons.example
"""


CSS = Path("/tmp/mandoc-src/mandoc-1.14.6/mandoc.css")


def mandoc() -> None:
    # mandoc.css: the source package's style sheet (build.sh's header: apt-get source), or the
    # copy already committed in src/
    committed = ROOT / "mandoc" / "src" / "mandoc.css"
    css = CSS if CSS.is_file() else committed
    if not css.is_file():
        raise SystemExit(f"src_mandoc: no mandoc.css: unpack Debian's source package mdocml 1.14.6-1 ({CSS})")
    style = css.read_text(encoding="utf-8")
    src = _fresh("mandoc")
    posts = published()
    for p in posts:
        _write(src / "man7" / f"{page_name(p.slug)}.7", post_page(p, posts))
    _write(src / "man7" / f"{PROJECT}-install.7", install_page())
    _write(src / "man7" / f"{PROJECT}.7", intro_page(posts))
    _write(src / "man1" / "lessons.1", LESSONS_1)
    _write(src / "man3" / "lessons_excerpt.3", LESSONS_EXCERPT_3)
    _write(src / "mandoc.css", style)


_NAME = re.compile(r"^\.Nm (\S+)\n\.Nd (.+)$", re.M)


def _unroff(text: str) -> str:
    """A macro line's words as mandoc prints them: ``\\&`` dropped, ``\\e`` a backslash,
    ``\\(dq`` a quote."""
    return text.replace("\\&", "").replace("\\(dq", '"').replace("\\e", "\\")


def whatis(src: Path) -> list[tuple[str, str, str]]:
    """Every page's (section, name, description), from its NAME section (``.Nm``, ``.Nd``), as
    ``apropos .`` answers (its database, ``makewhatis``' ``mandoc.db``, keeps descriptions in
    ASCII, a ``?`` for every other byte: read from the pages themselves instead)."""
    rows = []
    for f in sorted(src.glob("man?/*.?")):
        m = _NAME.search(f.read_text(encoding="utf-8"))
        if not m:
            raise ValueError(f"{f}: no NAME section")
        rows.append((f.suffix[1:], m.group(1), _unroff(m.group(2))))
    return sorted(rows)


def index_html(src: Path) -> str:
    """The index, as man.cgi lists apropos' answer: every page, by section then name, its
    name(section) a link to ``<name>.<section>.html`` and its one-line description."""
    rows = whatis(src)
    body = []
    section = ""
    for sec, name, desc in rows:
        if sec != section:
            if section:
                body.append("</table>")
            body.append(f'<h2 id="section-{sec}">Section {sec}: {VOLUMES[sec]}</h2>')
            body.append('<table class="results">')
            section = sec
        body.append(
            "<tr>\n"
            f'  <td><a class="Xr" href="{html.escape(name)}.{sec}.html">{html.escape(name)}({sec})</a></td>\n'
            f'  <td><span class="Nd">{html.escape(desc)}</span></td>\n'
            "</tr>"
        )
    body.append("</table>")
    return (
        "<!DOCTYPE html>\n<html>\n<head>\n"
        '  <meta charset="utf-8"/>\n'
        '  <meta name="viewport" content="width=device-width, initial-scale=1.0"/>\n'
        '  <link rel="stylesheet" href="mandoc.css" type="text/css" media="all"/>\n'
        "  <title>small-lessons manual pages</title>\n"
        "</head>\n<body>\n"
        "<h1>small-lessons manual pages</h1>\n"
        "<p>Every page of the manual, as <code>apropos .</code> lists them. "
        'Start with <a class="Xr" href="small-lessons.7.html">small-lessons(7)</a>.</p>\n'
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["index"]:
        Path(sys.argv[3]).write_text(index_html(Path(sys.argv[2])), encoding="utf-8")
    else:
        sys.exit(f"usage: {sys.argv[0]} index SRC OUT")
