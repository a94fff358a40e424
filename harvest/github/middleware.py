"""GithubApiMiddleware: authorization, rate limits and per-token conditional requests for the API.

Applies to requests under ``GITHUB_API_URL`` only; everything else passes untouched. For each one:

1. ``process_request`` adds the ``Authorization`` header (token from ``GITHUB_TOKEN``), the API
   media type and version, and ``If-None-Match`` / ``If-Modified-Since`` from the validators this
   spider stored under this token (see :mod:`harvest.github.validators`). It then waits, without
   blocking the reactor, for a grant from the shared :class:`~harvest.github.budget.RateBudget`:
   no request leaves while the token is blocked, while its budget (minus requests in flight in
   every process) is spent, or while ``HARVEST_GITHUB_CONCURRENCY`` requests are in flight.
2. ``process_response`` feeds ``x-ratelimit-*`` into the budget and removes the token from the
   request again (so retries, logs and a persisted frontier never carry it). A 403/429 that is a
   rate limit is not an error: the request goes back to the scheduler and waits for
   ``Retry-After``, else for ``x-ratelimit-reset`` when ``remaining`` is 0, else for an exponential
   backoff from ``HARVEST_GITHUB_BACKOFF_BASE`` (GitHub's documented order). A 304 reaches the
   callback with ``meta["harvest_github_not_modified"] = True`` and the stored memo in
   ``meta["harvest_github_memo"]``; a 2xx carries its ``ETag`` in ``meta["harvest_github_etag"]``
   for the spider to store once its items are safe.

Waiting for a grant is :class:`~harvest.github.grants.GrantWaits`' part, reading an answer's
rate-limit headers and the wait after a refusal :class:`~harvest.github.ratelimit.RateLimitAnswers`'.

Request meta read here: ``github_resource`` (override the rate-limit resource; None = free of
the primary limit, e.g. ``/rate_limit``), ``github_conditional`` (False: never send validators).
Listed in ``harvest/settings.py`` for every crawl, whatever starts it (``scrapy crawl``, the
fleet, scrapyd); it applies to spiders that declare ``uses_github_api`` (github_search, and
trending for its READMEs when a token is set), at order 960, after every built-in middleware, so
a grant is held only while the request is really on the wire.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy import signals

from harvest.config.settings_model import retired_value
from harvest.exceptions import NotApplicable
from harvest.github import github_token, limits, state_dir, token_digest
from harvest.github.budget import RateBudget
from harvest.github.grants import LOG_WAIT_AFTER, GrantWaits
from harvest.github.ratelimit import RateLimitAnswers, header, resource_of
from harvest.github.validators import ValidatorStore
from harvest.meta import (
    META_GITHUB_CONDITIONAL,
    META_GITHUB_ETAG,
    META_GITHUB_GRANT,
    META_GITHUB_LAST_MODIFIED,
    META_GITHUB_MEMO,
    META_GITHUB_NOT_MODIFIED,
    META_GITHUB_RATE_RETRIES,
    META_GITHUB_RESOURCE,
)
from harvest.parsers.github_api import error_message
from harvest.plumbing.capabilities import class_capabilities
from harvest.util.redaction import scrub

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

    from harvest.github.ratelimit import RateHeaders

logger = logging.getLogger(__name__)

#: How often a request waiting for another process's request polls the shared budget; the
#: requests of this process wake each other at once.
_POLL = 0.25


class GithubApiMiddleware:
    """Downloader middleware for the GitHub REST API (see the module docstring).

    Settings: ``GITHUB_API_URL``, ``HARVEST_GITHUB_CONCURRENCY``, ``HARVEST_GITHUB_BACKOFF_BASE``,
    ``HARVEST_GITHUB_BACKOFF_MAX``, ``HARVEST_GITHUB_RATE_LIMIT_RETRIES``,
    ``HARVEST_GITHUB_RESET_MARGIN``, ``HARVEST_GITHUB_STATE_DIR``.
    State: ``budget.sqlite`` and ``validators.sqlite`` in the GitHub state folder.
    """

    def __init__(
        self,
        api_url: str,
        state_path: str | Path,
        *,
        consumer: str,
        token: str | None = None,
        concurrency: int = 1,
        backoff_base: float = 60.0,
        backoff_max: float = 3600.0,
        rate_limit_retries: int = 8,
        reset_margin: float = 1.0,
        api_version: str = "",
        stale_after: float = 300.0,
        stats: StatsCollector | None = None,
        crawler: Crawler | None = None,
    ) -> None:
        parts = urlsplit(api_url.rstrip("/"))
        self._origin = (parts.scheme, parts.netloc)
        self._root = parts.path
        self.state_path = state_path
        self.consumer = consumer
        self._token = token
        self.token_key = token_digest(token)
        self.concurrency = concurrency
        self.rate_limit_retries = rate_limit_retries
        self.reset_margin = reset_margin
        self.api_version = api_version
        self.stale_after = stale_after
        self.stats = stats
        self.crawler = crawler
        self.budget: RateBudget | None = None
        self.validators: ValidatorStore | None = None
        self._announced: set[str] = set()
        self.grants = GrantWaits(self.token_key, stats=stats, crawler=crawler)
        self.answers = RateLimitAnswers(
            self.token_key, backoff_base=backoff_base, backoff_max=backoff_max, reset_margin=reset_margin
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from settings; ``NotConfigured`` for spiders that do not use the API.

        A spider declares it with the class attribute ``uses_github_api = True``; for the others
        (blogs), and when ``GITHUB_API_URL`` is empty, the middleware is not configured.
        """
        settings = crawler.settings
        if not class_capabilities(crawler.spidercls).uses_github_api:
            raise NotApplicable("the spider does not declare uses_github_api")
        api_url = settings.get("GITHUB_API_URL")
        if not api_url:
            raise NotApplicable("GITHUB_API_URL is empty: GithubApiMiddleware has no API to guard")
        assert crawler.spidercls is not None
        mw = cls(
            api_url,
            state_dir(settings),
            consumer=crawler.spidercls.name,
            token=github_token(),
            concurrency=settings.getint("HARVEST_GITHUB_CONCURRENCY"),
            backoff_base=settings.getfloat("HARVEST_GITHUB_BACKOFF_BASE"),
            backoff_max=settings.getfloat("HARVEST_GITHUB_BACKOFF_MAX"),
            rate_limit_retries=settings.getint("HARVEST_GITHUB_RATE_LIMIT_RETRIES"),
            reset_margin=settings.getfloat("HARVEST_GITHUB_RESET_MARGIN"),
            api_version=retired_value(settings, "HARVEST_GITHUB_API_VERSION", limits.API_VERSION),
            # A grant outlives its request only if the process hung; long after any timeout.
            stale_after=max(60.0, 2 * settings.getfloat("DOWNLOAD_TIMEOUT")),
            stats=crawler.stats,
            crawler=crawler,
        )
        # The state files are opened by the first request to the API (_open_required), not at
        # spider_opened: trending without a token never sends one and must not announce itself.
        crawler.signals.connect(mw.spider_closed, signal=signals.spider_closed)
        return mw

    # --- lifecycle -------------------------------------------------------------------------
    def open(self) -> None:
        """Open the shared budget and validator files."""
        folder = Path(self.state_path)
        self.budget = RateBudget(
            folder / "budget.sqlite",
            concurrency=self.concurrency,
            margin=self.reset_margin,
            poll=_POLL,
            stale_after=self.stale_after,
        )
        self.validators = ValidatorStore(folder / "validators.sqlite")
        logger.info(
            "GitHub API: %s, token %s, at most %d request(s) in flight per token",
            "authenticated" if self._token else "anonymous (lower limits; set GITHUB_TOKEN)",
            self.token_key,
            self.concurrency,
        )

    def close(self) -> None:
        """Release this process's grants and close the files."""
        if self.budget is not None:
            self.budget.close()
            self.budget = None
        if self.validators is not None:
            self.validators.close()
            self.validators = None

    def spider_closed(self) -> None:
        """Signal handler: close the state files."""
        self.close()

    # --- helpers ---------------------------------------------------------------------------
    def applies(self, request: Request) -> bool:
        """True for requests to the configured API."""
        parts = urlsplit(request.url)
        if (parts.scheme, parts.netloc) != self._origin:
            return False
        return not self._root or parts.path == self._root or parts.path.startswith(self._root + "/")

    def resource(self, request: Request) -> str | None:
        """The rate-limit resource this request spends (``github_resource`` meta overrides)."""
        if META_GITHUB_RESOURCE in request.meta:
            value = request.meta[META_GITHUB_RESOURCE]
            return str(value) if value else None
        return resource_of(urlsplit(request.url).path[len(self._root) :] or "/")

    def _inc(self, key: str, value: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/github/{key}", value)

    def _release(self, request: Request) -> None:
        assert self.budget is not None
        self.grants.release(self.budget, request.meta.pop(META_GITHUB_GRANT, None))

    def _strip(self, request: Request) -> None:
        for name in ("Authorization", "If-None-Match", "If-Modified-Since"):
            if name in request.headers:
                del request.headers[name]

    def _open_required(self) -> tuple[RateBudget, ValidatorStore]:
        if self.budget is None or self.validators is None:
            self.open()
        assert self.budget is not None and self.validators is not None
        return self.budget, self.validators

    # --- request side ----------------------------------------------------------------------
    async def process_request(self, request: Request) -> None:
        """Authorize, add validators, and wait for a grant from the shared budget."""
        if not self.applies(request):
            return
        budget, validators = self._open_required()
        self._prepare_headers(request, validators)
        request.meta[META_GITHUB_GRANT] = await self.grants.wait(request, budget, self.resource(request))
        if self._token:
            request.headers["Authorization"] = f"Bearer {self._token}"
        self._inc("requests")

    def _prepare_headers(self, request: Request, validators: ValidatorStore) -> None:
        """Drop a stale Authorization; add Accept, the API version and the stored validators."""
        # A copy of a request (retry, requeue) may still carry the header; it is set again later.
        # Validators another middleware added (RevisitMiddleware, for documents) stay.
        if "Authorization" in request.headers:
            del request.headers["Authorization"]
        request.headers.setdefault("Accept", "application/vnd.github+json")
        if self.api_version:
            request.headers.setdefault("X-GitHub-Api-Version", self.api_version)
        if not request.meta.get(META_GITHUB_CONDITIONAL, True):
            return
        stored = validators.get(self.consumer, self.token_key, request.url)
        if stored is not None:
            if stored.etag:
                request.headers["If-None-Match"] = stored.etag
            if stored.last_modified:
                request.headers["If-Modified-Since"] = stored.last_modified

    # --- response side ---------------------------------------------------------------------
    def process_exception(self, request: Request, exception: BaseException) -> None:
        """Give the grant back and forget the token; the exception goes on to Retry etc."""
        if self.applies(request) and self.budget is not None:
            self._release(request)
            self._strip(request)

    def process_response(self, request: Request, response: Response) -> Request | Response:
        """Update the budget; hand 304s and 2xx on with their meta; requeue rate-limited requests."""
        if not self.applies(request):
            return response
        budget, validators = self._open_required()
        self._release(request)
        self._strip(request)
        now = time.time()
        snapshot = urlsplit(request.url).path.endswith("/rate_limit")
        seen = self.answers.observe(budget, response, self.resource(request), snapshot=snapshot, now=now)
        status = response.status
        if status == 304:
            budget.succeeded(self.token_key)
            stored = validators.get(self.consumer, self.token_key, request.url)
            request.meta[META_GITHUB_NOT_MODIFIED] = True
            request.meta[META_GITHUB_MEMO] = stored.memo if stored else {}
            self._inc("not_modified")
            return response
        if 200 <= status < 300:
            budget.succeeded(self.token_key)
            request.meta[META_GITHUB_NOT_MODIFIED] = False
            request.meta[META_GITHUB_ETAG] = header(response, "ETag")
            request.meta[META_GITHUB_LAST_MODIFIED] = header(response, "Last-Modified")
            return response
        if status in (403, 429) and self.answers.is_rate_limit(response, seen.remaining):
            return self._requeue(request, response, budget, seen, now)
        return response

    def _requeue(
        self, request: Request, response: Response, budget: RateBudget, seen: RateHeaders, now: float
    ) -> Request | Response:
        """The rate-limited request again, back to the scheduler; the answer once retries are spent."""
        kind, until = self.answers.refused(budget, response, seen, now)
        self._inc(f"rate_limited/{kind}")
        message = scrub(error_message(response.body), (self._token,))
        tries = int(request.meta.get(META_GITHUB_RATE_RETRIES, 0))
        if tries >= self.rate_limit_retries:
            self._inc("rate_limited/gave_up")
            logger.error(
                "GitHub kept refusing %s for its rate limit (%d times, last: %d %s); giving up on it",
                request.url,
                tries + 1,
                response.status,
                message,
            )
            return response
        if kind not in self._announced or until - now >= LOG_WAIT_AFTER:
            self._announced.add(kind)
            logger.warning(
                "GitHub rate limit (%s) on %s: %d %s; nothing is sent on token %s for %.1f s",
                kind,
                request.url,
                response.status,
                message,
                self.token_key,
                until - now,
            )
        retry = request.replace(dont_filter=True)
        retry.meta[META_GITHUB_RATE_RETRIES] = tries + 1
        self._strip(retry)
        return retry
