"""The blogs spider's sites: their scope, limits and pace, and which are due this round.

A configured site (:class:`Site`) with its patterns compiled; :class:`SiteBook` answers the
questions the crawl asks of all of them (which site a URL or response belongs to, a site's pace,
the hosts and limits the safety middleware needs, which sites are due: ``refresh_interval``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from harvest.meta import META_SITE
from harvest.middlewares.safety import SiteLimits, host_port
from harvest.util.urls import url_host

if TYPE_CHECKING:
    from harvest.config.blogs import BlogsConfig, SiteConfig
    from harvest.state.rounds import SiteRounds

logger = logging.getLogger(__name__)

_INDEX_RE = re.compile(r"(?:^|/)index\.html?$")


@dataclass
class Site:
    """A configured site with its patterns compiled and its scope worked out."""

    config: SiteConfig
    hosts: tuple[str, ...]
    article_res: list[re.Pattern[str]]
    exclude_res: list[re.Pattern[str]]
    render_meta: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The site's name in the config."""
        return self.config.name

    def in_scope(self, host: str) -> bool:
        """Whether ``host`` is one of the site's hosts or under one."""
        return any(host == d or host.endswith("." + d) for d in self.hosts)

    def excluded(self, url: str) -> bool:
        """Whether an ``exclude_patterns`` entry matches ``url``."""
        return any(r.search(url) for r in self.exclude_res)

    def article_url(self, url: str) -> bool:
        """Whether the URL alone says "article" (docs sites: any page not excluded)."""
        if self.excluded(url):
            return False
        if self.config.source == "docs":
            return True
        return not home_page(url) and any(r.search(url) for r in self.article_res)


def home_page(url: str) -> bool:
    """Whether ``url`` is the site's home page: its root, or the root's ``index.html``.

    Static generators write the home page as ``/index.html`` and many link it so (TypeDoc's
    header on every page, its sitemap): the server answers the same page at both.
    """
    return _INDEX_RE.sub("", urlsplit(url).path) in {"", "/"}


def article_slug(url: str) -> str:
    """The part of an article's URL that names it: its path (and query), without index.html."""
    parts = urlsplit(url)
    path = _INDEX_RE.sub("", parts.path).strip("/")
    if parts.query:
        path = f"{path}?{parts.query}"
    return path or "index"


class SiteBook:
    """Every configured site of this run, and the questions asked of all of them."""

    def __init__(self, config: BlogsConfig) -> None:
        self.sites: list[Site] = []
        self._by_host: dict[str, Site] = {}
        #: Hosts the user configured (seeds), let through the private-address guard.
        self.private_hosts: set[str] = set()
        #: Per-site page and depth limits of the safety middleware.
        self.limits: dict[str, SiteLimits] = {}
        for cfg in config.sites:
            hosts = tuple(cfg.hosts())
            site = Site(
                cfg,
                hosts,
                [re.compile(p) for p in cfg.article_patterns],
                [re.compile(p) for p in cfg.exclude_patterns],
            )
            self.sites.append(site)
            for host in hosts:
                self._by_host.setdefault(host, site)
            for url in cfg.seed_urls():
                parts = urlsplit(url)
                self.private_hosts.add(host_port(parts.hostname, parts.port, parts.scheme))
            self.limits[cfg.name] = SiteLimits(max_pages=cfg.max_pages, max_depth=cfg.max_depth)

    def domains(self) -> list[str]:
        """Every site's hosts (Scrapy's offsite middleware: hosts only, it refuses ports)."""
        return sorted({h for s in self.sites for h in s.hosts})

    def pace(self, url: str) -> tuple[str, float | None, int | None] | None:
        """(site, download_delay, concurrency) of the site ``url`` is in (harvest.middlewares.pace)."""
        host = url_host(url)
        site = self._by_host.get(host)
        if site is None:
            site = next((s for s in self.sites if s.in_scope(host)), None)
        return None if site is None else (site.name, site.config.download_delay, site.config.concurrency)

    def in_scope(self, url: str, default: Site) -> Site | None:
        """The site whose hosts ``url`` is on (``default`` first); None when it is out of scope."""
        host = url_host(url)
        if default.in_scope(host):
            return default
        for site in self.sites:
            if site.in_scope(host):
                return site
        return None

    def of(self, response: Any) -> Site:
        """The site a response (or request) was fetched for: its ``harvest_site`` meta."""
        name = response.meta.get(META_SITE)
        for site in self.sites:
            if site.name == name:
                return site
        return self.sites[0]

    def due(self, rounds: SiteRounds, now: float) -> tuple[list[Site], int]:
        """Sites whose own ``refresh_interval`` has passed, and how many were skipped as fresh."""
        due = []
        for site in self.sites:
            interval = site.config.refresh_interval
            last = rounds.last(site.name)
            if interval is not None and last is not None and now - last < interval:
                logger.info(
                    "Site %s is fresh (crawled %.0f s ago, refresh_interval %.0f s); skipped",
                    site.name,
                    now - last,
                    interval,
                )
                continue
            due.append(site)
        return due, len(self.sites) - len(due)
