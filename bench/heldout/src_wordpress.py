"""WordPress 6.1 (Debian 12's ``wordpress`` package): its sources and its import, for two sites of
the same content in two themes: ``wordpress`` (Twenty Twenty-Three, the default block theme) and
``wordpress-classic`` (Twenty Twenty-One, a classic PHP theme).

    python bench/heldout/write_sources.py wordpress        # writes tests/fixtures/heldout/wordpress/src
    python bench/heldout/write_sources.py wordpress-classic
    python bench/heldout/src_wordpress.py render SRC OUT   # at build time: posts.json for import.php

WordPress keeps its posts in a database, not in files: the sources here are what an author
writes (one Markdown file with front matter per post, ``posts/`` and ``pages/``), the site's
options (``site.json``), the two approved comments (``comments.json``) and the PHP that builds
the site through ``wp-load.php`` (``import.php``: wp-cli is not on apt), its ``wp-config.php``
and the router of PHP's built-in server. ``render`` turns the Markdown into the block markup the
block editor saves (Python-Markdown, then one block per top-level element; code blocks as
``<!-- wp:code --><pre class="wp-block-code"><code>``, which names no language: WordPress core
has none). ``bench/heldout/build.sh`` runs it all and mirrors the site with wget.

The classic theme shows no navigation until a menu is given its location, as an author of such a
site sets one up (Appearance > Menus): ``wordpress-classic``'s ``import.php`` adds a primary menu
(the home page and About). Its footer widgets are those ``wp_install`` gives a new site (search,
recent posts, recent comments, archives, categories: block widgets since WordPress 5.8).
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ABOUT, POSTS  # noqa: E402
from make_oracle import front_matter  # noqa: E402

SITE = {
    "blogname": "Small Lessons",
    "blogdescription": "Short programming lessons",
    "permalink_structure": "/%year%/%monthnum%/%day%/%postname%/",
    "posts_per_page": 5,
    "default_comment_status": "open",
    "template": "twentytwentythree",
    "stylesheet": "twentytwentythree",
    "author": {"login": "ana", "display_name": "Ana Lima", "first_name": "Ana", "last_name": "Lima"},
}

#: Each held-out WordPress site: its theme (a folder of wp-content/themes, Debian's
#: ``wordpress-theme-<name>`` package) and the database it lives in (the build's own server).
THEMES = {"wordpress": "twentytwentythree", "wordpress-classic": "twentytwentyone"}
DATABASES = {"wordpress": "wordpress", "wordpress-classic": "wordpress_classic"}
#: The classic (PHP template) themes among them: navigation by menu locations (CLASSIC_MENU_PHP).
CLASSIC_THEMES = {"twentytwentyone"}

#: One approved comment on two posts (the rest have the form and no comment).
COMMENTS = [
    {
        "post": "python-generators-tour",
        "author": "Bruno Costa",
        "email": "bruno@example.org",
        "date": "2023-01-16 10:00:00",
        "content": "Thanks, the pipeline example is exactly what I needed for our log files.",
    },
    {
        "post": "dockerfile-tips",
        "author": "Chen Wei",
        "email": "chen@example.org",
        "date": "2024-03-01 08:15:00",
        "content": "Distroless saved us 300 MB per image. Good list.",
    },
]

WP_CONFIG = """<?php
// The held-out WordPress site (bench/heldout/build.sh): the database on a socket of the build's
// own MariaDB server, the site URL the loopback origin PHP's built-in server listens on.
define('DB_NAME', '@DB_NAME@');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:' . getenv('WP_DB_SOCKET'));
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_HOME', getenv('WP_ORIGIN'));
define('WP_SITEURL', getenv('WP_ORIGIN'));
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('AUTH_KEY', 'heldout'); define('SECURE_AUTH_KEY', 'heldout'); define('LOGGED_IN_KEY', 'heldout');
define('NONCE_KEY', 'heldout'); define('AUTH_SALT', 'heldout'); define('SECURE_AUTH_SALT', 'heldout');
define('LOGGED_IN_SALT', 'heldout'); define('NONCE_SALT', 'heldout');
// Offline: no cron request to itself, no update checks, no request to any other host.
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);
$table_prefix = 'wp_';
if (!defined('ABSPATH')) {
    define('ABSPATH', __DIR__ . '/');
}
require_once ABSPATH . 'wp-settings.php';
"""

ROUTER = """<?php
// PHP's built-in server: files as they are, every other path through WordPress' index.php
// (what Apache's rewrite rules in WordPress' .htaccess do).
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path !== '/' && is_file(__DIR__ . $path)) {
    return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = __DIR__ . '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
require __DIR__ . '/index.php';
"""

IMPORT_PHP = r"""<?php
// Install WordPress and write the site's content through wp-load.php (wp-cli is not on apt):
//   php import.php SRC POSTS_JSON   (WP_ORIGIN and WP_DB_SOCKET in the environment)
// SRC holds site.json and comments.json; POSTS_JSON is src_wordpress.py's render of posts/ and pages/.
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = parse_url(getenv('WP_ORIGIN'), PHP_URL_HOST);
$_SERVER['REQUEST_URI'] = '/';
require_once getcwd() . '/wp-load.php';
function wp_new_blog_notification() {}  // pluggable: no mail of the new site's password
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/taxonomy.php';

$src = $argv[1];
$site = json_decode(file_get_contents("$src/site.json"), true);
$posts = json_decode(file_get_contents($argv[2]), true);
$comments = json_decode(file_get_contents("$src/comments.json"), true);
$a = $site['author'];

wp_install($site['blogname'], $a['login'], $a['login'] . '@example.org', true, '', 'heldout-password', 'en_US');
$user_id = 1;
wp_update_user(['ID' => $user_id, 'display_name' => $a['display_name'], 'first_name' => $a['first_name'],
    'last_name' => $a['last_name'], 'nickname' => $a['display_name']]);
wp_set_current_user($user_id);  // an administrator: the content is saved unfiltered, as the editor saves it

// wp_install's sample content (Hello world!, its comment, Sample Page, the draft Privacy Policy) out.
foreach (get_posts(['post_type' => ['post', 'page'], 'post_status' => 'any', 'numberposts' => -1]) as $p) {
    wp_delete_post($p->ID, true);
}

update_option('blogdescription', $site['blogdescription']);
update_option('posts_per_page', $site['posts_per_page']);
update_option('default_comment_status', $site['default_comment_status']);
update_option('timezone_string', 'UTC');
switch_theme($site['stylesheet']);
global $wp_rewrite;
$wp_rewrite->set_permalink_structure($site['permalink_structure']);

$ids = [];
foreach ($posts as $p) {
    $cats = [];
    foreach ($p['categories'] as $name) {
        $cats[] = wp_create_category($name);
    }
    $id = wp_insert_post([
        'post_type' => $p['type'],
        'post_status' => $p['status'],
        'post_author' => $user_id,
        'post_title' => wp_slash($p['title']),
        'post_name' => $p['slug'],
        'post_content' => wp_slash($p['content']),
        'post_date' => $p['date'],
        'post_date_gmt' => $p['date'],
        'post_category' => $cats,
        'tags_input' => $p['tags'],
        'comment_status' => 'open',
        'ping_status' => 'open',
    ], true);
    if (is_wp_error($id)) {
        fwrite(STDERR, "import.php: {$p['slug']}: " . $id->get_error_message() . "\n");
        exit(1);
    }
    $ids[$p['slug']] = $id;
}
foreach ($comments as $c) {
    wp_insert_comment([
        'comment_post_ID' => $ids[$c['post']],
        'comment_author' => $c['author'],
        'comment_author_email' => $c['email'],
        'comment_author_url' => '',
        'comment_content' => $c['content'],
        'comment_date' => $c['date'],
        'comment_date_gmt' => $c['date'],
        'comment_approved' => 1,
        'comment_type' => 'comment',
    ]);
}
@THEME_SETUP@flush_rewrite_rules(false);
echo count($ids) . " posts and pages, " . count($comments) . " comments\n";
"""

#: A classic theme's navigation: a menu in its ``primary`` location (Appearance > Menus), here the
#: home page and the About page; a block theme has its navigation block instead (none needed).
CLASSIC_MENU_PHP = """// The classic theme's navigation: a menu in its primary location, the home page and About.
$menu_id = wp_create_nav_menu('Primary');
wp_update_nav_menu_item($menu_id, 0, ['menu-item-title' => 'Home', 'menu-item-url' => home_url('/'),
    'menu-item-type' => 'custom', 'menu-item-status' => 'publish']);
wp_update_nav_menu_item($menu_id, 0, ['menu-item-object-id' => $ids['about'], 'menu-item-object' => 'page',
    'menu-item-type' => 'post_type', 'menu-item-status' => 'publish']);
set_theme_mod('nav_menu_locations', ['primary' => $menu_id]);
"""


def wordpress() -> None:
    """tests/fixtures/heldout/wordpress/src: Twenty Twenty-Three, the default block theme."""
    write("wordpress")


def wordpress_classic() -> None:
    """tests/fixtures/heldout/wordpress-classic/src: Twenty Twenty-One, a classic PHP theme."""
    write("wordpress-classic")


def write(folder: str) -> None:
    """tests/fixtures/heldout/<folder>/src: the posts and the About page as an author writes them
    (Markdown, front matter), the site's options (its theme: :data:`THEMES`), its comments and the
    PHP that imports them (its database: :data:`DATABASES`)."""
    # write_sources' helpers, imported here: write_sources imports this module for its map.
    from write_sources import _fresh, _write, _yaml_list

    theme = THEMES[folder]
    classic = theme in CLASSIC_THEMES
    src = _fresh(folder)

    def put(rel: str, text: str) -> None:
        _write(src / rel, text)

    for p in POSTS:
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\ndate: {p.date} 09:30:00\n"
            f"slug: {p.slug}\nstatus: {'draft' if p.draft else 'publish'}\n"
            f"categories: [{p.category}]\ntags: {_yaml_list(p.tags)}\n---\n\n"
        )
        put(f"posts/{p.slug}.md", front + p.body)
    put(
        "pages/about.md",
        f"---\ntitle: {ABOUT.title}\ndate: {ABOUT.date} 09:30:00\nslug: {ABOUT.slug}\nstatus: publish\n---\n\n"
        + ABOUT.body,
    )
    site = {**SITE, "template": theme, "stylesheet": theme}
    put("site.json", json.dumps(site, ensure_ascii=False, indent=1) + "\n")
    put("comments.json", json.dumps(COMMENTS, ensure_ascii=False, indent=1) + "\n")
    put("wp-config.php", WP_CONFIG.replace("@DB_NAME@", DATABASES[folder]))
    put("router.php", ROUTER)
    put("import.php", IMPORT_PHP.replace("@THEME_SETUP@", CLASSIC_MENU_PHP if classic else ""))


# --- build time: Markdown to block markup ------------------------------------------------------

_VOID = {"br", "hr", "img", "input", "meta", "link"}


class _TopLevel(HTMLParser):
    """The spans (start, end offsets) of the top-level elements of an HTML fragment."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth = 0
        self.start = 0
        self.spans: list[tuple[str, int, int]] = []
        self.tag = ""

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.depth == 0:
            self.start, self.tag = self._offset(), tag
        if tag in _VOID:
            if self.depth == 0:
                end = self.text.index(">", self._offset()) + 1
                self.spans.append((tag, self.start, end))
            return
        self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            end = self.text.index(">", self._offset()) + 1
            self.spans.append((self.tag, self.start, end))


def _list_block(fragment: str) -> str:
    """A list as the 6.1 block editor saves it: list-item blocks inside, nested lists as blocks."""

    def opening(m: re.Match[str]) -> str:
        return (
            '<!-- wp:list {"ordered":true} -->\n' if m.group(1) == "ol" else "<!-- wp:list -->\n"
        ) + m.group(0)

    out = re.sub(r"<(ul|ol)>", opening, fragment)
    out = re.sub(r"</(ul|ol)>", r"</\1>\n<!-- /wp:list -->", out)
    out = out.replace("<li>", "<!-- wp:list-item -->\n<li>").replace("</li>", "</li>\n<!-- /wp:list-item -->")
    return out


def blocks(markdown_html: str) -> str:
    """Python-Markdown's HTML as block markup (paragraph, heading, list, table, code)."""
    parser = _TopLevel(markdown_html)
    parser.feed(markdown_html)
    parser.close()
    out: list[str] = []
    for tag, start, end in parser.spans:
        frag = markdown_html[start:end]
        if tag == "p":
            out.append(f"<!-- wp:paragraph -->\n{frag}\n<!-- /wp:paragraph -->")
        elif re.fullmatch(r"h[1-6]", tag):
            level = int(tag[1])
            attrs = "" if level == 2 else f' {{"level":{level}}}'
            out.append(f"<!-- wp:heading{attrs} -->\n{frag}\n<!-- /wp:heading -->")
        elif tag in ("ul", "ol"):
            out.append(_list_block(frag))
        elif tag == "table":
            compact = re.sub(r">\s+<", "><", frag)
            out.append(
                f'<!-- wp:table -->\n<figure class="wp-block-table">{compact}</figure>\n<!-- /wp:table -->'
            )
        elif tag == "pre":
            m = re.fullmatch(r"<pre><code(?: class=\"[^\"]*\")?>(.*)</code></pre>", frag, re.S)
            if not m:
                raise ValueError(f"unexpected code block: {frag[:80]!r}")
            code = m.group(1).rstrip("\n")
            out.append(
                f'<!-- wp:code -->\n<pre class="wp-block-code"><code>{code}</code></pre>\n<!-- /wp:code -->'
            )
        else:
            raise ValueError(f"no block for <{tag}>: {frag[:80]!r}")
    return "\n\n".join(out)


def render(src: Path, out: Path) -> None:
    """``posts.json`` for import.php: every post and page, its Markdown as block markup."""
    import markdown

    items = []
    for kind, folder in (("post", "posts"), ("page", "pages")):
        for f in sorted((src / folder).glob("*.md")):
            meta, body = front_matter(f.read_text(encoding="utf-8"))
            body = body.lstrip("\n")
            body_html = markdown.markdown(body, extensions=["fenced_code", "tables"])
            items.append(
                {
                    "type": kind,
                    "slug": meta["slug"],
                    "title": meta["title"],
                    "date": str(meta["date"]),
                    "status": meta["status"],
                    "categories": meta.get("categories", []),
                    "tags": meta.get("tags", []),
                    "content": blocks(body_html),
                }
            )
    # Oldest first, as an author would have written them (post IDs in date order).
    items.sort(key=lambda i: (i["date"], i["slug"]))
    out.write_text(json.dumps(items, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# --- build time: the mirror -------------------------------------------------------------------


def site_host(folder: str) -> str:
    """The held-out site's own host (``https://<folder>.heldout.example``), its origin in the files."""
    return f"https://{folder}.heldout.example"


def seeds(posts_json: Path, origin: str) -> list[str]:
    """Where wget starts: the home page, both feeds, robots.txt, the sitemap index, every sub-sitemap
    and every URL they list (wget reads no XML), and the year and month archives of the posts
    (linked from no page of the theme: WordPress answers them all the same)."""
    from urllib.request import urlopen

    def locs(url: str) -> list[str]:
        with urlopen(url) as answer:  # the build's own loopback server
            return re.findall(r"<loc>([^<]+)</loc>", answer.read().decode("utf-8"))

    out = [f"{origin}/", f"{origin}/feed/", f"{origin}/comments/feed/", f"{origin}/robots.txt"]
    out.append(f"{origin}/wp-sitemap.xml")
    for sub in locs(f"{origin}/wp-sitemap.xml"):
        out.append(sub)
        out.extend(locs(sub))
    dates = sorted(
        {
            p["date"][:7]
            for p in json.loads(posts_json.read_text(encoding="utf-8"))
            if p["type"] == "post" and p["status"] == "publish"
        }
    )
    out.extend(sorted({f"{origin}/{d[:4]}/" for d in dates}))
    out.extend(f"{origin}/{d[:4]}/{d[5:7]}/" for d in dates)
    return out


def _origin_forms(origin: str, site_origin: str) -> list[tuple[bytes, bytes]]:
    """Every spelling of the loopback origin in the mirrored files, and its replacement: plain,
    JSON-escaped (``http:\\/\\/``), percent-encoded (oEmbed's ``?url=``) and the port-less form
    WordPress writes in a feed's ``atom:link rel="self"`` (``self_link()``: host, no port)."""
    host = origin.split("://", 1)[1]
    bare = host.split(":")[0]
    new = site_origin
    pairs = [
        (origin, new),
        (origin.replace("/", "\\/"), new.replace("/", "\\/")),
        (origin.replace(":", "%3A").replace("/", "%2F"), new.replace(":", "%3A").replace("/", "%2F")),
        (f"http://{bare}/", new + "/"),
    ]
    return [(a.encode(), b.encode()) for a, b in pairs]


def finish(mirror: Path, origin: str, site: Path, served_json: Path, site_name: str = "wordpress") -> None:
    """The wget mirror as the held-out site ``site_name`` (its folder): redirects and content types into
    ``served.json``, the loopback origin rewritten to the site's host (:func:`site_host`) in every
    file, static files' ``?ver=`` off.

    A path saved as ``dir/index.html?query`` is the answer to ``dir/?query``. An answer that was a
    redirect (``/?p=N``, the shortlink of every page) is a redirect in served.json, its file gone;
    an answer whose content type its file name does not say (feeds at ``.../feed/``, saved as
    ``index.html``; the REST API's JSON; ``xmlrpc.php?rsd``) has it there.
    """
    import http.client
    import shutil
    from urllib.parse import quote, urlsplit

    by_suffix = {
        ".html": "text/html",
        ".xml": "application/xml",
        ".css": "text/css",
        ".txt": "text/plain",
        ".json": "application/json",
    }
    loop = urlsplit(origin)
    host = loop.hostname or "127.0.0.1"
    if site.exists():
        shutil.rmtree(site)
    redirects: dict[str, str] = {}
    types: dict[str, str] = {}
    for f in sorted(mirror.rglob("*")):
        if not f.is_file():
            continue
        rel = f.relative_to(mirror).as_posix()
        folder, _, name = rel.rpartition("/")
        prefix = f"/{folder}/" if folder else "/"
        url = prefix + name[len("index.html") :] if name.startswith("index.html") else prefix + name
        conn = http.client.HTTPConnection(host, loop.port, timeout=30)
        conn.request("GET", quote(url, safe="/?=&%:@"))
        answer = conn.getresponse()
        answer.read()
        conn.close()
        if answer.status in (301, 302):
            location = answer.getheader("Location", "")
            redirects[url] = location.replace(origin, "") or "/"
            continue
        if answer.status != 200:
            raise SystemExit(f"src_wordpress finish: {url}: {answer.status}")
        if "?ver=" in name and name.split("?")[0].endswith(".css"):
            rel = rel.split("?")[0]  # the host answers /x.css?ver=1 with /x.css
        ctype = answer.getheader("Content-Type", "")
        suffix = Path(rel.split("?")[0]).suffix if "?" not in rel else ""
        if ctype.split(";")[0].strip() != by_suffix.get(suffix):
            types[url] = ctype
        body = f.read_bytes()
        for old, new in _origin_forms(origin, site_host(site_name)):
            body = body.replace(old, new)
        out = site / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(body)
    left = [str(p) for p in site.rglob("*") if p.is_file() and host.encode() in p.read_bytes()]
    if left:
        raise SystemExit(f"src_wordpress finish: the loopback host is still in {left[:5]}")
    served = {"redirects": dict(sorted(redirects.items())), "content_types": dict(sorted(types.items()))}
    served_json.write_text(json.dumps(served, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(
        f"{site_name}: {sum(1 for p in site.rglob('*') if p.is_file())} files, "
        f"{len(redirects)} redirects, {len(types)} content types"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "render":
        render(Path(args[1]), Path(args[2]))
    elif len(args) == 3 and args[0] == "seeds":
        print("\n".join(seeds(Path(args[1]), args[2])))
    elif len(args) in (5, 6) and args[0] == "finish":
        finish(Path(args[1]), args[2], Path(args[3]), Path(args[4]), *args[5:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
