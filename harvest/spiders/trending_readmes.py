"""The trending spider's READMEs: each repository's once a round, from the raw host or the API.

Without ``GITHUB_TOKEN`` a README is asked of ``GITHUB_RAW_URL`` under the usual file names in
turn (:data:`README_NAMES`; a 404 tries the next); with a token, of ``GITHUB_API_URL``'s
``/readme`` (GithubApiMiddleware adds the token on the wire). :class:`Readmes` builds those
requests, turns an answer into a ``DocumentItem`` and counts what failed; the callbacks stay the
spider's (the frontier persists them).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.http import TextResponse
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.github.hosts import OffHostRequest
from harvest.github.readme import api_readme, readme_document
from harvest.items import DocumentItem
from harvest.meta import META_GITHUB_CONDITIONAL, META_KIND, META_TTL

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)

#: README file names tried in turn on the raw host (case matters there), most common first.
README_NAMES = (
    "README.md",
    "readme.md",
    "Readme.md",
    "README.rst",
    "README.markdown",
    "README.txt",
    "README",
)
_STATS = "harvest/trending"


class Callbacks(Protocol):
    """The spider's README callbacks, and its crawler (for stats) once the crawl runs."""

    crawler: Crawler

    def parse_readme(  # noqa: D102
        self, response: Response, repo: str, attempt: int, api: bool
    ) -> Iterator[DocumentItem | scrapy.Request]: ...

    def readme_failed(self, failure: Failure) -> None: ...  # noqa: D102

    def retry_gave_up(self, request: Any) -> bool: ...  # noqa: D102


class Readmes:
    """The READMEs of one trending crawl (see the module docstring).

    Settings: ``GITHUB_WEB_URL``, ``GITHUB_RAW_URL``, ``GITHUB_API_URL``; ``GITHUB_TOKEN`` from
    the environment decides between the raw host and the API.
    """

    def __init__(
        self, spider: Callbacks, *, web_url: str, raw_url: str, api_url: str, revisit: float | None
    ) -> None:
        self.spider = spider
        self.web_url = web_url
        self.raw_url = raw_url.rstrip("/")
        self.api_url = api_url.rstrip("/")
        self.revisit = revisit
        # A repository trending in several pages of one round has its README fetched once.
        self._requested: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler, spider: Callbacks, revisit: float | None) -> Readmes:
        """The READMEs of ``spider``'s crawl, revisited after ``revisit`` seconds (None: never)."""
        settings = crawler.settings
        return cls(
            spider,
            web_url=settings.get("GITHUB_WEB_URL"),
            raw_url=settings.get("GITHUB_RAW_URL"),
            api_url=settings.get("GITHUB_API_URL"),
            revisit=revisit,
        )

    def _stat(self, key: str) -> None:
        assert self.spider.crawler.stats is not None
        self.spider.crawler.stats.inc_value(f"{_STATS}/{key}")

    def first(self, repo: str) -> scrapy.Request | None:
        """The request for ``repo``'s README, unless this round asked for it already."""
        if repo.lower() in self._requested:
            return None
        self._requested.add(repo.lower())
        return self.request(repo)

    def request(self, repo: str, attempt: int = 0) -> scrapy.Request:
        """The request for ``repo``'s README (``attempt``: the raw host's file name tried)."""
        owner, name = repo.split("/", 1)
        meta: dict[str, Any] = {
            META_KIND: "document",
            META_TTL: self.revisit,
            "handle_httpstatus_list": [404],
        }
        if os.environ.get("GITHUB_TOKEN", "").strip():
            # No Authorization header here: GithubApiMiddleware adds it on the wire only.
            # Revisits of a stored README are RevisitMiddleware's (harvest_kind="document").
            meta[META_GITHUB_CONDITIONAL] = False
            # An API's robots.txt is for web crawlers, and fetching it would spend the budget.
            meta["dont_obey_robotstxt"] = True
            return scrapy.Request(
                f"{self.api_url}/repos/{quote(owner)}/{quote(name)}/readme",
                # Explicit: DefaultHeadersMiddleware would otherwise ask the API for HTML.
                headers={"Accept": "application/vnd.github+json"},
                callback=self.spider.parse_readme,
                errback=self.spider.readme_failed,
                cb_kwargs={"repo": repo, "attempt": attempt, "api": True},
                meta=meta,
            )
        # HEAD names the default branch, whatever it is called.
        return scrapy.Request(
            f"{self.raw_url}/{quote(owner)}/{quote(name)}/HEAD/{README_NAMES[attempt]}",
            callback=self.spider.parse_readme,
            errback=self.spider.readme_failed,
            cb_kwargs={"repo": repo, "attempt": attempt, "api": False},
            meta=meta,
        )

    def answer(
        self, response: Response, repo: str, attempt: int, api: bool
    ) -> Iterator[DocumentItem | scrapy.Request]:
        """A README body -> DocumentItem; a 404 tries the next usual file name."""
        if response.status == 404:
            # Counted apart: the report leaves these out of the crawl's errors.
            self._stat("readme_404")
            if not api and attempt + 1 < len(README_NAMES):
                yield self.request(repo, attempt + 1)
                return
            logger.debug("%s has no README", repo, extra={"spider": self.spider})
            self._stat("readme_missing")
            return
        url = response.url
        if api:
            try:
                text, url = api_readme(response.body, response.url)
            except ValueError as exc:
                logger.warning("README of %s from %s is not the API's JSON: %s", repo, response.url, exc,
                               extra={"spider": self.spider})  # fmt: skip
                self._stat("readme_failed")
                return
        elif isinstance(response, TextResponse):
            text = response.text
        else:
            text = response.body.decode("utf-8", errors="replace")
        document = readme_document(repo, text, url=url, web_url=self.web_url)
        if document is None:
            self._stat("readme_missing")
            return
        self._stat("readmes")
        yield document

    def failed(self, failure: Failure) -> None:
        """A README that could not be fetched: unchanged (304), skipped, or a real failure."""
        request = failure.request  # type: ignore[attr-defined]
        repo = request.cb_kwargs.get("repo")
        if isinstance(failure.value, HttpError) and failure.value.response.status == 304:
            self._stat("readme_unchanged")
            return
        if failure.check(OffHostRequest):
            self._stat("readme_failed")  # the GitHub host guard logged it
            return
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            # Still fresh in the crawl state, or refused by robots.txt: not fetched on purpose.
            logger.debug("README of %s not fetched: %s", repo, failure.getErrorMessage())
            self._stat("readme_skipped")
            return
        self._stat("readme_failed")
        if self.spider.retry_gave_up(request):
            return  # RetryMiddleware logged it, with the URL
        logger.warning(
            "README of %s could not be fetched from %s: %s",
            repo,
            request.url,
            failure.getErrorMessage(),
            extra={"spider": self.spider},
        )
