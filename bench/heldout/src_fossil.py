"""Fossil 2.21 (Debian 12's ``fossil``, its default skin): sources, build, mirror.

    python bench/heldout/write_sources.py fossil          # writes tests/fixtures/heldout/fossil/src
    python bench/heldout/src_fossil.py SRC OUT SERVED     # build.sh's fossil branch

Fossil is a version-control system with a built-in web server whose repository also holds a wiki
and technotes ("tech notes", `www/event.wiki`): dated notes that show on the timeline, which
their authors use as a blog or a news feed (Fossil's own "News" is one). A technote is made by
``fossil wiki create TECHNOTE-COMMENT FILE --technote DATETIME --technote-tags TAGS --mimetype
text/x-markdown``: the comment is its line on the timeline, the date where it stands there, the
tags its timeline tags. Fossil's Markdown takes a document's leading level-1 heading as the page's
title (without one the page is "Tech-note <id>"): each note begins with ``# Title``. Fenced code
keeps its language (``<pre><code class='language-LANG'>``).

The sources: ``notes/<slug>.md`` (``# Title``, then the corpus' Markdown), ``pages/<name>.md``
(the wiki pages: ``About`` and the home page, named after the project as Fossil's ``/home``
wants: ``Small Lessons``, a welcome text linking About and the technotes' timeline) and
``entries.json`` (each entry's kind, name or comment, file, time and tags: a post's tags and
category). The draft is not written (a repository has no drafts).

The build (:func:`build`): ``fossil init`` in a scratch folder (project name, admin ``ana``,
the initial empty check-in at the wiki's day), the user ``nobody`` given the hyperlink
capability (``h``) beside its default ``gjorz``, as a public repository is set up (without it the
pages hide their links behind "anonymous login"), the wiki pages and technotes entered at their
times (``faketime``: the artifacts' own ``D`` time is the clock's), then ``fossil server
--localhost`` on a free loopback port and ``wget --mirror`` from ``/``, ``/home`` and
``/timeline?y=e`` (the technotes' timeline), following only what a reader of the notes follows:
the home page, the wiki pages (``/wiki?name=…``, the wiki's index ``/wiki`` and its list of pages
``/wcontent``), the technotes (``/technote/<id>``), the timelines ``/timeline``, ``/timeline?y=e``
and each tag's (``/timeline?r=TAG&c=…``, the tag links of the timeline rows), the RSS feed
(``/timeline.rss``) and the stylesheet; not the file browser, check-ins, diffs, tarballs, the
"Context"/"Detail" views, users' timelines, login or tickets. Fossil makes a technote's id at
random (``randomblob(20)``): the build writes ``technotes.json`` (slug -> id) beside ``site/``,
from which make_oracle.py takes the pages' paths. ``/`` answers a 302 to ``/home``
(``served.json``); pages have no extension or a query: ``served.json`` types them. The origin is
rewritten to ``https://fossil.heldout.example`` (Fossil writes it in every page's ``<base
href>`` and in the feed).
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

from corpus import ABOUT, Post, published  # noqa: E402

HOST = "https://fossil.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "ana"
#: The day the repository was created (its initial empty check-in).
INSTALLED = "2023-01-01 09:00:00"


# --- the sources ------------------------------------------------------------------------------


def note_text(post: Post) -> str:
    """A technote's text: the title as the leading ``#`` heading (Fossil's page title), then the post."""
    return f"# {post.title}\n\n{post.body.strip(chr(10))}\n"


def _stamp(date: str) -> str:
    return f"{date} 09:30:00"


def fossil() -> None:
    """tests/fixtures/heldout/fossil/src: the technotes' and wiki pages' texts and what each is."""
    from write_sources import _fresh, _write

    src = _fresh("fossil")
    entries: list[dict[str, object]] = []
    posts = published()
    _write(src / "pages" / "About.md", f"# {ABOUT.title}\n\n{ABOUT.body.strip(chr(10))}\n")
    entries.append({"kind": "wiki", "name": "About", "file": "pages/About.md", "time": _stamp(ABOUT.date)})
    home = (
        f"# {SITENAME}\n\n"
        f"**{SITENAME}** is a notebook of short programming lessons, kept as the technotes of\n"
        "this repository. See [About](/wiki?name=About) for what it is.\n\n"
        "- [All notes, newest first](/timeline?y=e)\n"
        "- [Wiki pages](/wcontent)\n"
    )
    _write(src / "pages" / f"{SITENAME}.md", home)
    entries.append(
        {"kind": "home", "name": SITENAME, "file": f"pages/{SITENAME}.md", "time": _stamp(ABOUT.date)}
    )
    for p in posts:
        file = f"notes/{p.slug}.md"
        _write(src / file, note_text(p))
        entries.append(
            {
                "kind": "technote",
                "slug": p.slug,
                "comment": p.title,
                "file": file,
                "time": _stamp(p.date),
                "tags": list(dict.fromkeys((*p.tags, p.category))),
            }
        )
    _write(src / "entries.json", json.dumps(entries, ensure_ascii=False, indent=1) + "\n")


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fossil(work: Path, *args: str, at: str | None = None) -> str:
    """Run fossil in ``work`` (the clock held at ``at``, UTC, when given)."""
    cmd = ["fossil", *args]
    if at:
        cmd = ["faketime", at, *cmd]
    env = {**os.environ, "TZ": "UTC", "LANG": "C.UTF-8", "HOME": str(work)}
    done = subprocess.run(cmd, cwd=work, capture_output=True, env=env, text=True)
    if done.returncode:
        raise SystemExit(f"src_fossil: {' '.join(args)}: {done.stdout}{done.stderr}")
    return done.stdout


def install(src: Path, work: Path) -> dict[str, str]:
    """The repository, its settings, wiki pages and technotes; returns each technote's id by slug."""
    repo = "lessons.fossil"
    _fossil(
        work,
        "init",
        "--date-override",
        INSTALLED.replace(" ", "T"),
        "-A",
        AUTHOR,
        "--project-name",
        SITENAME,
        "--project-desc",
        "A notebook of small programming lessons",
        repo,
        at=INSTALLED,
    )
    caps = _fossil(work, "user", "capabilities", "nobody", "-R", repo).strip()
    if "h" not in caps:
        _fossil(work, "user", "capabilities", "nobody", caps + "h", "-R", repo)
    entries = json.loads((src / "entries.json").read_text(encoding="utf-8"))
    ids: dict[str, str] = {}
    for e in sorted(entries, key=lambda e: (e["time"], e["kind"] != "wiki")):
        file = str(src / e["file"])
        if e["kind"] == "technote":
            _fossil(
                work,
                "wiki",
                "create",
                e["comment"],
                file,
                "--technote",
                e["time"].replace(" ", "T"),
                "--technote-tags",
                ",".join(e["tags"]),
                "--mimetype",
                "text/x-markdown",
                "-R",
                repo,
                "-U",
                AUTHOR,
                at=e["time"],
            )
            listed = _fossil(work, "wiki", "list", "--technote", "--show-technote-ids", "-R", repo)
            new = [line.split()[0] for line in listed.splitlines() if line.split()[0] not in ids.values()]
            if len(new) != 1:
                raise SystemExit(f"src_fossil: no single new technote for {e['slug']}: {new}")
            ids[e["slug"]] = new[0]
        else:
            _fossil(
                work, "wiki", "create", e["name"], file, "--mimetype", "text/x-markdown",
                "-R", repo, "-U", AUTHOR, at=e["time"],
            )  # fmt: skip
    return ids


#: What a reader of the notes follows (wget's --accept-regex, on the whole URL; POSIX regex):
#: home, wiki pages, technotes, the timelines of all events, of technotes and of each tag, the
#: feed, the stylesheet.
ACCEPT = (
    r"^http://127\.0\.0\.1:[0-9]+/"
    r"(|home|wcontent|wiki|wiki\?name=[^&]+|technote/[0-9a-f]+|timeline|timeline\?y=e"
    r"|timeline\?r=[^&]+&c=[^&]+|timeline\.rss|style\.css\?id=[0-9a-f]+)$"
)


def mirror(origin: str, dest: Path) -> None:
    subprocess.run(
        [
            "wget",
            "--mirror",
            "--no-host-directories",
            "--no-cookies",
            "--quiet",
            "-e",
            "robots=off",  # Fossil serves no robots.txt
            "--restrict-file-names=nocontrol",
            "--accept-regex",
            ACCEPT,
            "--directory-prefix",
            str(dest),
            f"{origin}/",
            f"{origin}/home",
            f"{origin}/timeline?y=e",
        ],
        check=False,  # 8: some answer was an error
    )


def link_names(dest: Path) -> None:
    """A page with a query is saved under the query as wget decoded it (``c=2023-01-15+09:30:00``,
    ``r=中文``); Fossil links it escaped (``c=2023-01-15+09%3A30%3A00``, ``r=%E4%B8%AD%E6%96%87``),
    and a static server answers a request by the name as sent: the name gets the link's escapes."""
    from urllib.parse import quote

    for f in sorted(dest.rglob("*")):
        if not f.is_file() or "?" not in f.name:
            continue
        path, _, query = f.name.partition("?")
        name = path + "?" + quote(query, safe="=&+")
        if name != f.name:
            f.rename(f.with_name(name))


def root_redirect(origin: str, dest: Path) -> dict[str, str]:
    """``/`` answers a 302 to ``/home`` (the ``index-page`` setting); wget saves what it got
    there as ``index.html``: dropped (``home`` is mirrored itself), the redirect kept for served.json."""
    import http.client
    from urllib.parse import urlsplit

    loop = urlsplit(origin)
    conn = http.client.HTTPConnection(loop.hostname or "127.0.0.1", loop.port, timeout=30)
    conn.request("GET", "/")
    answer = conn.getresponse()
    answer.read()
    conn.close()
    if answer.status not in (301, 302):
        return {}
    target = urlsplit(answer.getheader("Location", "")).path
    if (dest / "index.html").exists():
        if not (dest / target.lstrip("/")).exists():
            (dest / "index.html").rename(dest / target.lstrip("/"))
        else:
            (dest / "index.html").unlink()
    return {"/": target}


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
        raise SystemExit(f"src_fossil: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the pages (``/home``, ``/technote/<id>``,
    ``/wiki?name=About``, ``/timeline?y=e``) are HTML, the feed RSS, the stylesheet CSS."""
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        if rel.startswith("/timeline.rss"):
            types[rel] = "application/rss+xml"
        elif rel.startswith("/style.css"):
            types[rel] = "text/css"
        elif Path(rel).suffix not in {".html", ".xml", ".txt", ".json"}:
            types[rel] = "text/html; charset=utf-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="fossil-build-"))
    ids = install(src.resolve(), work)
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    log = work / "server.out"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            ["fossil", "server", "--localhost", "--port", str(port), "lessons.fossil"],
            cwd=work,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TZ": "UTC", "LANG": "C.UTF-8", "HOME": str(work)},
        )
    try:
        for _ in range(60):
            try:
                with urllib.request.urlopen(f"{origin}/home", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        dest = work / "mirror"
        mirror(origin, dest)
        redirects = root_redirect(origin, dest)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    missing = [slug for slug, tid in ids.items() if not (dest / "technote" / tid).is_file()]
    if missing:
        raise SystemExit(f"src_fossil: technotes not mirrored: {missing}")
    link_names(dest)
    rewrite(origin, dest)
    served.write_text(
        json.dumps(
            {"redirects": redirects, "content_types": content_types(dest), "query_fallback": False},
            ensure_ascii=False,
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    (served.parent / "technotes.json").write_text(
        json.dumps(ids, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    shutil.copytree(dest, out, dirs_exist_ok=True)
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4:
        sys.exit(build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
