"""Trac 1.6 (PyPI's ``Trac``, its wiki as a docs site, the default theme): sources, build, mirror.

    python bench/heldout/write_sources.py trac          # writes tests/fixtures/heldout/trac/src
    python bench/heldout/src_trac.py SRC OUT SERVED    # build.sh's trac branch (in Trac's venv)

Trac keeps its wiki pages in its database; the sources are the pages' text as an editor types it
(``pages/**/*.txt``, converted from the corpus' Markdown by :func:`trac_text`: ``= heading =``
(the page's title the level-1 heading, ``##`` sections ``== … ==``), `` * `` / `` 1. `` lists
indented one space more a level, ``||= head =||`` / ``|| cell ||`` tables, code as
``{{{#!LANG … }}}`` (a WikiProcessors block, highlighted by Pygments), `` `code` ``, ``'''bold'''``,
``''italics''``, ``[url label]`` links, CamelCase words of the prose escaped with ``!`` so they
stay words, as Trac's WikiPageNames page advises), ``pages.json`` (each page's name, kind and the
time of its one version: the post's date) and ``trac.ini`` (the settings changed from
``initenv``'s: the project's description, ``[trac] base_url`` the site's host, as a Trac behind a
proxy sets it, the time zone UTC).

Pages: ``WikiStart`` (the start page, ``/`` and ``/wiki``, ``/wiki/WikiStart``): the wiki's welcome
text and every page by section, with its date; one hierarchical page per section (``Guide``,
``Reference``, ``Appendix``: a sentence and the ``[[TitleIndex(Guide/)]]`` macro: the section's
pages by name); the posts as ``<Section>/<CamelCaseSlug>`` (``Guide/PythonGeneratorsTour``), the
install page ``Guide/Installation``, the About page ``About``. The draft is not written (a wiki
has none). Trac's own pages from ``initenv`` (``TracGuide``, ``WikiFormatting``, ``TitleIndex``,
``RecentChanges``, ``SandBox`` …: Trac's documentation, on every Trac site, author ``trac``, which
Trac serves ``NOINDEX, NOFOLLOW``) are kept; its ``WikiStart`` is replaced.

The build (:func:`build`, run by the venv's Python): ``trac-admin ENV initenv`` on SQLite in a
scratch folder, ``config set`` of ``trac.ini``, ``wiki remove WikiStart`` and ``wiki import`` of
each page (one trac-admin session), then each page's one version set in the database to its
post's date and its author ``ana`` (``wiki import`` signs ``trac``, whose pages Trac marks
``NOINDEX, NOFOLLOW``), Trac's own pages to the environment's day (``INSTALLED``); ``tracd
--single-env`` on a free loopback port, then ``wget --mirror`` (robots.txt and the pages'
``<meta name="ROBOTS" content="NOINDEX, NOFOLLOW">`` obeyed, ``-E``: a page without an extension
saved as ``<path>.html``, since ``/wiki/Guide`` is a page and a folder) from ``/``, every page
and ``TitleIndex``, ``RecentChanges`` and ``/timeline``. Not mirrored: scripts, images, the
login and preferences pages, the search form's results, the "Download in other formats" links
Trac marks ``rel="nofollow"`` (``?format=txt``), and the timeline's other periods (every page's
"Last modified" date links ``/timeline?from=…&precision=second``; each such page links the
periods before and after it without end). ``served.json`` names the content types the file names
do not say (the feeds) and turns the query fallback off.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ABOUT, DOC_SECTIONS, Post, published  # noqa: E402

HOST = "https://trac.heldout.example"
SITENAME = "Small Lessons"
USER = "ana"
SECTIONS = ("Guide", "Reference", "Appendix")
#: The day the environment was created: Trac's own pages' one version.
INSTALLED = "2023-01-01T09:00:00Z"
BIN = Path(sys.executable).parent

INSTALL_TITLE = "Installing the command-line tool"
#: Trac has no tabs: the two commands in turn; the notes are ``#!div class="important"`` boxes
#: (WikiHtml's example), the second holding the configuration file's code.
INSTALL_PAGE = f"""= {INSTALL_TITLE} =

The tool ships for Python and Node.js; pick one.

With pip:

{{{{{{#!bash
pip install lessons-cli
}}}}}}

With npm:

{{{{{{#!bash
npm install --global lessons-cli
}}}}}}

{{{{{{#!div class="important"
'''Python 3.10 or later.''' Older versions lack `zoneinfo`; the tool refuses to start on them.
}}}}}}

{{{{{{#!div class="important"
'''Note:''' the configuration lives in `~/.config/lessons/config.toml`:

{{{{{{#!toml
[output]
color = true
}}}}}}
}}}}}}

Check the installation:

{{{{{{#!bash
lessons --version
}}}}}}
"""

#: ``trac.ini`` settings over initenv's, applied with ``trac-admin ENV config set``.
TRAC_INI = """# trac.ini: the settings changed from initenv's (trac-admin ENV config set SECTION OPTION VALUE).
[project]
descr = Short programming lessons
url = https://trac.heldout.example/

[trac]
base_url = https://trac.heldout.example/

[header_logo]
alt = Small Lessons
link = /

[wiki]
ignore_missing_pages = false
"""


# --- Markdown to Trac's wiki syntax -----------------------------------------------------------

#: A CamelCase word Trac would link as a wiki page (WikiPageNames): escaped with ``!`` in prose.
_CAMEL = re.compile(r"(?<![\w!/])((?:[A-Z][a-z0-9]+){2,})\b")


def camel(slug: str) -> str:
    """A post's page name from its slug: ``python-generators-tour`` -> ``PythonGeneratorsTour``."""
    return "".join(part.capitalize() for part in slug.split("-"))


def page_name(post: Post) -> str:
    return f"{DOC_SECTIONS[post.slug].title()}/{camel(post.slug)}"


def _md_anchor(text: str) -> str:
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")


def _inline(text: str) -> str:
    """Inline Markdown as Trac: backticks kept (Trac's monospace), links, bold, italics."""
    out: list[str] = []
    links: list[str] = []

    def link(m: re.Match[str]) -> str:
        links.append(f"[{m.group(2)} {m.group(1)}]")
        return f"\0{len(links) - 1}\0"

    for i, part in enumerate(re.split(r"(`[^`]+`)", text)):
        if i % 2:
            out.append(part)
            continue
        part = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", link, part)
        part = _CAMEL.sub(r"!\1", part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"'''\1'''", part)
        part = re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"''\1''", part)
        part = re.sub(r"\0(\d+)\0", lambda m: links[int(m.group(1))], part)
        out.append(part)
    return "".join(out)


def _table(rows: list[str]) -> list[str]:
    cells = [[_inline(c.strip()) for c in r.strip().strip("|").split("|")] for r in rows]
    out = ["||" + "||".join(f"= {c} =" for c in cells[0]) + "||"]
    out += ["||" + "||".join(f" {c} " for c in row) + "||" for row in cells[2:]]
    return out


def trac_text(title: str, markdown: str) -> str:
    """A page in Trac's wiki syntax: its title as the level-1 heading, then the body."""
    targets = set(re.findall(r"\]\(#([^)]+)\)", markdown))
    lines = markdown.splitlines()
    out: list[str] = [f"= {title} =", ""]
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := re.match(r"^(`{3,})(\S*)\s*$", line):
            fence, lang = m.group(1), m.group(2)
            j = i + 1
            while not lines[j].startswith(fence):
                j += 1
            code = "\n".join(lines[i + 1 : j])
            if "}}}" in code:
                raise ValueError(f"{title}: '}}}}}}' in a code block")
            out.append(f"{{{{{{{'#!' + lang if lang else ''}\n{code}\n}}}}}}")
            i = j + 1
            continue
        if m := re.match(r"^(#{2,6}) (.+)$", line):
            bar = "=" * len(m.group(1))
            anchor = _md_anchor(m.group(2))
            out.append(f"{bar} {m.group(2)} {bar}" + (f" #{anchor}" if anchor in targets else ""))
            i += 1
            continue
        if line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j])
            i = j
            continue
        if re.match(r"^\s*(?:[-*]|\d+\.) ", line):
            while i < len(lines) and (m := re.match(r"^(\s*)([-*]|\d+\.) (.*)$", lines[i])):
                marker = m.group(2) if m.group(2)[0].isdigit() else "*"
                out.append(" " * (1 + len(m.group(1))) + f"{marker} " + _inline(m.group(3)))
                i += 1
            continue
        if line.startswith(">"):
            while i < len(lines) and lines[i].startswith(">"):
                out.append("> " + _inline(lines[i][1:].strip()))
                i += 1
            continue
        out.append(_inline(line))
        i += 1
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


# --- the sources ------------------------------------------------------------------------------


def _stamp(date: str) -> str:
    return f"{date}T09:30:00Z"


def trac() -> None:
    """tests/fixtures/heldout/trac/src: the pages' text, their names, kinds and times, and the
    settings the build applies."""
    from write_sources import _fresh, _write

    src = _fresh("trac")
    pages: list[dict[str, str]] = []

    def put(name: str, title: str, stamp: str, text: str, kind: str) -> None:
        file = f"pages/{name}.txt"
        _write(src / file, text)
        pages.append({"name": name, "title": title, "file": file, "timestamp": stamp, "kind": kind})

    posts = published()
    sections: dict[str, list[Post]] = {s: [] for s in SECTIONS}
    for p in posts:
        sections[DOC_SECTIONS[p.slug].title()].append(p)
        put(page_name(p), p.title, _stamp(p.date), trac_text(p.title, p.body), "post")
    first = min(p.date for p in posts)
    last = max(p.date for p in posts)
    put("Guide/Installation", INSTALL_TITLE, _stamp(first), INSTALL_PAGE, "docs")
    put("About", ABOUT.title, _stamp(ABOUT.date), trac_text(ABOUT.title, ABOUT.body), "about")
    intro = {
        "Guide": "Where to start.",
        "Reference": "One topic a page.",
        "Appendix": "Field notes and tips.",
    }
    for section in SECTIONS:
        text = f"= {section} =\n\n{intro[section]}\n\n[[TitleIndex({section}/)]]\n"
        newest = max(p.date for p in sections[section])
        put(section, section, _stamp(newest), text, "section")
    start = [
        f"= {SITENAME} =",
        "",
        f"'''{SITENAME}''' is a wiki of short programming lessons. See [wiki:About] for what it is.",
        "",
    ]
    for section in SECTIONS:
        start += [f"== {section} ==", ""]
        if section == "Guide":
            start.append(f" * [wiki:Guide/Installation {INSTALL_TITLE}]")
        for p in sorted(sections[section], key=lambda p: p.date, reverse=True):
            start.append(f" * [wiki:{page_name(p)} {p.title.replace(']', '')}] ({p.date})")
        start += ["", f"More in [wiki:{section}].", ""]
    put("WikiStart", SITENAME, _stamp(last), "\n".join(start), "start")
    _write(src / "pages.json", json.dumps(pages, ensure_ascii=False, indent=1) + "\n")
    _write(src / "trac.ini", TRAC_INI)


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _usec(stamp: str) -> int:
    moment = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    return int(moment.timestamp()) * 1_000_000


def _settings(src: Path) -> list[tuple[str, str, str]]:
    found, section = [], ""
    for line in (src / "trac.ini").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^\[(.+)\]$", line):
            section = m.group(1)
        elif m := re.match(r"^([\w.]+) = (.*)$", line):
            found.append((section, m.group(1), m.group(2)))
    return found


def install(src: Path, env: Path) -> None:
    """The environment created, configured, its pages imported and dated."""
    admin = str(BIN / "trac-admin")
    run_env = {**os.environ, "TZ": "UTC"}
    subprocess.run(
        [admin, str(env), "initenv", SITENAME, "sqlite:db/trac.db"],
        check=True,
        capture_output=True,
        env=run_env,
    )
    pages = json.loads((src / "pages.json").read_text(encoding="utf-8"))
    commands = [f'config set {s} {o} "{v}"' for s, o, v in _settings(src)]
    commands.append("wiki remove WikiStart")
    commands += [f"wiki import {p['name']} {src / p['file']}" for p in pages]
    done = subprocess.run(
        [admin, str(env)],
        input="\n".join(commands) + "\nquit\n",
        capture_output=True,
        text=True,
        env=run_env,
    )
    if done.returncode != 0 or "Error" in done.stdout or done.stderr.strip():
        raise SystemExit(f"src_trac: trac-admin: {done.stdout[-3000:]}{done.stderr[-3000:]}")
    db = sqlite3.connect(env / "db" / "trac.db")
    with db:
        db.execute("UPDATE wiki SET time = ?", (_usec(INSTALLED),))
        for p in pages:
            db.execute(
                "UPDATE wiki SET time = ?, author = ? WHERE name = ?",
                (_usec(p["timestamp"]), USER, p["name"]),
            )
        versions = db.execute("SELECT name, count(*) FROM wiki GROUP BY name HAVING count(*) > 1").fetchall()
    db.close()
    if versions:
        raise SystemExit(f"src_trac: pages with more than one version: {versions}")


#: Nothing but text. Not the login/preferences pages, the search's results, the "Download in other
#: formats" links (rel="nofollow": ``?format=txt``, ``csv``, ``tab``, the roadmap's ``ics``), the
#: ticket system's queries and sorted report lists (each column's sort, each with its feed: the
#: ticket list is empty), tickets; of the timeline, only its page, its feed and the moments the
#: pages' "Last modified" dates link (``?from=…&precision=second``, saved under the name they
#: are linked by: wget decodes the time's ``%3A``), not the periods before and
#: after each (``?authors=&daysback=30&from=…``: without end). POSIX regex (no look-ahead).
REJECT = (
    r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$"
    r"|/(login|logout|prefs|register|newticket)(/|\?|$)"
    r"|/search\?"
    r"|[?&]format=(txt|csv|tab|ics)\b"
    r"|/query(\?|$)|/report(/[0-9]+)?\?|/ticket/"
    r"|/timeline\?[^fm]|/timeline\?from=[^&]*&[^p]"
)


def mirror(origin: str, dest: Path, names: list[str]) -> None:
    starts = [f"{origin}/", f"{origin}/robots.txt", f"{origin}/timeline"]
    starts += [f"{origin}/wiki/{n}" for n in ("WikiStart", "TitleIndex", "RecentChanges", *names)]
    subprocess.run(
        [
            "wget",
            "--mirror",
            "--adjust-extension",
            "--no-host-directories",
            "--no-cookies",
            "--quiet",
            "--restrict-file-names=nocontrol",
            "--reject-regex",
            REJECT,
            "--directory-prefix",
            str(dest),
            *starts,
        ],
        check=False,  # 8: some answer was a 404 (robots.txt)
    )


def rewrite(origin: str, dest: Path) -> None:
    """The loopback origin becomes the site's host. Trac writes its pages' links as paths, and the
    host of ``base_url`` where no request is at hand; the feeds' absolute links take the request's
    own origin. Trac's documentation pages name ``localhost`` ports of their own (examples): only
    the build's origin is looked for."""
    port = origin.rsplit(":", 1)[1]
    host = HOST.split("://", 1)[1]
    pairs = [
        (origin, HOST),
        (origin.replace("/", "\\/"), HOST.replace("/", "\\/")),
        ("http%3A%2F%2F127.0.0.1%3A" + port, "https%3A%2F%2F" + host),
        ("127.0.0.1:" + port, host),
    ]
    for f in dest.rglob("*"):
        if not f.is_file():
            continue
        text = f.read_bytes().decode("utf-8")
        for old, new in pairs:
            text = text.replace(old, new)
        f.write_bytes(text.encode("utf-8"))
    mark = re.compile(rb"127\.0\.0\.1(:|%3A)" + port.encode() + rb"\b")
    left = [str(f) for f in dest.rglob("*") if f.is_file() and mark.search(f.read_bytes())]
    if left:
        raise SystemExit(f"src_trac: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say (wget's ``-E`` named every HTML answer
    ``….html``, ``?query`` included): the timeline's feed (``?…&format=rss``) is RSS, the search's
    OpenSearch description XML."""
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        if "format=rss" in rel:
            types[rel] = "application/rss+xml; charset=utf-8"
        elif rel == "/search/opensearch":
            types[rel] = "application/opensearchdescription+xml; charset=utf-8"
        elif Path(rel).suffix not in {".html", ".xml", ".css", ".txt", ".json"}:
            types[rel] = "text/html; charset=utf-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="trac-build-"))
    env = work / "env"
    install(src, env)
    names = [p["name"] for p in json.loads((src / "pages.json").read_text(encoding="utf-8"))]
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    log = work / "tracd.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [str(BIN / "tracd"), "--single-env", "-b", "127.0.0.1", "-p", str(port), str(env)],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TZ": "UTC"},
        )
    try:
        for _ in range(60):
            try:
                with urllib.request.urlopen(f"{origin}/wiki/WikiStart", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        dest = work / "mirror"
        mirror(origin, dest, names)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    rewrite(origin, dest)
    # The pages link the timeline's moments with the colons of the time percent-encoded
    # (``?from=2023-01-15T09%3A30%3A00Z``), which wget decodes in the file's name: the name gets
    # back the spelling the pages link, so the mirror answers the link as Trac did.
    for f in dest.glob("timeline?from=*"):
        f.rename(f.with_name(f.name.replace(":", "%3A")))
    served.write_text(
        json.dumps(
            {"content_types": content_types(dest), "query_fallback": False}, ensure_ascii=False, indent=1
        )
        + "\n",
        encoding="utf-8",
    )
    shutil.copytree(dest, out, dirs_exist_ok=True)
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4:
        sys.exit(build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
