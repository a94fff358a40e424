"""A GitHub REST API emulator on 127.0.0.1 (port 0), built from real recorded GitHub answers.

Headers and body shapes come from PyGithub's recordings of api.github.com, read in place from
``../shared/fixtures/github-api/`` (never copied): the search answer's header set (2026), the
repository object (2025) that every generated search item is cut from, the README answer (2025),
``/rate_limit`` (2023), the primary rate-limit 403 (2013), the secondary ("abuse") 403 with
``Retry-After`` (2018). Dynamic values (Date, Link, ETag, ``X-RateLimit-*``, Retry-After) are
computed per request. The 401, 404 and 422 bodies are GitHub's documented shapes (no recording
of them exists in the fixtures).

Served:

- ``GET /search/repositories``: over a generated, deterministic set of repositories; honours
  ``created:`` / ``stars:`` / ``language:`` / ``topic:`` / ``user:`` / ``fork:`` / ``archived:``
  qualifiers, free text with AND/OR/NOT, ``sort``/``order``, ``per_page`` (capped) and ``page``;
  ``Link`` pagination; a result cap (422 past it); ``incomplete_results`` on demand.
- ``GET /repos/{owner}/{repo}/readme``: base64 README, or 404.
- ``GET /rate_limit``: the budgets, free of the primary limit.

Enforced, with limits from :class:`Limits` (tests pick short windows; nothing here is fixed to
GitHub's numbers): per-token, per-resource windows with real ``x-ratelimit-*`` headers (403 when
spent); ETags that differ per token, 304 on ``If-None-Match`` without spending quota; secondary
limits (too many concurrent requests, or forced every N requests) as 403 with ``Retry-After``
(or without it); 401 for an unknown token; 422 for invalid queries.

``violations`` records every request that arrived, after the client had been told so, while its
budget was spent (an answer with ``X-RateLimit-Remaining: 0``, a 403, ``/rate_limit``) or before a
``Retry-After`` (or the block after a secondary limit) had passed: a well-behaved client leaves
it empty. Requests already on the wire when the answer left are not counted (nobody can recall
them), but are refused all the same.
"""

from __future__ import annotations

import ast
import base64
import copy
import hashlib
import json
import math
import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from email.utils import formatdate
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from tests import SHARED_FIXTURES, shared_fixture
from tests.servers import LoggedRequest, LoopbackServer, Reply

REPLAY_DIR = SHARED_FIXTURES / "github-api" / "pygithub-replaydata" / "tests" / "ReplayData"
OBSERVED_BODIES = SHARED_FIXTURES / "github-api" / "secondary-rate-limit-observed" / "observed_bodies.json"

# Headers that describe the recorded transfer, not the content we send.
_TRANSFER_HEADERS = {"content-encoding", "transfer-encoding", "content-length", "connection", "status"}
_DYNAMIC_HEADERS = {
    "date", "link", "etag", "last-modified", "retry-after", "x-ratelimit-limit",
    "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-used", "x-ratelimit-resource",
    "content-type", "github-authentication-token-expiration",
}  # fmt: skip


_SEARCH_DOC = "https://docs.github.com/v3/search/"


# --- the recordings ---------------------------------------------------------------------------
@dataclass
class Recorded:
    """One request/answer pair of a PyGithub replay file."""

    method: str
    host: str
    path: str
    request_headers: dict[str, str]
    status: int
    headers: list[tuple[str, str]]
    body: str

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


def load_replay(path: Path) -> list[Recorded]:
    """Every record of a PyGithub replay file (format in the fixture folder's SOURCE.md)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    records, i = [], 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        chunk = lines[i : i + 10]
        if len(chunk) < 10:
            break
        _proto, verb, host, _port, path_q, req_headers, _req_body, status, resp_headers, body = chunk
        records.append(
            Recorded(
                method=verb,
                host=host,
                path=path_q,
                request_headers=ast.literal_eval(req_headers),
                status=int(status),
                headers=[(str(k), str(v)) for k, v in ast.literal_eval(resp_headers)],
                body=body,
            )
        )
        i += 10
    return records


def replay(name: str) -> list[Recorded]:
    """Records of ``ReplayData/<name>``."""
    return load_replay(REPLAY_DIR / name)


def _static_headers(rec: Recorded) -> dict[str, str]:
    return {
        k: v
        for k, v in rec.headers
        if k.lower() not in _TRANSFER_HEADERS and k.lower() not in _DYNAMIC_HEADERS
    }


@dataclass
class _Templates:
    search_headers: dict[str, str]
    repo: dict[str, Any]
    readme: dict[str, Any]
    readme_headers: dict[str, str]
    rate_limit: dict[str, Any]
    rate_limit_headers: dict[str, str]
    primary_403_body: str
    primary_403_headers: dict[str, str]
    secondary_403_body: str
    secondary_403_headers: dict[str, str]
    secondary_bodies: list[dict[str, Any]]


_TEMPLATES: _Templates | None = None


def templates() -> _Templates:
    """The recorded answers the emulator is made of (loaded once)."""
    global _TEMPLATES
    if _TEMPLATES is None:
        shared_fixture("github-api", "pygithub-replaydata", "tests", "ReplayData")  # skips if absent
        search = replay("PaginatedList.testSearchWithCompleteResults.txt")[0]
        content = replay("ContentFile.setUp.txt")
        rate = replay("RateLimiting.testGetRateLimit.txt")[0]
        primary = replay("SpecificExceptions.testRateLimitExceeded.txt")[1]
        secondary = replay("SpecificExceptions.testAuthenticatedRateLimitExceeded.txt")[1]
        assert primary.status == 403 and secondary.status == 403 and secondary.header("Retry-After")
        observed = json.loads(OBSERVED_BODIES.read_text(encoding="utf-8"))
        repo = content[0].json()
        for key in ("permissions", "organization", "security_and_analysis", "temp_clone_token",
                    "custom_properties", "network_count", "subscribers_count"):  # fmt: skip
            repo.pop(key, None)  # not part of a search item
        _TEMPLATES = _Templates(
            search_headers=_static_headers(search),
            repo=repo,
            readme=content[1].json(),
            readme_headers=_static_headers(content[1]),
            rate_limit=rate.json(),
            rate_limit_headers=_static_headers(rate),
            primary_403_body=primary.body,
            primary_403_headers=_static_headers(primary),
            secondary_403_body=secondary.body,
            secondary_403_headers=_static_headers(secondary),
            secondary_bodies=[o["body"] for o in observed if isinstance(o.get("body"), dict)],
        )
    return _TEMPLATES


# --- the generated repositories ---------------------------------------------------------------
@dataclass
class Repo:
    """One generated repository."""

    id: int
    owner: str
    name: str
    description: str
    language: str | None
    topics: list[str]
    stars: int
    forks: int
    open_issues: int
    created: datetime
    pushed: datetime
    default_branch: str = "main"
    archived: bool = False
    fork: bool = False
    readme: str | None = None

    def __post_init__(self) -> None:
        self.created_day = self.created.date()

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


_OWNERS = ["scrapinghub", "apify", "alice", "bob-dev", "data-lab", "crawlers", "mirai", "zoë-codes",
           "octo", "nightly", "lambda-labs", "kyoto-net", "riverside", "polyglot"]  # fmt: skip
_WORDS = ["spider", "crawler", "harvest", "scrape", "fetch", "parser", "pipeline", "proxy", "async",
          "headless", "extract", "robots", "sitemap", "feed", "queue", "gateway"]  # fmt: skip
_LANGUAGES = ["Python", "Python", "Python", "JavaScript", "Go", "Rust", "TypeScript", "Ruby", None]


def generate_repos(
    count: int = 3300,
    *,
    seed: int = 20260101,
    topic: str = "web-scraping",
    topic_count: int = 2500,
    start: date = date(2008, 4, 10),
    end: date = date(2025, 11, 30),
    hot_days: dict[date, int] | None = None,
    hot_stars: int = 1000,
) -> list[Repo]:
    """A deterministic population; the first ``topic_count`` carry ``topic``.

    Creation dates lean toward recent years, as on GitHub. ``hot_days`` adds repositories (with
    ``topic``) all created on one day, to push a single day past the result cap; their stars
    spread evenly over ``0..hot_stars`` (0: all zero, so the day cannot be cut at all).
    """
    rng = random.Random(seed)
    span = (end - start).days
    repos: list[Repo] = []
    extra = sorted((hot_days or {}).items())
    hot = [d for d, n in extra for _ in range(n)]
    total = count + len(hot)
    for i in range(total):
        rid = 10_000_000 + i * 7919
        if i < len(hot):
            day = hot[i]
        else:
            day = start + timedelta(days=int(span * rng.random() ** 0.55))
        created = datetime(day.year, day.month, day.day, rng.randrange(24), rng.randrange(60),
                           rng.randrange(60), tzinfo=timezone.utc)  # fmt: skip
        pushed = created + timedelta(days=rng.randrange(0, 900), seconds=rng.randrange(86400))
        words = rng.sample(_WORDS, 2)
        on_topic = i < len(hot) or i - len(hot) < topic_count
        topics = sorted({topic} | set(rng.sample(["python", "cli", "data", "etl", "async", "bots"], 2)))
        if not on_topic:
            topics = sorted(rng.sample(["cli", "data", "etl", "games", "ml", "dotfiles"], 2))
        stars = min(250_000, int(rng.paretovariate(0.9)) - 1)
        if i < len(hot):
            stars = rng.randrange(hot_stars + 1)
        repo = Repo(
            id=rid,
            owner=_OWNERS[i % len(_OWNERS)].replace("ë", "e"),
            name=f"{words[0]}-{words[1]}-{i}",
            description=f"A {words[0]} {words[1]} toolkit, number {i} — “fast” & friendly",
            language=rng.choice(_LANGUAGES),
            topics=topics,
            stars=stars,
            forks=stars // 7 + rng.randrange(3),
            open_issues=rng.randrange(40),
            created=created,
            pushed=pushed,
            default_branch="main" if i % 5 else "master",
            archived=i % 23 == 0,
            fork=i % 31 == 0,
        )
        if i % 17 != 3:
            repo.readme = (
                f"# {repo.name}\n\n{repo.description}\n\n## Install\n\n"
                f"```bash\npip install {repo.name}\n```\n"
                f"\nStars at generation: {stars}. Ünïcödé survives.\n"
            )
        repos.append(repo)
    return repos


# --- query evaluation -------------------------------------------------------------------------
class QueryError(Exception):
    """The search query is invalid (the emulator answers 422 with ``message``)."""


_TOKEN_RE = re.compile(r'-?[A-Za-z_][\w-]*:(?:"[^"]*"|\S+)|"[^"]*"|\S+')
_QUAL_RE = re.compile(r"^(-?)([A-Za-z_][\w-]*):(.+)$")


def _parse_value(text: str, kind: str) -> Any:
    text = text.strip('"')
    if kind == "int":
        if not re.fullmatch(r"\d+", text):
            raise QueryError(f"Invalid value {text!r} for a numeric qualifier")
        return int(text)
    try:
        if "T" in text:
            return datetime.fromisoformat(text.replace("Z", "+00:00"))
        return date.fromisoformat(text)
    except ValueError:
        raise QueryError(f"Invalid date {text!r}: use YYYY-MM-DD") from None


def _range_predicate(value: str, kind: str) -> Any:
    if ".." in value:
        a, _, b = value.partition("..")
        lo = None if a == "*" else _parse_value(a, kind)
        hi = None if b == "*" else _parse_value(b, kind)
        return lambda v: (lo is None or _cmp(v, lo) >= 0) and (hi is None or _cmp(v, hi) <= 0)
    for op in (">=", "<=", ">", "<"):
        if value.startswith(op):
            b = _parse_value(value[len(op) :], kind)
            return {
                ">=": lambda v, b=b: _cmp(v, b) >= 0,
                "<=": lambda v, b=b: _cmp(v, b) <= 0,
                ">": lambda v, b=b: _cmp(v, b) > 0,
                "<": lambda v, b=b: _cmp(v, b) < 0,
            }[op]
    bound = _parse_value(value, kind)
    return lambda v: _cmp(v, bound) == 0


def _cmp(value: Any, bound: Any) -> int:
    # Dates compare by day; datetimes by instant.
    if type(value) is not type(bound) and isinstance(value, datetime):
        value = value.date()
    return (value > bound) - (value < bound)


def compile_query(q: str, limits: Limits) -> Any:
    """A predicate over Repo for ``q``; raises QueryError with GitHub's wording where known."""
    if not q.strip():
        raise QueryError("")
    tokens = _TOKEN_RE.findall(q)
    ops = [t for t in tokens if t in {"AND", "OR", "NOT"}]
    if len(ops) > limits.max_operators:
        raise QueryError(f"The search contains more than {limits.max_operators} AND / OR / NOT operators.")
    text = " ".join(t for t in tokens if t not in {"AND", "OR", "NOT"} and not _QUAL_RE.match(t))
    if len(text) > limits.max_query_length:
        raise QueryError(f"The search is longer than {limits.max_query_length} characters.")
    terms: list[Any] = []
    negate_next = join_next = False
    for tok in tokens:
        if tok == "AND":
            continue
        if tok == "NOT":
            negate_next = True
            continue
        if tok == "OR":
            join_next = True
            continue
        pred = _term(tok)
        if negate_next:
            pred = (lambda p: lambda r: not p(r))(pred)
            negate_next = False
        if join_next and terms:
            prev = terms.pop()
            pred = (lambda a, b: lambda r: a(r) or b(r))(prev, pred)
        join_next = False
        terms.append(pred)
    return lambda r: all(t(r) for t in terms)


def _term(tok: str) -> Any:
    m = _QUAL_RE.match(tok)
    if not m:
        word = tok.strip('"').lower()
        return lambda r: word in r.name.lower() or word in r.description.lower() or word in r.topics
    neg, key, value = m.group(1), m.group(2).lower(), m.group(3)
    pred: Any
    if key == "created":
        inner = _range_predicate(value, "date")
        # Plain dates compare by day: the precomputed day avoids a conversion per repository.
        pred = (lambda r: inner(r.created)) if "T" in value else (lambda r: inner(r.created_day))
    elif key == "pushed":
        inner_p = _range_predicate(value, "date")
        pred = lambda r: inner_p(r.pushed)  # noqa: E731
    elif key == "stars":
        inner_s = _range_predicate(value, "int")
        pred = lambda r: inner_s(r.stars)  # noqa: E731
    elif key == "language":
        lang = value.strip('"').lower()
        pred = lambda r: (r.language or "").lower() == lang  # noqa: E731
    elif key == "topic":
        topic = value.strip('"').lower()
        pred = lambda r: topic in r.topics  # noqa: E731
    elif key in {"user", "org"}:
        owner = value.lower()
        pred = lambda r: r.owner.lower() == owner  # noqa: E731
    elif key == "fork":
        pred = (lambda r: True) if value in {"true", "only"} else (lambda r: not r.fork)
        if value == "only":
            pred = lambda r: r.fork  # noqa: E731
    elif key == "archived":
        want = value == "true"
        pred = lambda r: r.archived == want  # noqa: E731
    elif key in {"in", "is", "sort"}:
        pred = lambda r: True  # noqa: E731
    else:
        word = tok.lower()
        pred = lambda r: word in r.description.lower()  # noqa: E731
    if neg:
        return lambda r: not pred(r)
    return pred


# --- limits and bookkeeping -------------------------------------------------------------------
@dataclass
class Limits:
    """Everything the emulator enforces; defaults are GitHub's published numbers."""

    search_limit: int = 30
    search_limit_anonymous: int = 10
    core_limit: int = 5000
    core_limit_anonymous: int = 60
    search_window: float = 60.0
    core_window: float = 3600.0
    result_cap: int = 1000
    max_per_page: int = 100
    default_per_page: int = 30
    max_query_length: int = 256
    max_operators: int = 5
    #: Secondary limit: more concurrent requests than this per token -> 403.
    max_concurrent: int = 100
    #: Force a secondary-limit 403 on every N-th request of a token (0: never).
    secondary_every: int = 0
    #: Retry-After sent with a secondary-limit 403; None sends none (the client must back off).
    secondary_retry_after: int | None = 60
    #: How long a token stays blocked after a secondary limit sent without Retry-After.
    secondary_block: float = 60.0
    #: The first N answers for each distinct ``q`` come back with ``incomplete_results: true``.
    incomplete_first: int = 0
    #: Seconds each answer takes (so concurrency is observable).
    latency: float = 0.0
    #: GitHub only waives the quota for *authorized* conditional requests.
    free_304_anonymous: bool = False


@dataclass
class Event:
    """One request the emulator answered."""

    at: float
    token: str
    method: str
    path: str
    status: int
    resource: str | None
    counted: bool
    #: When the request arrived (``at`` is when it was answered).
    arrived: float = 0.0
    #: The epoch second its primary window resets (None: no primary resource).
    reset: int | None = None


@dataclass
class _Window:
    used: int = 0
    reset: int = 0


class GithubEmulator(LoopbackServer):
    """The emulator itself (see the module docstring); ``tokens`` are the valid tokens."""

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        tokens: set[str] | frozenset[str] = frozenset(),
        repos: list[Repo] | None = None,
    ) -> None:
        super().__init__()
        self.limits = limits or Limits()
        self.tokens = set(tokens)
        self.repos = repos if repos is not None else generate_repos()
        self.t = templates()
        self.events: list[Event] = []
        self.violations: list[dict[str, Any]] = []
        self.max_in_flight: dict[str, int] = {}
        # One lock around each whole answer: checking and spending a budget must be atomic.
        self._state = threading.RLock()
        self._windows: dict[tuple[str, str], _Window] = {}
        self._blocked: dict[str, float] = {}
        # When each token was told to wait (a 403 sent), and that its budget was spent
        # (remaining 0 sent, with the window's reset): requests arriving later are violations.
        self._told_blocked: dict[str, float] = {}
        self._told_exhausted: dict[tuple[str, str], tuple[float, int]] = {}
        self._blocking: set[str] = set()
        #: Secondary-limit 403s sent (forced or for concurrency).
        self.secondary_limited = 0
        self._in_flight: dict[str, int] = {}
        self._counts: dict[str, int] = {}
        self._q_answers: dict[str, int] = {}
        self._items: dict[int, tuple[Repo, dict[str, Any]]] = {}
        self._pending_exhaust: dict[tuple[str, str], float] = {}
        #: (label, resource) -> the reset epoch second of a budget :meth:`exhaust` spent.
        self.exhausted_until: dict[tuple[str, str], int] = {}

    # --- test helpers ---------------------------------------------------------------------
    def search_count(self, q: str) -> int:
        """How many repositories ``q`` matches (no request, no quota)."""
        pred = compile_query(q, self.limits)
        return sum(1 for r in self.repos if pred(r))

    def matching(self, q: str) -> list[Repo]:
        pred = compile_query(q, self.limits)
        return [r for r in self.repos if pred(r)]

    def quota_spent(self, resource: str | None = None, token: str | None = None) -> int:
        """Requests counted against a primary limit (optionally one resource / token label)."""
        with self._state:
            return sum(
                1
                for e in self.events
                if e.counted
                and (resource is None or e.resource == resource)
                and (token is None or e.token == token)
            )

    def statuses(self, path_prefix: str = "") -> list[int]:
        with self._state:
            return [e.status for e in self.events if e.path.startswith(path_prefix)]

    def exhaust(
        self, token: str | None, resource: str, seconds: float, *, on_first_request: bool = False
    ) -> int:
        """Spend a budget as another client would, for ``seconds`` from now; return its reset.

        ``on_first_request``: from the token's first request instead (however long the client
        takes to start, it finds the budget spent for that long); the reset is then in
        :attr:`exhausted_until` once that request arrived, and 0 is returned.
        """
        label = self._label(token)
        with self._state:
            if on_first_request:
                self._pending_exhaust[(label, resource)] = seconds
                return 0
            reset = math.ceil(time.time() + seconds)
            self._windows[(label, resource)] = _Window(used=self._limit(label, resource), reset=reset)
            self.exhausted_until[(label, resource)] = reset
            return reset

    def exhausted_reset(self, token: str | None, resource: str) -> int | None:
        """The reset of the budget :meth:`exhaust` spent (None: not spent yet)."""
        with self._state:
            return self.exhausted_until.get((self._label(token), resource))

    def update_repo(self, full_name: str, **changes: Any) -> None:
        """Change one repository (its search pages and README then get new ETags)."""
        with self._state:
            for i, repo in enumerate(self.repos):
                if repo.full_name == full_name:
                    self.repos[i] = replace(repo, **changes)
                    return
        raise KeyError(full_name)

    # --- plumbing -------------------------------------------------------------------------
    def _label(self, token: str | None) -> str:
        if not token:
            return "anonymous"
        return "token-" + hashlib.sha256(token.encode()).hexdigest()[:8]

    def _limit(self, label: str, resource: str) -> int:
        anon = label == "anonymous"
        if resource == "search":
            return self.limits.search_limit_anonymous if anon else self.limits.search_limit
        return self.limits.core_limit_anonymous if anon else self.limits.core_limit

    def _window_seconds(self, resource: str) -> float:
        return self.limits.search_window if resource == "search" else self.limits.core_window

    def _window(self, label: str, resource: str, now: float) -> _Window:
        win = self._windows.setdefault((label, resource), _Window())
        if now >= win.reset:
            # GitHub's reset is a whole epoch second; the window starts with its first request.
            win.used, win.reset = 0, math.ceil(now + self._window_seconds(resource))
        return win

    def _rate_headers(self, label: str, resource: str, now: float) -> dict[str, str]:
        win = self._window(label, resource, now)
        limit = self._limit(label, resource)
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(0, limit - win.used)),
            "X-RateLimit-Reset": str(win.reset),
            "X-RateLimit-Used": str(win.used),
            "X-RateLimit-Resource": resource,
        }

    def _json(self, status: int, body: Any, headers: dict[str, str]) -> Reply:
        text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        return Reply(status, text, {"Date": formatdate(usegmt=True), **headers},
                     content_type="application/json; charset=utf-8")  # fmt: skip

    def _error(self, status: int, message: str, doc: str, headers: dict[str, str], **extra: Any) -> Reply:
        body = {"message": message, **extra, "documentation_url": doc, "status": str(status)}
        return self._json(status, body, {**self.t.search_headers, **headers})

    def resolve(self, request: LoggedRequest) -> Reply:
        """Answer one request (called from the server's threads)."""
        arrived = time.time()
        auth = request.headers.get("Authorization") or request.headers.get("authorization") or ""
        token = auth.split(None, 1)[1].strip() if " " in auth else None
        label = self._label(token)
        parts = urlsplit(request.path)
        path = parts.path
        resource = None if path == "/rate_limit" else "search" if path.startswith("/search/") else "core"
        with self._state:
            for key in [k for k in self._pending_exhaust if k[0] == label]:
                self.exhaust(token, key[1], self._pending_exhaust.pop(key))
            self._in_flight[label] = self._in_flight.get(label, 0) + 1
            self.max_in_flight[label] = max(self.max_in_flight.get(label, 0), self._in_flight[label])
            concurrent = self._in_flight[label]
        try:
            if self.limits.latency:
                time.sleep(self.limits.latency)
            with self._state:
                reply, counted = self._answer(request, token, label, path, parts.query, resource,
                                              concurrent, arrived)  # fmt: skip
                self._note_told(label, resource, reply)
        finally:
            with self._state:
                self._in_flight[label] -= 1
        with self._state:
            win = self._windows.get((label, resource)) if resource is not None else None
            event = Event(time.time(), label, request.method, request.path, reply.status, resource, counted,
                          arrived, win.reset if win is not None else None)  # fmt: skip
            self.events.append(event)
        return reply

    def _note_told(self, label: str, resource: str | None, reply: Reply) -> None:
        """Remember when the client was told to stop: from then on, a request is a violation."""
        now = time.time()
        if reply.status == 403 and "Retry-After" in reply.headers or label in self._blocking:
            self._told_blocked.setdefault(label, now)
        self._blocking.discard(label)
        if reply.headers.get("X-RateLimit-Remaining") == "0" and resource is not None:
            self._told_exhausted.setdefault((label, resource), (now, int(reply.headers["X-RateLimit-Reset"])))
        if resource is None and reply.status == 200:
            for name, values in json.loads(reply.encoded()).get("resources", {}).items():
                if values.get("remaining") == 0:
                    self._told_exhausted.setdefault((label, name), (now, int(values["reset"])))

    def _answer(
        self,
        request: LoggedRequest,
        token: str | None,
        label: str,
        path: str,
        query: str,
        resource: str | None,
        concurrent: int,
        arrived: float,
    ) -> tuple[Reply, bool]:
        now = time.time()
        if token is not None and token not in self.tokens:
            return self._error(401, "Bad credentials", "https://docs.github.com/rest", {}), False
        blocked = self._blocked.get(label, 0.0)
        if now < blocked:
            told = self._told_blocked.get(label)
            if told is not None and arrived >= told:
                self.violations.append({"kind": "before_retry_after", "path": request.path,
                                        "early_by": round(blocked - arrived, 3), "at": arrived})  # fmt: skip
            again = blocked - now if self.limits.secondary_retry_after is not None else None
            self._blocking.add(label)
            return self._secondary(label, now, again), False
        self._told_blocked.pop(label, None)
        n = self._counts[label] = self._counts.get(label, 0) + 1
        every = self.limits.secondary_every
        if concurrent > self.limits.max_concurrent or (every and n % every == 0):
            wait = self.limits.secondary_retry_after
            self._blocked[label] = now + (wait if wait is not None else self.limits.secondary_block)
            self._blocking.add(label)
            self.secondary_limited += 1
            return self._secondary(label, now, wait), False
        if resource is not None:
            win = self._window(label, resource, now)
            told_e = self._told_exhausted.get((label, resource))
            if told_e is not None and told_e[1] != win.reset:
                self._told_exhausted.pop((label, resource))  # a new window
                told_e = None
            if win.used >= self._limit(label, resource):
                if told_e is not None and arrived >= told_e[0]:
                    early = round(win.reset - arrived, 3)
                    self.violations.append({"kind": "budget_exhausted", "path": request.path,
                                            "early_by": early, "at": arrived})  # fmt: skip
                headers = {**self.t.primary_403_headers, **self._rate_headers(label, resource, now)}
                return self._json(403, self.t.primary_403_body, headers), False
        if path == "/rate_limit":
            return self._rate_limit(label, now), False
        if path == "/search/repositories":
            return self._search(request, token, label, query, now)
        m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/readme", path)
        if m:
            return self._readme(request, token, label, m.group(1), m.group(2), now)
        reply = self._error(404, "Not Found", "https://docs.github.com/rest", {})
        return reply, False

    def _spend(self, label: str, resource: str, now: float) -> dict[str, str]:
        with self._state:
            self._window(label, resource, now).used += 1
            return self._rate_headers(label, resource, now)

    def _peek(self, label: str, resource: str, now: float) -> dict[str, str]:
        with self._state:
            return self._rate_headers(label, resource, now)

    def _secondary(self, label: str, now: float, retry_after: float | None) -> Reply:
        headers = dict(self.t.secondary_403_headers)
        body = self.t.secondary_403_body
        if retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
        elif self.t.secondary_bodies:
            # GitHub's newer wording (2021 on), as observed without a Retry-After header.
            body = json.dumps(self.t.secondary_bodies[-1])
        return self._json(403, body, headers)

    def _conditional(
        self,
        request: LoggedRequest,
        token: str | None,
        label: str,
        resource: str,
        body: str,
        now: float,
        headers: dict[str, str],
    ) -> tuple[Reply, bool]:
        # An ETag is only good for the token that received it (github/docs#34689).
        etag = 'W/"' + hashlib.sha256((label + "\x00" + body).encode()).hexdigest() + '"'
        sent = request.headers.get("If-None-Match") or request.headers.get("if-none-match")
        if sent and etag in [s.strip() for s in sent.split(",")]:
            free = token is not None or self.limits.free_304_anonymous
            rate = self._peek(label, resource, now) if free else self._spend(label, resource, now)
            return Reply(304, b"", {"Date": formatdate(usegmt=True), **headers, **rate, "ETag": etag},
                         content_type="application/json; charset=utf-8"), not free  # fmt: skip
        rate = self._spend(label, resource, now)
        return self._json(200, body, {**headers, **rate, "ETag": etag}), True

    def _rate_limit(self, label: str, now: float) -> Reply:
        data = copy.deepcopy(self.t.rate_limit)
        with self._state:
            for name in ("core", "search"):
                win = self._window(label, name, now)
                limit = self._limit(label, name)
                left = max(0, limit - win.used)
                data["resources"][name] = {
                    "limit": limit,
                    "used": win.used,
                    "remaining": left,
                    "reset": win.reset,
                }
            data["rate"] = data["resources"]["core"]
        return self._json(200, data, dict(self.t.rate_limit_headers))

    # --- search ---------------------------------------------------------------------------
    def _search(
        self, request: LoggedRequest, token: str | None, label: str, query: str, now: float
    ) -> tuple[Reply, bool]:
        params = parse_qsl(query, keep_blank_values=True)
        args = dict(params)
        q = args.get("q", "")
        try:
            if not q.strip():
                rate = self._spend(label, "search", now)
                missing = [{"resource": "Search", "field": "q", "code": "missing"}]
                return self._error(422, "Validation Failed", _SEARCH_DOC, rate, errors=missing), True
            pred = compile_query(q, self.limits)
            per_page = int(args.get("per_page", self.limits.default_per_page))
            per_page = min(self.limits.max_per_page, max(1, per_page))
            page = max(1, int(args.get("page", "1")))
        except (QueryError, ValueError) as exc:
            rate = self._spend(label, "search", now)
            invalid = [{"message": str(exc), "resource": "Search", "field": "q", "code": "invalid"}]
            return self._error(422, "Validation Failed", _SEARCH_DOC, rate, errors=invalid), True
        with self._state:
            matches = [r for r in self.repos if pred(r)]
        total = len(matches)
        reachable = min(total, self.limits.result_cap)
        if page > 1 and (page - 1) * per_page >= reachable:
            rate = self._spend(label, "search", now)
            return self._error(422, "Validation Failed", _SEARCH_DOC, rate, errors=[{
                "message": f"Only the first {self.limits.result_cap} search results are available",
                "resource": "Search", "field": "q", "code": "invalid"}]), True  # fmt: skip
        matches.sort(key=_sort_key(args.get("sort", ""), args.get("order", "desc")))
        window = matches[(page - 1) * per_page : min(page * per_page, reachable)]
        incomplete = False
        with self._state:
            seen = self._q_answers[q] = self._q_answers.get(q, 0) + 1
        if seen <= self.limits.incomplete_first:
            incomplete, window = True, window[: len(window) // 2]
        body = json.dumps(
            {"total_count": total, "incomplete_results": incomplete,
             "items": [self.search_item(r) for r in window]},
            ensure_ascii=False, separators=(",", ":"),
        )  # fmt: skip
        headers = dict(self.t.search_headers)
        link = self._link(params, page, per_page, reachable)
        if link:
            headers["Link"] = link
        return self._conditional(request, token, label, "search", body, now, headers)

    def _link(self, params: list[tuple[str, str]], page: int, per_page: int, reachable: int) -> str:
        last = max(1, math.ceil(reachable / per_page))

        def url(n: int) -> str:
            kept = [(k, v) for k, v in params if k != "page"] + [("page", str(n))]
            return f"{self.base_url}/search/repositories?{urlencode(kept)}"

        rels = []
        if page > 1:
            rels += [f'<{url(page - 1)}>; rel="prev"']
        if page < last:
            rels += [f'<{url(page + 1)}>; rel="next"', f'<{url(last)}>; rel="last"']
        if page > 1:
            rels += [f'<{url(1)}>; rel="first"']
        return ", ".join(rels)

    def search_item(self, repo: Repo) -> dict[str, Any]:
        """A search item: the recorded repository object, refilled with ``repo``'s values."""
        cached = self._items.get(repo.id)
        if cached is not None and cached[0] is repo:  # update_repo() replaces the object
            return cached[1]
        item = self._search_item(repo)
        self._items[repo.id] = (repo, item)
        return item

    def _search_item(self, repo: Repo) -> dict[str, Any]:
        text = json.dumps(self.t.repo).replace("PyGithub/PyGithub", repo.full_name)
        text = text.replace("https://api.github.com", self.base_url).replace("/PyGithub", "/" + repo.owner)
        item = json.loads(text)
        item["owner"]["login"] = repo.owner
        iso = "%Y-%m-%dT%H:%M:%SZ"
        item.update(
            id=repo.id,
            node_id=base64.b64encode(f"010:Repository{repo.id}".encode()).decode(),
            name=repo.name,
            full_name=repo.full_name,
            html_url=f"https://github.com/{repo.full_name}",
            description=repo.description,
            created_at=repo.created.strftime(iso),
            updated_at=repo.pushed.strftime(iso),
            pushed_at=repo.pushed.strftime(iso),
            stargazers_count=repo.stars,
            watchers_count=repo.stars,
            watchers=repo.stars,
            forks_count=repo.forks,
            forks=repo.forks,
            open_issues_count=repo.open_issues,
            open_issues=repo.open_issues,
            language=repo.language,
            topics=repo.topics,
            default_branch=repo.default_branch,
            archived=repo.archived,
            fork=repo.fork,
            score=1.0,
        )
        return item

    # --- README ---------------------------------------------------------------------------
    def _readme(self, request: LoggedRequest, token: str | None, label: str, owner: str, name: str,
                now: float) -> tuple[Reply, bool]:  # fmt: skip
        with self._state:
            repo = next((r for r in self.repos if r.owner == owner and r.name == name), None)
        if repo is None or repo.readme is None:
            rate = self._spend(label, "core", now)
            doc = "https://docs.github.com/rest/repos/contents#get-a-repository-readme"
            return self._error(404, "Not Found", doc, {**self.t.readme_headers, **rate}), True
        raw = repo.readme.encode("utf-8")
        b64 = base64.b64encode(raw).decode()
        data = copy.deepcopy(self.t.readme)
        sha = hashlib.sha1(b"blob %d\x00" % len(raw) + raw).hexdigest()  # noqa: S324 (git's blob id)
        text = json.dumps(data).replace("PyGithub/PyGithub", repo.full_name)
        text = text.replace("https://api.github.com", self.base_url)
        text = text.replace("/main/", f"/{repo.default_branch}/")
        data = json.loads(text)
        data.update(
            sha=sha,
            size=len(raw),
            # GitHub wraps the base64 text at 60 columns.
            content="\n".join(b64[i : i + 60] for i in range(0, len(b64), 60)) + "\n",
        )
        body = json.dumps(data, separators=(",", ":"))
        return self._conditional(request, token, label, "core", body, now, dict(self.t.readme_headers))


def _sort_key(sort: str, order: str) -> Any:
    sign = 1 if order == "asc" else -1
    if sort == "stars":
        return lambda r: (sign * r.stars, r.id)
    if sort == "forks":
        return lambda r: (sign * r.forks, r.id)
    if sort == "updated":
        return lambda r: (sign * r.pushed.timestamp(), r.id)
    if sort == "help-wanted-issues":
        return lambda r: (sign * r.open_issues, r.id)
    return lambda r: (-(r.id * 2654435761 % 1000003), r.id)  # a stable "best match"


@contextmanager
def github_emulator(**kwargs: Any) -> Iterator[GithubEmulator]:
    """Start a GithubEmulator for the duration of a ``with`` block."""
    emu = GithubEmulator(**kwargs)
    emu.start()
    try:
        yield emu
    finally:
        emu.stop()


__all__ = ["Event", "GithubEmulator", "Limits", "Recorded", "Repo", "generate_repos",
           "github_emulator", "load_replay", "replay", "templates"]  # fmt: skip
