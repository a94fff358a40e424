"""Wagtail 7.2.1 (PyPI's ``wagtail``, the blog of its tutorial "Your first Wagtail site"): sources, build, mirror.

    python bench/heldout/write_sources.py wagtail          # writes tests/fixtures/heldout/wagtail/src
    python bench/heldout/src_wagtail.py SRC OUT SERVED     # build.sh's wagtail branch (in Wagtail's venv)

Wagtail is a CMS on Django: its pages live in a database and are rendered by the project's
templates when asked for. The sources are what the tutorial's reader writes over the project that
``wagtail start mysite`` lays out (``src/project/``, copied over it at build time): the ``blog``
app of the tutorial (``models.py``: ``BlogIndexPage`` (``intro``), ``BlogPage`` (``date``,
``intro``, ``body`` a ``RichTextField``, ``authors`` a ``ParentalManyToManyField`` to the
``Author`` snippet, ``tags`` through ``BlogPageTag``, django-taggit's ``TaggedItemBase``, the
gallery images' ``Orderable``), ``BlogTagIndexPage``; its three templates as the tutorial writes
them), the ``home`` app's ``HomePage`` as the tutorial extends it (hero text, call-to-action link,
``body``) with its template, an ``AboutPage`` beside it (a title and a rich-text body: the tutorial
has no page type for it), ``mysite/urls.py`` (the starter's, with Wagtail's sitemap view at
``/sitemap.xml``, ``wagtail.contrib.sitemaps``), ``mysite/settings/heldout.py`` (over the starter's
``base.py``: DEBUG off, ``ALLOWED_HOSTS = ["127.0.0.1"]``, the apps added, the site's name) and a
management command, ``blog/management/commands/load_lessons.py``, that creates the pages from
``posts.json`` (each post's slug, title, date, intro, tags and Markdown body; About; the home page's
text) as an editor would in the admin: the body rendered from the Markdown with Python-Markdown
(``fenced_code``, ``codehilite`` without Pygments, so that a fence's language stays as
``<pre><code class="language-…">``, ``tables``, ``toc`` for the heading ids the CSV post's
contents link), each page's one revision published and dated to its post (09:30 UTC), author Ana
Lima. The rich text is stored as given: the ``richtext`` filter only expands its ``<a
linktype="page">`` links (the admin's editor would have dropped the ``<pre>`` blocks, which
Draftail's default features lack; the load bypasses it, as an import does).

Pages: ``/`` (the home page: hero text, a link to the blog, the body with links to About and the
tags page), ``/blog/`` (the index: every post, newest first, its title, intro and full body, as the
tutorial's template has it), ``/blog/<slug>/`` (each post: ``<h1>`` title, ``<p class="meta">`` the
date as Django writes it, "Jan. 15, 2023", "Posted by:" and the author, the intro, the body, its tags
as buttons linking ``/tags/?tag=<name>``, "Return to blog"), ``/tags/`` (``BlogTagIndexPage``: the
posts of the tag in the query, each with "Revised:" and its revision's time; bare, "No pages found
with that tag."), ``/about/``. The draft is not loaded. No feed: neither the tutorial nor Wagtail's
docs give one.

The build (:func:`build`, run by the venv's Python): ``wagtail start mysite`` in a scratch
folder, ``src/project`` copied over it, ``makemigrations`` and ``migrate`` on SQLite, the Site
record given the site's host (``wagtail.heldout.example``, port 443: the sitemap's ``<loc>`` are
full URLs on it; a request to the loopback address falls back to it, the default site, and the
pages' links are paths), ``load_lessons``; then ``runserver --insecure --noreload`` on a free
loopback port (``--insecure``: Django's static files with DEBUG off) and ``wget --mirror`` (no
``-E``: every page is a folder's ``index.html``; ``/tags/?tag=python`` is saved as
``tags/index.html?tag=python``) from ``/``, ``/sitemap.xml`` and every URL it lists. Not mirrored:
scripts, images, the admin. ``served.json`` names the content type of the ``?tag=`` pages (their
file names end in the query).
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

HOST = "https://wagtail.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"
BIN = Path(sys.executable).parent

# --- the project files over ``wagtail start mysite`` --------------------------------------------

BLOG_MODELS = """from django import forms
from django.db import models

from modelcluster.fields import ParentalKey, ParentalManyToManyField
from modelcluster.contrib.taggit import ClusterTaggableManager
from taggit.models import TaggedItemBase

from wagtail.models import Page, Orderable
from wagtail.fields import RichTextField
from wagtail.admin.panels import FieldPanel, InlinePanel, MultiFieldPanel
from wagtail.search import index
from wagtail.snippets.models import register_snippet


class BlogIndexPage(Page):
    intro = RichTextField(blank=True)

    def get_context(self, request):
        # Update context to include only published posts, ordered by reverse-chron
        context = super().get_context(request)
        blogpages = self.get_children().live().order_by("-first_published_at")
        context["blogpages"] = blogpages
        return context

    content_panels = Page.content_panels + ["intro"]


class BlogPageTag(TaggedItemBase):
    content_object = ParentalKey(
        "BlogPage",
        related_name="tagged_items",
        on_delete=models.CASCADE
    )


class BlogPage(Page):
    date = models.DateField("Post date")
    intro = models.CharField(max_length=250)
    body = RichTextField(blank=True)
    authors = ParentalManyToManyField("blog.Author", blank=True)
    tags = ClusterTaggableManager(through=BlogPageTag, blank=True)

    def main_image(self):
        gallery_item = self.gallery_images.first()
        if gallery_item:
            return gallery_item.image
        else:
            return None

    search_fields = Page.search_fields + [
        index.SearchField("intro"),
        index.SearchField("body"),
    ]

    content_panels = Page.content_panels + [
        MultiFieldPanel(
            [
                "date",
                FieldPanel("authors", widget=forms.CheckboxSelectMultiple),
                "tags",
            ],
            heading="Blog information",
        ),
        "intro",
        "body",
        "gallery_images",
    ]


class BlogPageGalleryImage(Orderable):
    page = ParentalKey(BlogPage, on_delete=models.CASCADE, related_name="gallery_images")
    image = models.ForeignKey(
        "wagtailimages.Image", on_delete=models.CASCADE, related_name="+"
    )
    caption = models.CharField(blank=True, max_length=250)

    panels = ["image", "caption"]


@register_snippet
class Author(models.Model):
    name = models.CharField(max_length=255)
    author_image = models.ForeignKey(
        "wagtailimages.Image", null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+"
    )

    panels = ["name", "author_image"]

    def __str__(self):
        return self.name

    class Meta:
        verbose_name_plural = "Authors"


class BlogTagIndexPage(Page):

    def get_context(self, request):

        # Filter by tag
        tag = request.GET.get("tag")
        blogpages = BlogPage.objects.filter(tags__name=tag)

        # Update template context
        context = super().get_context(request)
        context["blogpages"] = blogpages
        return context
"""

BLOG_INDEX_TEMPLATE = """{% extends "base.html" %}

{% load wagtailcore_tags wagtailimages_tags %}

{% block body_class %}template-blogindexpage{% endblock %}

{% block content %}
    <h1>{{ page.title }}</h1>

    <div class="intro">{{ page.intro|richtext }}</div>

    {% for post in blogpages %}
        {% with post=post.specific %}
            <h2><a href="{% pageurl post %}">{{ post.title }}</a></h2>

            {% with post.main_image as main_image %}
                {% if main_image %}{% image main_image fill-160x100 %}{% endif %}
            {% endwith %}

            <p>{{ post.intro }}</p>
            {{ post.body|richtext }}
        {% endwith %}
    {% endfor %}

{% endblock %}
"""

BLOG_PAGE_TEMPLATE = """{% extends "base.html" %}

{% load wagtailcore_tags wagtailimages_tags %}

{% block body_class %}template-blogpage{% endblock %}

{% block content %}
    <h1>{{ page.title }}</h1>
    <p class="meta">{{ page.date }}</p>

    {% with authors=page.authors.all %}
        {% if authors %}
            <h3>Posted by:</h3>
            <ul>
                {% for author in authors %}
                    <li style="display: inline">
                        {% image author.author_image fill-40x60 style="vertical-align: middle" %}
                        {{ author.name }}
                    </li>
                {% endfor %}
            </ul>
        {% endif %}
    {% endwith %}

    <div class="intro">{{ page.intro }}</div>

    {{ page.body|richtext }}

    {% for item in page.gallery_images.all %}
        <div style="float: inline-start; margin: 10px">
            {% image item.image fill-320x240 %}
            <p>{{ item.caption }}</p>
        </div>
    {% endfor %}

    {% with tags=page.tags.all %}
        {% if tags %}
            <div class="tags">
                <h3>Tags</h3>
                {% for tag in tags %}
                    <a href="{% slugurl 'tags' %}?tag={{ tag }}"><button type="button">{{ tag }}</button></a>
                {% endfor %}
            </div>
        {% endif %}
    {% endwith %}

    <p><a href="{{ page.get_parent.url }}">Return to blog</a></p>

{% endblock %}
"""

BLOG_TAG_INDEX_TEMPLATE = """{% extends "base.html" %}
{% load wagtailcore_tags %}

{% block content %}

    {% if request.GET.tag %}
        <h4>Showing pages tagged "{{ request.GET.tag }}"</h4>
    {% endif %}

    {% for blogpage in blogpages %}

          <p>
              <strong><a href="{% pageurl blogpage %}">{{ blogpage.title }}</a></strong><br />
              <small>Revised: {{ blogpage.latest_revision_created_at }}</small><br />
          </p>

    {% empty %}
        No pages found with that tag.
    {% endfor %}

{% endblock %}
"""

HOME_MODELS = """from django.db import models

from wagtail.models import Page
from wagtail.fields import RichTextField
from wagtail.admin.panels import FieldPanel, MultiFieldPanel


class HomePage(Page):
    image = models.ForeignKey(
        "wagtailimages.Image",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Homepage image",
    )
    hero_text = models.CharField(
        blank=True,
        max_length=255, help_text="Write an introduction for the site"
    )
    hero_cta = models.CharField(
        blank=True,
        verbose_name="Hero CTA",
        max_length=255,
        help_text="Text to display on Call to Action",
    )
    hero_cta_link = models.ForeignKey(
        "wagtailcore.Page",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name="Hero CTA link",
        help_text="Choose a page to link to for the Call to Action",
    )

    body = RichTextField(blank=True)

    content_panels = Page.content_panels + [
        MultiFieldPanel(
            [
                "image",
                "hero_text",
                "hero_cta",
                "hero_cta_link",
            ],
            heading="Hero section",
        ),
        "body",
    ]


class AboutPage(Page):
    body = RichTextField(blank=True)

    content_panels = Page.content_panels + ["body"]
"""

HOME_TEMPLATE = """{% extends "base.html" %}
{% load wagtailcore_tags wagtailimages_tags %}

{% block body_class %}template-homepage{% endblock %}

{% block content %}
    <div>
        <h1>{{ page.title }}</h1>
        {% if page.image %}
            {% image page.image fill-480x320 %}
        {% endif %}
        <p>{{ page.hero_text }}</p>
        {% if page.hero_cta_link %}
            <a href="{% pageurl page.hero_cta_link %}">
                {% firstof page.hero_cta page.hero_cta_link.title %}
            </a>
        {% endif %}
    </div>

    {{ page.body|richtext }}

{% endblock content %}
"""

ABOUT_TEMPLATE = """{% extends "base.html" %}
{% load wagtailcore_tags %}

{% block body_class %}template-aboutpage{% endblock %}

{% block content %}
    <h1>{{ page.title }}</h1>

    {{ page.body|richtext }}
{% endblock content %}
"""

URLS = """from django.conf import settings
from django.urls import include, path
from django.contrib import admin

from wagtail.admin import urls as wagtailadmin_urls
from wagtail import urls as wagtail_urls
from wagtail.contrib.sitemaps.views import sitemap
from wagtail.documents import urls as wagtaildocs_urls

from search import views as search_views

urlpatterns = [
    path("django-admin/", admin.site.urls),
    path("admin/", include(wagtailadmin_urls)),
    path("documents/", include(wagtaildocs_urls)),
    path("search/", search_views.search, name="search"),
    path("sitemap.xml", sitemap),
]


if settings.DEBUG:
    from django.conf.urls.static import static
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    # Serve static and media files from development server
    urlpatterns += staticfiles_urlpatterns()
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

urlpatterns = urlpatterns + [
    # For anything not caught by a more specific rule above, hand over to
    # Wagtail's page serving mechanism. This should be the last pattern in
    # the list:
    path("", include(wagtail_urls)),
]
"""

SETTINGS = '''"""The held-out build's settings: the starter's base.py, served as production is (DEBUG off)."""

from .base import *  # noqa: F401,F403

DEBUG = False
SECRET_KEY = "heldout-build-only-not-a-secret"
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = INSTALLED_APPS + ["blog", "wagtail.contrib.sitemaps", "django.contrib.sitemaps"]  # noqa: F405
WAGTAIL_SITE_NAME = "Small Lessons"
WAGTAILADMIN_BASE_URL = "https://wagtail.heldout.example"
TIME_ZONE = "UTC"
'''

LOAD_COMMAND = '''"""Create the blog's pages from posts.json, as an editor would in the admin, dated to each post."""

import json
from datetime import datetime, timezone

import markdown
from django.core.management.base import BaseCommand
from wagtail.models import Page, Revision, Site

from blog.models import Author, BlogIndexPage, BlogPage, BlogTagIndexPage
from home.models import AboutPage, HomePage


def html(text):
    return markdown.markdown(
        text,
        extensions=["fenced_code", "codehilite", "tables", "toc"],
        extension_configs={"codehilite": {"use_pygments": False}},
    )


def moment(day):
    return datetime.strptime(day + " 09:30", "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc)


def publish(page, day):
    """Publish the page's one revision and date it, its revision and its publication to ``day``."""
    revision = page.save_revision()
    revision.publish()
    when = moment(day)
    Revision.objects.filter(pk=revision.pk).update(created_at=when)
    Page.objects.filter(pk=page.pk).update(
        first_published_at=when, last_published_at=when, latest_revision_created_at=when
    )


class Command(BaseCommand):
    help = "Load the Small Lessons posts (posts.json) as blog pages."

    def add_arguments(self, parser):
        parser.add_argument("posts")
        parser.add_argument("--host", required=True)

    def handle(self, *args, **options):
        with open(options["posts"], encoding="utf-8") as f:
            data = json.load(f)
        site = Site.objects.get(is_default_site=True)
        site.hostname = options["host"]
        site.port = 443
        site.site_name = data["site_name"]
        site.save()
        home = site.root_page.specific
        author = Author.objects.create(name=data["author"])
        blog = BlogIndexPage(title="Blog", slug="blog", intro=html(data["blog_intro"]))
        home.add_child(instance=blog)
        publish(blog, data["home"]["date"])
        tags_page = BlogTagIndexPage(title="Tags", slug="tags")
        home.add_child(instance=tags_page)
        publish(tags_page, data["home"]["date"])
        about = AboutPage(title=data["about"]["title"], slug="about", body=html(data["about"]["body"]))
        home.add_child(instance=about)
        publish(about, data["about"]["date"])
        for post in data["posts"]:
            page = BlogPage(
                title=post["title"],
                slug=post["slug"],
                date=post["date"],
                intro=post["intro"],
                body=html(post["body"]),
            )
            blog.add_child(instance=page)
            page.tags.add(*post["tags"])
            page.authors.add(author)
            page.save()
            publish(page, post["date"])
            self.stdout.write(f"{page.url_path} {page.title}")
        home = HomePage.objects.get(pk=home.pk)
        home.title = data["home"]["title"]
        home.hero_text = data["home"]["hero_text"]
        home.hero_cta = data["home"]["hero_cta"]
        home.hero_cta_link = blog
        body = html(data["home"]["body"])
        body = body.replace('href="blog"', f'linktype="page" id="{blog.pk}"')
        body = body.replace('href="about"', f'linktype="page" id="{about.pk}"')
        body = body.replace('href="tags"', f'linktype="page" id="{tags_page.pk}"')
        home.body = body
        home.save()
        publish(home, data["home"]["date"])
'''

HOME_BODY = """Short programming lessons, one topic a post: Python, Go, Rust, shells, databases and the
tools around them. Every post is in the [blog](blog); [About](about) says what this site is, and
[Tags](tags) finds the posts of a tag (`?tag=python`).
"""


def intro(post: Post) -> str:
    """The post's intro (``BlogPage.intro``, a ``CharField`` of 250): its first paragraph's first
    sentence, the Markdown's marks taken off, as an editor would paste it."""
    for block in post.body.split("\n\n"):
        block = block.strip()
        if not block or block[0] in "#`|>-*" or block[0].isdigit():
            continue
        text = " ".join(block.split())
        text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
        text = re.sub(r"[`*]", "", text).replace("\b", "")
        sentence = re.split(r"(?<=[.!?。])\s", text, maxsplit=1)[0]
        return sentence[:250]
    return post.title


def wagtail() -> None:
    """tests/fixtures/heldout/wagtail/src: the project files over ``wagtail start mysite`` and the
    posts the management command loads."""
    from write_sources import _fresh, _write

    src = _fresh("wagtail")
    project = src / "project"
    files = {
        "blog/__init__.py": "",
        "blog/apps.py": (
            "from django.apps import AppConfig\n\n\nclass BlogConfig(AppConfig):\n"
            '    default_auto_field = "django.db.models.BigAutoField"\n    name = "blog"\n'
        ),
        "blog/migrations/__init__.py": "",
        "blog/models.py": BLOG_MODELS,
        "blog/templates/blog/blog_index_page.html": BLOG_INDEX_TEMPLATE,
        "blog/templates/blog/blog_page.html": BLOG_PAGE_TEMPLATE,
        "blog/templates/blog/blog_tag_index_page.html": BLOG_TAG_INDEX_TEMPLATE,
        "blog/management/__init__.py": "",
        "blog/management/commands/__init__.py": "",
        "blog/management/commands/load_lessons.py": LOAD_COMMAND,
        "home/models.py": HOME_MODELS,
        "home/templates/home/home_page.html": HOME_TEMPLATE,
        "home/templates/home/about_page.html": ABOUT_TEMPLATE,
        "mysite/urls.py": URLS,
        "mysite/settings/heldout.py": SETTINGS,
    }
    for name, text in files.items():
        _write(project / name, text)
    posts = published()
    data = {
        "site_name": SITENAME,
        "author": AUTHOR,
        "blog_intro": "Short programming lessons, newest first.",
        "home": {
            "title": "Home",
            "date": min(p.date for p in posts),
            "hero_text": "A notebook of small programming lessons.",
            "hero_cta": "Read the blog",
            "body": HOME_BODY,
        },
        "about": {"title": ABOUT.title, "date": ABOUT.date, "body": ABOUT.body},
        "posts": [
            {
                "slug": p.slug,
                "title": p.title,
                "date": p.date,
                "intro": intro(p),
                "tags": list(p.tags),
                "body": p.body,
            }
            for p in posts
        ],
    }
    _write(src / "posts.json", json.dumps(data, ensure_ascii=False, indent=1) + "\n")


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _manage(project: Path, *args: str) -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mysite.settings.heldout", "TZ": "UTC"}
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=project, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(
            f"src_wagtail: manage.py {' '.join(args)}: {done.stdout[-3000:]}{done.stderr[-3000:]}"
        )


def install(src: Path, work: Path) -> Path:
    work.mkdir(parents=True)
    subprocess.run([str(BIN / "wagtail"), "start", "mysite", str(work)], check=True, capture_output=True)
    shutil.copytree(src / "project", work, dirs_exist_ok=True)
    _manage(work, "makemigrations", "blog", "home")
    _manage(work, "migrate")
    _manage(work, "load_lessons", str((src / "posts.json").resolve()), "--host", HOST.split("://", 1)[1])
    return work


#: Nothing but text: not scripts or images, not the admin or Django's admin, not the search form.
REJECT = r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$|/(admin|django-admin)/"


def mirror(origin: str, dest: Path) -> None:
    with urllib.request.urlopen(f"{origin}/sitemap.xml") as answer:  # the build's own server
        locs = re.findall(r"<loc>([^<]+)</loc>", answer.read().decode("utf-8"))
    starts = [f"{origin}/", f"{origin}/sitemap.xml"]
    starts += [loc.replace(HOST, origin) for loc in locs]
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
        check=False,  # 8: some answer was a 404 (robots.txt: the starter has none)
    )


def rewrite(origin: str, dest: Path) -> None:
    """The loopback origin becomes the site's host (Wagtail writes paths; the sitemap's full URLs
    are already on the Site's host): checked nonetheless."""
    port = origin.rsplit(":", 1)[1]
    for f in dest.rglob("*"):
        if f.is_file():
            text = f.read_bytes().decode("utf-8")
            f.write_bytes(text.replace(origin, HOST).encode("utf-8"))
    mark = re.compile(rb"127\.0\.0\.1(:|%3A)" + port.encode() + rb"\b")
    left = [str(f) for f in dest.rglob("*") if f.is_file() and mark.search(f.read_bytes())]
    if left:
        raise SystemExit(f"src_wagtail: loopback origin left in {left[:5]}")


def content_types(dest: Path) -> dict[str, str]:
    """What the mirrored files' names do not say: the answer to ``/tags/?tag=…`` (saved as
    ``tags/index.html?tag=…``, served at the path it answered) is HTML."""
    types = {}
    for f in sorted(dest.rglob("index.html?*")):
        rel = "/" + f.relative_to(dest).as_posix()
        types[rel.replace("/index.html?", "/?", 1)] = "text/html; charset=utf-8"
    return types


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="wagtail-build-"))
    project = install(src, work / "mysite")
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    log = work / "runserver.log"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mysite.settings.heldout", "TZ": "UTC"}
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"],
            cwd=project,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
        )
    dest = work / "mirror"
    try:
        for _ in range(60):
            try:
                with urllib.request.urlopen(f"{origin}/", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        mirror(origin, dest)
    finally:
        proc.terminate()
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
