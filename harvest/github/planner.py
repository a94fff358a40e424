"""Planning a repository search past GitHub's result cap, and what a search page's ETag keeps.

GitHub serves at most :data:`harvest.github.limits.RESULT_CAP` results of one search (1000 today), however
large its ``total_count``. :class:`SlicePlanner` decides, from the first page of a search (or of
a slice of it), whether the results past the cap must be reached by cutting the search into
``created:`` / ``stars:`` slices (:func:`harvest.github.query.split_slice`), and where. It learns
a lower cap from the server's own answers (its ``Link: rel="last"`` page, a 422 naming the cap)
and keeps it for the rest of the run.

:class:`SearchMemo` is what a search page's ETag is stored with
(:class:`harvest.github.validators.ValidatorStore`): on a 304 the body is not sent, yet the
spider still has to walk the same next page and the same slices as the run that stored it.
A first page's plan is remembered there too, so the next run asks for the same slices, whose
pages then answer 304 instead of being cut anew at other dates.

Pure decisions over typed data: no Scrapy, no I/O. The spider asks, then decides what to request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any
from urllib.parse import parse_qs, urlsplit

from harvest.github.query import Slice, SlicedQuery, split_slice
from harvest.parsers.github_api import SearchPage

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchMemo:
    """What a search page's validator is stored with, for walking on after a 304.

    The stored form (:meth:`to_dict`) keeps the keys the first versions wrote (``total``, ``n``,
    ``next``, ``cap``, ``parts``): state written by any version reads back the same, and a
    process of an older version sharing the data folder reads what this one writes.
    """

    #: ``total_count`` of the search (or slice) the page belongs to; None when unknown: a
    #: validator stored without a memo, whose first page must then be fetched in full.
    total: int | None = None
    #: Results the page held (counted towards ``max_results`` when the page answers 304).
    count: int = 0
    #: The ``Link: rel="next"`` URL (None on the last page).
    next_url: str | None = None
    #: The result cap in force when the first page was read (first pages only; informative).
    cap: int | None = None
    #: The slices a first page's search was cut into (empty: the search was walked whole).
    parts: tuple[Slice, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data for the validator store and request meta."""
        data: dict[str, Any] = {"total": self.total, "n": self.count, "next": self.next_url}
        if self.cap is not None:
            data["cap"] = self.cap
        if self.parts:
            data["parts"] = [part.to_meta() for part in self.parts]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> SearchMemo:
        """Inverse of :meth:`to_dict`, for every memo stored so far.

        Missing keys take their defaults (older versions stored fewer). A memo that cannot be
        read (a value of the wrong type, a slice bound that is no date) reads as unknown, so
        its page is fetched in full rather than walked wrongly.
        """
        if not data:
            return cls()
        try:
            return cls(
                total=_optional_int(data.get("total")),
                count=_optional_int(data.get("n")) or 0,
                next_url=_optional_str(data.get("next")),
                cap=_optional_int(data.get("cap")),
                parts=tuple(Slice.from_meta(_mapping(p)) for p in data.get("parts") or ()),
            )
        except (TypeError, ValueError):
            logger.debug("Unreadable search memo %r: the page will be fetched in full", data)
            return cls()


def _optional_int(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _optional_str(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected a slice object, got {value!r}")
    return value


@dataclass(frozen=True)
class SlicePlan:
    """What to do with the results of a first page (see :meth:`SlicePlanner.plan`)."""

    #: Results of one search (or slice) the API serves.
    cap: int
    #: The slices to collect instead of walking this search's pages; empty: walk its pages.
    parts: tuple[Slice, ...] = ()
    #: True when ``parts`` is the plan remembered from the last run, not a new cut.
    reused: bool = False
    #: Results past the cap that no slice can reach (a single day and star count over the cap).
    unreachable: int = 0


def _tomorrow() -> date:
    # Tomorrow in UTC: the newest repositories (created "today" anywhere on Earth) stay inside
    # the last slice's range.
    return datetime.now(timezone.utc).date() + timedelta(days=1)


@dataclass
class SlicePlanner:
    """Where to cut searches over the result cap, for one run (it learns lower caps as it goes)."""

    #: Results per search the API serves; lowered when the server shows a lower one.
    result_cap: int
    #: The open lower end of ``created:`` ranges (no repository is older).
    created_floor: date
    #: The open upper end of ``created:`` ranges (injectable for tests).
    today: Callable[[], date] = field(default=_tomorrow)

    def reachable(self, total: int, served: int, links: Mapping[str, str]) -> int:
        """How many results the API serves for a search: the cap, or fewer as its links show.

        ``served`` is the number of results on the first page, ``links`` its ``Link`` header.
        A lower cap learnt here holds for the rest of the run.
        """
        cap = self.result_cap
        if not links.get("next"):
            reachable = served  # page 1 is all the API will serve of this search
        else:
            try:
                last_page = int(parse_qs(urlsplit(links.get("last", "")).query)["page"][0])
            except (KeyError, ValueError, IndexError):
                return cap
            # Pages as the server cuts them (it may serve fewer per page than asked).
            reachable = last_page * max(1, served)
        if total > reachable and reachable < cap:
            logger.info("GitHub serves at most %d results per search here (setting: %d)", reachable, cap)
            self.result_cap = reachable
        return min(cap, reachable)

    def plan(
        self,
        sliced: SlicedQuery,
        part: Slice,
        page: SearchPage,
        links: Mapping[str, str],
        *,
        max_results: int | None,
        remembered: Callable[[], SearchMemo | None],
    ) -> SlicePlan:
        """The plan for a search (or slice) whose first page is ``page``.

        Only a complete page teaches the cap (one cut short by a timeout says nothing about it).
        Slices are planned only when more results exist than the cap and more are wanted;
        ``remembered`` (called only then) gives the memo the last run stored for this page,
        whose plan is reused as is.
        """
        cap = self.result_cap
        if not page.incomplete_results:
            cap = self.reachable(page.total_count, len(page.items), links)
        if page.total_count <= cap or (max_results is not None and max_results <= cap):
            return SlicePlan(cap)
        previous = remembered()
        if previous is not None and previous.parts:
            return SlicePlan(cap, parts=previous.parts, reused=True)
        dates, stars = _samples(page.items)
        parts = self._split(sliced, part, page.total_count, cap, dates, stars)
        if not parts:
            return SlicePlan(cap, unreachable=page.total_count - cap)
        return SlicePlan(cap, parts=parts)

    def recut(self, sliced: SlicedQuery, part: Slice, total: int, cap: int) -> tuple[Slice, ...]:
        """Slices of ``part`` after the server named a lower ``cap`` (a 422 past it).

        The lower cap holds for the rest of the run. No sample is at hand (the page was
        refused), so the ranges are cut evenly. Empty: ``part`` cannot be cut further.
        """
        self.result_cap = cap
        return self._split(sliced, part, total, cap, [], [])

    def _split(
        self, sliced: SlicedQuery, part: Slice, total: int, cap: int, dates: list[date], stars: list[int]
    ) -> tuple[Slice, ...]:
        return tuple(
            split_slice(
                sliced, part, total=total, cap=cap, floor=self.created_floor, today=self.today(),
                sample_dates=dates, sample_stars=stars,
            )
        )  # fmt: skip


def _samples(items: Sequence[Mapping[str, Any]]) -> tuple[list[date], list[int]]:
    """Creation dates and star counts of a page's results, where the cuts are placed."""
    dates: list[date] = []
    stars: list[int] = []
    for raw in items:
        created = raw.get("created_at")
        if isinstance(created, str) and len(created) >= 10:
            try:
                dates.append(date.fromisoformat(created[:10]))
            except ValueError:
                pass
        count = raw.get("stargazers_count")
        if isinstance(count, int):
            stars.append(count)
    return dates, stars
