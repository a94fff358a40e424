"""Config of the ``blogs`` spider: the blogs and documentation sites to collect articles from.

``spiders_config/blogs.yaml``::

    sites:
      - name: example-blog
        start_urls: [https://example.org/blog/]
        feeds: [https://example.org/blog/atom.xml]      # optional; discovered anyway
        sitemaps: [https://example.org/sitemap.xml]     # optional; robots.txt is read anyway
        render: false                                   # true: fetch pages through Chromium
        source: blog                                    # or docs

Every key but ``name`` and one of ``start_urls``/``feeds``/``sitemaps`` has a default; unknown keys
are errors. ``-a url=...`` builds one site from a URL with those defaults.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from harvest.config.args import Flag, SpiderArgs, Whole
from harvest.config.base import SpiderConfig
from harvest.util.units import parse_duration

logger = logging.getLogger(__name__)

#: Paths that usually hold one article: dated permalinks and the common blog/docs folders.
#: Each needs something after the folder, so ``/blog/`` itself (an index) is not an article.
DEFAULT_ARTICLE_PATTERNS: tuple[str, ...] = (
    r"/\d{4}/\d{1,2}/(?:\d{1,2}/)?[^/?#]+",
    # Jekyll's /:year/:title/ (and /:categories/:year/:title/): a year, then a slug with a letter.
    r"/\d{4}/[^/?#]*[^\W\d_][^/?#]*/?$",
    r"/blog/[^?#]+",
    r"/posts?/[^?#]+",
    r"/articles?/[^?#]+",
    r"/tutorials?/[^?#]+",
    r"/docs/[^?#]+",
)

#: Pages that list other pages (followed, never stored) and pages that are never content.
DEFAULT_EXCLUDE_PATTERNS: tuple[str, ...] = (
    r"/(?:tags?|categor(?:y|ies)|labels?|authors?|archives?)(?:/|\.html?$|$)",
    r"/page/\d+/?$",
    r"/(?:feed|rss|atom)(?:/|\.xml$|$)",
    # A site search's result page is a search path *with a query*: /search/?q=x, search.html?q=x.
    # A page that only ends in /search/ may be content (docs about search); a search form with
    # little else is recognised as a listing by what it is (harvest.parsers.pagekind).
    r"/search(?:\.html?|\.php)?/?\?",
    r"[?&](?:page|paged|s|q|replytocom|share|sort|filter)=",
    r"/(?:genindex|py-modindex|modindex)\.html?$",
    # Sphinx's reST sources and highlighted module code, WordPress' JSON API: never an article.
    r"/(?:_sources|_modules|wp-json)/",
    r"/(?:login|logout|signin|signup|register|wp-login\.php|wp-admin)(?:/|$)",
)

#: Folders where sites keep their assets (stylesheets, scripts, images, fonts, uploads). A link
#: into one is skipped before fetching unless it names a page (``.html``, ``.htm``, ``.xhtml`` or
#: a folder): a file there is no article (most are skipped by their extension already; this
#: catches the extensionless and unusual ones). A page found there is fetched and judged by what
#: it is like any other: TiddlyWiki's static build writes every page as ``/static/<title>.html``.
ASSET_FOLDERS = re.compile(r"/(?:_static|_images|assets|static|wp-content|wp-includes)/", re.I)
#: A path that names a page (or a folder's index page) rather than a file.
PAGE_PATH = re.compile(r"(?:/|\.x?html?)$", re.I)


def asset_link(url: str) -> bool:
    """Whether ``url`` is a file in one of the site's asset folders, not a page (:data:`ASSET_FOLDERS`)."""
    path = urlsplit(url).path
    return ASSET_FOLDERS.search(path) is not None and PAGE_PATH.search(path) is None


def _compile_all(patterns: list[str], key: str) -> list[str]:
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"{key}: {pattern!r} is not a valid regular expression ({exc})") from None
    return patterns


def _check_url(url: str) -> str:
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ValueError(f"expected an absolute http(s) URL, got {url!r}")
    return url


class SiteConfig(BaseModel):
    """One blog or documentation site."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    name: str = Field(
        min_length=1,
        description="Short unique name; also the folder under data/blogs/ for this site's articles.",
    )
    start_urls: list[str] = Field(default_factory=list, description="Pages to start from (indexes, homes).")
    feeds: list[str] = Field(default_factory=list, description="RSS/Atom feeds (others are discovered).")
    sitemaps: list[str] = Field(
        default_factory=list,
        description="Sitemap URLs; robots.txt Sitemap: lines and /sitemap.xml are tried anyway.",
    )
    allowed_domains: list[str] = Field(
        default_factory=list,
        description="Hosts the crawl may visit (default: the hosts of the URLs above).",
    )
    article_patterns: list[str] = Field(
        default_factory=lambda: list(DEFAULT_ARTICLE_PATTERNS),
        description="Regexes (searched in the URL) of article pages; replaces the defaults when set.",
    )
    exclude_patterns: list[str] = Field(
        default_factory=lambda: list(DEFAULT_EXCLUDE_PATTERNS),
        description="Regexes of pages that are followed but never stored (tags, archives, indexes).",
    )
    max_pages: int | None = Field(
        default=None, ge=1, description="Pages fetched per round at most (default HARVEST_SAFETY_MAX_PAGES)."
    )
    max_depth: int | None = Field(
        default=None, ge=0, description="Links followed from a start page at most (HARVEST_SAFETY_MAX_DEPTH)."
    )
    download_delay: float | None = Field(
        default=None,
        ge=0,
        description="Seconds between two requests to this site, over every process (default "
        "DOWNLOAD_DELAY); robots.txt's Crawl-delay wins when larger.",
    )
    concurrency: int | None = Field(
        default=None,
        ge=1,
        description="Requests to this site at once, over every process "
        "(default CONCURRENT_REQUESTS_PER_DOMAIN).",
    )
    render: bool = Field(default=False, description="Fetch pages through a real browser (JavaScript sites).")
    refresh_interval: float | None = Field(
        default=None, description="Overrides the top-level refresh_interval for this site ('6h', '1d')."
    )
    source: Literal["blog", "docs"] = Field(
        default="blog",
        description="'docs': every in-scope page with content is a document, whatever its URL.",
    )
    article_revisit: float | None = Field(
        default=30 * 86400.0,
        description="Refetch a stored article after this long ('30d'); 'never' keeps the first copy.",
    )

    @field_validator("start_urls", "feeds", "sitemaps", mode="after")
    @classmethod
    def _urls(cls, v: list[str]) -> list[str]:
        return [_check_url(u) for u in v]

    @field_validator("allowed_domains", mode="after")
    @classmethod
    def _domains(cls, v: list[str]) -> list[str]:
        out = []
        for domain in v:
            domain = domain.strip().lower()
            if not domain or "/" in domain:
                raise ValueError(f"expected a host name such as 'example.org', got {domain!r}")
            out.append(domain)
        return out

    @field_validator("article_patterns", mode="after")
    @classmethod
    def _article_patterns(cls, v: list[str]) -> list[str]:
        return _compile_all(v, "article_patterns")

    @field_validator("exclude_patterns", mode="after")
    @classmethod
    def _exclude_patterns(cls, v: list[str]) -> list[str]:
        return _compile_all(v, "exclude_patterns")

    @field_validator("refresh_interval", "article_revisit", mode="before")
    @classmethod
    def _duration(cls, v: Any) -> float | None:
        return parse_duration(v)

    @model_validator(mode="after")
    def _has_entry_point(self) -> SiteConfig:
        if not (self.start_urls or self.feeds or self.sitemaps):
            raise ValueError(f"site {self.name!r} needs at least one of start_urls, feeds or sitemaps")
        return self

    def seed_urls(self) -> list[str]:
        """Every URL the config names (start pages, feeds, sitemaps)."""
        return [*self.start_urls, *self.feeds, *self.sitemaps]

    def hosts(self) -> list[str]:
        """Hosts the crawl may visit: ``allowed_domains``, else those of the configured URLs."""
        if self.allowed_domains:
            return list(self.allowed_domains)
        seen: dict[str, None] = {}
        for url in self.seed_urls():
            host = urlsplit(url).hostname
            if host:
                seen[host.lower()] = None
        return list(seen)


class BlogsConfig(SpiderConfig):
    """``spiders_config/blogs.yaml``: the list of sites."""

    sites: list[SiteConfig] = Field(default_factory=list, description="The sites to crawl.")

    @field_validator("sites", mode="after")
    @classmethod
    def _unique_names(cls, v: list[SiteConfig]) -> list[SiteConfig]:
        names = [s.name for s in v]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"site names must be unique; repeated: {', '.join(dupes)}")
        return v


class BlogsArgs(SpiderArgs):
    """``-a url=`` (one ad hoc site) or ``-a site=NAME``; ``render/source/max_pages`` apply to them."""

    url: str | None = Field(
        None,
        description="crawl this one site (its start URL), with the defaults, instead of the YAML's",
        json_schema_extra={"metavar": "URL", "default": "none: the YAML's sites"},
    )
    site: str | None = Field(
        None,
        description="crawl only the configured site of this name",
        json_schema_extra={"metavar": "NAME", "default": "every site of the YAML"},
    )
    render: Flag | None = Field(
        None,
        description="render pages in Chromium (JavaScript sites; needs playwright)",
        json_schema_extra={"metavar": "true|false", "yaml": "sites[].render"},
    )
    source: str | None = Field(
        None,
        description="what the documents are: blog or docs",
        json_schema_extra={"metavar": "blog|docs", "yaml": "sites[].source"},
    )
    max_pages: Whole | None = Field(
        None,
        description="stop each site after this many pages",
        json_schema_extra={"metavar": "N", "yaml": "sites[].max_pages"},
    )
