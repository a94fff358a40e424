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
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from twisted.internet.defer import Deferred

from harvest.config.settings_model import retired_value
from harvest.exceptions import NotApplicable
from harvest.github import github_token, limits, state_dir, token_digest
from harvest.github.budget import Decision, RateBudget, rate_limit_snapshot
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
from harvest.parsers.github_api import error_message, is_rate_limit_message, load_json
from harvest.plumbing.capabilities import class_capabilities
from harvest.util import waits
from harvest.util.redaction import scrub

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Longest single sleep while waiting, so a closing spider is noticed within a second.
_MAX_SLEEP_CHUNK = 1.0
#: How often a request waiting for another process's request polls the shared budget; the
#: requests of this process wake each other at once.
_POLL = 0.25
#: Waits shorter than this are routine pacing and are not logged.
_LOG_WAIT_AFTER = 2.0
#: Server clocks differing from ours by less than this are taken as equal (Date has 1 s steps).
_SKEW_TOLERANCE = 2.0
#: A larger difference is not a clock but a stale Date (a cache); it is ignored.
_MAX_SKEW = 3600.0


def resource_of(path: str) -> str | None:
    """GitHub's rate-limit resource for an API path (relative to the API root)."""
    if path.rstrip("/") == "/rate_limit":
        return None  # documented as free of the primary limit
    if path.startswith("/search/code"):
        return "code_search"
    if path.startswith("/search/"):
        return "search"
    if path.startswith("/graphql"):
        return "graphql"
    return "core"


def _header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1").strip() if value else None


def _int_header(response: Response, name: str) -> int | None:
    value = _header(response, name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _clock_offset(response: Response, now: float) -> float:
    """Server clock minus ours, from the Date header (0 when close enough or absent)."""
    value = _header(response, "Date")
    if not value:
        return 0.0
    try:
        offset = parsedate_to_datetime(value).timestamp() - now
    except (TypeError, ValueError):
        return 0.0
    return offset if _SKEW_TOLERANCE < abs(offset) <= _MAX_SKEW else 0.0


class WaitInterrupted(IgnoreRequest):
    """The spider closed while a request waited for the rate limit (not a failure of the request)."""


_wake = waits.wake
_pause = waits.pause


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
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.rate_limit_retries = rate_limit_retries
        self.reset_margin = reset_margin
        self.api_version = api_version
        self.stale_after = stale_after
        self.stats = stats
        self.crawler = crawler
        self.budget: RateBudget | None = None
        self.validators: ValidatorStore | None = None
        self._announced: set[str] = set()
        # Requests of this process waiting for a grant: woken when one of ours ends, since
        # polling is only needed for grants held by other processes.
        self._waiters: list[Deferred[None]] = []

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

    def _closing(self) -> bool:
        engine = getattr(self.crawler, "engine", None)
        slot = getattr(engine, "_slot", None)
        return engine is not None and (slot is None or getattr(slot, "closing", None) is not None)

    def _release(self, request: Request) -> None:
        assert self.budget is not None
        self.budget.release(request.meta.pop(META_GITHUB_GRANT, None))
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            _wake(waiter)

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
        request.meta[META_GITHUB_GRANT] = await self._wait_for_grant(request, budget)
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

    async def _wait_for_grant(self, request: Request, budget: RateBudget) -> str:
        """Poll the shared budget (without blocking the reactor) until it grants ``request``."""
        resource = self.resource(request)
        waited = 0.0
        # One announced wait per resource (harvest.util.waits): the fleet's watchdog leaves a spider
        # that waits for the rate limit alone, and its status shows until when. Concurrent
        # waiters re-announce it on their next pass if another one's grant cleared it.
        wait_key = f"github/{resource or 'free'}"
        announced = False
        try:
            while True:
                decision = budget.acquire(self.token_key, resource)
                if decision.grant is not None:
                    break
                if self._closing():
                    raise WaitInterrupted(
                        f"spider closing while {request.url} waited for the GitHub rate limit"
                    )
                pause = min(max(decision.wait, 0.01), _MAX_SLEEP_CHUNK)
                if decision.wait >= _LOG_WAIT_AFTER:
                    self._tell_wait(request, resource, decision, wait_key, first=waited == 0.0)
                    announced = announced or self.crawler is not None
                started = time.monotonic()
                await _pause(pause, self._waiters)
                waited += time.monotonic() - started
        finally:
            if announced and self.crawler is not None:
                waits.clear(self.crawler, wait_key)
        if waited:
            self._inc("waits")
            self._inc("wait_ms", int(waited * 1000))
        return decision.grant

    def _tell_wait(
        self, request: Request, resource: str | None, decision: Decision, wait_key: str, *, first: bool
    ) -> None:
        """Log a long wait (on a request's first pass) and announce it to the fleet's watchdog."""
        if first:
            logger.info(
                "GitHub %s budget of token %s: waiting %.1f s (%s) before %s",
                resource or "free",
                self.token_key,
                decision.wait,
                decision.reason,
                request.url,
            )
        if self.crawler is not None:
            until = time.time() + decision.wait
            end = time.strftime("%H:%M:%SZ", time.gmtime(until))
            text = f"waiting for the GitHub {resource or 'free'} rate limit until {end}"
            waits.announce(self.crawler, wait_key, f"{text} ({decision.reason})", until)

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
        offset = _clock_offset(response, now)
        resource = _header(response, "x-ratelimit-resource") or self.resource(request)
        reset_header = _int_header(response, "x-ratelimit-reset")
        reset = reset_header - offset if reset_header is not None else None
        remaining = _int_header(response, "x-ratelimit-remaining")
        if resource is not None:
            budget.observe(
                self.token_key,
                resource,
                limit=_int_header(response, "x-ratelimit-limit"),
                remaining=remaining,
                reset=reset,
                now=now,
            )
        status = response.status
        if status == 200 and urlsplit(request.url).path.endswith("/rate_limit"):
            self._observe_snapshot(budget, response, offset, now)
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
            request.meta[META_GITHUB_ETAG] = _header(response, "ETag")
            request.meta[META_GITHUB_LAST_MODIFIED] = _header(response, "Last-Modified")
            return response
        if status in (403, 429) and self._is_rate_limit(response, remaining):
            return self._requeue(request, response, resource, remaining, reset, now)
        return response

    def _observe_snapshot(self, budget: RateBudget, response: Response, offset: float, now: float) -> None:
        try:
            data = load_json(response.body)
        except ValueError:
            return
        for name, (limit, remaining, reset) in rate_limit_snapshot(data).items():
            budget.observe(
                self.token_key,
                name,
                limit=limit,
                remaining=remaining,
                reset=reset - offset if reset is not None else None,
                now=now,
            )

    def _is_rate_limit(self, response: Response, remaining: int | None) -> bool:
        if response.status == 429 or remaining == 0 or _header(response, "Retry-After") is not None:
            return True
        return is_rate_limit_message(error_message(response.body))

    def _requeue(
        self,
        request: Request,
        response: Response,
        resource: str | None,
        remaining: int | None,
        reset: float | None,
        now: float,
    ) -> Request | Response:
        assert self.budget is not None
        retry_after = waits.retry_after(response, now)
        if retry_after is not None:
            kind, until = "secondary", now + retry_after
            self.budget.block(self.token_key, until, failure=True)
        elif remaining == 0 and reset is not None:
            kind, until = "primary", max(reset, now) + self.reset_margin
            if resource is not None:
                self.budget.exhaust(self.token_key, resource, reset)
        else:
            kind = "backoff"
            failures = self.budget.block(self.token_key, now, failure=True)
            delay = min(self.backoff_max, self.backoff_base * 2 ** max(0, failures - 1))
            until = now + delay
            self.budget.block(self.token_key, until, failure=False)
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
        if kind not in self._announced or until - now >= _LOG_WAIT_AFTER:
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
