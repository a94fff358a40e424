"""The ``latexml`` held-out site: short notes written in LaTeX, converted to HTML5 by LaTeXML.

    python bench/heldout/write_sources.py latexml

What arXiv's HTML papers (ar5iv) are: LaTeXML 0.8.7 from Debian 12 converts each post, a
standalone ``article`` (``posts/<slug>.tex``: ``\\title``, ``\\author{Ana Lima}``, ``\\date`` the
post's date as LaTeX prints one, ``January 15, 2023``; ``\\maketitle``; a ``\\section`` per
``##`` heading, ``\\label``-ed where the post links to it, ``\\hyperref``; ``itemize`` and
``enumerate`` lists, nested; ``tabular`` tables ruled with ``\\hline``; code as ``lstlisting``
with ``language=`` where the listings package knows the language (Python, C, Java, Ruby, SQL,
Haskell, bash, Go), else ``verbatim``; inline code ``\\texttt``, bold ``\\textbf``), with
``latexml`` (TeX to LaTeXML's XML) and ``latexmlpost --format=html5`` (its default CSS, copied
beside the pages: ``LaTeXML.css``, ``ltx-article.css``, ``ltx-listings.css``). The About page is
such an article too, without a date (``\\date{}``). The index, ``index.html``, is the site's own
small HTML page (written here): every post, newest first, its date then its link. No tags,
categories, archives, pagination, feed or sitemap: LaTeXML has none.

The U+0008 backspace is dropped: TeX reads it as an invalid character (catcode 15).
``make-site.sh`` builds every file of ``posts/`` (the draft is not there) and ``about.tex``.
"""

from __future__ import annotations

import html
import re

from corpus import ABOUT, Post, published
from write_sources import _fresh, _write

SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"

#: The corpus' fence languages that the listings package (1.8d, TeX Live 2022) defines, by
#: listings' own name for them; the others (JavaScript, Rust, JSON, YAML, Dockerfile) go in
#: ``verbatim``.
LISTINGS = {
    "python": "Python",
    "c": "C",
    "java": "Java",
    "ruby": "Ruby",
    "sql": "SQL",
    "haskell": "Haskell",
    "bash": "bash",
    "go": "Go",
}

MONTHS = ("January February March April May June July August September October November December").split()

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(#([^)]+)\)")
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\textasciitilde{}",
    "|": r"\textbar{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "\b": "",
}


def escape(text: str) -> str:
    """LaTeX's special characters in running text."""
    return "".join(_SPECIAL.get(c, c) for c in text)


def latex_date(date: str) -> str:
    year, month, day = date.split("-")
    return f"{MONTHS[int(month) - 1]} {int(day)}, {year}"


def _slug(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def inline(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append(r"\texttt{" + escape(m.group(1)) + "}")
        elif m.group(2) is not None:
            out.append(r"\textbf{" + escape(m.group(2)) + "}")
        else:
            out.append(r"\hyperref[sec:" + m.group(4) + "]{" + escape(m.group(3)) + "}")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def _list(lines: list[str]) -> list[str]:
    """Nested Markdown lists (two spaces a level) as itemize/enumerate."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, "itemize"|"enumerate")
    for line in lines:
        m = re.match(r"^( *)(?:([-*])|(\d+)\.) (.*)$", line)
        assert m, line
        indent, kind = len(m.group(1)), "itemize" if m.group(2) else "enumerate"
        while stack and stack[-1][0] > indent:
            out.append("  " * (len(stack) - 1) + r"\end{" + stack.pop()[1] + "}")
        if stack and stack[-1][0] == indent and stack[-1][1] != kind:
            out.append("  " * (len(stack) - 1) + r"\end{" + stack.pop()[1] + "}")
        if not stack or stack[-1][0] < indent:
            out.append("  " * len(stack) + r"\begin{" + kind + "}")
            stack.append((indent, kind))
        out.append("  " * len(stack) + r"\item " + inline(m.group(4)))
    while stack:
        out.append("  " * (len(stack) - 1) + r"\end{" + stack.pop()[1] + "}")
    return out


def _table(lines: list[str]) -> list[str]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head, body = rows[0], rows[2:]
    out = [r"\begin{center}", r"\begin{tabular}{" + "l" * len(head) + "}", r"\hline"]
    out.append(" & ".join(inline(c) for c in head) + r" \\")
    out.append(r"\hline")
    out += [" & ".join(inline(c) for c in row) + r" \\" for row in body]
    out += [r"\hline", r"\end{tabular}", r"\end{center}"]
    return out


def body_latex(body: str) -> str:
    """A post's Markdown body in LaTeX."""
    lines = body.rstrip("\n").split("\n")
    linked = {m.group(2) for m in re.finditer(r"\[([^\]]+)\]\(#([^)]+)\)", body)}
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            lang = line[3:].strip()
            j = lines.index("```", i + 1)
            code = lines[i + 1 : j]
            if lang in LISTINGS:
                out += [r"\begin{lstlisting}[language=" + LISTINGS[lang] + "]", *code, r"\end{lstlisting}"]
            else:
                out += [r"\begin{verbatim}", *code, r"\end{verbatim}"]
            i = j + 1
        elif line.startswith("## "):
            title = line[3:]
            out.append(r"\section{" + inline(title) + "}")
            if _slug(title) in linked:
                out[-1] += r"\label{sec:" + _slug(title) + "}"
            i += 1
        elif line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j])
            i = j
        elif re.match(r"^(?:[-*]|\d+\.) ", line):
            j = i
            while j < len(lines) and re.match(r"^ *(?:[-*]|\d+\.) ", lines[j]):
                j += 1
            out += _list(lines[i:j])
            i = j
        elif not line.strip():
            out.append("")
            i += 1
        else:
            out.append(inline(line))
            i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n") + "\n"


def article(title: str, date: str | None, body: str) -> str:
    """A standalone LaTeX article, as a short paper or note is written."""
    return (
        "\\documentclass{article}\n"
        "\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{listings}\n"
        "\\usepackage{hyperref}\n"
        "\\lstset{basicstyle=\\ttfamily\\small, columns=fullflexible}\n\n"
        f"\\title{{{escape(title)}}}\n"
        f"\\author{{{AUTHOR}}}\n"
        f"\\date{{{latex_date(date) if date else ''}}}\n\n"
        "\\begin{document}\n"
        "\\maketitle\n\n"
        f"{body_latex(body)}\n"
        "\\end{document}\n"
    )


def index_html(posts: list[Post]) -> str:
    items = "".join(
        f'<li><time datetime="{p.date}">{p.date}</time> &mdash; '
        f'<a href="{p.slug}.html">{html.escape(p.title)}</a></li>\n'
        for p in sorted(posts, key=lambda p: p.date, reverse=True)
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{SITENAME}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="LaTeXML.css" type="text/css">
</head>
<body>
<header>
<h1>{SITENAME}</h1>
<p>Short notes on programming by {AUTHOR}, written in LaTeX and converted to HTML with LaTeXML.
<a href="about.html">About</a>.</p>
</header>
<main>
<h2>Notes</h2>
<ul class="notes">
{items}</ul>
</main>
</body>
</html>
"""


MAKE_SITE = """#!/bin/sh
# make-site.sh: convert every note to HTML5 with LaTeXML into OUT (default: _site).
#   sh make-site.sh [OUT]
set -eu
out="${1:-_site}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

convert() {  # convert SRC NAME: LaTeX to LaTeXML's XML, then to HTML5 with its default CSS
  latexml --quiet --destination="$tmp/$2.xml" "$1"
  latexmlpost --quiet --format=html5 --destination="$out/$2.html" "$tmp/$2.xml"
}

for f in posts/*.tex; do
  convert "$f" "$(basename "$f" .tex)"
done
convert about.tex about
cp index.html "$out/index.html"
"""


def latexml() -> None:
    src = _fresh("latexml")
    posts = list(published())  # the draft is not in posts/: the script builds every file there
    for p in posts:
        _write(src / "posts" / f"{p.slug}.tex", article(p.title, p.date, p.body))
    _write(src / "about.tex", article(ABOUT.title, None, ABOUT.body))
    _write(src / "index.html", index_html(posts))
    _write(src / "make-site.sh", MAKE_SITE)
