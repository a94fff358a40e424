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

Where to cut a search is :class:`~harvest.github.planner.SlicePlanner`'s decision; this spider
decides what to request from it. Rate limits, the token and conditional requests are
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
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import quote, urlencode

import scrapy
from scrapy import signals
from scrapy.exceptions import CloseSpider, IgnoreRequest
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.config import SpiderConfig
from harvest.config.github_search import GithubQueryConfig, GithubSearchArgs, GithubSearchConfig
from harvest.config.settings_model import retired_value
from harvest.exceptions import ConfigError
from harvest.fingerprints import utc_now
from harvest.github import github_token, limits, state_dir, token_digest
from harvest.github.hosts import OffHostRequest
from harvest.github.middleware import WaitInterrupted
from harvest.github.planner import SearchMemo, SlicePlan, SlicePlanner
from harvest.github.query import Slice, query_problems
from harvest.github.readme import api_readme, readme_document
from harvest.github.runs import SearchRun, SearchRuns
from harvest.github.validators import PageValidators
from harvest.items import DocumentItem, RepoItem
from harvest.meta import (
    META_FIRST,
    META_GITHUB_CONDITIONAL,
    META_GITHUB_ETAG,
    META_GITHUB_LAST_MODIFIED,
    META_GITHUB_MEMO,
    META_GITHUB_NOT_MODIFIED,
    META_GITHUB_RESOURCE,
    META_INCOMPLETE_TRIES,
    META_KIND,
    META_SLICE_TOTAL,
    META_TTL,
    META_VALIDATOR_KEY,
)
from harvest.parsers.github_api import (
    SearchPage,
    error_message,
    load_json,
    parse_link_header,
    parse_search_page,
    result_cap_from_message,
)
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
        spider.planner = SlicePlanner(
            result_cap=retired_value(settings, "HARVEST_GITHUB_RESULT_CAP", limits.RESULT_CAP),
            created_floor=date.fromisoformat(
                retired_value(settings, "HARVEST_GITHUB_CREATED_FLOOR", limits.CREATED_FLOOR)
            ),
        )
        spider.incomplete_retries = settings.getint("HARVEST_GITHUB_INCOMPLETE_RETRIES")
        spider.max_query_length = retired_value(
            settings, "HARVEST_GITHUB_MAX_QUERY_LENGTH", limits.MAX_QUERY_LENGTH
        )
        spider.max_operators = retired_value(settings, "HARVEST_GITHUB_MAX_OPERATORS", limits.MAX_OPERATORS)
        spider.check_rate_limit = settings.getbool("HARVEST_GITHUB_CHECK_RATE_LIMIT")
        path = state_dir(settings) / "validators.sqlite"
        spider._pages = PageValidators(path, spider.name, spider.token_key)
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
        self.planner = SlicePlanner(result_cap=1000, created_floor=date(2007, 10, 1))
        self.incomplete_retries = 2
        self.max_query_length = 256
        self.max_operators = 5
        self.check_rate_limit = True
        self.token_key = token_digest(github_token())
        self._pages: PageValidators | None = None
        self._runs = SearchRuns()
        self._readmes_requested: set[str] = set()

    # --- bookkeeping ---------------------------------------------------------------------------
    @property
    def pages(self) -> PageValidators:
        """Search pages' validators and memos, in the data folder (set up by ``from_crawler``)."""
        assert self._pages is not None, "the spider was built without from_crawler"
        return self._pages

    def _stat(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"{_STATS}/{key}", count)

    def _store_after(self, response: Response, memo: SearchMemo, items: Sequence[object]) -> None:
        """Store the page's validator with ``memo`` once its ``items`` are stored."""
        meta = response.meta
        self.pages.store_after(
            response.url, meta.get(META_GITHUB_ETAG), meta.get(META_GITHUB_LAST_MODIFIED), memo, items
        )

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
        for cfg in self.config.queries:
            self._stat("queries")
            problems = query_problems(
                cfg.query, max_length=self.max_query_length, max_operators=self.max_operators
            )
            run = self._runs[cfg.key] = SearchRun.of(cfg)
            if problems:
                self._fail(run, "; ".join(problems), sent=False)
                continue
            last = self.pages.last_finished(cfg.key)
            if cfg.refresh_interval and last is not None and time.time() - last < cfg.refresh_interval:
                logger.info(
                    "Search %r is fresh (finished %.0f s ago, refreshed every %.0f s): skipped",
                    cfg.query, time.time() - last, cfg.refresh_interval,
                )  # fmt: skip
                run.finished = True
                self._stat("queries_fresh")
                continue
            logger.info("Search %r: starting", cfg.query)
            yield self._search_request(run, None)

    def _search_request(
        self,
        run: SearchRun,
        part: Slice | None,
        *,
        url: str | None = None,
        first: bool = True,
        tries: int = 0,
        total: int | None = None,
        conditional: bool = True,
    ) -> scrapy.Request:
        if url is None:
            params = {"q": run.sliced.text(part)}
            if run.cfg.sort != "best-match":
                params.update(sort=run.cfg.sort, order=run.cfg.order)
            params["per_page"] = str(self.per_page)
            url = f"{self.api_url}/search/repositories?{urlencode(params)}"
        run.outstanding += 1
        return scrapy.Request(
            url,
            callback=self.parse_search,
            errback=self.search_failed,
            # Slices are distinct by construction; retries and resumed copies must go through.
            dont_filter=True,
            priority=_SEARCH_PRIORITY,
            meta={
                **run.request_meta(part, first=first, tries=tries, total=total, conditional=conditional),
                META_VALIDATOR_KEY: self.token_key,
                "handle_httpstatus_list": [304],
            },
        )

    # --- search pages --------------------------------------------------------------------------
    def parse_search(self, response: Response) -> Iterator[Any]:
        """One search page: items (and README requests), the next page, or the slices."""
        run = self._runs.for_meta(response.meta)
        run.outstanding -= 1
        try:
            if run.stopped:
                return
            if response.status == 304 or response.meta.get(META_GITHUB_NOT_MODIFIED):
                yield from self._not_modified(run, response)
            else:
                yield from self._page(run, response)
        finally:
            self._maybe_finish(run)

    def _not_modified(self, run: SearchRun, response: Response) -> Iterator[Any]:
        """A page unchanged since the last run: walk on as its stored memo says."""
        meta = response.meta
        memo = SearchMemo.from_dict(meta.get(META_GITHUB_MEMO))
        run.not_modified += 1
        run.pages += 1
        self._stat("pages_not_modified")
        if meta.get(META_FIRST) and memo.total is None:
            # A validator without its memo (stored by an older version): fetch the page in full.
            yield self._search_request(
                run, SearchRun.slice_or_none(meta), url=response.url, conditional=False
            )
            return
        if meta.get(META_FIRST) and memo.parts:
            run.splits += 1
            yield from self._slices(run, run.part(meta), memo.parts, memo.total)
            return
        run.counted += memo.count
        if memo.next_url and not run.limit_reached():
            total = memo.total if memo.total is not None else meta.get(META_SLICE_TOTAL)
            yield self._search_request(run, SearchRun.slice_or_none(meta), url=memo.next_url, first=False,
                                       total=total)  # fmt: skip

    def _page(self, run: SearchRun, response: Response) -> Iterator[Any]:
        """A search page's answer: asked again while incomplete, cut into slices, or collected."""
        page = self._read_page(run, response)
        if page is None:
            return
        if page.incomplete_results:
            again = self._ask_again(run, response, page)
            if again is not None:
                yield again
                return
        links = parse_link_header(response.headers.get("Link"))
        memo = SearchMemo(total=page.total_count, count=len(page.items), next_url=links.get("next"))
        if response.meta.get(META_FIRST):
            plan = self._plan(run, response, page, links)
            memo = replace(memo, cap=plan.cap, parts=plan.parts)
            if plan.parts:
                if not page.incomplete_results:
                    self._store_after(response, memo, [])
                run.splits += 1
                yield from self._slices(run, run.part(response.meta), plan.parts, page.total_count)
                return
        yield from self._collect(run, response, page, memo)

    def _read_page(self, run: SearchRun, response: Response) -> SearchPage | None:
        """The page's results; None (and the search stopped) when the answer is unreadable."""
        try:
            page = parse_search_page(load_json(response.body))
        except ValueError as exc:
            self._fail(run, f"unreadable search answer from {response.url}: {exc}")
            return None
        run.pages += 1
        self._stat("pages")
        return page

    def _ask_again(self, run: SearchRun, response: Response, page: SearchPage) -> scrapy.Request | None:
        """The request asking again for a page GitHub cut short; None: keep it (and count it)."""
        meta = response.meta
        tries = int(meta.get(META_INCOMPLETE_TRIES, 0))
        if tries < self.incomplete_retries:
            self._stat("incomplete_retried")
            logger.info("Search %r: GitHub timed out on %s (incomplete_results); asking again",
                        run.cfg.query, response.url)  # fmt: skip
            return self._search_request(run, SearchRun.slice_or_none(meta), url=response.url,
                                        first=bool(meta.get(META_FIRST)), tries=tries + 1,
                                        total=meta.get(META_SLICE_TOTAL), conditional=False)  # fmt: skip
        run.incomplete += 1
        self._stat("incomplete_accepted")
        logger.warning(
            "Search %r: %s was still incomplete after %d retries; keeping its %d results, "
            "some may be missing",
            run.cfg.query, response.url, tries, len(page.items),
        )  # fmt: skip
        return None

    def _plan(self, run: SearchRun, response: Response, page: SearchPage, links: dict[str, str]) -> SlicePlan:
        """The planner's verdict on a first page: walk it, or collect these slices instead."""
        part = run.part(response.meta)
        plan = self.planner.plan(
            run.sliced, part, page, links, max_results=run.cfg.max_results,
            # Last run's plan for this URL: the same slices, whose pages then answer 304.
            remembered=lambda: self.pages.remembered(response.url),
        )  # fmt: skip
        if plan.reused:
            self._stat("slice_plans_reused")
        if plan.unreachable:
            run.unreachable += plan.unreachable
            self._stat("results_unreachable", plan.unreachable)
            logger.warning(
                "Search %r: the slice %r holds %d results and cannot be cut further (one day, "
                "one star count); only the first %d are reachable",
                run.cfg.query, run.sliced.text(part), page.total_count, plan.cap,
            )  # fmt: skip
        return plan

    def _collect(
        self, run: SearchRun, response: Response, page: SearchPage, memo: SearchMemo
    ) -> Iterator[Any]:
        """The page's new repositories (with README requests), then its next page."""
        items, follow = self._new_repos(run, page)
        self._stat("repos", len(items))
        if not page.incomplete_results:
            # An incomplete page is not remembered: the next run must fetch it in full.
            self._store_after(response, memo, items)
        yield from items
        yield from follow
        if memo.next_url and not run.limit_reached():
            yield self._search_request(run, SearchRun.slice_or_none(response.meta), url=memo.next_url,
                                       first=False, total=page.total_count)  # fmt: skip

    def _new_repos(self, run: SearchRun, page: SearchPage) -> tuple[list[RepoItem], list[scrapy.Request]]:
        """Items for the page's repositories not seen in this run, and their README requests."""
        items = run.new_repos(page, utc_now())
        follow: list[scrapy.Request] = []
        if run.cfg.readmes:
            for item in items:
                if item.repo.lower() not in self._readmes_requested:
                    self._readmes_requested.add(item.repo.lower())
                    follow.append(self._readme_request(item.repo))
        return items, follow

    def _slices(
        self, run: SearchRun, parent: Slice, parts: Sequence[Slice], total: int | None
    ) -> Iterator[scrapy.Request]:
        run.slices += len(parts) - 1
        self._stat("splits")
        self._stat("slices", len(parts))
        logger.info("Search %r: %s results in %r, cut into %d slices",
                    run.cfg.query, total, parent.qualifiers() or "(all)", len(parts))  # fmt: skip
        for part in parts:
            yield self._search_request(run, part)

    def search_failed(self, failure: Failure) -> Iterator[scrapy.Request]:
        """A search page that failed for good: stop that search (or learn a lower cap and re-cut)."""
        request = failure.request  # type: ignore[attr-defined]
        run = self._runs.for_meta(request.meta)
        run.outstanding -= 1
        try:
            if run.stopped:
                return
            if isinstance(failure.value, HttpError):
                response = failure.value.response
                message = scrub(error_message(response.body))
                cap = result_cap_from_message(message) if response.status == 422 else None
                if cap is not None and not request.meta.get(META_FIRST) and cap < self.planner.result_cap:
                    yield from self._recut(run, request, cap)
                    return
                self._fail(run, f"GitHub answered {response.status}: {message}", url=request.url)
            elif failure.check(OffHostRequest):
                # The guard logged the URL once; this line says what it cost, not where it went.
                self._fail(run, "GitHub sent it to another host, which the GitHub host guard refused")
            elif failure.check(WaitInterrupted):
                run.stopped = run.interrupted = True  # closing; the next run starts it again
                logger.info("Search %r interrupted while waiting for the rate limit", run.cfg.query)
            elif failure.check(IgnoreRequest):
                self._fail(run, f"request dropped: {failure.getErrorMessage()}", url=request.url)
            else:
                error = f"{type(failure.value).__name__}: {failure.getErrorMessage()}"
                self._fail(run, error, url=request.url)
        finally:
            self._maybe_finish(run)

    def _recut(self, run: SearchRun, request: scrapy.Request, cap: int) -> Iterator[scrapy.Request]:
        """A page past the cap (the server's cap is lower than ours): cut its slice and go on."""
        logger.warning("GitHub serves only %d results per search (setting: %d); re-cutting %r",
                       cap, self.planner.result_cap, run.cfg.query)  # fmt: skip
        part = run.part(request.meta)
        total = int(request.meta.get(META_SLICE_TOTAL) or cap * 2)
        parts = self.planner.recut(run.sliced, part, total, cap)
        if not parts:
            run.unreachable += max(0, total - cap)
            self._stat("results_unreachable", max(0, total - cap))
            return
        # Results already collected from this slice come again: the seen set drops them.
        yield from self._slices(run, part, parts, total)

    def _fail(self, run: SearchRun, reason: str, *, url: str | None = None, sent: bool = True) -> None:
        self._stat("queries_failed")
        run.fail(reason, url=url, sent=sent)

    def _maybe_finish(self, run: SearchRun) -> None:
        if run.finish():
            self.pages.mark_finished(run.cfg.key)

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
        for run in self._runs.values():
            # Nothing is pending when the spider is idle; a count still open belongs to a
            # request the scheduler dropped (a copy resumed from the frontier after a crash).
            run.outstanding = 0
            self._maybe_finish(run)
        failed = [r.cfg.query for r in self._runs.values() if r.failed]
        if failed:
            raise CloseSpider("query_failed")

    def _closed(self, reason: str) -> None:
        for run in self._runs.values():
            if not run.finished and not run.failed:
                logger.warning("Search %r did not finish (crawl closed: %s)", run.cfg.query, reason)
        if self._pages is not None:
            self._pages.close()
