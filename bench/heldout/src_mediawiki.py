"""MediaWiki 1.39 (Debian 12's ``mediawiki`` package, Vector): its sources, its build and its mirror.

    python bench/heldout/write_sources.py mediawiki      # writes tests/fixtures/heldout/mediawiki/src
    python bench/heldout/src_mediawiki.py SRC OUT SERVED  # build.sh's mediawiki branch

A wiki keeps its pages in a database: the sources are the pages' wikitext as an editor types it
(``pages/*.wiki``, converted from the corpus' Markdown by :func:`wikitext`: ``== headings ==``,
``*``/``#`` lists, ``{| class="wikitable"`` tables, code as ``<syntaxhighlight lang="…">`` of the
SyntaxHighlight extension that MediaWiki bundles, categories for the post's category, its tags and
its docs section), ``pages.json`` (each page's title and the time of its one revision: the post's
date), the settings added to the installer's ``LocalSettings.php`` (``LocalSettings.extra.php``:
short URLs ``/wiki/Title``, 5 pages a category page, SyntaxHighlight, recent changes kept ten
years), the router of PHP's built-in server (what the Apache rewrite rules of the Short URL manual
do) and ``robots.txt`` (the Manual:robots.txt one for short URLs: the script path ``/w/`` closed,
its ``load.php`` style sheets open, as Wikipedia's).

The build (:func:`build`): ``maintenance/install.php`` on SQLite in a scratch folder (its
``$wgServer`` the loopback origin PHP's built-in server listens on), the installer's Main Page and
its log entries removed, ``importTextFiles.php --use-timestamp`` (each file's time its page's
revision time), ``rebuildrecentchanges.php``, ``generateSitemap.php``; then ``wget --mirror`` (one
host, robots.txt and ``nofollow`` obeyed, no images or scripts) from ``/``, ``robots.txt``, the
sitemaps and the pages they list, Special:AllPages and Special:RecentChanges. The origin is then
rewritten to ``https://mediawiki.heldout.example`` in the mirrored files (MediaWiki writes
``$wgServer`` into its sitemaps, canonical links and feeds, and serves only where it is told it
lives). Pages have no file extension (``/wiki/Title``): ``served.json`` names their content type.
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

HOST = "https://mediawiki.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"
PASSWORD = "Qx7-vellum-orchard-41"
MW = Path(os.environ.get("MW_INSTALL_PATH", "/usr/share/mediawiki"))
#: Nothing but text is fetched (the other held-out sites keep HTML, XML, CSS, JSON and text).
REJECT = r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$|only=scripts"
#: Special pages that redirect to a page of their own choosing: a random page, or the visitor's
#: own user talk page and contributions (User_talk:127.0.0.1): not mirrored (they 404).
REDIRECTING = r"/wiki/Special:(Random|MyTalk|MyContributions)$"

#: A title MediaWiki cannot have (``|`` is not allowed in a page name): the page is named without
#: it and shows the corpus' title by ``{{DISPLAYTITLE:…}}`` ($wgRestrictDisplayTitle off).
PAGE_NAMES = {"rust-vs-go-field-report": "Rust vs Go - A field report - part 2"}

INSTALL_TITLE = "Installing the command-line tool"
INSTALL_MD = """The tool ships for Python and Node.js; pick one.

'''Python 3.10 or later.''' Older versions lack `zoneinfo`; the tool refuses to start on them.

With pip:

```bash
pip install lessons-cli
```

With npm:

```bash
npm install --global lessons-cli
```

Check the installation:

```bash
lessons --version
```
"""

LOCAL_SETTINGS_EXTRA = r"""
# --- bench/heldout (src_mediawiki.py): appended to the installer's LocalSettings.php ---
# Short URLs as the Short URL manual sets them: articles at /wiki/Title, scripts under /w/.
$wgArticlePath = "/wiki/$1";
$wgUsePathInfo = true;
# Code blocks: the SyntaxHighlight extension MediaWiki bundles, on Debian's pygmentize.
wfLoadExtension( 'SyntaxHighlight_GeSHi' );
$wgPygmentizePath = '/usr/bin/pygmentize';
# One title of the corpus has a "|", which no page name may have: shown by DISPLAYTITLE.
$wgRestrictDisplayTitle = false;
# Five pages a category page (the other held-out sites' five posts a page).
$wgCategoryPagingLimit = 5;
# The pages' revisions are dated by their posts (2023-2024): recent changes keep ten years and
# Special:RecentChanges shows them all.
$wgRCMaxAge = 10 * 365 * 86400;
$wgDefaultUserOptions['rcdays'] = 3650;
# Offline: no mail, no pingback, no request to any other host.
$wgEnableEmail = false;
$wgEnableUserEmail = false;
$wgPingback = false;
$wgUseInstantCommons = false;
$wgAllowExternalImages = false;
"""

ROUTER = r"""<?php
// PHP's built-in server as the Short URL manual's Apache rules: /wiki/Title and / to index.php,
// /w/*.php to MediaWiki's entry points, files of the document root (robots.txt, sitemaps) as they are.
$mw = getenv('MW_INSTALL_PATH') ?: '/usr/share/mediawiki';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path !== '/' && is_file(__DIR__ . $path)) {
    return false;
}
if (preg_match('#^/w/([a-z_]+\.php)$#', $path, $m) && is_file("$mw/$m[1]")) {
    $script = $m[1];
} elseif (preg_match('#^/w/((?:skins|resources|extensions)/[^?]+\.css)$#', $path, $m) && is_file("$mw/$m[1]")) {
    header('Content-Type: text/css');
    readfile("$mw/$m[1]");
    return true;
} elseif ($path === '/' || strpos($path, '/wiki/') === 0) {
    $script = 'index.php';
} else {
    http_response_code(404);
    echo "Not Found\n";
    return true;
}
$_SERVER['SCRIPT_NAME'] = "/w/$script";
$_SERVER['SCRIPT_FILENAME'] = "$mw/$script";
$_SERVER['PHP_SELF'] = "/w/$script";
chdir($mw);
require "$mw/$script";
"""

ROBOTS = """# MediaWiki with short URLs (Manual:robots.txt): articles under /wiki/, the script path /w/
# (edit, history, diffs, search, the API) closed to crawlers; its style sheets open.
User-agent: *
Allow: /w/load.php
Disallow: /w/

Sitemap: {origin}/sitemap-index-smalllessons.xml
"""


# --- Markdown to wikitext ---------------------------------------------------------------------


def _anchor(text: str) -> str:
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")


def _inline(text: str, headings: dict[str, str]) -> str:
    """Inline Markdown as wikitext: code, links, bold, italics."""
    out: list[str] = []
    for i, part in enumerate(re.split(r"(`[^`]+`)", text)):
        if i % 2:
            code = part[1:-1]
            if re.search(r"[\[\]{}<>'|&~_*#=]", code):
                code = f"<nowiki>{code}</nowiki>"
            out.append(f"<code>{code}</code>")
            continue

        def link(m: re.Match[str]) -> str:
            label, url = m.group(1), m.group(2)
            if url.startswith("#"):
                return f"[[#{headings.get(url[1:], url[1:])}|{label}]]"
            return f"[{url} {label}]"

        part = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", link, part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"'''\1'''", part)
        part = re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"''\1''", part)
        out.append(part)
    return "".join(out)


def _table(rows: list[str], headings: dict[str, str]) -> list[str]:
    cells = [[_inline(c.strip(), headings) for c in r.strip().strip("|").split("|")] for r in rows]
    out = ['{| class="wikitable"', "! " + " !! ".join(cells[0])]
    for row in cells[2:]:
        out += ["|-", "| " + " || ".join(row)]
    return out + ["|}"]


def wikitext(markdown: str) -> str:
    """The corpus' Markdown as wikitext, as an editor would type it."""
    headings = {_anchor(m.group(1)): m.group(1) for m in re.finditer(r"^#{2,6} (.+)$", markdown, re.M)}
    lines = markdown.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := re.match(r"^(`{3,})(\S*)\s*$", line):
            fence, lang = m.group(1), m.group(2)
            j = i + 1
            while not lines[j].startswith(fence):
                j += 1
            code = "\n".join(lines[i + 1 : j])
            attr = f' lang="{lang}"' if lang else ""
            out.append(f"<syntaxhighlight{attr}>\n{code}\n</syntaxhighlight>")
            i = j + 1
            continue
        if m := re.match(r"^(#{2,6}) (.+)$", line):
            bar = "=" * len(m.group(1))
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
            stack: list[tuple[int, str]] = []
            while i < len(lines) and (m := re.match(r"^(\s*)([-*]|\d+\.) (.*)$", lines[i])):
                indent, marker = len(m.group(1)), "#" if m.group(2)[0].isdigit() else "*"
                while stack and stack[-1][0] > indent:
                    stack.pop()
                if stack and stack[-1][0] == indent:
                    stack[-1] = (indent, marker)
                else:
                    stack.append((indent, marker))
                out.append("".join(mk for _, mk in stack) + " " + _inline(m.group(3), headings))
                i += 1
            continue
        if line.startswith("> "):
            quote = []
            while i < len(lines) and lines[i].startswith(">"):
                quote.append(_inline(lines[i][1:].strip(), headings))
                i += 1
            out.append("<blockquote>" + "\n".join(quote) + "</blockquote>")
            continue
        out.append(_inline(line, headings))
        i += 1
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


# --- the sources ------------------------------------------------------------------------------


def _cat(name: str) -> str:
    return name[:1].upper() + name[1:]


def page_name(p: Post) -> str:
    return PAGE_NAMES.get(p.slug, p.title)


def _post_page(p: Post, section: str) -> str:
    head = f"{{{{DISPLAYTITLE:{p.title.replace('|', '&#124;')}}}}}\n" if p.slug in PAGE_NAMES else ""
    cats = [section, p.category, *p.tags]
    cats = list(dict.fromkeys(_cat(c) for c in cats))
    return head + wikitext(p.body) + "\n" + "\n".join(f"[[Category:{c}]]" for c in cats) + "\n"


def _stamp(date: str) -> str:
    return f"{date}T09:30:00Z"


def mediawiki() -> None:
    """tests/fixtures/heldout/mediawiki/src: the pages' wikitext, their titles and times, the
    settings, router and robots.txt the build uses."""
    from write_sources import _fresh, _write

    src = _fresh("mediawiki")
    pages: list[dict[str, str]] = []

    def put(file: str, title: str, stamp: str, text: str, kind: str) -> None:
        _write(src / "pages" / file, text)
        pages.append({"title": title, "file": f"pages/{file}", "timestamp": stamp, "kind": kind})

    posts = published()
    sections: dict[str, list[Post]] = {}
    for p in posts:
        sections.setdefault(DOC_SECTIONS[p.slug], []).append(p)
        put(f"{p.slug}.wiki", page_name(p), _stamp(p.date), _post_page(p, DOC_SECTIONS[p.slug]), "post")
    first = min(p.date for p in posts)
    put(
        "install.wiki",
        INSTALL_TITLE,
        _stamp(first),
        wikitext(INSTALL_MD) + "\n[[Category:Guide]]\n",
        "docs",
    )
    put("about.wiki", f"{SITENAME}:About", _stamp(ABOUT.date), wikitext(ABOUT.body), "about")
    # The Main Page: the wiki's welcome text and its pages by section, newest first.
    main = [
        f"'''{SITENAME}''' is a wiki of short programming lessons. "
        f"See [[{SITENAME}:About|About]] for what it is.",
        "",
    ]
    for section in ("guide", "reference", "appendix"):
        main.append(f"== {section.title()} ==")
        if section == "guide":
            main.append(f"* [[{INSTALL_TITLE}]]")
        for p in sorted(sections[section], key=lambda p: p.date, reverse=True):
            name = page_name(p)
            label = f"[[{name}|{p.title.replace('|', '&#124;')}]]" if name != p.title else f"[[{name}]]"
            main.append(f"* {label} ({p.date})")
        main.append(f"More in [[:Category:{section.title()}]].")
        main.append("")
    main.append("== Categories ==")
    cats = sorted({_cat(p.category) for p in posts})
    main.append(", ".join(f"[[:Category:{c}|{c}]]" for c in cats) + ".")
    last = max(p.date for p in posts)
    put("main-page.wiki", "Main Page", _stamp(last), "\n".join(main) + "\n", "main")
    # A description on every category page (a category without one is a red link).
    descriptions = {
        "guide": "Guides: where to start.",
        "reference": "Reference pages: one topic each.",
        "appendix": "Appendix: field notes and tips.",
    }
    names: dict[str, str] = {}
    for p in posts:
        for c in (DOC_SECTIONS[p.slug], p.category, *p.tags):
            names.setdefault(_cat(c), c)
    for cat, raw in sorted(names.items()):
        text = descriptions.get(raw, f"Pages about {raw}.")
        put(f"category-{raw}.wiki", f"Category:{cat}", _stamp(first), text + "\n", "category")
    _write(src / "pages.json", json.dumps(pages, ensure_ascii=False, indent=1) + "\n")
    _write(src / "LocalSettings.extra.php", "<?php\n" + LOCAL_SETTINGS_EXTRA.lstrip("\n"))
    _write(src / "router.php", ROUTER)
    _write(src / "robots.txt", ROBOTS)


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _php(work: Path, script: str, *args: str) -> str:
    env = {**os.environ, "MW_CONFIG_FILE": str(work / "LocalSettings.php"), "MW_INSTALL_PATH": str(MW)}
    done = subprocess.run(
        ["php", str(MW / "maintenance" / script), *args], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"src_mediawiki: {script}: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def install(src: Path, work: Path, origin: str) -> None:
    """A new wiki on SQLite, then its pages at their own times, its recent changes and sitemaps."""
    _php(
        work,
        "install.php",
        "--dbtype=sqlite",
        f"--dbpath={work / 'data'}",
        "--dbname=smalllessons",
        f"--server={origin}",
        "--scriptpath=/w",
        f"--confpath={work}",
        f"--pass={PASSWORD}",
        "--lang=en",
        "--skins=Vector",
        SITENAME,
        AUTHOR,
    )
    settings = work / "LocalSettings.php"
    extra = (src / "LocalSettings.extra.php").read_text(encoding="utf-8").removeprefix("<?php\n")
    settings.write_text(settings.read_text(encoding="utf-8") + extra, encoding="utf-8")
    # The installer's Main Page (its "MediaWiki has been installed" text, dated now) goes: the
    # import writes the wiki's own, dated by its newest post.
    (work / "delete.txt").write_text("Main Page\n", encoding="utf-8")
    _php(work, "deleteBatch.php", f"--u={AUTHOR}", "--r=Replaced by the wiki's own", str(work / "delete.txt"))
    _php(work, "deleteArchivedRevisions.php", "--delete")
    files = work / "import"
    files.mkdir()
    for page in json.loads((src / "pages.json").read_text(encoding="utf-8")):
        # importTextFiles names a page by its file's name, dates its revision by the file's time.
        f = files / (page["title"] + ".wiki")
        shutil.copy(src / page["file"], f)
        stamp = datetime.strptime(page["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        os.utime(f, (stamp.timestamp(), stamp.timestamp()))
    _php(
        work,
        "importTextFiles.php",
        "--use-timestamp",
        f"--user={AUTHOR}",
        "--summary=Imported from the notebook",
        *sorted(str(f) for f in files.iterdir()),
    )
    # The install's log entries (the account's creation, the Main Page's deletion, dated at the
    # build) out: the wiki's history is its pages'. Recent changes rebuilt from the revisions.
    _php(work, "sql.php", "--query=DELETE FROM logging")
    _php(work, "rebuildrecentchanges.php")
    _php(work, "refreshLinks.php")
    _php(work, "runJobs.php")
    # Linking and the job queue touched every page at the build's time: a wiki left alone since
    # its last edit has each page touched then (generateSitemap's lastmod is page_touched).
    _php(
        work,
        "sql.php",
        "--query=UPDATE page SET page_touched = "
        "(SELECT rev_timestamp FROM revision WHERE rev_id = page_latest)",
    )
    www = work / "www"
    www.mkdir()
    shutil.copy(src / "router.php", www / "router.php")
    (www / "robots.txt").write_text(
        (src / "robots.txt").read_text(encoding="utf-8").format(origin=origin), encoding="utf-8"
    )
    _php(
        work,
        "generateSitemap.php",
        f"--fspath={www}",
        "--urlpath=/",
        f"--server={origin}",
        "--compress=no",
        "--identifier=smalllessons",
        "--skip-redirects",
    )


def mirror(origin: str, dest: Path) -> None:
    """wget --mirror from the home page, robots.txt, the sitemaps and what they list, and the
    two listings every wiki links from its sidebar."""

    def fetch(url: str) -> str:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.read().decode("utf-8")

    starts = [f"{origin}/", f"{origin}/robots.txt", f"{origin}/sitemap-index-smalllessons.xml"]
    for sitemap in re.findall(r"<loc>([^<]+)</loc>", fetch(starts[-1])):
        starts.append(sitemap)
        starts += re.findall(r"<loc>([^<]+)</loc>", fetch(sitemap))
    starts += [f"{origin}/wiki/Special:AllPages", f"{origin}/wiki/Special:RecentChanges"]
    starts = list(dict.fromkeys(u for u in starts if u.startswith(origin + "/")))
    subprocess.run(
        [
            "wget",
            "--mirror",
            "--no-host-directories",
            "--quiet",
            "--restrict-file-names=nocontrol",
            "--reject-regex",
            f"{REJECT}|{REDIRECTING}",
            "--directory-prefix",
            str(dest),
            *starts,
        ],
        check=False,  # 8: some answer was a 404 (the footer's Privacy policy and Disclaimers pages)
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
        ("127.0.0.1:" + port, host),  # protocol-relative //127.0.0.1:PORT
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
        raise SystemExit(f"src_mediawiki: loopback origin left in {left[:5]}")


def root_redirect(origin: str, dest: Path) -> dict[str, str]:
    """``/`` answers a 301 to ``/wiki/Main_Page``; wget saves the Main Page it got there as
    ``index.html`` and never fetches ``/wiki/Main_Page`` again: the file goes to that path, and
    the redirect to served.json (tests/devsites.py's ``apply_served``)."""
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
    page = dest / target.lstrip("/")
    if not page.exists():
        page.parent.mkdir(parents=True, exist_ok=True)
        (dest / "index.html").rename(page)
    else:
        (dest / "index.html").unlink()
    return {"/": target}


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the pages (``/wiki/Title``, no extension) are
    HTML, the style sheets (``/w/load.php?…``) CSS."""
    known = {".html", ".xml", ".css", ".txt", ".json"}
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        if rel.startswith("/w/load.php?"):
            types[rel] = "text/css; charset=utf-8"
        elif Path(rel.split("?")[0]).suffix not in known or rel.startswith("/wiki/"):
            types[rel] = "text/html; charset=UTF-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="mediawiki-build-"))
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    install(src, work, origin)
    log = work / "php.log"
    env = {**os.environ, "MW_CONFIG_FILE": str(work / "LocalSettings.php"), "MW_INSTALL_PATH": str(MW)}
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            ["php", "-S", f"127.0.0.1:{port}", "router.php"],
            cwd=work / "www",
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
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
        redirects = root_redirect(origin, dest)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if re.search(r"PHP (Warning|Fatal|Notice|Deprecated)", line):
            print(f"src_mediawiki: PHP: {line}", file=sys.stderr)
    rewrite(origin, dest)
    served.write_text(
        json.dumps(
            {"redirects": redirects, "content_types": content_types(dest)}, ensure_ascii=False, indent=1
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
