"""The ``trending_history`` spider: past GitHub Trending pages, from a web archive's captures.

For every page the ``trending`` spider would fetch (``/trending[/<language>]``, its
``?since=weekly|monthly`` forms, ``/trending/developers[/<language>]``), it asks the CDX API
(``HARVEST_ARCHIVE_CDX_URL``) for the captures of the window, one a day (the archive's
``collapse=timestamp:8``), then fetches each capture's bytes from playback
(``HARVEST_ARCHIVE_WEB_URL``, ``/<timestamp>id_/<original>``) and reads it with the trending
parsers. Items are the live spider's, dated by the capture, with ``archived: true`` and the
memento as ``source_url``: one time series with the same identity as live observations.

Requests: never to GitHub itself. CDX answers of a window that has ended and captures are
documents that never change: once done they are never asked again (RevisitMiddleware, TTL
``never``), so a rerun after a kill fetches only what was not stored. The archive's limits are
ArchiveMiddleware's (shared by every process).

Captures that are not Trending pages (GitHub's "Whoa there!" abuse page, a sign-in page, an
error, an empty list, an unknown layout) are skipped and counted
(``harvest/trending_history/skipped/<why>``); a run that fetched captures and could read none
logs ERROR and closes with ``no_archived_pages`` (exit 1).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import quote, urlencode

import scrapy
from scrapy import signals
from scrapy.http import TextResponse

from harvest.config import SpiderConfig
from harvest.config.trending_history import TrendingHistoryArgs, TrendingHistoryConfig
from harvest.exceptions import ConfigError
from harvest.items import ArchivedTrendingDeveloperItem, ArchivedTrendingRepoItem
from harvest.meta import META_KIND, META_PACE, META_TTL
from harvest.parsers.trending import (
    is_abuse_page,
    is_empty_listing,
    is_sign_in_page,
    parse_trending_developers,
    parse_trending_repos,
)
from harvest.parsers.wayback import (
    archive_key,
    capture_time,
    cdx_query,
    day_stamp,
    memento_target,
    memento_url,
    parse_cdx,
)
from harvest.plumbing.closing import close_crawl
from harvest.spiders.base import HarvestSpider
from harvest.util.urls import join_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: The site whose pages the archive captured (what the CDX API is asked about).
GITHUB = "https://github.com"
_STATS = "harvest/trending_history"
#: Playback redirects followed per capture (to the same page, the same day).
_MAX_HOPS = 3
_REDIRECTS = [301, 302, 303, 307, 308]
CLOSE_REASON = "no_archived_pages"


def archived_page(language: str | None, since: str, spoken_language: str | None, developers: bool) -> str:
    """The github.com URL the archive captured for one Trending page.

    The daily page is the bare ``/trending[/<lang>]`` (what people, and so the archive, visit);
    weekly and monthly are the query ``?since=weekly|monthly``.
    """
    path = "/trending" + ("/developers" if developers else "")
    if language:
        path += f"/{quote(language, safe='+')}"
    query: dict[str, str] = {}
    if since != "daily":
        query["since"] = since
    if spoken_language and not developers:
        query["spoken_language_code"] = spoken_language
    return f"{GITHUB}{path}" + (f"?{urlencode(query)}" if query else "")


class TrendingHistorySpider(HarvestSpider):
    """GitHub Trending as it was, from the captures of a web archive (see the module docstring).

    Config: ``spiders_config/trending_history.yaml``. Arguments: ``-a from=2021-01-01
    -a to=2021-12-31``, and as for ``trending``: ``-a language=``, ``-a since=``,
    ``-a spoken_language=``, ``-a developers=``.
    """

    name = "trending_history"
    config_model: ClassVar[type[SpiderConfig]] = TrendingHistoryConfig
    args_model = TrendingHistoryArgs
    config: TrendingHistoryConfig
    #: ArchiveMiddleware paces this spider's requests by the archive's limits.
    uses_archive: ClassVar[bool] = True
    #: One observation per identity with the live spider (SiblingDedupPipeline): first stored wins.
    shares_items_with: ClassVar[tuple[str, ...]] = ("trending",)
    #: The archive's limits are the pace (ArchiveMiddleware); AutoThrottle would only add delays.
    custom_settings = {"AUTOTHROTTLE_ENABLED": False}

    #: Config field -> the ``-a`` argument that sets it, so errors name what the user typed.
    argument_fields: ClassVar[dict[str, str]] = {
        "from": "-a from",
        "to": "-a to",
        "languages": "-a language",
        "periods": "-a since",
        "spoken_language": "-a spoken_language",
        "developers": "-a developers",
    }
    #: A problem of the window as a whole (from after to) names the first day.
    argument_default: ClassVar[str] = "from"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._fetched = 0
        self._parsed = 0
        self._reported = False

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Build the spider; it checks at the end that some capture could be read."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.spider_idle, signal=signals.spider_idle)
        return spider

    @classmethod
    def fold_args(cls, config: SpiderConfig, args: TrendingHistoryArgs) -> SpiderConfig:
        """Fold ``-a from/to/language/since/spoken_language/developers`` into the YAML config."""
        data = config.model_dump(by_alias=True)
        given = args.given("start", "end", "language", "since", "spoken_language", "developers")
        for arg, field in (("start", "from"), ("end", "to"), ("language", "languages"), ("since", "periods")):
            if arg in given:
                data[field] = given.pop(arg)
        if "spoken_language" in given:
            data["spoken_language"] = (given.pop("spoken_language") or "").strip() or None
        data.update(given)
        result = TrendingHistoryConfig.model_validate(data)
        missing = [f"-a {k}" for k, v in (("from", result.start), ("to", result.end)) if v is None]
        if missing:
            why = "the window needs a day such as 2021-01-31 (or from:/to: in the YAML)"
            raise ConfigError(f"spider arguments of {cls.name!r}", [(m, why) for m in missing])
        return result

    # --- requests --------------------------------------------------------------------------

    def _window(self) -> tuple[str, str]:
        assert self.config.start is not None and self.config.end is not None  # apply_arguments
        return day_stamp(self.config.start), day_stamp(self.config.end, end=True)

    def _window_closed(self) -> bool:
        """Whether the window ended before today: its CDX answers no longer change."""
        assert self.config.end is not None
        return self.config.end < datetime.now(timezone.utc).date()

    def _cdx_request(
        self, page: str, kind: str, language: str | None, since: str, resume: str | None = None
    ) -> scrapy.Request:
        start, end = self._window()
        limit = self.settings.getint("HARVEST_ARCHIVE_CDX_LIMIT")
        url = cdx_query(
            self.settings.get("HARVEST_ARCHIVE_CDX_URL"), page, start, end, limit=limit, resume_key=resume
        )
        meta: dict[str, Any] = {META_PACE: False}
        if self._window_closed():
            # An answer about the past is a document that never changes: never asked twice.
            meta.update({META_KIND: "document", META_TTL: None})
        return scrapy.Request(
            url,
            callback=self.parse_cdx,
            errback=self.request_failed,
            cb_kwargs={"page": page, "kind": kind, "language": language, "since": since},
            meta=meta,
        )

    async def start(self) -> AsyncIterator[Any]:
        """One CDX query per page the live spider would fetch."""
        languages: list[str | None] = list(self.config.languages) or [None]
        kinds = ["repos", "developers"] if self.config.developers else ["repos"]
        for language in languages:
            for since in self.config.periods:
                for kind in kinds:
                    page = archived_page(language, since, self.config.spoken_language, kind == "developers")
                    yield self._cdx_request(page, kind, language, since)

    def _memento_request(self, timestamp: str, original: str, hops: int, **page: Any) -> scrapy.Request:
        return scrapy.Request(
            memento_url(self.settings.get("HARVEST_ARCHIVE_WEB_URL"), timestamp, original),
            callback=self.parse_memento,
            errback=self.request_failed,
            cb_kwargs={**page, "timestamp": timestamp, "hops": hops},
            meta={
                # A memento never changes: once its rows are stored it is never fetched again.
                META_KIND: "document",
                META_TTL: None,
                META_PACE: False,
                "dont_redirect": True,
                "handle_httpstatus_all": True,
            },
        )

    # --- callbacks -------------------------------------------------------------------------

    def _stat(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"{_STATS}/{key}", count)

    def _in_window(self, timestamp: str) -> bool:
        start, end = self._window()
        return start <= timestamp <= end

    def parse_cdx(
        self, response: Response, page: str, kind: str, language: str | None, since: str
    ) -> Iterator[scrapy.Request]:
        """A CDX answer -> one playback request per capture day in the window."""
        try:
            answer = parse_cdx(response.body)
        except ValueError as exc:
            logger.error("The CDX API's answer for %s is not its JSON (%s): %s", page, response.url, exc)
            self._stat("cdx_failed")
            return
        self._stat("cdx_queries")
        days: set[str] = set()
        for capture in answer.captures:
            if not self._in_window(capture.timestamp):
                self._stat("skipped/outside_window")
                continue
            if capture.day in days:
                self._stat("skipped/same_day")
                continue
            if archive_key(capture.original).split("?")[0] != archive_key(page).split("?")[0]:
                self._stat("skipped/other_page")
                continue
            days.add(capture.day)
            self._stat("captures")
            yield self._memento_request(
                capture.timestamp, capture.original, 0, page=page, kind=kind, language=language, since=since
            )
        if answer.resume_key:
            yield self._cdx_request(page, kind, language, since, answer.resume_key)
        if not answer.captures:
            logger.info("The archive has no capture of %s in the window", page)

    def _skip(self, response: Response, why: str) -> None:
        logger.info("Capture %s is not a Trending page (%s); skipped", response.url, why)
        self._stat(f"skipped/{why}")

    def _follow(
        self, response: Response, timestamp: str, hops: int, page: dict[str, Any]
    ) -> scrapy.Request | None:
        location = response.headers.get("Location")
        joined = join_url(response.url, location.decode("latin-1")) if location else None
        target = memento_target(joined) if joined else None
        if target is None or hops >= _MAX_HOPS:
            return None
        stamp, original = target
        same_page = archive_key(original) == archive_key(page["page"])
        if not same_page or stamp[:8] != timestamp[:8] or not self._in_window(stamp):
            return None
        return self._memento_request(stamp, original, hops + 1, **page)

    def parse_memento(
        self,
        response: Response,
        page: str,
        kind: str,
        language: str | None,
        since: str,
        timestamp: str,
        hops: int,
    ) -> Iterator[Any]:
        """A capture's bytes -> archived Trending items, dated by the capture."""
        self._fetched += 1
        info = {"page": page, "kind": kind, "language": language, "since": since}
        if response.status in _REDIRECTS:
            follow = self._follow(response, timestamp, hops, info)
            if follow is not None:
                self._stat("redirects_followed")
                yield follow
                self._fetched -= 1  # counted when the target arrives
            else:
                self._skip(response, "redirect")
            return
        if response.status != 200 or not isinstance(response, TextResponse):
            self._skip(response, "error" if response.status != 200 else "not_html")
            return
        html = response.text
        if is_abuse_page(html):
            self._skip(response, "abuse_page")
            return
        if is_sign_in_page(html):
            self._skip(response, "sign_in")
            return
        parse = parse_trending_developers if kind == "developers" else parse_trending_repos
        rows = parse(html, page)
        if not rows:
            self._skip(response, "empty" if is_empty_listing(html) else "no_rows")
            return
        named = [r for r in rows if (r.username if kind == "developers" else r.repo)]  # type: ignore[union-attr]
        if len(named) != len(rows):
            self._skip(response, "unnamed_rows")
            return
        self._parsed += 1
        self._stat("pages")
        self._stat("rows", len(rows))
        observed_at = capture_time(timestamp)
        yield from self._items(rows, kind, language, since, observed_at, response.url)

    def _items(
        self, rows: list[Any], kind: str, language: str | None, since: str, observed_at: str, source: str
    ) -> Iterator[Any]:
        for row in rows:
            if kind == "developers":
                yield ArchivedTrendingDeveloperItem.from_row(
                    row, since=since, language_filter=language, observed_at=observed_at, source_url=source
                )
            else:
                yield ArchivedTrendingRepoItem.from_row(
                    row,
                    since=since,
                    language_filter=language,
                    observed_at=observed_at,
                    source_url=source,
                    spoken_language=self.config.spoken_language,
                )

    def request_failed(self, failure: Failure) -> None:
        """A CDX query or a capture that could not be fetched even after retries: counted."""
        request = failure.request  # type: ignore[attr-defined]
        self._stat("failed")
        if self.retry_gave_up(request):
            return
        logger.warning("Could not fetch %s from the archive: %s", request.url, failure.getErrorMessage())

    def spider_idle(self) -> None:
        """At the end: captures fetched but none readable means the window gave nothing."""
        if self._reported or not self._fetched or self._parsed:
            return
        self._reported = True
        logger.error(
            "None of the %d captures fetched from the archive for %s..%s is a readable Trending page "
            "(see the harvest/trending_history/skipped/* stats for why); closing with %s",
            self._fetched,
            self.config.start,
            self.config.end,
            CLOSE_REASON,
        )
        close_crawl(self.crawler, CLOSE_REASON)
