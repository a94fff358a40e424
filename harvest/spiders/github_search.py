"""The ``github_search`` spider: every result of GitHub repository searches, with their READMEs.

``scrapy crawl github_search`` runs the searches of ``spiders_config/github_search.yaml``;
``-a query="topic:web-scraping language:python"`` runs one search instead (with
``-a max_results=N``, ``-a sort=stars``, ``-a order=asc``, ``-a readmes=false``; the last
four also apply to the configured searches when given alone).

How a search is collected:

- Its first page (``per_page``: :data:`harvest.github.limits.PER_PAGE`) gives ``total_count``. When more
  results exist than GitHub lets a search reach (:data:`harvest.github.limits.RESULT_CAP`, or fewer when the
  ``Link: rel="last"`` page says so, or a 422 names a lower cap), the search is cut into
  ``created:`` / ``stars:`` slices (:mod:`harvest.github.query`) and every slice is collected,
  so each of ``total_count`` results arrives once. The cuts sit at the quantiles of the first
  page's dates, and are remembered: the next run asks for the same slices, whose pages then
  answer 304.
- Pages are followed through the ``Link`` header (``rel="next"``), never built by hand.
- A page with ``incomplete_results: true`` is asked again up to
  ``HARVEST_GITHUB_INCOMPLETE_RETRIES`` times, then kept and counted
  (``harvest/github_search/incomplete_accepted``) with a warning.
- A 304 (the page did not change since the last run, for this token) yields nothing; the memo
  stored with its ETag (:class:`~harvest.github.planner.SearchMemo`) tells the next page and the
  slices to walk.
- A 401, 422 or other answer that retrying cannot fix stops *that* search with an error naming
  it and GitHub's message; the other searches go on, and the crawl closes with reason
  ``query_failed`` (exit code 1).

What each answer means for its search (walk on, ask again, cut into slices, stop) is
:class:`~harvest.github.searches.Searches`' reading, where to cut a search
:class:`~harvest.github.planner.SlicePlanner`'s decision; this spider turns what they ask for
into requests. Rate limits, the token and conditional requests are
:class:`~harvest.github.middleware.GithubApiMiddleware`'s job (it applies to spiders with
``uses_github_api``). A search page's ETag is stored only once every item of that page was
written (:class:`~harvest.github.validators.PageValidators`), so a crash never hides unwritten
results behind a 304. READMEs are documents (``harvest_kind="document"``) whose revisits belong
to RevisitMiddleware, exactly like the trending spider's.

Items: ``RepoItem`` (``type: "repo"``) per repository and search, ``DocumentItem``
(``source: "readme"``) per README, stored as ``readmes/<safe name>.md``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import quote, urlencode

import scrapy
from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.config import SpiderConfig
from harvest.config.github_search import GithubQueryConfig, GithubSearchArgs, GithubSearchConfig
from harvest.config.settings_model import retired_value
from harvest.exceptions import ConfigError
from harvest.github import github_token, limits, state_dir, token_digest
from harvest.github.hosts import OffHostRequest
from harvest.github.readme import api_readme, readme_document
from harvest.github.searches import PageAsk, ReadmeAsk, Searches
from harvest.github.validators import PageValidators
from harvest.items import DocumentItem
from harvest.meta import (
    META_GITHUB_CONDITIONAL,
    META_GITHUB_RESOURCE,
    META_KIND,
    META_TTL,
    META_VALIDATOR_KEY,
)
from harvest.parsers.github_api import error_message
from harvest.spiders.base import HarvestSpider
from harvest.util.redaction import scrub

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure
    from typing_extensions import Self

logger = logging.getLogger(__name__)

_STATS = "harvest/github_search"
#: Search pages before READMEs: results first, documents as the budget allows.
_SEARCH_PRIORITY = 10
_README_PRIORITY = -10


def _queries(
    config: GithubSearchConfig, query: str | None, overrides: dict[str, Any]
) -> list[GithubQueryConfig]:
    """``-a query`` alone, else the configured searches; ``overrides`` applied to each.

    Raises pydantic's ValidationError (its location names the argument) for a bad value.
    """
    if query is not None:
        return [GithubQueryConfig(query=query, **overrides)]
    queries = [q.model_copy(update={}) for q in config.queries]
    for q in queries:
        for key, value in overrides.items():
            setattr(q, key, value)  # validate_assignment checks each value
    return queries


class GithubSearchSpider(HarvestSpider):
    """Repository searches through the GitHub REST API (see the module docstring).

    Settings: ``GITHUB_API_URL``, ``GITHUB_WEB_URL``, ``HARVEST_GITHUB_*``.
    """

    name = "github_search"
    config_model = GithubSearchConfig
    args_model = GithubSearchArgs
    argument_default = "query"
    config: GithubSearchConfig

    #: GithubApiMiddleware (listed in harvest/settings.py) applies to this spider's API requests.
    uses_github_api: ClassVar[bool] = True
    custom_settings = {
        # api.github.com is an API governed by its terms and rate limits; its robots.txt is for
        # web crawlers, and fetching it would spend the core budget.
        "ROBOTSTXT_OBEY": False,
        # The pace comes from x-ratelimit-* and the per-token concurrency, not from latency.
        "AUTOTHROTTLE_ENABLED": False,
    }

    @classmethod
    def fold_args(cls, config: SpiderConfig, args: GithubSearchArgs) -> SpiderConfig:
        """``-a query`` replaces the configured searches; the other arguments apply to each."""
        assert isinstance(config, GithubSearchConfig)
        overrides = args.given("max_results", "sort", "order", "readmes")
        queries = _queries(config, args.query, overrides)
        if not queries:
            raise ConfigError(
                "spider arguments of 'github_search'",
                "no searches: add 'queries' to github_search.yaml or pass -a query=...",
            )
        return config.model_copy(update={"queries": queries})

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Build the spider, read its settings and connect the item signals."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.api_url = settings.get("GITHUB_API_URL").rstrip("/")
        spider.web_url = settings.get("GITHUB_WEB_URL").rstrip("/")
        spider.per_page = retired_value(settings, "HARVEST_GITHUB_PER_PAGE", limits.PER_PAGE)
        spider.check_rate_limit = settings.getbool("HARVEST_GITHUB_CHECK_RATE_LIMIT")
        path = state_dir(settings) / "validators.sqlite"
        spider._pages = PageValidators(path, spider.name, spider.token_key)
        spider._searches = Searches.from_crawler(crawler, spider._pages)
        crawler.signals.connect(spider._item_stored, signal=signals.item_scraped)
        crawler.signals.connect(spider._item_stored, signal=signals.item_dropped)
        crawler.signals.connect(spider._item_failed, signal=signals.item_error)
        crawler.signals.connect(spider._idle, signal=signals.spider_idle)
        crawler.signals.connect(spider._closed, signal=signals.spider_closed)
        return spider

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.api_url = ""
        self.web_url = ""
        self.per_page = 100
        self.check_rate_limit = True
        self.token_key = token_digest(github_token())
        self._pages: PageValidators | None = None
        self._searches: Searches | None = None

    # --- bookkeeping ---------------------------------------------------------------------------
    @property
    def pages(self) -> PageValidators:
        """Search pages' validators and memos, in the data folder (set up by ``from_crawler``)."""
        assert self._pages is not None, "the spider was built without from_crawler"
        return self._pages

    @property
    def searches(self) -> Searches:
        """The searches of this crawl and what their answers mean (set up by ``from_crawler``)."""
        assert self._searches is not None, "the spider was built without from_crawler"
        return self._searches

    def _stat(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"{_STATS}/{key}", count)

    def _item_stored(self, item: Any) -> None:
        """item_scraped / item_dropped: written now, or already stored before."""
        self.pages.item_done(item, ok=True)

    def _item_failed(self, item: Any) -> None:
        """item_error: the page must be fetched in full next time."""
        self.pages.item_done(item, ok=False)

    # --- start ---------------------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Any]:
        """Check the budget (free of the primary limit), then start every due search."""
        self.pages.open()
        if self.reset:
            self.pages.reset()
            logger.info("github_search: stored ETags and query times cleared (-a reset)")
        if self.check_rate_limit:
            yield scrapy.Request(
                f"{self.api_url}/rate_limit",
                callback=self.parse_rate_limit,
                errback=self.rate_limit_failed,
                dont_filter=True,
                priority=_SEARCH_PRIORITY + 1,
                meta={META_GITHUB_RESOURCE: None, META_GITHUB_CONDITIONAL: False},
            )
            return
        for request in self._start_searches():
            yield request

    def parse_rate_limit(self, response: Response) -> Iterator[scrapy.Request]:
        """The budgets are known now (the middleware read them): start the searches."""
        yield from self._start_searches()

    def rate_limit_failed(self, failure: Failure) -> Iterator[scrapy.Request]:
        """No /rate_limit (an old GitHub Enterprise, a proxy): the first answers will tell."""
        logger.debug("GET /rate_limit failed (%s); starting the searches anyway", failure.getErrorMessage())
        yield from self._start_searches()

    def _start_searches(self) -> Iterator[scrapy.Request]:
        for ask in self.searches.start(self.config.queries):
            yield self._search_request(ask)

    # --- search pages --------------------------------------------------------------------------
    def _search_request(self, ask: PageAsk) -> scrapy.Request:
        """The request for a search page the searches asked for."""
        run, url = ask.run, ask.url
        if url is None:
            params = {"q": run.sliced.text(ask.part)}
            if run.cfg.sort != "best-match":
                params.update(sort=run.cfg.sort, order=run.cfg.order)
            params["per_page"] = str(self.per_page)
            url = f"{self.api_url}/search/repositories?{urlencode(params)}"
        meta = run.request_meta(ask.part, first=ask.first, tries=ask.tries, total=ask.total,
                                conditional=ask.conditional)  # fmt: skip
        return scrapy.Request(
            url,
            callback=self.parse_search,
            errback=self.search_failed,
            # Slices are distinct by construction; retries and resumed copies must go through.
            dont_filter=True,
            priority=_SEARCH_PRIORITY,
            meta={**meta, META_VALIDATOR_KEY: self.token_key, "handle_httpstatus_list": [304]},
        )

    def _requests(self, steps: Iterable[Any]) -> Iterator[Any]:
        """Requests for the pages and READMEs in ``steps``; items as they are."""
        for step in steps:
            if isinstance(step, PageAsk):
                yield self._search_request(step)
            elif isinstance(step, ReadmeAsk):
                yield self._readme_request(step.repo)
            else:
                yield step

    def parse_search(self, response: Response) -> Iterator[Any]:
        """One search page: items (and README requests), the next page, or the slices."""
        yield from self._requests(self.searches.answer(response))

    def search_failed(self, failure: Failure) -> Iterator[scrapy.Request]:
        """A search page that failed for good: stop that search (or learn a lower cap and re-cut)."""
        yield from self._requests(self.searches.failed(failure))

    # --- READMEs -------------------------------------------------------------------------------
    def _readme_request(self, repo: str) -> scrapy.Request:
        owner, name = repo.split("/", 1)
        return scrapy.Request(
            f"{self.api_url}/repos/{quote(owner)}/{quote(name)}/readme",
            callback=self.parse_readme,
            errback=self.readme_failed,
            priority=_README_PRIORITY,
            cb_kwargs={"repo": repo},
            meta={
                META_KIND: "document",
                META_TTL: self.config.readme_revisit,
                META_VALIDATOR_KEY: self.token_key,
                # Revisits of a stored README are RevisitMiddleware's, as for the trending spider.
                META_GITHUB_CONDITIONAL: False,
                "handle_httpstatus_list": [304, 404],
            },
        )

    def parse_readme(self, response: Response, repo: str) -> Iterator[DocumentItem]:
        """A README answer -> DocumentItem (nothing for 304 or 404)."""
        if response.status == 304:
            self._stat("readme_unchanged")
            return
        if response.status == 404:
            logger.debug("%s has no README", repo)
            self._stat("readme_404")  # not a crawl error: the report counts these apart
            self._stat("readme_missing")
            return
        try:
            text, url = api_readme(response.body, response.url)
        except ValueError as exc:
            logger.warning("README of %s from %s is unreadable: %s", repo, response.url, exc)
            self._stat("readme_failed")
            return
        document = readme_document(repo, text, url=url, web_url=self.web_url)
        if document is None:
            self._stat("readme_missing")
            return
        self._stat("readmes")
        yield document

    def readme_failed(self, failure: Failure) -> None:
        """A README not fetched: fresh or unchanged (RevisitMiddleware), or a real failure."""
        request = failure.request  # type: ignore[attr-defined]
        if failure.check(OffHostRequest):
            self._stat("readme_failed")  # the guard logged it
            return
        # HttpError is an IgnoreRequest too: a README that failed with a 5xx is not "unchanged".
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            self._stat("readme_unchanged")
            return
        self._stat("readme_failed")
        if self.retry_gave_up(request):
            return  # RetryMiddleware logged it, with the URL
        if isinstance(failure.value, HttpError):
            response = failure.value.response
            message = scrub(error_message(response.body))
            logger.warning("README of %s failed (%s): GitHub answered %d: %s", request.cb_kwargs.get("repo"),
                           request.url, response.status, message)  # fmt: skip
        else:
            logger.warning("README of %s failed (%s): %s", request.cb_kwargs.get("repo"),
                           request.url, failure.getErrorMessage())  # fmt: skip

    # --- end of the crawl ----------------------------------------------------------------------
    def _idle(self) -> None:
        """Nothing left to fetch: close with ``query_failed`` if any search failed."""
        self.searches.runs.idle()

    def _closed(self, reason: str) -> None:
        if self._searches is not None:
            self._searches.runs.closed(reason)
        if self._pages is not None:
            self._pages.close()
