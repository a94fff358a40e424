"""Mezzanine 6.1.1 (a Django CMS with a blog app; its default Bootstrap theme): sources, build, mirror.

    python bench/heldout/write_sources.py mezzanine              # tests/fixtures/heldout/mezzanine/src
    $GENV_MEZZANINE/bin/python bench/heldout/src_mezzanine.py SRC OUT SERVED   # build.sh's branch

Mezzanine is a site served by Django, its content in a database, written through its admin or
by code. The sources are what a site made with ``mezzanine-project`` adds to it:
``local_settings.py`` (exec'd by the project's ``settings.py``: SQLite, ``DEBUG = False``, the
site's title and tagline, ``BLOG_SLUG = ""`` with the project ``urls.py``'s documented "homepage
for a blog-only site" pattern, the ``smalllessons`` app), the ``smalllessons`` app, whose
management command ``import_lessons`` writes the content as the admin would (each post's
Markdown rendered by Python-Markdown with ``fenced_code``, ``codehilite`` (Pygments) and
``tables``, then cleaned by the ``RichTextField`` as the admin's form cleans it), the posts
(``posts/<slug>.md``: a ``key: <JSON>`` header over the Markdown: title, publish date,
categories (the corpus' category and tags), keywords (the tags)), ``pages/about.md`` (a
``RichTextPage``) and ``comments.json`` (one approved threaded comment on two posts).

Pages (BLOG_SLUG empty): ``/`` the post list (5 a page: ``/?page=N``), ``/<slug>/`` a post,
``/category/<slug>/``, ``/tag/<keyword>/``, ``/author/ana/``, ``/archive/YYYY/`` and
``/archive/YYYY/MM/`` (the sidebar's archive by month), the feeds ``/feeds/rss/`` and
``/feeds/atom/`` (and per category, tag and author), ``/pages/about/`` (pages move under
``PAGES_SLUG`` when the blog takes the root), ``/sitemap.xml``. A post's page states its date only
as the time since (``Posted by: Ana Lima 1 year, 4 months ago``): the server runs under
``faketime`` from 2024-06-15 12:00 UTC, so that a rebuild writes the same words.

The build (:func:`build`): ``mezzanine-project lessons`` in a scratch folder, the sources copied
in, ``createdb --noinput --nodata``, ``import_lessons``, ``runserver --insecure --noreload`` on a
free loopback port (static files served with ``DEBUG = False``), ``wget --mirror`` from ``/``,
``/sitemap.xml`` and every post, then the origin rewritten to ``https://mezzanine.heldout.example``.
Not mirrored: scripts, images, fonts, the admin, the comment and rating forms' endpoints, search.
``served.json`` names the content type of what the files' names do not say (the feeds, saved as
``feeds/rss/index.html``; the pages of a list, ``index.html?page=2``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

HOST = "https://mezzanine.heldout.example"
PROJECT = "lessons"
#: The server's clock starts here (faketime): "N months ago" under each post is from this moment.
CLOCK = "@2024-06-15 12:00:00"
#: The hour of every post's publish date (UTC).
HOUR = "09:30:00"

LOCAL_SETTINGS = """# Exec'd by settings.py (mezzanine-project's template): what this site changes.
DEBUG = False
SECRET_KEY = "heldout-mezzanine-not-a-secret"
NEVERCACHE_KEY = "heldout-mezzanine-nevercache"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "lessons.db"}}
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS.append("smalllessons")  # noqa: F821 (settings.py's list)
# A blog-only site: the post list at "/" (urls.py's documented pattern), pages under /pages/.
BLOG_SLUG = ""
SITE_TITLE = "Small Lessons"
SITE_TAGLINE = "Short programming lessons"
"""

IMPORT_COMMAND = '''"""manage.py import_lessons SRC ORIGIN: the site's content, written as the admin writes it."""

import json
from datetime import datetime, timezone
from pathlib import Path

import markdown
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core.management.base import BaseCommand

from mezzanine.blog.models import BlogCategory, BlogPost
from mezzanine.generic.models import AssignedKeyword, Keyword, ThreadedComment
from mezzanine.pages.models import Page, RichTextPage

EXTENSIONS = ["fenced_code", "codehilite", "tables"]


def read(path):
    """A source file: ``key: <JSON>`` lines, a blank line, the Markdown."""
    head, _, body = path.read_text(encoding="utf-8").partition("\\n\\n")
    meta = {}
    for line in head.splitlines():
        key, _, value = line.partition(": ")
        meta[key] = json.loads(value)
    return meta, body


def when(text):
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)


def rich_text(model, body):
    """The Markdown as HTML, cleaned by the content field as the admin's form cleans it."""
    html = markdown.markdown(body, extensions=EXTENSIONS)
    return model._meta.get_field("content").clean(html, None)


class Command(BaseCommand):
    help = "Write the posts, the About page and the comments of the sources."

    def add_arguments(self, parser):
        parser.add_argument("src")
        parser.add_argument("origin")

    def handle(self, src, origin, **options):
        src = Path(src)
        site = Site.objects.get()
        site.domain = origin.split("://", 1)[1]
        site.name = "Small Lessons"
        site.save()
        # The blog-only homepage's documented step: the page tree's "Blog" page (installed by
        # createdb's required data) deleted.
        Page.objects.filter(slug="blog").delete()
        user = get_user_model().objects.create_user(
            "ana", "ana@mezzanine.heldout.example", None, first_name="Ana", last_name="Lima"
        )
        meta, body = read(src / "pages" / "about.md")
        RichTextPage.objects.create(
            title=meta["title"], slug=meta["slug"], content=rich_text(RichTextPage, body)
        )
        posts = {}
        for path in sorted((src / "posts").glob("*.md")):
            meta, body = read(path)
            published = when(meta["publish_date"])
            post = BlogPost.objects.create(
                title=meta["title"],
                slug=path.stem,
                user=user,
                publish_date=published,
                content=rich_text(BlogPost, body),
            )
            for title in meta["categories"]:
                category, _ = BlogCategory.objects.get_or_create(title=title)
                post.categories.add(category)
            for title in meta["keywords"]:
                keyword, _ = Keyword.objects.get_or_create(title=title)
                AssignedKeyword.objects.create(keyword=keyword, content_object=post)
            # Written on its day: the sitemap's lastmod is the post's last change.
            BlogPost.objects.filter(pk=post.pk).update(created=published, updated=published)
            posts[path.stem] = post
        for comment in json.loads((src / "comments.json").read_text(encoding="utf-8")):
            ThreadedComment.objects.create(
                content_object=posts[comment["post"]],
                site=site,
                user_name=comment["name"],
                user_email=comment["email"],
                comment=comment["text"],
                submit_date=when(comment["date"]),
                ip_address="127.0.0.1",
                is_public=True,
            )
'''

COMMENTS = [
    {
        "post": "python-generators-tour",
        "name": "Bruno Costa",
        "email": "bruno@example.org",
        "date": "2023-01-16 08:12:00",
        "text": "The pipeline example saved me an afternoon. Does it work with async generators too?",
    },
    {
        "post": "dockerfile-tips",
        "name": "Chen Wei",
        "email": "chen@example.org",
        "date": "2024-03-02 17:40:00",
        "text": "Multi-stage builds took our image from 900 MB to 40 MB.",
    },
]


# --- the sources ------------------------------------------------------------------------------


def _header(meta: Mapping[str, object]) -> str:
    return "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in meta.items())


def mezzanine() -> None:
    """tests/fixtures/heldout/mezzanine/src: the settings, the import command, the content."""
    from corpus import ABOUT, published
    from write_sources import _fresh, _write

    src = _fresh("mezzanine")
    _write(src / "local_settings.py", LOCAL_SETTINGS)
    app = src / "smalllessons"
    for init in ("__init__.py", "management/__init__.py", "management/commands/__init__.py"):
        _write(app / init, "")
    _write(app / "management" / "commands" / "import_lessons.py", IMPORT_COMMAND)
    for p in published():
        meta = {
            "title": p.title,
            "publish_date": f"{p.date} {HOUR}",
            "categories": list(dict.fromkeys((p.category, *p.tags))),
            "keywords": list(p.tags),
        }
        _write(src / "posts" / f"{p.slug}.md", _header(meta) + "\n" + p.body.strip("\n") + "\n")
    _write(src / "pages" / "about.md", _header({"title": ABOUT.title, "slug": "about"}) + "\n" + ABOUT.body)
    _write(src / "comments.json", json.dumps(COMMENTS, ensure_ascii=False, indent=1) + "\n")


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


HOME_STATIC = '    path("", TemplateView.as_view(template_name="index.html"), name="home"),\n'
HOME_BLOG = '    # path("", blog_views.blog_post_list, name="home"),\n'
IMPORT_BLOG = "# from mezzanine.blog import views as blog_views\n"


def project(src: Path, work: Path) -> Path:
    """``mezzanine-project lessons``, the sources copied in, the blog as the home page."""
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "mezzanine-project"), PROJECT], cwd=work, check=True)
    root = work / PROJECT
    shutil.copy(src / "local_settings.py", root / PROJECT / "local_settings.py")
    shutil.copytree(src / "smalllessons", root / "smalllessons")
    urls = root / PROJECT / "urls.py"
    text = urls.read_text(encoding="utf-8")
    for old, new in (
        (HOME_STATIC, "    # " + HOME_STATIC.lstrip()),
        (HOME_BLOG, HOME_BLOG.replace("# ", "", 1)),
        (IMPORT_BLOG, IMPORT_BLOG[2:]),
    ):
        if old not in text:
            raise SystemExit(f"src_mezzanine: urls.py has no {old.strip()!r}")
        text = text.replace(old, new)
    urls.write_text(text, encoding="utf-8")
    return root


#: Nothing but text: no scripts, images or fonts; not the admin, the forms' endpoints (comments,
#: ratings), search, Mezzanine's editor links or the short-URL and i18n views. POSIX regex.
REJECT = (
    r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$"
    r"|/admin/|/comment/|/rating/|/search/|/i18n|/asset_proxy/|/displayable_links\.js"
)


def mirror(origin: str, dest: Path, slugs: list[str]) -> None:
    starts = [f"{origin}/", f"{origin}/sitemap.xml", f"{origin}/feeds/rss/", f"{origin}/feeds/atom/"]
    starts += [f"{origin}/{s}/" for s in slugs]
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
        check=False,  # 8: some answer was an error (the missing robots.txt, a favicon)
    )


def rewrite(origin: str, dest: Path) -> None:
    """The loopback origin, in every spelling, becomes the site's own host."""
    port = origin.rsplit(":", 1)[1]
    host = HOST.split("://", 1)[1]
    pairs = [
        (origin, HOST),
        (origin.replace("/", "\\/"), HOST.replace("/", "\\/")),
        ("http%3A%2F%2F127.0.0.1%3A" + port, "https%3A%2F%2F" + host),
        ("http%3A//127.0.0.1%3A" + port, "https%3A//" + host),
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
        raise SystemExit(f"src_mezzanine: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the feeds (``feeds/rss/index.html``) are XML,
    a list's later pages (``index.html?page=2``) HTML."""
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        head = f.read_bytes()[:200].lstrip()
        if "/feeds/" in rel and f.name == "index.html":
            kind = "application/atom+xml" if b"<feed" in head else "application/rss+xml"
            types[rel[: -len("index.html")]] = kind + "; charset=utf-8"
        elif f.name.startswith("index.html?"):
            types[rel.replace("/index.html?", "/?")] = "text/html; charset=utf-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="mezzanine-build-"))
    root = project(src, work)
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TZ": "UTC", "PYTHONDONTWRITEBYTECODE": "1"}
    clock = ["faketime", "-f", CLOCK]
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [*clock, *manage, "createdb", "--noinput", "--nodata"],
        cwd=root,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    subprocess.run(
        [*clock, *manage, "import_lessons", str(src.resolve()), origin], cwd=root, env=env, check=True
    )
    log = work / "server.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [*clock, *manage, "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"],
            cwd=root,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # faketime runs the server as its child: both are stopped
        )
    try:
        for _ in range(60):
            try:
                with urllib.request.urlopen(f"{origin}/", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        dest = work / "mirror"
        mirror(origin, dest, sorted(p.stem for p in (src / "posts").glob("*.md")))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the session faketime leads: it and the server
        proc.wait(timeout=30)
    rewrite(origin, dest)
    served.write_text(
        json.dumps({"content_types": content_types(dest)}, ensure_ascii=False, indent=1) + "\n",
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
