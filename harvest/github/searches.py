"""The searches of one github_search crawl: what each search page's answer means for its search.

:class:`Searches` starts the due searches and reads every answer to a search page: a 304 walked
on as its stored memo says, a page asked again while GitHub cut it short, a first page cut into
slices past the result cap (:class:`~harvest.github.planner.SlicePlanner` decides where), the
new repositories of a page and its next page; a failed page stops its search, or re-cuts its
slice when the server names a lower cap. It answers with what to fetch next (:class:`PageAsk`,
:class:`ReadmeAsk`) and the items; the spider turns those into requests.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, Any, TypeAlias

from scrapy.exceptions import IgnoreRequest
from scrapy.spidermiddlewares.httperror import HttpError

from harvest.config.settings_model import retired_value
from harvest.fingerprints import utc_now
from harvest.github import limits
from harvest.github.grants import WaitInterrupted
from harvest.github.hosts import OffHostRequest
from harvest.github.planner import SearchMemo, SlicePlan, SlicePlanner
from harvest.github.query import Slice
from harvest.github.runs import SearchRun, SearchRuns
from harvest.meta import (
    META_FIRST,
    META_GITHUB_ETAG,
    META_GITHUB_LAST_MODIFIED,
    META_GITHUB_MEMO,
    META_GITHUB_NOT_MODIFIED,
    META_INCOMPLETE_TRIES,
    META_SLICE,
    META_SLICE_TOTAL,
)
from harvest.parsers.github_api import (
    SearchPage,
    error_message,
    load_json,
    parse_link_header,
    parse_search_page,
    result_cap_from_message,
)
from harvest.util.redaction import scrub

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from twisted.python.failure import Failure

    from harvest.config.github_search import GithubQueryConfig
    from harvest.github.validators import PageValidators
    from harvest.items import RepoItem

logger = logging.getLogger(__name__)

_STATS = "harvest/github_search"


@dataclass(frozen=True)
class PageAsk:
    """A search page to request: of ``run``, in the slice ``part`` (None: the whole search).

    ``url`` None: the slice's first page, built from the query; else the URL GitHub named.
    """

    run: SearchRun
    part: Slice | None
    url: str | None = None
    first: bool = True
    tries: int = 0
    total: int | None = None
    conditional: bool = True


@dataclass(frozen=True)
class ReadmeAsk:
    """The README of ``repo`` (``owner/name``) to request: asked once per crawl process."""

    repo: str


if TYPE_CHECKING:
    #: What reading an answer yields: pages and READMEs to ask for, and items.
    Step: TypeAlias = PageAsk | ReadmeAsk | RepoItem


class Searches:
    """The searches of this crawl process, by key, and what their pages' answers mean.

    Settings: ``HARVEST_GITHUB_INCOMPLETE_RETRIES`` (and the retired names of GitHub's limits).
    """

    def __init__(
        self,
        pages: PageValidators,
        planner: SlicePlanner,
        *,
        incomplete_retries: int = 2,
        max_query_length: int = limits.MAX_QUERY_LENGTH,
        max_operators: int = limits.MAX_OPERATORS,
        crawler: Crawler | None = None,
    ) -> None:
        self.pages = pages
        self.planner = planner
        self.incomplete_retries = incomplete_retries
        # Its stats collector exists once the crawl starts, after the spider was built.
        self.crawler = crawler
        self.runs = SearchRuns(pages, max_query_length=max_query_length, max_operators=max_operators,
                               stat=self._stat)  # fmt: skip
        self._readmes_requested: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler, pages: PageValidators) -> Searches:
        """Built from the crawl's settings, storing page validators in ``pages``."""
        settings = crawler.settings
        planner = SlicePlanner(
            result_cap=retired_value(settings, "HARVEST_GITHUB_RESULT_CAP", limits.RESULT_CAP),
            created_floor=date.fromisoformat(
                retired_value(settings, "HARVEST_GITHUB_CREATED_FLOOR", limits.CREATED_FLOOR)
            ),
        )
        return cls(
            pages,
            planner,
            incomplete_retries=settings.getint("HARVEST_GITHUB_INCOMPLETE_RETRIES"),
            max_query_length=retired_value(
                settings, "HARVEST_GITHUB_MAX_QUERY_LENGTH", limits.MAX_QUERY_LENGTH
            ),
            max_operators=retired_value(settings, "HARVEST_GITHUB_MAX_OPERATORS", limits.MAX_OPERATORS),
            crawler=crawler,
        )

    def _stat(self, key: str, count: int = 1) -> None:
        if self.crawler is not None and self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"{_STATS}/{key}", count)

    @staticmethod
    def _ask(run: SearchRun, part: Slice | None, **how: Any) -> PageAsk:
        run.outstanding += 1  # until its answer (or failure) is read
        return PageAsk(run, part, **how)

    # --- start ---------------------------------------------------------------------------------
    def start(self, queries: Sequence[GithubQueryConfig]) -> Iterator[PageAsk]:
        """The first page of every search that is valid and due (not fresh)."""
        for cfg in queries:
            if (run := self.runs.begin(cfg)) is not None:
                yield self._ask(run, None)

    # --- search pages --------------------------------------------------------------------------
    def answer(self, response: Response) -> Iterator[Step]:
        """One search page: items (and README asks), the next page, or the slices."""
        run = self.runs.for_meta(response.meta)
        run.outstanding -= 1
        try:
            if run.stopped:
                return
            if response.status == 304 or response.meta.get(META_GITHUB_NOT_MODIFIED):
                yield from self._not_modified(run, response)
            else:
                yield from self._page(run, response)
        finally:
            self.runs.maybe_finish(run)

    def _not_modified(self, run: SearchRun, response: Response) -> Iterator[PageAsk]:
        """A page unchanged since the last run: walk on as its stored memo says."""
        meta = response.meta
        memo = SearchMemo.from_dict(meta.get(META_GITHUB_MEMO))
        run.not_modified += 1
        run.pages += 1
        self._stat("pages_not_modified")
        if meta.get(META_FIRST) and memo.total is None:
            # A validator without its memo (stored by an older version): fetch the page in full.
            yield self._ask(run, SearchRun.slice_or_none(meta), url=response.url, conditional=False)
            return
        if meta.get(META_FIRST) and memo.parts:
            run.splits += 1
            yield from self._slices(run, run.part(meta), memo.parts, memo.total)
            return
        run.counted += memo.count
        if memo.next_url and not run.limit_reached():
            total = memo.total if memo.total is not None else meta.get(META_SLICE_TOTAL)
            yield self._ask(run, SearchRun.slice_or_none(meta), url=memo.next_url, first=False, total=total)

    def _page(self, run: SearchRun, response: Response) -> Iterator[Step]:
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
        if response.meta.get(META_FIRST) and not response.meta.get(META_SLICE) and page.total_count == 0:
            # Named in the stats so the report lists a query that found nothing, not only ones
            # that did (it said "1 query" of the 2 configured).
            self._stat(f"no_results/{run.cfg.query}")
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
            self.runs.fail(run, f"unreadable search answer from {response.url}: {exc}")
            return None
        run.pages += 1
        self._stat("pages")
        return page

    def _ask_again(self, run: SearchRun, response: Response, page: SearchPage) -> PageAsk | None:
        """The page GitHub cut short, asked again; None: keep it (and count it)."""
        meta = response.meta
        tries = int(meta.get(META_INCOMPLETE_TRIES, 0))
        if tries < self.incomplete_retries:
            self._stat("incomplete_retried")
            logger.info("Search %r: GitHub timed out on %s (incomplete_results); asking again",
                        run.cfg.query, response.url)  # fmt: skip
            return self._ask(run, SearchRun.slice_or_none(meta), url=response.url,
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
    ) -> Iterator[Step]:
        """The page's new repositories (with README asks), then its next page."""
        items, readmes = self._new_repos(run, page)
        self._stat("repos", len(items))
        if not page.incomplete_results:
            # An incomplete page is not remembered: the next run must fetch it in full.
            self._store_after(response, memo, items)
        yield from items
        yield from readmes
        if memo.next_url and not run.limit_reached():
            yield self._ask(run, SearchRun.slice_or_none(response.meta), url=memo.next_url, first=False,
                            total=page.total_count)  # fmt: skip

    def _new_repos(self, run: SearchRun, page: SearchPage) -> tuple[list[RepoItem], list[ReadmeAsk]]:
        """Items for the page's repositories not seen in this run, and their README asks."""
        items = run.new_repos(page, utc_now())
        readmes: list[ReadmeAsk] = []
        if run.cfg.readmes:
            for item in items:
                if item.repo.lower() not in self._readmes_requested:
                    self._readmes_requested.add(item.repo.lower())
                    readmes.append(ReadmeAsk(item.repo))
        return items, readmes

    def _store_after(self, response: Response, memo: SearchMemo, items: Sequence[object]) -> None:
        """Store the page's validator with ``memo`` once its ``items`` are stored."""
        meta = response.meta
        self.pages.store_after(
            response.url, meta.get(META_GITHUB_ETAG), meta.get(META_GITHUB_LAST_MODIFIED), memo, items
        )

    def _slices(
        self, run: SearchRun, parent: Slice, parts: Sequence[Slice], total: int | None
    ) -> Iterator[PageAsk]:
        run.slices += len(parts) - 1
        self._stat("splits")
        self._stat("slices", len(parts))
        logger.info("Search %r: %s results in %r, cut into %d slices",
                    run.cfg.query, total, parent.qualifiers() or "(all)", len(parts))  # fmt: skip
        for part in parts:
            yield self._ask(run, part)

    # --- failures ------------------------------------------------------------------------------
    def failed(self, failure: Failure) -> Iterator[PageAsk]:
        """A search page that failed for good: stop that search (or learn a lower cap and re-cut)."""
        request = failure.request  # type: ignore[attr-defined]
        run = self.runs.for_meta(request.meta)
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
                self.runs.fail(run, f"GitHub answered {response.status}: {message}", url=request.url)
            elif failure.check(OffHostRequest):
                # The guard logged the URL once; this line says what it cost, not where it went.
                self.runs.fail(run, "GitHub sent it to another host, which the GitHub host guard refused")
            elif failure.check(WaitInterrupted):
                run.stopped = run.interrupted = True  # closing; the next run starts it again
                logger.info("Search %r interrupted while waiting for the rate limit", run.cfg.query)
            elif failure.check(IgnoreRequest):
                self.runs.fail(run, f"request dropped: {failure.getErrorMessage()}", url=request.url)
            else:
                error = f"{type(failure.value).__name__}: {failure.getErrorMessage()}"
                self.runs.fail(run, error, url=request.url)
        finally:
            self.runs.maybe_finish(run)

    def _recut(self, run: SearchRun, request: Request, cap: int) -> Iterator[PageAsk]:
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
