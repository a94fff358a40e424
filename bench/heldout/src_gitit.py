"""gitit 0.15.1.0 (Debian 12's ``gitit``, its default templates and style): sources, build, mirror.

    python bench/heldout/write_sources.py gitit          # writes tests/fixtures/heldout/gitit/src
    python bench/heldout/src_gitit.py SRC OUT SERVED     # build.sh's gitit branch

gitit is a wiki served by its own Happstack server whose pages are files in a git repository
(``repository-type: Git``): ``<page name>.page``, a metadata block (``---`` … ``...``: ``format``,
``title``, ``categories``) over the text in pandoc's Markdown (``default-page-type: Markdown``),
which pandoc renders when the page is viewed (fenced code highlighted by skylighting:
``<div class="sourceCode"><pre class="sourceCode LANG"><code class="sourceCode LANG">``). The
sources are those files as an editor commits them (``pages/**/*.page``: the corpus' Markdown
under the metadata block, the post's title in ``title:``, its tags and category in
``categories:``), ``pages.json`` (each page's name, title, kind and the time of its one commit:
the post's date) and ``gitit.conf`` (the settings changed from ``gitit --print-default-config``:
the wiki's title, loopback address and port, the Atom feeds on with their ``base-url``, recent
activity over the whole history).

Pages: ``Front Page`` (gitit's ``front-page``, served at ``/`` and ``/Front%20Page``): the wiki's
welcome text and every page by section, with its date and a link to the section's folder; the posts
as ``<Section>/<Page name>`` (``Guide/Python generators tour``: a folder per section, whose
contents gitit lists at ``/Guide/``), the install page ``Guide/Installation`` (pandoc's fenced
divs ``::: warning`` for its notes), ``About``. The draft is not written (a wiki has none). gitit's
own pages (``Help``, ``Gitit User’s Guide``), which it commits when it creates a repository, are
committed first as gitit does (author ``Gitit``), at the wiki's day (``INSTALLED``).

The build (:func:`build`): a git repository made in a scratch folder, one commit per page at its
post's date (author and committer date; author Ana Lima), gitit started there on a free loopback
port (``address: 127.0.0.1``; its static files and templates copied there at start, as gitit
does), then ``wget --mirror`` (one host, no cookies, gitit's robots.txt obeyed: ``Disallow: /_``
keeps out ``_index``, ``_activity``, ``_categories``, each page's ``_history``, ``_diff``,
``_edit``, ``_showraw``, ``_discuss``, ``_delete``, the feeds ``_feed/``, login, search, random
page) from ``/``, ``robots.txt`` and every page. Not mirrored: scripts and images, and each page's
"Printable version" (``<page>?printable``: the same page without the sidebar, a copy the harness
would score as the page itself). The origin is then rewritten to ``https://gitit.heldout.example``
(gitit writes ``base-url`` into nothing it serves outside ``/_``; the check stays). Pages have no
file extension (``/Guide/Python%20generators%20tour``): ``served.json`` names their content type.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ABOUT, DOC_SECTIONS, Post, published  # noqa: E402

HOST = "https://gitit.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"
EMAIL = "ana@gitit.heldout.example"
SECTIONS = ("Guide", "Reference", "Appendix")
#: The day the wiki was created: gitit's own pages' commit.
INSTALLED = "2023-01-01T09:00:00Z"
GITIT_DATA = Path(os.environ.get("GITIT_DATA", "/usr/share/gitit"))

INSTALL_TITLE = "Installing the command-line tool"
#: pandoc's Markdown has no tabs: the two commands in turn; the notes are fenced divs
#: (``::: warning``: ``<div class="warning">``), the second holding the configuration file's code.
INSTALL_BODY = """The tool ships for Python and Node.js; pick one.

With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

::: warning
**Python 3.10 or later.** Older versions lack `zoneinfo`; the tool refuses to start on them.
:::

::: note
**Note:** the configuration lives in `~/.config/lessons/config.toml`:

```toml
[output]
color = true
```
:::

Check the installation:

```bash
lessons --version
```
"""

GITIT_CONF = """# gitit.conf: the settings changed from `gitit --print-default-config` (gitit reads its
# defaults for the others). __PORT__ and __ORIGIN__ are filled in by the build.
address: 127.0.0.1
port: __PORT__
wiki-title: Small Lessons
repository-type: Git
repository-path: wikidata
default-page-type: Markdown
front-page: Front Page
# The Atom feeds (/_feed/, /_feed/<page>), which need the wiki's address.
use-feed: yes
base-url: __ORIGIN__
feed-days: 3650
# Recent activity (/_activity) over the wiki's whole history.
recent-activity-days: 3650
"""


# --- the sources ------------------------------------------------------------------------------


def page_name(post: Post) -> str:
    """A post's page: its section's folder, then its slug as words (``Guide/Python generators tour``)."""
    words = post.slug.replace("-", " ")
    return f"{DOC_SECTIONS[post.slug].title()}/{words[:1].upper()}{words[1:]}"


def page_text(title: str, body: str, categories: tuple[str, ...] = ()) -> str:
    """A page as gitit's editor saves it: the metadata block, then the Markdown."""
    head = ["---", "format: Markdown", f"title: {title}"]
    if categories:
        head.append("categories: " + ", ".join(categories))
    return "\n".join(head) + "\n...\n\n" + body.strip("\n") + "\n"


def _stamp(date: str) -> str:
    return f"{date}T09:30:00Z"


def _link(name: str) -> str:
    """A wiki link to a page by name (pandoc Markdown: ``[label](<name>)``)."""
    return "<" + "/" + name + ">"


def gitit() -> None:
    """tests/fixtures/heldout/gitit/src: the pages' files, their names, kinds and times, and the
    settings the build applies."""
    from write_sources import _fresh, _write

    src = _fresh("gitit")
    pages: list[dict[str, str]] = []

    def put(name: str, title: str, stamp: str, text: str, kind: str) -> None:
        file = f"pages/{name}.page"
        _write(src / file, text)
        pages.append({"name": name, "title": title, "file": file, "timestamp": stamp, "kind": kind})

    posts = published()
    sections: dict[str, list[Post]] = {s: [] for s in SECTIONS}
    first = min(p.date for p in posts)
    last = max(p.date for p in posts)
    put("About", ABOUT.title, _stamp(ABOUT.date), page_text(ABOUT.title, ABOUT.body), "about")
    put(
        "Guide/Installation",
        INSTALL_TITLE,
        _stamp(first),
        page_text(INSTALL_TITLE, INSTALL_BODY, ("guide",)),
        "docs",
    )
    for p in posts:
        section = DOC_SECTIONS[p.slug].title()
        sections[section].append(p)
        cats = tuple(dict.fromkeys((*p.tags, p.category, section.lower())))
        put(page_name(p), p.title, _stamp(p.date), page_text(p.title, p.body, cats), "post")
    front = [
        f"**{SITENAME}** is a wiki of short programming lessons. See [About]({_link('About')}) for",
        "what it is.",
        "",
    ]
    for section in SECTIONS:
        front += [f"## {section}", ""]
        if section == "Guide":
            front.append(f"- [{INSTALL_TITLE}]({_link('Guide/Installation')})")
        for p in sorted(sections[section], key=lambda p: p.date, reverse=True):
            label = p.title.replace("[", "\\[").replace("]", "\\]")
            front.append(f"- [{label}]({_link(page_name(p))}) ({p.date})")
        front += ["", f"All of it: [{section}/]({_link(section + '/')}).", ""]
    put("Front Page", SITENAME, _stamp(last), page_text(SITENAME, "\n".join(front)), "start")
    _write(src / "pages.json", json.dumps(pages, ensure_ascii=False, indent=1) + "\n")
    _write(src / "gitit.conf", GITIT_CONF)


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _git(repo: Path, *args: str, stamp: str | None = None, author: str = AUTHOR, email: str = EMAIL) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": author,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": author,
        "GIT_COMMITTER_EMAIL": email,
        "TZ": "UTC",
    }
    if stamp:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = stamp
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _gitit_page(path: Path) -> str:
    """One of gitit's own pages as it commits them into a new repository: a metadata block
    naming the format, then the file."""
    return "---\nformat: Markdown\n...\n\n" + path.read_text(encoding="utf-8")


def install(src: Path, work: Path) -> None:
    """The wiki's repository: gitit's own pages, then one commit per page at its time."""
    repo = work / "wikidata"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "master")
    (repo / "Help.page").write_text(_gitit_page(GITIT_DATA / "data" / "Help.page"), encoding="utf-8")
    (repo / "Gitit User’s Guide.page").write_text(
        _gitit_page(GITIT_DATA / "README.markdown"), encoding="utf-8"
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Default pages", stamp=INSTALLED, author="Gitit", email="")
    pages = json.loads((src / "pages.json").read_text(encoding="utf-8"))
    for page in sorted(pages, key=lambda p: p["timestamp"]):
        target = repo / f"{page['name']}.page"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src / page["file"], target)
        _git(repo, "add", "--", target.relative_to(repo).as_posix())
        _git(repo, "commit", "-q", "-m", f"Created {page['name']}", stamp=page["timestamp"])


#: Nothing but text; not the printable copies of the pages (``?printable``). gitit's own routes
#: (``/_…``) are closed by its robots.txt, which wget obeys. POSIX regex.
REJECT = r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$|[?&]printable"


def mirror(origin: str, dest: Path, names: list[str]) -> None:
    from urllib.parse import quote

    starts = [f"{origin}/", f"{origin}/robots.txt"]
    starts += [f"{origin}/{quote(n)}" for n in names]
    subprocess.run(
        [
            "wget",
            "--mirror",
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
        check=False,  # 8: some answer was a 404
    )


def rewrite(origin: str, dest: Path) -> None:
    """The loopback origin, in every spelling, becomes the site's own host."""
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
        raise SystemExit(f"src_gitit: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the pages (``/About``,
    ``/Guide/Python generators tour``) are HTML."""
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        if Path(rel).suffix not in {".html", ".xml", ".css", ".txt", ".json"}:
            types[rel] = "text/html; charset=utf-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="gitit-build-"))
    install(src, work)
    pages = json.loads((src / "pages.json").read_text(encoding="utf-8"))
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    conf = (src / "gitit.conf").read_text(encoding="utf-8")
    (work / "gitit.conf").write_text(
        conf.replace("__PORT__", str(port)).replace("__ORIGIN__", origin), encoding="utf-8"
    )
    log = work / "gitit.out"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            ["gitit", "-f", "gitit.conf"],
            cwd=work,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TZ": "UTC", "LANG": "C.UTF-8"},
        )
    try:
        for _ in range(60):
            try:
                with urllib.request.urlopen(f"{origin}/robots.txt", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        dest = work / "mirror"
        mirror(origin, dest, [p["name"] for p in pages])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    rewrite(origin, dest)
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
