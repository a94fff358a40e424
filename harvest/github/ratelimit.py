"""What GitHub's answers say about a token's rate limits, and how long a refused token waits.

:class:`RateLimitAnswers` feeds each answer's ``x-ratelimit-*`` headers (its reset moved onto our
clock by the answer's ``Date``) and a ``/rate_limit`` snapshot into the shared
:class:`~harvest.github.budget.RateBudget`, tells a rate-limit 403/429 from another refusal, and
blocks the token after one in GitHub's documented order: ``Retry-After``, else the reset when
``remaining`` is 0, else an exponential backoff.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

from harvest.github.budget import rate_limit_snapshot
from harvest.parsers.github_api import error_message, is_rate_limit_message, load_json
from harvest.util import waits

if TYPE_CHECKING:
    from scrapy.http import Response

    from harvest.github.budget import RateBudget

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


def header(response: Response, name: str) -> str | None:
    """The response header ``name``, stripped (None when absent)."""
    value = response.headers.get(name)
    return value.decode("latin-1").strip() if value else None


def _int_header(response: Response, name: str) -> int | None:
    value = header(response, name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _clock_offset(response: Response, now: float) -> float:
    """Server clock minus ours, from the Date header (0 when close enough or absent)."""
    value = header(response, "Date")
    if not value:
        return 0.0
    try:
        offset = parsedate_to_datetime(value).timestamp() - now
    except (TypeError, ValueError):
        return 0.0
    return offset if _SKEW_TOLERANCE < abs(offset) <= _MAX_SKEW else 0.0


@dataclass(frozen=True)
class RateHeaders:
    """One answer's rate-limit headers; ``reset`` on our clock."""

    resource: str | None
    remaining: int | None
    reset: float | None


class RateLimitAnswers:
    """What the answers to one token's requests tell its shared budget.

    Args:
        token_key: the token's digest, the budget's key.
        backoff_base, backoff_max: the exponential backoff after a refusal that names no wait.
        reset_margin: seconds added to ``x-ratelimit-reset`` before the token asks again.
    """

    def __init__(
        self, token_key: str, *, backoff_base: float, backoff_max: float, reset_margin: float
    ) -> None:
        self.token_key = token_key
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.reset_margin = reset_margin

    def observe(
        self, budget: RateBudget, response: Response, resource: str | None, *, snapshot: bool, now: float
    ) -> RateHeaders:
        """Feed the answer's headers (and, when ``snapshot``, its ``/rate_limit`` body) to ``budget``.

        ``resource`` is the request's, used when the answer names none.
        """
        offset = _clock_offset(response, now)
        resource = header(response, "x-ratelimit-resource") or resource
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
        if snapshot and response.status == 200:
            self._observe_snapshot(budget, response, offset, now)
        return RateHeaders(resource, remaining, reset)

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

    @staticmethod
    def is_rate_limit(response: Response, remaining: int | None) -> bool:
        """Whether a 403/429 refuses for the rate limit (not for a permission or a bad request)."""
        if response.status == 429 or remaining == 0 or header(response, "Retry-After") is not None:
            return True
        return is_rate_limit_message(error_message(response.body))

    def refused(
        self, budget: RateBudget, response: Response, seen: RateHeaders, now: float
    ) -> tuple[str, float]:
        """Block the token after a rate-limit refusal: (``secondary``/``primary``/``backoff``, until)."""
        retry_after = waits.retry_after(response, now)
        if retry_after is not None:
            kind, until = "secondary", now + retry_after
            budget.block(self.token_key, until, failure=True)
        elif seen.remaining == 0 and seen.reset is not None:
            kind, until = "primary", max(seen.reset, now) + self.reset_margin
            if seen.resource is not None:
                budget.exhaust(self.token_key, seen.resource, seen.reset)
        else:
            kind = "backoff"
            failures = budget.block(self.token_key, now, failure=True)
            delay = min(self.backoff_max, self.backoff_base * 2 ** max(0, failures - 1))
            until = now + delay
            budget.block(self.token_key, until, failure=False)
        return kind, until
