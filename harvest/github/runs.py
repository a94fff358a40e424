"""One repository search being collected by github_search: its typed run state.

A run counts what its pages brought (repositories, pages, unchanged pages, slices, results out
of reach), keeps the repositories it has seen (a repository in two slices is one item), knows
when it reached ``max_results``, and says how it ended. :class:`SearchRuns` holds the runs of
this process: it starts a search when its query is valid and it is due, and records one that
ran to its end. The spider does the requesting; the requests a run sends carry what rebuilds it
after a crash (its key and config in their meta).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import CloseSpider

from harvest.config.github_search import GithubQueryConfig
from harvest.github import limits
from harvest.github.query import Slice, SlicedQuery, parse_query, query_problems
from harvest.github.repos import repo_item
from harvest.meta import (
    META_FIRST,
    META_GITHUB_CONDITIONAL,
    META_INCOMPLETE_TRIES,
    META_KIND,
    META_QUERY_CFG,
    META_QUERY_KEY,
    META_SLICE,
    META_SLICE_TOTAL,
)
from harvest.parsers.github_api import repo_key

if TYPE_CHECKING:
    from harvest.github.validators import PageValidators
    from harvest.items import RepoItem
    from harvest.parsers.github_api import SearchPage

logger = logging.getLogger(__name__)


@dataclass
class SearchRun:
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

    @classmethod
    def of(cls, cfg: GithubQueryConfig) -> SearchRun:
        """A new run of the search ``cfg``."""
        return cls(cfg, parse_query(cfg.query))

    def part(self, meta: dict[str, Any]) -> Slice:
        """The slice a request searches (the whole query when it names none)."""
        return Slice.from_meta(meta[META_SLICE]) if meta.get(META_SLICE) else self.sliced.root

    @staticmethod
    def slice_or_none(meta: dict[str, Any]) -> Slice | None:
        """The slice a request names, if any."""
        return Slice.from_meta(meta[META_SLICE]) if meta.get(META_SLICE) else None

    def limit_reached(self) -> bool:
        """Whether ``max_results`` are counted (the run then stops)."""
        limit = self.cfg.max_results
        if limit is not None and self.counted >= limit:
            self.stopped = True
            return True
        return False

    def new_repos(self, page: SearchPage, observed_at: str) -> list[RepoItem]:
        """Items for the page's repositories this run has not seen, up to ``max_results``."""
        items: list[RepoItem] = []
        for raw in page.items:
            if self.limit_reached():
                break
            key = repo_key(raw)
            if key is None or key in self.seen:
                continue
            item = repo_item(raw, query=self.cfg.query, observed_at=observed_at)
            if item is None:
                continue
            self.seen.add(key)
            self.counted += 1
            self.items += 1
            items.append(item)
        return items

    def request_meta(
        self, part: Slice | None, *, first: bool, tries: int, total: int | None, conditional: bool
    ) -> dict[str, Any]:
        """The meta of one of this run's search requests: what rebuilds the run after a crash."""
        return {
            META_QUERY_KEY: self.cfg.key,
            META_QUERY_CFG: self.cfg.model_dump(),
            META_SLICE: part.to_meta() if part is not None else None,
            META_FIRST: first,
            META_INCOMPLETE_TRIES: tries,
            META_SLICE_TOTAL: total,
            META_GITHUB_CONDITIONAL: conditional,
            META_KIND: "listing",
        }

    def fail(self, reason: str, *, url: str | None = None, sent: bool = True) -> None:
        """Stop this search for ``reason`` (the others go on)."""
        self.failed = reason
        self.stopped = True
        where = f" ({url})" if url else ""
        logger.error(
            "Search %r failed: %s%s. This search stops here; the other searches go on.",
            self.cfg.query, reason, where if sent else "",
        )  # fmt: skip

    def finish(self) -> bool:
        """End the run once nothing of it is in flight; True when it completed in full."""
        if self.finished or self.outstanding > 0:
            return False
        self.finished = True
        took = time.monotonic() - self.started
        if self.failed or self.interrupted:
            return False  # an interrupted run is not done, and not recorded as done
        logger.info(
            "Search %r: done in %.1f s: %d repositories, %d pages (%d unchanged), %d slices%s%s",
            self.cfg.query, took, self.items, self.pages, self.not_modified, self.slices,
            f", {self.unreachable} results unreachable" if self.unreachable else "",
            f", {self.incomplete} incomplete pages kept" if self.incomplete else "",
        )  # fmt: skip
        return not self.incomplete


class SearchRuns(dict[str, SearchRun]):
    """The runs of this process, by search key: started when due, failed, finished and recorded.

    ``pages`` records when a search last ran to its end (its refresh interval counts from
    then); ``stat`` counts an event under ``harvest/github_search/``.
    """

    def __init__(
        self,
        pages: PageValidators | None = None,
        *,
        max_query_length: int = limits.MAX_QUERY_LENGTH,
        max_operators: int = limits.MAX_OPERATORS,
        stat: Callable[[str], None] = lambda key: None,
    ) -> None:
        super().__init__()
        self.pages = pages
        self.max_query_length = max_query_length
        self.max_operators = max_operators
        self._stat = stat

    def begin(self, cfg: GithubQueryConfig) -> SearchRun | None:
        """The run of the search ``cfg``; None when its query is invalid (it failed) or it is fresh."""
        self._stat("queries")
        problems = query_problems(
            cfg.query, max_length=self.max_query_length, max_operators=self.max_operators
        )
        run = self[cfg.key] = SearchRun.of(cfg)
        if problems:
            self.fail(run, "; ".join(problems), sent=False)
            return None
        last = self.pages.last_finished(cfg.key) if self.pages is not None else None
        if cfg.refresh_interval and last is not None and time.time() - last < cfg.refresh_interval:
            logger.info(
                "Search %r is fresh (finished %.0f s ago, refreshed every %.0f s): skipped",
                cfg.query, time.time() - last, cfg.refresh_interval,
            )  # fmt: skip
            run.finished = True
            self._stat("queries_fresh")
            return None
        logger.info("Search %r: starting", cfg.query)
        return run

    def for_meta(self, meta: dict[str, Any]) -> SearchRun:
        """The run a request belongs to (rebuilt from meta for a request resumed after a crash)."""
        key = meta[META_QUERY_KEY]
        run = self.get(key)
        if run is None:
            run = self[key] = SearchRun.of(GithubQueryConfig.model_validate(meta[META_QUERY_CFG]))
        return run

    def fail(self, run: SearchRun, reason: str, *, url: str | None = None, sent: bool = True) -> None:
        """Stop ``run`` for ``reason`` (counted; the other searches go on)."""
        self._stat("queries_failed")
        run.fail(reason, url=url, sent=sent)

    def maybe_finish(self, run: SearchRun) -> None:
        """End ``run`` once nothing of it is in flight; record a complete one as done."""
        if run.finish() and self.pages is not None:
            self.pages.mark_finished(run.cfg.key)

    def idle(self) -> None:
        """Nothing left to fetch: end every run; CloseSpider(``query_failed``) if any failed."""
        for run in self.values():
            # Nothing is pending when the spider is idle; a count still open belongs to a
            # request the scheduler dropped (a copy resumed from the frontier after a crash).
            run.outstanding = 0
            self.maybe_finish(run)
        failed = [r.cfg.query for r in self.values() if r.failed]
        if failed:
            raise CloseSpider("query_failed")

    def closed(self, reason: str) -> None:
        """The crawl closed: say which searches did not finish."""
        for run in self.values():
            if not run.finished and not run.failed:
                logger.warning("Search %r did not finish (crawl closed: %s)", run.cfg.query, reason)
