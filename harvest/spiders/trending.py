"""The ``trending`` spider: GitHub Trending repositories and developers, and their READMEs.

One round fetches ``/trending[/<language>]?since=<period>`` (and ``/trending/developers...``) for
every configured language and period from ``GITHUB_WEB_URL``, yields one observation per row,
and fetches each repository's README once per round from ``GITHUB_RAW_URL`` (or from
``GITHUB_API_URL`` when ``GITHUB_TOKEN`` is set in the environment).

Failure policy, so that a broken run is never mistaken for a quiet day:

- a language GitHub does not know (404) is logged and counted, and the run goes on;
- a page that answers 200 but yields no rows, or rows without a name, means GitHub changed its
  markup: ERROR log naming the URL, stat ``harvest/trending/layout_changed``, and the spider
  closes with reason ``layout_changed`` (``scrapy crawl`` then exits with 1);
- a repository without a README is counted (``harvest/trending/readme_missing``), not an error.

Fetching READMEs (raw host or API, file names in turn) is :mod:`harvest.spiders.trending_readmes`'.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, TypeVar
from urllib.parse import quote, urlencode

import scrapy
from scrapy.exceptions import CloseSpider
from scrapy.http import TextResponse

from harvest.config import SpiderConfig
from harvest.config.trending import TrendingArgs, TrendingConfig
from harvest.fingerprints import utc_now
from harvest.github.hosts import OffHostRequest
from harvest.items import DocumentItem, TrendingDeveloperItem, TrendingRepoItem
from harvest.meta import META_ABUSE_CHECK, META_KIND
from harvest.parsers.trending import (
    TrendingDeveloperRow,
    TrendingRepoRow,
    is_abuse_page,
    is_empty_listing,
    parse_trending_developers,
    parse_trending_repos,
)
from harvest.spiders.base import HarvestSpider
from harvest.spiders.trending_readmes import Readmes

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure
    from typing_extensions import Self

logger = logging.getLogger(__name__)

_STATS = "harvest/trending"
_PERIOD_WORDS = {"daily": "today", "weekly": "this week", "monthly": "this month"}

_Row = TypeVar("_Row", TrendingRepoRow, TrendingDeveloperRow)


@dataclass(frozen=True)
class _Listing(Generic[_Row]):
    """One kind of Trending page: how its rows are read, and how logs and stats name them."""

    #: "repository" / "developer", as in "no repository rows were found".
    noun: str
    #: "repositories" / "developers", as in "No trending repositories at ...".
    plural: str
    #: What a row without a name lacks, as in "rows [3] of 25 have no username".
    name: str
    #: Stat counting the pages read (``harvest/trending/<pages_stat>``).
    pages_stat: str
    #: Stat counting the rows read.
    rows_stat: str
    parse: Callable[[str, str], list[_Row]]
    named: Callable[[_Row], bool]


_REPOS: _Listing[TrendingRepoRow] = _Listing(
    "repository", "repositories", "repository name", "repo_pages", "repos",
    parse_trending_repos, lambda row: bool(row.repo),
)  # fmt: skip
_DEVELOPERS: _Listing[TrendingDeveloperRow] = _Listing(
    "developer", "developers", "username", "developer_pages", "developers",
    parse_trending_developers, lambda row: bool(row.username),
)  # fmt: skip


def trending_url(web_url: str, language: str | None, since: str, spoken_language: str | None = None) -> str:
    """``<web>/trending[/<language>]?since=...[&spoken_language_code=...]``."""
    path = "/trending" + (f"/{quote(language, safe='+')}" if language else "")
    query = {"since": since}
    if spoken_language:
        query["spoken_language_code"] = spoken_language
    return f"{web_url.rstrip('/')}{path}?{urlencode(query)}"


def developers_url(web_url: str, language: str | None, since: str) -> str:
    """``<web>/trending/developers[/<language>]?since=...`` (no spoken-language filter there)."""
    path = "/trending/developers" + (f"/{quote(language, safe='+')}" if language else "")
    return f"{web_url.rstrip('/')}{path}?{urlencode({'since': since})}"


class TrendingSpider(HarvestSpider):
    """GitHub Trending, as a time series of observations plus one README document per repository.

    Config: ``spiders_config/trending.yaml`` (:class:`harvest.config.trending.TrendingConfig`).
    Arguments for one run: ``-a language=python[,rust]`` (empty = all), ``-a since=weekly``
    (``daily``/``weekly``/``monthly``, comma-separated), ``-a spoken_language=en`` (empty = none),
    ``-a developers=true|false``, ``-a readmes=true|false``.
    """

    name = "trending"
    config_model: ClassVar[type[SpiderConfig]] = TrendingConfig
    args_model = TrendingArgs
    config: TrendingConfig

    #: Config field -> the ``-a`` argument that sets it, so errors name what the user typed.
    argument_fields: ClassVar[dict[str, str]] = {
        "languages": "-a language",
        "periods": "-a since",
        "spoken_language": "-a spoken_language",
        "developers": "-a developers",
        "readmes": "-a readmes",
    }

    #: With GITHUB_TOKEN set, READMEs come from the API: GithubApiMiddleware (listed in
    #: harvest/settings.py) adds the token on the wire and spends the budget shared with
    #: github_search. Without a token no request goes to the API and it does nothing.
    uses_github_api: ClassVar[bool] = True
    #: Archived observations (trending_history) share this identity: first stored wins.
    shares_items_with: ClassVar[tuple[str, ...]] = ("trending_history",)

    #: Each repository's README, once a round (built in from_crawler).
    readmes: Readmes

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Build the spider and its READMEs' requests."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.readmes = Readmes.from_crawler(crawler, spider, spider.config.readme_revisit)
        return spider

    @classmethod
    def fold_args(cls, config: SpiderConfig, args: TrendingArgs) -> SpiderConfig:
        """Fold ``-a language/since/spoken_language/developers/readmes`` into the YAML config."""
        data = config.model_dump()
        given = args.given("language", "since", "spoken_language", "developers", "readmes")
        for arg, field in (("language", "languages"), ("since", "periods")):
            if arg in given:
                data[field] = given.pop(arg)
        if "spoken_language" in given:
            data["spoken_language"] = (given.pop("spoken_language") or "").strip() or None
        data.update(given)
        return TrendingConfig.model_validate(data)

    # --- requests --------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Any]:
        """One request per (language, period) for repositories, and for developers if enabled."""
        web = self.settings.get("GITHUB_WEB_URL")
        languages: list[str | None] = list(self.config.languages) or [None]
        for language in languages:
            for since in self.config.periods:
                yield scrapy.Request(
                    trending_url(web, language, since, self.config.spoken_language),
                    callback=self.parse_repos,
                    errback=self.page_failed,
                    cb_kwargs={"language": language, "since": since},
                    meta={META_KIND: "listing", "handle_httpstatus_list": [404], META_ABUSE_CHECK: True},
                )
                if self.config.developers:
                    yield scrapy.Request(
                        developers_url(web, language, since),
                        callback=self.parse_developers,
                        errback=self.page_failed,
                        cb_kwargs={"language": language, "since": since},
                        meta={META_KIND: "listing", "handle_httpstatus_list": [404], META_ABUSE_CHECK: True},
                    )

    # --- callbacks -------------------------------------------------------------------------

    def _stat(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"{_STATS}/{key}", count)

    def _page_missing(self, response: Response, language: str | None) -> None:
        if language:
            logger.warning(
                "GitHub does not know the language %r (404 at %s); skipping it",
                language,
                response.url,
                extra={"spider": self},
            )
            self._stat("unknown_language")
            return
        # The all-languages page itself is gone: the URL scheme changed, which no retry fixes.
        logger.error(
            "Trending page %s answered 404; GitHub may have moved the Trending pages",
            response.url,
            extra={"spider": self},
        )
        self._stat("layout_changed")
        raise CloseSpider("layout_changed")

    def _layout_changed(self, response: Response, detail: str) -> NoReturn:
        logger.error(
            "Trending page %s answered %d but %s: GitHub's page layout has probably changed "
            "and the parser needs updating; stopping the crawl (close reason layout_changed)",
            response.url,
            response.status,
            detail,
            extra={"spider": self},
        )
        self._stat("layout_changed")
        raise CloseSpider("layout_changed")

    def _page_html(self, response: Response) -> str:
        if not isinstance(response, TextResponse):
            self._layout_changed(response, "its body is not text/HTML")
        return response.text

    def _rows(self, response: Response, language: str | None, listing: _Listing[_Row]) -> list[_Row]:
        """The page's rows, every one named; [] for a page GitHub says is empty or a 404.

        A page whose rows cannot be found or named closes the crawl (``layout_changed``).
        """
        if response.status == 404:
            self._page_missing(response, language)
            return []
        html = self._page_html(response)
        if is_abuse_page(html):
            # AbusePageMiddleware waited and asked again already: a rate limit, not a layout.
            logger.warning(
                'GitHub still answers %s with its abuse-detection page ("Whoa there!") after '
                "waiting; skipping it this round",
                response.url,
                extra={"spider": self},
            )
            self._stat("rate_limited")
            return []
        rows = listing.parse(html, response.url)
        if not rows and is_empty_listing(html):
            logger.info("No trending %s at %s (GitHub says so)", listing.plural, response.url)
            self._stat("empty_page")
            return []
        if not rows:
            self._layout_changed(response, f"no {listing.noun} rows were found")
        unnamed = [row.rank for row in rows if not listing.named(row)]
        if unnamed:
            self._layout_changed(response, f"rows {unnamed} of {len(rows)} have no {listing.name}")
        self._stat(listing.pages_stat)
        self._stat(listing.rows_stat, len(rows))
        return rows

    def parse_repos(
        self, response: Response, language: str | None, since: str
    ) -> Iterator[TrendingRepoItem | scrapy.Request]:
        """Repository rows -> TrendingRepoItem (plus a README request per new repository)."""
        observed_at = utc_now()
        rows = self._rows(response, language, _REPOS)
        if rows:
            self._check_period(response, since, [row.period for row in rows])
        for row in rows:
            assert row.repo is not None  # checked by _rows
            yield TrendingRepoItem.from_row(
                row,
                since=since,
                language_filter=language,
                observed_at=observed_at,
                source_url=response.url,
                spoken_language=self.config.spoken_language,
            )
            if self.config.readmes and (readme := self.readmes.first(row.repo)) is not None:
                yield readme

    def _check_period(self, response: Response, since: str, periods: list[str | None]) -> None:
        # "N stars this week" on a daily request means GitHub ignored ?since=; the rows would be
        # recorded under the wrong period, so say so (once per page).
        other = sorted({p for p in periods if p and p != since})
        if other:
            logger.warning(
                "Trending page %s was asked for %s (%r) but shows %s figures",
                response.url,
                since,
                _PERIOD_WORDS[since],
                ", ".join(other),
                extra={"spider": self},
            )
            self._stat("period_mismatch")

    def parse_developers(
        self, response: Response, language: str | None, since: str
    ) -> Iterator[TrendingDeveloperItem]:
        """Developer rows -> TrendingDeveloperItem."""
        observed_at = utc_now()
        for row in self._rows(response, language, _DEVELOPERS):
            yield TrendingDeveloperItem.from_row(
                row, since=since, language_filter=language, observed_at=observed_at, source_url=response.url
            )

    def parse_readme(
        self, response: Response, repo: str, attempt: int, api: bool
    ) -> Iterator[DocumentItem | scrapy.Request]:
        """A README body -> DocumentItem; a 404 tries the next usual file name."""
        yield from self.readmes.answer(response, repo, attempt, api)

    # --- errbacks --------------------------------------------------------------------------

    def page_failed(self, failure: Failure) -> None:
        """A Trending page that could not be fetched even after retries."""
        request = failure.request  # type: ignore[attr-defined]
        self._stat("page_failed")
        if self.retry_gave_up(request) or failure.check(OffHostRequest):
            return  # RetryMiddleware logged it with the URL, or the GitHub host guard did
        logger.error(
            "Trending page %s failed: %s",
            request.url,
            failure.getErrorMessage(),
            extra={"spider": self},
        )

    def readme_failed(self, failure: Failure) -> None:
        """A README that could not be fetched: unchanged (304), skipped, or a real failure."""
        self.readmes.failed(failure)
