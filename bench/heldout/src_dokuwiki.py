"""DokuWiki 2022-07-31 (Debian 12's ``dokuwiki`` package, its default template): sources, build, mirror.

    python bench/heldout/write_sources.py dokuwiki      # writes tests/fixtures/heldout/dokuwiki/src
    python bench/heldout/src_dokuwiki.py SRC OUT SERVED  # build.sh's dokuwiki branch

DokuWiki keeps its pages as text files (``data/pages/<namespace>/<page>.txt``) in its own syntax;
the sources are those files as an editor types them (``pages/**/*.txt``, converted from the corpus'
Markdown by :func:`dokuwiki_text`: ``===== headings =====``, ``  * `` / ``  - `` lists,
``^ head ^`` / ``| cell |`` tables, code as ``<code LANG>``, which DokuWiki highlights with GeSHi,
naming the language in the block's class), ``pages.json`` (each page's id, kind and the time of its
one revision: the post's date), the settings added to the package's configuration
(``local.php``: the wiki's title, nice URLs ``/namespace:page`` (``userewrite`` 1), the first
heading as the page's name (``useheading``), the sitemap on (``sitemap`` 1, uncompressed:
``compression`` 0), the "public wiki" ACL of the installer (everyone reads, users edit)), the
router of PHP's built-in server (what the ``.htaccess`` rewrite rules DokuWiki ships do) and
``robots.txt`` (the sitemap's ``doku.php?do=sitemap``, as DokuWiki's sitemap page advises; the
export views ``/_export/`` closed).

Namespaces ``guide``, ``reference`` and ``appendix`` hold the posts (``DOC_SECTIONS``) and each
has its start page (``guide:start``: a list of its pages, newest first); the wiki's start page
links the three and every post; ``about`` is a page; ``sidebar`` (the default template shows it
beside every page) links the start pages and About. The draft is not written (a wiki has none).

The build (:func:`build`): a copy of the package's tree (``/usr/share/dokuwiki``, symlinks
followed) and of its configuration (``/etc/dokuwiki``) in a scratch folder, the pages written into
a fresh data folder with their revision (changelog, attic copy, file time) at their post's date,
the search index built (``bin/indexer.php``: the sitemap lists the indexed pages), PHP's built-in
server on a free loopback port (``baseurl`` that origin), then ``wget --mirror`` (one host,
robots.txt obeyed, no cookies so no "Trace" breadcrumbs from earlier pages, the ``?do=`` actions
DokuWiki links with ``rel="nofollow"`` not followed: edit/source, revisions, backlinks, recent
changes, media manager, login) from ``/``, ``robots.txt``, the sitemap and the pages it lists,
and the index ``?do=index`` (the "Sitemap" of the site tools). The origin is then rewritten to
``https://dokuwiki.heldout.example`` in the mirrored files (DokuWiki writes ``baseurl`` into
the sitemap, the feeds and canonical links, and only serves where it is told it lives). Pages
have no file extension (``/guide:install``) or a query (``/start?do=index``): ``served.json``
names their content type.
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
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ABOUT, DOC_SECTIONS, Post, published  # noqa: E402

HOST = "https://dokuwiki.heldout.example"
SITENAME = "Small Lessons"
USER = "ana"
AUTHOR = "Ana Lima"
DW = Path(os.environ.get("DOKUWIKI_PATH", "/usr/share/dokuwiki"))
DW_CONF = Path(os.environ.get("DOKUWIKI_CONF", "/etc/dokuwiki"))
SECTIONS = ("guide", "reference", "appendix")
#: Nothing but text is fetched (the other held-out sites keep HTML, XML, CSS, JSON and text);
#: the actions DokuWiki links with rel="nofollow" are not followed; nor the task runner (an
#: image), media, or old revisions.
REJECT = (
    r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$"
    r"|/lib/exe/(js|jquery|taskrunner|fetch|detail|mediamanager|ajax)\.php"
    r"|[?&]do=(edit|revisions|backlink|recent|media|login|register|resendpwd|profile|admin|diff"
    r"|search|export_\w+|check|subscribe|draft|revert|lock|unlock)\b"
    r"|[?&](rev|sectok|image|tab_\w+)="
)

INSTALL_TITLE = "Installing the command-line tool"
#: DokuWiki has no tabs nor admonitions without plugins: the two commands in turn, the notes as
#: bold paragraphs; the configuration file's code names TOML, which GeSHi lacks (plain, classed).
INSTALL_PAGE = f"""====== {INSTALL_TITLE} ======

The tool ships for Python and Node.js; pick one.

With pip:

<code bash>
pip install lessons-cli
</code>

With npm:

<code bash>
npm install --global lessons-cli
</code>

**Python 3.10 or later.** Older versions lack ''zoneinfo''; the tool refuses to start on them.

**Note:** the configuration lives in ''%%~/.config/lessons/config.toml%%'':

<code toml>
[output]
color = true
</code>

Check the installation:

<code bash>
lessons --version
</code>
"""

LOCAL_PHP = r"""<?php
/*
 * bench/heldout (src_dokuwiki.py): the wiki's settings over the package's dokuwiki.php, as the
 * configuration manager writes them to conf/local.php. __SAVEDIR__ and __ORIGIN__ are filled
 * in by the build.
 */
$conf['title'] = 'Small Lessons';
$conf['tagline'] = 'Short programming lessons';
$conf['lang'] = 'en';
$conf['license'] = 'cc-by-sa';
$conf['savedir'] = '__SAVEDIR__';
// Served where the build's server listens; rewritten to the site's host in the mirror.
$conf['baseurl'] = '__ORIGIN__';
$conf['basedir'] = '/';
// Nice URLs by the web server's rewrite rules (.htaccess; router.php here), colons kept.
$conf['userewrite'] = 1;
$conf['useslash'] = 0;
// The first heading is the page's name (links, the index, the title).
$conf['useheading'] = 1;
// The "public wiki" ACL policy of install.php: everyone reads, registered users edit.
$conf['useacl'] = 1;
$conf['superuser'] = '@admin';
$conf['disableactions'] = 'register';
// A sitemap (doku.php?do=sitemap), rebuilt daily; no compression, so it is XML.
$conf['sitemap'] = 1;
$conf['compression'] = 0;
$conf['rss_type'] = 'rss2';
// Offline: no update check, no pings, no usage data.
$conf['updatecheck'] = 0;
$conf['send404'] = 1;
"""

ACL = """# acl.auth.php
# <?php exit()?>
# Access Control Lists: the "public wiki" policy of install.php.
*               @ALL          1
*               @user         8
"""

USERS = (
    "# users.auth.php\n# <?php exit()?>\n# login:passwordhash:Real Name:email:groups,comma,separated\n"
    # bcrypt of a random password nobody uses: the account only signs the revisions.
    f"{USER}:$2y$10$hS7Nf0nJ3vQ4m3xX9m0qLe5yq0t9b7oQyWl6kJ2eI3cZ1dF8gA9rS:{AUTHOR}:"
    "ana@dokuwiki.heldout.example:admin,user\n"
)

ROUTER = r"""<?php
// PHP's built-in server as DokuWiki's .htaccess rewrite rules (userewrite 1):
//   _media/X -> lib/exe/fetch.php?media=X, _detail/X -> lib/exe/detail.php?media=X,
//   _export/F/ID -> doku.php?do=export_F&id=ID, / -> doku.php, anything not a file -> doku.php?id=X.
$path = rawurldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH));
$root = __DIR__;
$run = function (string $script, array $get) use ($root) {
    $_GET = array_merge($_GET, $get);
    $_REQUEST = array_merge($_REQUEST, $get);
    $_SERVER['SCRIPT_NAME'] = '/' . $script;
    $_SERVER['SCRIPT_FILENAME'] = "$root/$script";
    $_SERVER['PHP_SELF'] = '/' . $script;
    chdir(dirname("$root/$script"));
    require "$root/$script";
    return true;
};
if (preg_match('#^/(?:\.|_?ht|README$|VERSION$|COPYING$|data/|conf/|bin/|inc/|vendor/)#', $path)) {
    http_response_code(404);
    echo "Not Found\n";
    return true;
}
if ($path !== '/' && is_file($root . $path)) {
    if (substr($path, -4) === '.php') {
        return $run(ltrim($path, '/'), []);
    }
    return false;
}
if (preg_match('#^/_media/(.*)$#', $path, $m)) {
    return $run('lib/exe/fetch.php', ['media' => $m[1]]);
}
if (preg_match('#^/_detail/(.*)$#', $path, $m)) {
    return $run('lib/exe/detail.php', ['media' => $m[1]]);
}
if (preg_match('#^/_export/([^/]+)/(.*)$#', $path, $m)) {
    return $run('doku.php', ['do' => 'export_' . $m[1], 'id' => $m[2]]);
}
if ($path === '/' || $path === '/index.php') {
    return $run('doku.php', []);
}
return $run('doku.php', ['id' => ltrim($path, '/')]);
"""

ROBOTS = """# DokuWiki: the sitemap as DokuWiki's sitemap page advises; the export views (raw wiki text,
# bare HTML copies of each page) are not for crawlers.
User-agent: *
Disallow: /_export/

Sitemap: {origin}/doku.php?do=sitemap
"""


# --- Markdown to DokuWiki syntax --------------------------------------------------------------


def section_id(title: str) -> str:
    """DokuWiki's id of a heading (``sectionID``: lower case, runs of other characters as ``_``)."""
    return re.sub(r"[^\w]+", "_", title.lower(), flags=re.U).strip("_")


def _md_anchor(text: str) -> str:
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")


def _inline(text: str, headings: dict[str, str]) -> str:
    """Inline Markdown as DokuWiki: code (monospace around nowiki), links, bold, italics."""
    out: list[str] = []
    for i, part in enumerate(re.split(r"(`[^`]+`)", text)):
        if i % 2:
            out.append(f"''%%{part[1:-1]}%%''")
            continue

        def link(m: re.Match[str]) -> str:
            label, url = m.group(1), m.group(2)
            if url.startswith("#"):
                return f"[[#{section_id(headings.get(url[1:], url[1:]))}|{label}]]"
            return f"[[{url}|{label}]]"

        part = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", link, part)
        part = re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"//\1//", part)
        out.append(part)
    return "".join(out)


def _table(rows: list[str], headings: dict[str, str]) -> list[str]:
    cells = [[_inline(c.strip(), headings) for c in r.strip().strip("|").split("|")] for r in rows]
    out = ["^ " + " ^ ".join(cells[0]) + " ^"]
    out += ["| " + " | ".join(row) + " |" for row in cells[2:]]
    return out


def dokuwiki_text(title: str, markdown: str) -> str:
    """A page in DokuWiki's syntax: its title as the first (level 1) heading, then the body."""
    headings = {_md_anchor(m.group(1)): m.group(1) for m in re.finditer(r"^#{2,6} (.+)$", markdown, re.M)}
    lines = markdown.splitlines()
    out: list[str] = [f"====== {title} ======", ""]
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := re.match(r"^(`{3,})(\S*)\s*$", line):
            fence, lang = m.group(1), m.group(2)
            j = i + 1
            while not lines[j].startswith(fence):
                j += 1
            code = "\n".join(lines[i + 1 : j])
            out.append(f"<code{' ' + lang if lang else ''}>\n{code}\n</code>")
            i = j + 1
            continue
        if m := re.match(r"^(#{2,6}) (.+)$", line):
            bar = "=" * (7 - len(m.group(1)))
            out.append(f"{bar} {m.group(2)} {bar}")
            i += 1
            continue
        if line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += _table(lines[i:j], headings)
            i = j
            continue
        if re.match(r"^\s*(?:[-*]|\d+\.) ", line):
            while i < len(lines) and (m := re.match(r"^(\s*)([-*]|\d+\.) (.*)$", lines[i])):
                marker = "-" if m.group(2)[0].isdigit() else "*"
                out.append(" " * (2 + len(m.group(1))) + f"{marker} " + _inline(m.group(3), headings))
                i += 1
            continue
        if line.startswith(">"):
            while i < len(lines) and lines[i].startswith(">"):
                out.append("> " + _inline(lines[i][1:].strip(), headings))
                i += 1
            continue
        out.append(_inline(line, headings))
        i += 1
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


# --- the sources ------------------------------------------------------------------------------


def _stamp(date: str) -> str:
    return f"{date}T09:30:00Z"


def dokuwiki() -> None:
    """tests/fixtures/heldout/dokuwiki/src: the pages' text, their ids, kinds and times, the
    settings, ACL, router and robots.txt the build uses."""
    from write_sources import _fresh, _write

    src = _fresh("dokuwiki")
    pages: list[dict[str, str]] = []

    def put(page_id: str, title: str, stamp: str, text: str, kind: str) -> None:
        file = "pages/" + page_id.replace(":", "/") + ".txt"
        _write(src / file, text)
        pages.append({"id": page_id, "title": title, "file": file, "timestamp": stamp, "kind": kind})

    posts = published()
    sections: dict[str, list[Post]] = {s: [] for s in SECTIONS}
    for p in posts:
        section = DOC_SECTIONS[p.slug]
        sections[section].append(p)
        put(f"{section}:{p.slug}", p.title, _stamp(p.date), dokuwiki_text(p.title, p.body), "post")
    first = min(p.date for p in posts)
    last = max(p.date for p in posts)
    put("guide:install", INSTALL_TITLE, _stamp(first), INSTALL_PAGE, "docs")
    put("about", ABOUT.title, _stamp(ABOUT.date), dokuwiki_text(ABOUT.title, ABOUT.body), "about")
    intro = {
        "guide": "Where to start.",
        "reference": "One topic a page.",
        "appendix": "Field notes and tips.",
    }
    for section in SECTIONS:
        lines = [f"====== {section.title()} ======", "", intro[section], ""]
        if section == "guide":
            lines.append("  * [[guide:install]]")
        for p in sorted(sections[section], key=lambda p: p.date, reverse=True):
            lines.append(f"  * [[{section}:{p.slug}]] ({p.date})")
        newest = max(p.date for p in sections[section])
        put(f"{section}:start", section.title(), _stamp(newest), "\n".join(lines) + "\n", "namespace")
    start = [
        f"====== {SITENAME} ======",
        "",
        f"**{SITENAME}** is a wiki of short programming lessons. See [[about]] for what it is.",
        "",
    ]
    for section in SECTIONS:
        start += [f"===== {section.title()} =====", ""]
        if section == "guide":
            start.append("  * [[guide:install]]")
        for p in sorted(sections[section], key=lambda p: p.date, reverse=True):
            start.append(f"  * [[{section}:{p.slug}]] ({p.date})")
        start += ["", f"More in [[{section}:start|{section.title()}]].", ""]
    put("start", SITENAME, _stamp(last), "\n".join(start), "start")
    sidebar = ["===== Navigation =====", "", "  * [[start|Home]]"]
    sidebar += [f"  * [[{s}:start|{s.title()}]]" for s in SECTIONS]
    sidebar += ["  * [[about]]"]
    put("sidebar", "Navigation", _stamp(first), "\n".join(sidebar) + "\n", "sidebar")
    _write(src / "pages.json", json.dumps(pages, ensure_ascii=False, indent=1) + "\n")
    _write(src / "local.php", LOCAL_PHP)
    _write(src / "acl.auth.php", ACL)
    _write(src / "users.auth.php", USERS)
    _write(src / "router.php", ROUTER)
    _write(src / "robots.txt", ROBOTS)


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def install(src: Path, work: Path, origin: str) -> Path:
    """The package's tree and configuration copied, the pages written at their own times, the
    search index built. Returns the web root."""
    www = work / "www"
    shutil.copytree(DW, www, symlinks=False)
    conf = work / "conf"
    shutil.copytree(DW_CONF, conf, symlinks=False, ignore=shutil.ignore_patterns("*.auth.php"))
    # Debian's preload.php names /etc/dokuwiki: the copy's own configuration folder instead.
    (www / "inc" / "preload.php").write_text(
        f"<?php\nif (!defined('DOKU_CONF')) define('DOKU_CONF', '{conf}/');\n", encoding="utf-8"
    )
    data = work / "data"
    for sub in (
        "attic",
        "cache",
        "index",
        "locks",
        "log",
        "media",
        "media_attic",
        "media_meta",
        "meta",
        "pages",
        "tmp",
    ):
        (data / sub).mkdir(parents=True)
    local = (src / "local.php").read_text(encoding="utf-8")
    (conf / "local.php").write_text(
        local.replace("__SAVEDIR__", str(data)).replace("__ORIGIN__", origin), encoding="utf-8"
    )
    shutil.copy(src / "acl.auth.php", conf / "acl.auth.php")
    shutil.copy(src / "users.auth.php", conf / "users.auth.php")
    (conf / "local.protected.php").unlink(missing_ok=True)
    changes: list[tuple[int, str]] = []
    for page in json.loads((src / "pages.json").read_text(encoding="utf-8")):
        text = (src / page["file"]).read_text(encoding="utf-8")
        stamp = int(
            datetime.strptime(page["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
            .replace(tzinfo=timezone.utc)
            .timestamp()
        )
        rel = page["id"].replace(":", "/")
        target = data / "pages" / f"{rel}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        os.utime(target, (stamp, stamp))
        attic = data / "attic" / f"{rel}.{stamp}.txt"
        attic.parent.mkdir(parents=True, exist_ok=True)
        attic.write_text(text, encoding="utf-8")
        # One revision each: DokuWiki's changelog line (date, ip, type, id, user, summary, extra,
        # size change), per page and in the wiki's changelog.
        line = f"{stamp}\t127.0.0.1\tC\t{page['id']}\t{USER}\tcreated\t\t{len(text.encode())}\n"
        meta = data / "meta" / f"{rel}.changes"
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(line, encoding="utf-8")
        changes.append((stamp, line))
    (data / "meta" / "_dokuwiki.changes").write_text(
        "".join(line for _, line in sorted(changes)), encoding="utf-8"
    )
    # DokuWiki names its style sheet by the configuration files' times (tseed): fixed, so a
    # rebuild names the same one.
    fixed = max(stamp for stamp, _ in changes)
    for f in (*conf.iterdir(), www / "inc" / "preload.php"):
        os.utime(f, (fixed, fixed))
    (www / "robots.txt").write_text(
        (src / "robots.txt").read_text(encoding="utf-8").format(origin=origin), encoding="utf-8"
    )
    shutil.copy(src / "router.php", www / "router.php")
    done = subprocess.run(
        ["php", str(www / "bin" / "indexer.php"), "--clear"], capture_output=True, text=True, cwd=www
    )
    if done.returncode != 0:
        raise SystemExit(f"src_dokuwiki: indexer: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    return www


def mirror(origin: str, dest: Path) -> None:
    """wget --mirror from the start page, robots.txt, the sitemap and what it lists, and the
    index (the site tools' "Sitemap")."""

    def fetch(url: str) -> str:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.read().decode("utf-8")

    sitemap = f"{origin}/doku.php?do=sitemap"
    starts = [f"{origin}/", f"{origin}/robots.txt", sitemap]
    starts += re.findall(r"<loc>([^<]+)</loc>", fetch(sitemap))
    starts += [f"{origin}/start?do=index", f"{origin}/feed.php"]
    starts = list(dict.fromkeys(u for u in starts if u.startswith(origin + "/")))
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
        (origin.replace("/", "&#x2F;"), HOST.replace("/", "&#x2F;")),
        (origin.replace("/", "&#47;"), HOST.replace("/", "&#47;")),
        ("http%3A%2F%2F127.0.0.1%3A" + port, "https%3A%2F%2F" + host),
        ("127.0.0.1:" + port, host),  # protocol-relative //127.0.0.1:PORT, Host-derived names
    ]
    for f in dest.rglob("*"):
        if not f.is_file():
            continue
        text = f.read_bytes().decode("utf-8")
        for old, new in pairs:
            text = text.replace(old, new)
        f.write_bytes(text.encode("utf-8"))
    left = [
        str(f)
        for f in dest.rglob("*")
        if f.is_file() and re.search(rb"(127\.0\.0\.1|localhost)(:|%3A)\d", f.read_bytes())
    ]
    if left:
        raise SystemExit(f"src_dokuwiki: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the pages (``/guide:install``, ``/start?do=index``)
    are HTML, the sitemap XML, the feeds RSS, the style sheets (``/lib/exe/css.php?…``) CSS."""
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        if rel.startswith("/doku.php?do=sitemap"):
            types[rel] = "application/xml; charset=utf-8"
        elif rel.startswith("/feed.php"):
            types[rel] = "application/rss+xml; charset=utf-8"
        elif rel.startswith("/lib/exe/css.php"):
            types[rel] = "text/css; charset=utf-8"
        elif rel.startswith("/lib/exe/manifest.php"):
            types[rel] = "application/manifest+json; charset=utf-8"
        elif rel.startswith("/lib/exe/opensearch.php"):
            types[rel] = "application/opensearchdescription+xml; charset=utf-8"
        elif Path(rel.split("?")[0]).suffix not in {".html", ".xml", ".css", ".txt", ".json"}:
            types[rel] = "text/html; charset=utf-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="dokuwiki-build-"))
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    www = install(src, work, origin)
    log = work / "php.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            ["php", "-S", f"127.0.0.1:{port}", "router.php"],
            cwd=www,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "TZ": "UTC"},
        )
    try:
        for _ in range(60):
            try:
                with urllib.request.urlopen(f"{origin}/robots.txt", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        dest = work / "mirror"
        mirror(origin, dest)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    # PHP 8.2's warnings on DokuWiki 2022-07's feed.php (undefined array keys): once each.
    seen = set()
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if m := re.search(r"PHP (?:Warning|Fatal|Notice|Deprecated).*", line):
            if m.group(0) not in seen:
                seen.add(m.group(0))
                print(f"src_dokuwiki: {m.group(0)}", file=sys.stderr)
    # Every page links the index (<link rel="contents">) at its own namespace: the same list of
    # pages, expanded there. The harness scores a page by its path without the query, so a post's
    # copy (/guide:install?do=index) would stand for the post: only the index at the start page
    # and at each namespace's start page is kept, the others 404 (README).
    for f in dest.glob("*?do=index"):
        if not re.fullmatch(r"(?:[^:?]+:)?start\?do=index", f.name):
            f.unlink()
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
