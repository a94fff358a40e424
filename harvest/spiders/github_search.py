"""The ``github_search`` spider: every result of GitHub repository searches, with their READMEs.

``scrapy crawl github_search`` runs the searches of ``spiders_config/github_search.yaml``;
``-a query="topic:web-scraping language:python"`` runs one search instead (with
``-a max_results=N``, ``-a sort=stars``, ``-a order=asc``, ``-a readmes=false``; the last
four also apply to the configured searches when given alone).

How a search is collected:

- Its first page (``per_page`` from ``HARVEST_GITHUB_PER_PAGE``) gives ``total_count``. When more
  results exist than GitHub lets a search reach (``HARVEST_GITHUB_RESULT_CAP``, or fewer when the
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
from dataclasses import dataclass, field, replace
from datetime import date
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import quote, urlencode

import scrapy
from pydantic import ValidationError
from scrapy import signals
from scrapy.exceptions import CloseSpider, IgnoreRequest
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.config import SpiderConfig, parse_bool
from harvest.config.github_search import GithubQueryConfig, GithubSearchConfig
from harvest.exceptions import ConfigError
from harvest.fingerprints import utc_now
from harvest.github import github_token, state_dir, token_digest
from harvest.github.hosts import OffHostRequest
from harvest.github.middleware import (
    META_ETAG,
    META_LAST_MODIFIED,
    META_MEMO,
    META_NOT_MODIFIED,
    WaitInterrupted,
)
from harvest.github.planner import SearchMemo, SlicePlan, SlicePlanner
from harvest.github.query import Slice, SlicedQuery, parse_query, query_problems
from harvest.github.readme import api_readme, readme_document
from harvest.github.validators import PageValidators
from harvest.items import DocumentItem, RepoItem
from harvest.parsers.github_api import (
    SearchPage,
    error_message,
    load_json,
    parse_link_header,
    parse_search_page,
    repo_item,
    repo_key,
    result_cap_from_message,
)
from harvest.redaction import scrub
from harvest.spiders.base import HarvestSpider

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


@dataclass
class _Run:
    """One search being collected in this process."""

    cfg: GithubQueryConfig
    sliced: SlicedQuery
    seen: set[str] = field(default_factory=set)
    items: int = 0
    counted: int = 0
    outstanding: int = 0
    pages: int = 0
    not_modified: int = 0
    slices: int = 1
    splits: int = 0
    unreachable: int = 0
    incomplete: int = 0
    failed: str | None = None
    stopped: bool = False
    interrupted: bool = False
    finished: bool = False
    started: float = field(default_factory=time.monotonic)


def _argument_overrides(arguments: dict[str, str]) -> dict[str, Any]:
    """The query fields ``-a max_results/sort/order/readmes`` set (ConfigError naming bad ones)."""
    overrides: dict[str, Any] = {}
    problems: list[tuple[str, str]] = []
    if "max_results" in arguments:
        text = arguments["max_results"].strip().lower()
        if text in {"", "all", "none", "0"}:
            overrides["max_results"] = None
        elif text.isdigit():
            overrides["max_results"] = int(text)
        else:
            problems.append(("-a max_results", f"expected a positive number or 'all', got {text!r}"))
    for name in ("sort", "order"):
        if name in arguments:
            overrides[name] = arguments[name].strip()
    if "readmes" in arguments:
        try:
            overrides["readmes"] = parse_bool(arguments["readmes"], "-a readmes")
        except ValueError as exc:
            problems.append(("-a readmes", str(exc)))
    if problems:
        raise ConfigError("spider arguments of 'github_search'", problems)
    return overrides


def _queries(
    config: GithubSearchConfig, query: str | None, overrides: dict[str, Any]
) -> list[GithubQueryConfig]:
    """``-a query`` alone, else the configured searches; ``overrides`` applied to each."""
    try:
        if query is not None:
            return [GithubQueryConfig(query=query, **overrides)]
        queries = [q.model_copy(update={}) for q in config.queries]
        for q in queries:
            for key, value in overrides.items():
                setattr(q, key, value)  # validate_assignment checks each value
        return queries
    except ValidationError as exc:
        raise ConfigError(
            "spider arguments of 'github_search'",
            [(f"-a {'.'.join(str(p) for p in e['loc']) or 'query'}", e["msg"]) for e in exc.errors()],
        ) from None


class GithubSearchSpider(HarvestSpider):
    """Repository searches through the GitHub REST API (see the module docstring).

    Settings: ``GITHUB_API_URL``, ``GITHUB_WEB_URL``, ``HARVEST_GITHUB_*``.
    """

    name = "github_search"
    config_model = GithubSearchConfig
    arguments: ClassVar[frozenset[str]] = frozenset({"query", "max_results", "sort", "order", "readmes"})
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
    def apply_arguments(cls, config: SpiderConfig, arguments: dict[str, str]) -> SpiderConfig:
        """``-a query`` replaces the configured searches; the other arguments apply to each."""
        assert isinstance(config, GithubSearchConfig)
        queries = _queries(config, arguments.get("query"), _argument_overrides(arguments))
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
        spider.per_page = settings.getint("HARVEST_GITHUB_PER_PAGE")
        spider.planner = SlicePlanner(
            result_cap=settings.getint("HARVEST_GITHUB_RESULT_CAP"),
            created_floor=date.fromisoformat(settings.get("HARVEST_GITHUB_CREATED_FLOOR")),
        )
        spider.incomplete_retries = settings.getint("HARVEST_GITHUB_INCOMPLETE_RETRIES")
        spider.max_query_length = settings.getint("HARVEST_GITHUB_MAX_QUERY_LENGTH")
        spider.max_operators = settings.getint("HARVEST_GITHUB_MAX_OPERATORS")
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
        self._runs: dict[str, _Run] = {}
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

    def _run_for(self, meta: dict[str, Any]) -> _Run:
        """The run a request belongs to (rebuilt from meta for a request resumed after a crash)."""
        key = meta["query_key"]
        run = self._runs.get(key)
        if run is None:
            cfg = GithubQueryConfig.model_validate(meta["query_cfg"])
            run = self._runs[key] = _Run(cfg, parse_query(cfg.query))
        return run

    def _store_after(self, response: Response, memo: SearchMemo, items: Sequence[object]) -> None:
        """Store the page's validator with ``memo`` once its ``items`` are stored."""
        meta = response.meta
        self.pages.store_after(response.url, meta.get(META_ETAG), meta.get(META_LAST_MODIFIED), memo, items)

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
                meta={"github_resource": None, "github_conditional": False},
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
            run = self._runs[cfg.key] = _Run(cfg, parse_query(cfg.query))
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
        run: _Run,
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
                "query_key": run.cfg.key,
                "query_cfg": run.cfg.model_dump(),
                "slice": part.to_meta() if part is not None else None,
                "first": first,
                "incomplete_tries": tries,
                "slice_total": total,
                "github_conditional": conditional,
                "harvest_kind": "listing",
                "harvest_validator_key": self.token_key,
                "handle_httpstatus_list": [304],
            },
        )

    # --- search pages --------------------------------------------------------------------------
    def parse_search(self, response: Response) -> Iterator[Any]:
        """One search page: items (and README requests), the next page, or the slices."""
        run = self._run_for(response.meta)
        run.outstanding -= 1
        try:
            if run.stopped:
                return
            if response.status == 304 or response.meta.get(META_NOT_MODIFIED):
                yield from self._not_modified(run, response)
            else:
                yield from self._page(run, response)
        finally:
            self._maybe_finish(run)

    def _part(self, run: _Run, meta: dict[str, Any]) -> Slice:
        return Slice.from_meta(meta["slice"]) if meta.get("slice") else run.sliced.root

    def _not_modified(self, run: _Run, response: Response) -> Iterator[Any]:
        """A page unchanged since the last run: walk on as its stored memo says."""
        meta = response.meta
        memo = SearchMemo.from_dict(meta.get(META_MEMO))
        run.not_modified += 1
        run.pages += 1
        self._stat("pages_not_modified")
        if meta.get("first") and memo.total is None:
            # A validator without its memo (stored by an older version): fetch the page in full.
            yield self._search_request(run, self._slice_or_none(meta), url=response.url, conditional=False)
            return
        if meta.get("first") and memo.parts:
            run.splits += 1
            yield from self._slices(run, self._part(run, meta), memo.parts, memo.total)
            return
        run.counted += memo.count
        if memo.next_url and not self._limit_reached(run):
            total = memo.total if memo.total is not None else meta.get("slice_total")
            yield self._search_request(run, self._slice_or_none(meta), url=memo.next_url, first=False,
                                       total=total)  # fmt: skip

    def _slice_or_none(self, meta: dict[str, Any]) -> Slice | None:
        return Slice.from_meta(meta["slice"]) if meta.get("slice") else None

    def _limit_reached(self, run: _Run) -> bool:
        limit = run.cfg.max_results
        if limit is not None and run.counted >= limit:
            run.stopped = True
            return True
        return False

    def _page(self, run: _Run, response: Response) -> Iterator[Any]:
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
        if response.meta.get("first"):
            plan = self._plan(run, response, page, links)
            memo = replace(memo, cap=plan.cap, parts=plan.parts)
            if plan.parts:
                if not page.incomplete_results:
                    self._store_after(response, memo, [])
                run.splits += 1
                yield from self._slices(run, self._part(run, response.meta), plan.parts, page.total_count)
                return
        yield from self._collect(run, response, page, memo)

    def _read_page(self, run: _Run, response: Response) -> SearchPage | None:
        """The page's results; None (and the search stopped) when the answer is unreadable."""
        try:
            page = parse_search_page(load_json(response.body))
        except ValueError as exc:
            self._fail(run, f"unreadable search answer from {response.url}: {exc}")
            return None
        run.pages += 1
        self._stat("pages")
        return page

    def _ask_again(self, run: _Run, response: Response, page: SearchPage) -> scrapy.Request | None:
        """The request asking again for a page GitHub cut short; None: keep it (and count it)."""
        meta = response.meta
        tries = int(meta.get("incomplete_tries", 0))
        if tries < self.incomplete_retries:
            self._stat("incomplete_retried")
            logger.info("Search %r: GitHub timed out on %s (incomplete_results); asking again",
                        run.cfg.query, response.url)  # fmt: skip
            return self._search_request(run, self._slice_or_none(meta), url=response.url,
                                        first=bool(meta.get("first")), tries=tries + 1,
                                        total=meta.get("slice_total"), conditional=False)  # fmt: skip
        run.incomplete += 1
        self._stat("incomplete_accepted")
        logger.warning(
            "Search %r: %s was still incomplete after %d retries; keeping its %d results, "
            "some may be missing",
            run.cfg.query, response.url, tries, len(page.items),
        )  # fmt: skip
        return None

    def _plan(self, run: _Run, response: Response, page: SearchPage, links: dict[str, str]) -> SlicePlan:
        """The planner's verdict on a first page: walk it, or collect these slices instead."""
        part = self._part(run, response.meta)
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

    def _collect(self, run: _Run, response: Response, page: SearchPage, memo: SearchMemo) -> Iterator[Any]:
        """The page's new repositories (with README requests), then its next page."""
        items, follow = self._new_repos(run, page)
        self._stat("repos", len(items))
        if not page.incomplete_results:
            # An incomplete page is not remembered: the next run must fetch it in full.
            self._store_after(response, memo, items)
        yield from items
        yield from follow
        if memo.next_url and not self._limit_reached(run):
            yield self._search_request(run, self._slice_or_none(response.meta), url=memo.next_url,
                                       first=False, total=page.total_count)  # fmt: skip

    def _new_repos(self, run: _Run, page: SearchPage) -> tuple[list[RepoItem], list[scrapy.Request]]:
        """Items for the page's repositories not seen in this run, and their README requests."""
        observed = utc_now()
        items: list[RepoItem] = []
        follow: list[scrapy.Request] = []
        for raw in page.items:
            if self._limit_reached(run):
                break
            key = repo_key(raw)
            if key is None or key in run.seen:
                continue
            item = repo_item(raw, query=run.cfg.query, observed_at=observed)
            if item is None:
                continue
            run.seen.add(key)
            run.counted += 1
            run.items += 1
            items.append(item)
            if run.cfg.readmes and item.repo.lower() not in self._readmes_requested:
                self._readmes_requested.add(item.repo.lower())
                follow.append(self._readme_request(item.repo))
        return items, follow

    def _slices(
        self, run: _Run, parent: Slice, parts: Sequence[Slice], total: int | None
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
        run = self._run_for(request.meta)
        run.outstanding -= 1
        try:
            if run.stopped:
                return
            if isinstance(failure.value, HttpError):
                response = failure.value.response
                message = scrub(error_message(response.body))
                cap = result_cap_from_message(message) if response.status == 422 else None
                if cap is not None and not request.meta.get("first") and cap < self.planner.result_cap:
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

    def _recut(self, run: _Run, request: scrapy.Request, cap: int) -> Iterator[scrapy.Request]:
        """A page past the cap (the server's cap is lower than ours): cut its slice and go on."""
        logger.warning("GitHub serves only %d results per search (setting: %d); re-cutting %r",
                       cap, self.planner.result_cap, run.cfg.query)  # fmt: skip
        part = self._part(run, request.meta)
        total = int(request.meta.get("slice_total") or cap * 2)
        parts = self.planner.recut(run.sliced, part, total, cap)
        if not parts:
            run.unreachable += max(0, total - cap)
            self._stat("results_unreachable", max(0, total - cap))
            return
        # Results already collected from this slice come again: the seen set drops them.
        yield from self._slices(run, part, parts, total)

    def _fail(self, run: _Run, reason: str, *, url: str | None = None, sent: bool = True) -> None:
        run.failed = reason
        run.stopped = True
        self._stat("queries_failed")
        where = f" ({url})" if url else ""
        logger.error(
            "Search %r failed: %s%s. This search stops here; the other searches go on.",
            run.cfg.query, reason, where if sent else "",
        )  # fmt: skip

    def _maybe_finish(self, run: _Run) -> None:
        if run.finished or run.outstanding > 0:
            return
        run.finished = True
        took = time.monotonic() - run.started
        if run.failed:
            return
        if run.interrupted:
            return  # not done, and not recorded as done
        logger.info(
            "Search %r: done in %.1f s: %d repositories, %d pages (%d unchanged), %d slices%s%s",
            run.cfg.query, took, run.items, run.pages, run.not_modified, run.slices,
            f", {run.unreachable} results unreachable" if run.unreachable else "",
            f", {run.incomplete} incomplete pages kept" if run.incomplete else "",
        )  # fmt: skip
        if not run.incomplete:
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
                "harvest_kind": "document",
                "harvest_ttl": self.config.readme_revisit,
                "harvest_validator_key": self.token_key,
                # Revisits of a stored README are RevisitMiddleware's, as for the trending spider.
                "github_conditional": False,
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
