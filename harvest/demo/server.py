"""The demo sites, served on 127.0.0.1 (free ports) by ``run_all.py --demo`` itself.

Four small HTTP servers stand in for the hosts the spiders talk to:

- ``web``: GitHub's trending pages (``/trending``, ``/trending/<language>``, ``/trending/developers``);
- ``raw``: raw README files (``/<owner>/<repo>/HEAD/README.md``);
- ``api``: a GitHub REST API emulator for ``/search/repositories`` (qualifiers ``language:``,
  ``topic:``, ``stars:``, ``created:``, ``user:``, free words; ``sort``/``order``; ``Link``
  pagination; the 1000-result cap as a 422) and ``/repos/<owner>/<repo>/readme`` (base64, ETag,
  304 on ``If-None-Match``), with ``x-ratelimit-*`` headers per resource and a 403 past the limit;
- ``blog``: a small blog with posts at dated permalinks, tag pages, an Atom feed, a sitemap and
  a robots.txt that names it.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from datetime import date
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from harvest.demo import pages
from harvest.demo.content import Repo, World, build_world
from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply

#: GitHub's per-window limits as the emulator advertises them (authenticated figures: the demo
#: must not make a spider wait an hour for the anonymous core limit of 60).
SEARCH_LIMIT, SEARCH_WINDOW = 30, 60
CORE_LIMIT, CORE_WINDOW = 5000, 3600
#: GitHub serves at most this many results of one search query.
SEARCH_CAP = 1000
_PERIODS = ("daily", "weekly", "monthly")


Route = Callable[[str, dict[str, list[str]], dict[str, str]], Reply]


class _Server(LoopbackServer):
    """A loopback server answering through one route function of (path, query, headers).

    Header names reach the route in lower case; ``latency`` seconds pass before each answer.
    """

    def __init__(self, name: str, route: Route, latency: float) -> None:
        super().__init__(delay=latency, name=f"demo-{name}")
        self.route = route

    @property
    def latency(self) -> float:
        """Seconds each answer waits (settable while serving)."""
        return self.delay

    @latency.setter
    def latency(self, seconds: float) -> None:
        self.delay = seconds

    def resolve(self, request: LoggedRequest) -> Reply:
        """The route function's answer to ``request``."""
        parts = urlsplit(request.path)
        headers = {k.lower(): v for k, v in request.headers.items()}
        return self.route(parts.path, parse_qs(parts.query), headers)


_ALLOW_ALL = Reply(200, "User-agent: *\nDisallow:\n", content_type="text/plain")
_NOT_FOUND = Reply(404, "Not Found", content_type="text/plain")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    return Reply(status, pages.dumps(data), headers or {}, "application/json; charset=utf-8")


class _RateWindow:
    """One resource's fixed rate-limit window, with GitHub's x-ratelimit-* headers."""

    def __init__(self, resource: str, limit: int, window: int) -> None:
        self.resource, self.limit, self.window = resource, limit, window
        self.reset = 0
        self.used = 0
        self.lock = threading.Lock()

    def take(self) -> tuple[bool, dict[str, str]]:
        with self.lock:
            now = int(time.time())
            if now >= self.reset:
                self.reset, self.used = now + self.window, 0
            allowed = self.used < self.limit
            if allowed:
                self.used += 1
            return allowed, {
                "x-ratelimit-limit": str(self.limit),
                "x-ratelimit-remaining": str(self.limit - self.used),
                "x-ratelimit-reset": str(self.reset),
                "x-ratelimit-used": str(self.used),
                "x-ratelimit-resource": self.resource,
            }


def _compare(value: Any, spec: str, convert: Callable[[str], Any]) -> bool:
    """GitHub's range syntax: ``>N``, ``>=N``, ``<N``, ``<=N``, ``A..B``, ``A..*``, ``N``."""
    try:
        if ".." in spec:
            lo, hi = spec.split("..", 1)
            return (lo == "*" or value >= convert(lo)) and (hi == "*" or value <= convert(hi))
        for op, test in (
            (">=", lambda a, b: a >= b),
            ("<=", lambda a, b: a <= b),
            (">", lambda a, b: a > b),
            ("<", lambda a, b: a < b),
        ):
            if spec.startswith(op):
                return bool(test(value, convert(spec[len(op) :])))
        return bool(value == convert(spec))
    except ValueError:
        return False


def search(world: World, query: str) -> list[Repo]:
    """The repositories matching a search query, in GitHub's qualifier syntax."""
    repos = list(world.repos)
    for token in re.findall(r'\S+:"[^"]*"|\S+', query):
        key, sep, value = token.partition(":")
        value = value.strip('"')
        if not sep:
            word = token.lower()
            repos = [r for r in repos if word in r.name.lower() or word in r.description.lower()]
        elif key == "language":
            repos = [r for r in repos if (r.language or "").lower() == value.lower()]
        elif key == "topic":
            repos = [r for r in repos if value.lower() in r.topics]
        elif key in ("user", "org"):
            repos = [r for r in repos if r.owner == value]
        elif key == "stars":
            repos = [r for r in repos if _compare(r.stars, value, int)]
        elif key in ("created", "pushed"):
            repos = [
                r
                for r in repos
                if _compare(
                    date.fromisoformat(getattr(r, f"{key}_at")[:10]),
                    value,
                    lambda s: date.fromisoformat(s[:10]),
                )
            ]
        # other qualifiers (is:public, archived:false, fork:false...) hold for every sample repo
    return repos


class DemoSites:
    """The four demo servers; ``start()`` them, point the spiders at ``settings()``, ``stop()``."""

    def __init__(self, latency: float = 0.02, world: World | None = None) -> None:
        self.world = world or build_world()
        self.repos = {r.full_name: r for r in self.world.repos}
        self.posts = {p.path: p for p in self.world.posts}
        self.search_window = _RateWindow("search", SEARCH_LIMIT, SEARCH_WINDOW)
        self.core_window = _RateWindow("core", CORE_LIMIT, CORE_WINDOW)
        self.servers = {
            "web": _Server("web", self._web, latency),
            "raw": _Server("raw", self._raw, latency),
            "api": _Server("api", self._api, latency),
            "blog": _Server("blog", self._blog, latency),
        }

    def start(self) -> DemoSites:
        """Start serving (threads of this process)."""
        for server in self.servers.values():
            server.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the ports."""
        for server in self.servers.values():
            server.stop()

    def urls(self) -> dict[str, str]:
        """Base URL of each site."""
        return {name: s.base_url for name, s in self.servers.items()}

    def settings(self) -> dict[str, str]:
        """The endpoint settings that point the spiders at these sites."""
        return {
            "GITHUB_WEB_URL": self.servers["web"].base_url,
            "GITHUB_RAW_URL": self.servers["raw"].base_url,
            "GITHUB_API_URL": self.servers["api"].base_url,
        }

    # --- github.com ----------------------------------------------------------------------
    def _web(self, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> Reply:
        if path == "/robots.txt":
            return _ALLOW_ALL
        m = re.fullmatch(r"/trending(/developers)?(?:/([^/]+))?/?", path)
        if not m:
            return _NOT_FOUND
        since = (query.get("since") or ["daily"])[0]
        if since not in _PERIODS:
            since = "daily"
        language = m.group(2).lower() if m.group(2) else None
        known = {(r.language or "").lower() for r in self.world.repos} - {""}
        if language is not None and language not in known:
            return _NOT_FOUND
        if m.group(1):
            return Reply(body=pages.trending_developers_html(self.world, language, since))
        return Reply(body=pages.trending_repos_html(self.world, language, since))

    # --- raw.githubusercontent.com -------------------------------------------------------
    def _raw(self, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> Reply:
        if path == "/robots.txt":
            return _ALLOW_ALL
        m = re.fullmatch(r"/([^/]+)/([^/]+)/(?:HEAD|main)/README\.md", path)
        repo = self.repos.get(f"{m.group(1)}/{m.group(2)}") if m else None
        if repo is None:
            return _NOT_FOUND
        return Reply(body=repo.readme, content_type="text/plain; charset=utf-8")

    # --- api.github.com ------------------------------------------------------------------
    def _api(self, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> Reply:
        base = self.servers["api"].base_url
        if path == "/robots.txt":
            return _ALLOW_ALL
        if path == "/rate_limit":
            _, search_h = self.search_window.take()
            _, core_h = self.core_window.take()
            return _json(
                {
                    "resources": {
                        "core": {
                            "limit": CORE_LIMIT,
                            "remaining": int(core_h["x-ratelimit-remaining"]),
                            "reset": int(core_h["x-ratelimit-reset"]),
                        },
                        "search": {
                            "limit": SEARCH_LIMIT,
                            "remaining": int(search_h["x-ratelimit-remaining"]),
                            "reset": int(search_h["x-ratelimit-reset"]),
                        },
                    }
                },
                headers=core_h,
            )
        if path == "/search/repositories":
            return self._search(base, query)
        m = re.fullmatch(r"/repos/([^/]+)/([^/]+)/readme", path)
        if m:
            allowed, rate = self.core_window.take()
            if not allowed:
                return _json({"message": "API rate limit exceeded"}, 403, rate)
            repo = self.repos.get(f"{m.group(1)}/{m.group(2)}")
            if repo is None:
                return _json({"message": "Not Found"}, 404, rate)
            body = pages.readme_json(repo, base, self.servers["raw"].base_url, self.servers["web"].base_url)
            etag = f'W/"{body["sha"]}"'
            if headers.get("if-none-match") == etag:
                return Reply(304, "", {**rate, "ETag": etag}, "application/json")
            return _json(body, headers={**rate, "ETag": etag})
        return _json({"message": "Not Found"}, 404)

    def _search(self, base: str, query: dict[str, list[str]]) -> Reply:
        allowed, rate = self.search_window.take()
        if not allowed:
            return _json({"message": "API rate limit exceeded for search"}, 403, rate)
        q = (query.get("q") or [""])[0]
        if not q.strip():
            return _json(
                {"message": "Validation Failed", "errors": [{"field": "q", "code": "missing"}]}, 422, rate
            )
        try:
            per_page = min(100, max(1, int((query.get("per_page") or ["30"])[0])))
            page = max(1, int((query.get("page") or ["1"])[0]))
        except ValueError:
            return _json({"message": "Validation Failed"}, 422, rate)
        if (page - 1) * per_page >= SEARCH_CAP:
            return _json({"message": "Only the first 1000 search results are available"}, 422, rate)
        found = search(self.world, q)
        sort = (query.get("sort") or [""])[0]
        order = (query.get("order") or ["desc"])[0]
        key: Callable[[Repo], Any] = {
            "forks": lambda r: r.forks,
            "updated": lambda r: r.pushed_at,
        }.get(sort, lambda r: r.stars)
        found.sort(key=lambda r: (key(r), r.full_name), reverse=(order != "asc"))
        items = found[(page - 1) * per_page : page * per_page]
        last = max(1, math.ceil(min(len(found), SEARCH_CAP) / per_page))
        params = {k: v[0] for k, v in query.items() if k != "page"}

        def link(n: int) -> str:
            return f"{base}/search/repositories?{urlencode({**params, 'page': n}, quote_via=quote)}"

        links = []
        if page < last:
            links += [f'<{link(page + 1)}>; rel="next"', f'<{link(last)}>; rel="last"']
        if page > 1:
            links += [f'<{link(page - 1)}>; rel="prev"', f'<{link(1)}>; rel="first"']
        web = self.servers["web"].base_url
        body = {
            "total_count": len(found),
            "incomplete_results": False,
            "items": [pages.repo_json(r, base, web) for r in items],
        }
        return _json(body, headers={**rate, **({"Link": ", ".join(links)} if links else {})})

    # --- the blog ------------------------------------------------------------------------
    def _blog(self, path: str, query: dict[str, list[str]], headers: dict[str, str]) -> Reply:
        base = self.servers["blog"].base_url
        posts = sorted(self.world.posts, key=lambda p: p.published, reverse=True)
        if path == "/robots.txt":
            return Reply(
                body=f"User-agent: *\nDisallow: /drafts/\nSitemap: {base}/sitemap.xml\n",
                content_type="text/plain",
            )
        if path == "/sitemap.xml":
            return Reply(body=pages.sitemap(posts, base), content_type="application/xml")
        if path == "/atom.xml":
            return Reply(body=pages.atom_feed(posts, base), content_type="application/atom+xml")
        if path == "/":
            return Reply(
                body=pages.blog_index_html(posts[:5], "Crawl Notes", "Notes on collecting the web politely.")
            )
        if path == "/blog/":
            return Reply(body=pages.blog_index_html(posts, "All posts", "Everything, newest first."))
        m = re.fullmatch(r"/tags/([^/]+)/", path)
        if m:
            tagged = [p for p in posts if m.group(1) in p.tags]
            return (
                Reply(body=pages.blog_index_html(tagged, f"Tag: {m.group(1)}", "Posts with this tag."))
                if tagged
                else _NOT_FOUND
            )
        post = self.posts.get(path)
        return Reply(body=pages.blog_post_html(post, base)) if post else _NOT_FOUND

    def request_count(self) -> dict[str, int]:
        """Requests each site has answered (for tests and the benchmark)."""
        return {name: len(s.requests) for name, s in self.servers.items()}
