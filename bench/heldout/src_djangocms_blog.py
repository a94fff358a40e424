"""djangocms-blog 2.0.10 on django CMS 3.11.10 (its default templates): sources, build, mirror.

    python bench/heldout/write_sources.py djangocms-blog          # tests/fixtures/heldout/djangocms-blog/src
    $GENV_DJANGOCMS_BLOG/bin/python bench/heldout/src_djangocms_blog.py SRC OUT SERVED   # build.sh's branch

django CMS is a Django application serving pages from its database; djangocms-blog is its blog
app, hooked to a CMS page (an "apphook"). djangocms-blog 2.0.10, the newest on PyPI, requires
django CMS < 4 (its django CMS 4 port is not released): django CMS 3.11.10, the last 3.x, on
Django 4.2 LTS. The sources are what the installation docs of both have a project add over
``django-admin startproject lessons``: ``lessons/settings.py`` (the apps djangocms-blog lists:
filer, easy_thumbnails, aldryn_apphooks_config, parler, taggit, taggit_autosuggest, meta,
sortedm2m; django CMS' apps, middleware and context processors; djangocms-text-ckeditor for the
text plugin; ``META_SITE_PROTOCOL = "https"`` and ``META_USE_SITES = True`` as djangocms-blog
asks; one language, English; SQLite; ``DEBUG = False``), ``lessons/urls.py`` (the sitemap of CMS
pages and blog posts, taggit_autosuggest, django CMS' catch-all), ``templates/base.html`` (the
project's one CMS template, as django CMS' tutorial writes it: the menu, the ``content``
placeholder, a ``sidebar`` static placeholder; the ``meta`` and ``canonical_url`` blocks
djangocms-blog's templates fill) and the ``smalllessons`` app, whose management command
``import_lessons`` writes the content as an editor does in the admin: the pages Home (the blog's
"latest articles" plugin), Blog (the apphook, ``/blog/``) and About (a text plugin), the blog's
config (5 posts a page), the sidebar's archive, categories and tags plugins, the user Ana Lima
and the posts (``posts/<slug>.md``: a ``key: <JSON>`` header over the Markdown: title, publish
date, category, tags), each with its first sentence as the abstract and its Markdown, rendered by
Python-Markdown (``fenced_code``, ``tables``, ``toc``: ``<pre><code class="language-…">``), as a
text plugin in the post's ``content`` placeholder (``use_placeholder``, the default), cleaned by
the plugin's html5lib sanitizer on save.

Pages: ``/`` (Home), ``/blog/`` (the list, 5 a page: ``/blog/?page=N``),
``/blog/YYYY/MM/DD/<slug>/`` (a post: the title in an ``<h2>``, "by Ana Lima", the date as Django
writes it, ``Jan. 15, 2023``, the category and tags links, the text), ``/blog/category/<slug>/``,
``/blog/tag/<slug>/``, ``/blog/author/ana/``, ``/blog/YYYY/`` and ``/blog/YYYY/MM/`` (the archive
plugin's links), the feeds ``/blog/feed/`` and ``/blog/tag/<slug>/feed/``, ``/about/``,
``/sitemap.xml``.

The build (:func:`build`): ``django-admin startproject lessons`` in a scratch folder, the sources
copied in, ``migrate``, ``import_lessons``, ``runserver --insecure --noreload`` on a free loopback
port (the three under ``faketime`` from 2024-06-15 12:00 UTC), ``wget --mirror`` from ``/``, ``/sitemap.xml``, the feeds and every post, then the origin
rewritten to ``https://djangocms-blog.heldout.example``. Not mirrored: scripts, images, fonts, the
admin, the autosuggest endpoint. ``served.json`` names the content type of what the files' names
do not say (the feeds, saved as ``feed/index.html``; a list's later pages, ``index.html?page=2``).
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

NAME = "djangocms-blog"
HOST = "https://djangocms-blog.heldout.example"
PROJECT = "lessons"
#: The clock of the import and the server (faketime): the CMS pages' dates (the sitemap's
#: ``lastmod`` of Home, Blog and About) are this day, whatever the day of the build.
CLOCK = "@2024-06-15 12:00:00"
#: The hour of every post's publish date (UTC).
HOUR = "09:30:00"

SETTINGS = '''"""Small Lessons: django CMS 3.11 with djangocms-blog, as their installation docs set it up."""

from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = "heldout-djangocms-blog-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
SITE_ID = 1

INSTALLED_APPS = [
    "djangocms_admin_style",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.sitemaps",
    "cms",
    "menus",
    "treebeard",
    "sekizai",
    "djangocms_text_ckeditor",
    # djangocms-blog and what it needs
    "filer",
    "easy_thumbnails",
    "aldryn_apphooks_config",
    "parler",
    "taggit",
    "taggit_autosuggest",
    "meta",
    "sortedm2m",
    "djangocms_blog",
    "smalllessons",
]

MIDDLEWARE = [
    "cms.middleware.utils.ApphookReloadMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "cms.middleware.user.CurrentUserMiddleware",
    "cms.middleware.page.CurrentPageMiddleware",
    "cms.middleware.toolbar.ToolbarMiddleware",
    "cms.middleware.language.LanguageCookieMiddleware",
]

ROOT_URLCONF = "lessons.urls"
WSGI_APPLICATION = "lessons.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "sekizai.context_processors.sekizai",
                "cms.context_processors.cms_settings",
            ],
        },
    },
]

DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "lessons.db"}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "static"
MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"

CMS_TEMPLATES = [("base.html", "Base")]

PARLER_LANGUAGES = {
    1: ({"code": "en"},),
    "default": {"fallbacks": ["en"], "hide_untranslated": False},
}

THUMBNAIL_PROCESSORS = (
    "easy_thumbnails.processors.colorspace",
    "easy_thumbnails.processors.autocrop",
    "filer.thumbnail_processors.scale_and_crop_with_subject_location",
    "easy_thumbnails.processors.filters",
)

META_SITE_PROTOCOL = "https"
META_USE_SITES = True

# The pages are the import command's: no automatic Home and Blog pages.
BLOG_AUTO_SETUP = False
'''

URLS = """from cms.sitemaps import CMSSitemap
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from djangocms_blog.sitemaps import BlogSitemap

urlpatterns = [
    path("admin/", admin.site.urls),
    path("sitemap.xml", sitemap, {"sitemaps": {"cmspages": CMSSitemap, "blog": BlogSitemap}}),
    path("taggit_autosuggest/", include("taggit_autosuggest.urls")),
    path("", include("cms.urls")),
]
"""

BASE_TEMPLATE = """{% load cms_tags menu_tags sekizai_tags static %}<!DOCTYPE html>
<html lang="{{ LANGUAGE_CODE }}">
<head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{% block title %}{% page_attribute "page_title" %}{% endblock title %} - Small Lessons</title>
    {% block meta %}{% endblock meta %}
    {% block canonical_url %}{% endblock canonical_url %}
    <link rel="alternate" type="application/rss+xml" title="Small Lessons" href="/blog/feed/">
    {% render_block "css" %}
</head>
<body>
    {% cms_toolbar %}
    <header class="site-header">
        <a class="site-title" href="/">Small Lessons</a>
        <ul class="nav">
            {% show_menu 0 100 100 100 %}
        </ul>
    </header>
    <div class="content">
        {% block content %}{% placeholder "content" %}{% endblock content %}
    </div>
    <aside class="sidebar">
        {% static_placeholder "sidebar" %}
    </aside>
    <footer class="site-footer">
        <p>Small Lessons, by Ana Lima.</p>
    </footer>
    {% render_block "js" %}
</body>
</html>
"""

IMPORT_COMMAND = '''"""manage.py import_lessons SRC DOMAIN: the site's pages and posts, written as an editor writes them."""

import json
from datetime import datetime, timezone
from pathlib import Path

import markdown
from cms.api import add_plugin, create_page
from cms.models import StaticPlaceholder
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core.management.base import BaseCommand
from taggit.models import Tag

from djangocms_blog.cms_appconfig import BlogConfig
from djangocms_blog.models import BlogCategory, Post

EXTENSIONS = ["fenced_code", "tables", "toc"]
TEMPLATE = "base.html"
#: The slugs an editor gives, in taggit's admin, the tags whose own slug is not ASCII: taggit
#: slugifies "日本語" to "日本語", which djangocms-blog's tag URL (``<slug:tag>``) cannot hold (the
#: page listing the tag fails to render: NoReverseMatch).
TAG_SLUGS = {"日本語": "nihongo", "中文": "zhongwen"}


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


def html(body):
    return markdown.markdown(body, extensions=EXTENSIONS)


class Command(BaseCommand):
    help = "Write the pages, the blog's config and plugins, and the posts of the sources."

    def add_arguments(self, parser):
        parser.add_argument("src")
        parser.add_argument("domain")

    def handle(self, src, domain, **options):
        src = Path(src)
        site = Site.objects.get()
        site.domain = domain
        site.name = "Small Lessons"
        site.save()
        user = get_user_model().objects.create_user(
            "ana", "ana@djangocms-blog.heldout.example", None, first_name="Ana", last_name="Lima"
        )
        config = BlogConfig.objects.create(namespace="Blog", app_title="Blog", object_name="Article")
        config.app_data.config.paginate_by = 5
        config.save()

        home = create_page("Home", TEMPLATE, "en", in_navigation=True, published=True)
        home.set_as_homepage()
        add_plugin(home.placeholders.get(slot="content"), "BlogLatestEntriesPlugin", "en",
                   app_config=config, latest_posts=5)
        home.publish("en")
        blog = create_page("Blog", TEMPLATE, "en", apphook="BlogApp", apphook_namespace="Blog",
                           in_navigation=True, published=True)
        blog.publish("en")
        meta, body = read(src / "pages" / "about.md")
        about = create_page(meta["title"], TEMPLATE, "en", slug=meta["slug"], in_navigation=True,
                            published=True)
        add_plugin(about.placeholders.get(slot="content"), "TextPlugin", "en", body=html(body))
        about.publish("en")

        sidebar, _ = StaticPlaceholder.objects.get_or_create(code="sidebar")
        for placeholder in (sidebar.draft, sidebar.public):
            for plugin in ("BlogArchivePlugin", "BlogCategoryPlugin", "BlogTagsPlugin"):
                add_plugin(placeholder, plugin, "en", app_config=config)

        categories = {}
        for path in sorted((src / "posts").glob("*.md")):
            meta, body = read(path)
            published = when(meta["date_published"])
            name = meta["category"]
            if name not in categories:
                category = BlogCategory(app_config=config)
                category.set_current_language("en")
                category.name = name
                category.save()
                categories[name] = category
            post = Post(app_config=config, author=user, date_published=published, publish=True)
            post.set_current_language("en")
            post.title = meta["title"]
            post.slug = path.stem
            post.abstract = html(meta["abstract"])
            post.save()
            post.sites.add(site)
            post.categories.add(categories[name])
            tags = []
            for name in meta["tags"]:
                tag = Tag.objects.filter(name=name).first()
                if tag is None:
                    tag = Tag.objects.create(name=name, slug=TAG_SLUGS.get(name, ""))
                tags.append(tag)
            post.tags.add(*tags)
            add_plugin(post.content, "TextPlugin", "en", body=html(body))
            # Written on its day: the feed's and the sitemap's dates are the post's last change.
            Post.objects.filter(pk=post.pk).update(date_created=published, date_modified=published)
'''


# --- the sources ------------------------------------------------------------------------------


def _header(meta: Mapping[str, object]) -> str:
    return "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in meta.items())


def _first_sentence(body: str) -> str:
    """The first sentence of the post's first paragraph, as its abstract."""
    para = body.strip().split("\n\n", 1)[0].replace("\n", " ")
    m = re.match(r"(.+?(?:[.!?:](?=\s|$)|[。！？]))", para)
    return (m.group(1) if m else para).strip()


def djangocms_blog() -> None:
    """tests/fixtures/heldout/djangocms-blog/src: the settings, urls, template, import command, content."""
    from corpus import ABOUT, published
    from write_sources import _fresh, _write

    src = _fresh(NAME)
    _write(src / PROJECT / "settings.py", SETTINGS)
    _write(src / PROJECT / "urls.py", URLS)
    _write(src / "templates" / "base.html", BASE_TEMPLATE)
    app = src / "smalllessons"
    for init in ("__init__.py", "management/__init__.py", "management/commands/__init__.py"):
        _write(app / init, "")
    _write(app / "management" / "commands" / "import_lessons.py", IMPORT_COMMAND)
    for p in published():
        meta = {
            "title": p.title,
            "date_published": f"{p.date} {HOUR}",
            "category": p.category,
            "tags": list(p.tags),
            "abstract": _first_sentence(p.body),
        }
        _write(src / "posts" / f"{p.slug}.md", _header(meta) + "\n" + p.body.strip("\n") + "\n")
    _write(src / "pages" / "about.md", _header({"title": ABOUT.title, "slug": "about"}) + "\n" + ABOUT.body)


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def project(src: Path, work: Path) -> Path:
    """``django-admin startproject lessons``, the sources copied over it."""
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / "django-admin"), "startproject", PROJECT], cwd=work, check=True)
    root = work / PROJECT
    for name in ("settings.py", "urls.py"):
        shutil.copy(src / PROJECT / name, root / PROJECT / name)
    shutil.copytree(src / "templates", root / "templates")
    shutil.copytree(src / "smalllessons", root / "smalllessons")
    return root


#: Nothing but text: no scripts, images or fonts; not the admin, the autosuggest endpoint, django
#: CMS' toolbar and structure URLs. POSIX regex.
REJECT = (
    r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$"
    r"|/admin/|/taggit_autosuggest/|[?&]edit|[?&]structure|[?&]toolbar_"
)


def mirror(origin: str, dest: Path, paths: list[str]) -> None:
    starts = [f"{origin}/", f"{origin}/sitemap.xml", f"{origin}/blog/feed/"]
    starts += [origin + p for p in paths]
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
        raise SystemExit(f"src_djangocms_blog: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the feeds (``feed/index.html``) are XML, a
    list's later pages (``index.html?page=2``) HTML."""
    types = {}
    for f in sorted(dest.rglob("*")):
        if not f.is_file():
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        head = f.read_bytes()[:200].lstrip()
        if rel.endswith("/feed/index.html"):
            kind = "application/atom+xml" if b"<feed" in head else "application/rss+xml"
            types[rel[: -len("index.html")]] = kind + "; charset=utf-8"
        elif f.name.startswith("index.html?"):
            types[rel.replace("/index.html?", "/?")] = "text/html; charset=utf-8"
    return types


def post_paths(src: Path) -> list[str]:
    """Each post's URL (the default permalink, ``full_date``: ``/blog/YYYY/MM/DD/<slug>/``)."""
    out = []
    for f in sorted((src / "posts").glob("*.md")):
        head = f.read_text(encoding="utf-8").partition("\n\n")[0]
        meta = {k: json.loads(v) for k, _, v in (line.partition(": ") for line in head.splitlines())}
        y, m, d = meta["date_published"][:10].split("-")
        out.append(f"/blog/{y}/{m}/{d}/{f.stem}/")
    return out


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="djangocms-blog-build-"))
    root = project(src, work)
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    env = {**os.environ, "TZ": "UTC", "PYTHONDONTWRITEBYTECODE": "1"}
    clock = ["faketime", "-f", CLOCK]
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [*clock, *manage, "migrate", "--noinput"], cwd=root, env=env, check=True, stdout=subprocess.DEVNULL
    )
    subprocess.run(
        [*clock, *manage, "import_lessons", str(src.resolve()), f"127.0.0.1:{port}"],
        cwd=root,
        env=env,
        check=True,
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
        mirror(origin, dest, post_paths(src))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the session faketime leads: it and the server
        proc.wait(timeout=30)
    errors = [line for line in log.read_text(encoding="utf-8").splitlines() if '" 500 ' in line]
    if errors:
        raise SystemExit(f"src_djangocms_blog: the server failed: {errors[:5]}")
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
