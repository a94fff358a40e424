"""A loopback web archive: the Wayback Machine's CDX API and ``id_`` playback, with its rate limits.

Written from the archive's documented behaviour, independently of harvest's own CDX code:

- ``GET /cdx/search/cdx?url=...&from=...&to=...&output=json&fl=...&filter=statuscode:200``
  ``&collapse=timestamp:8&limit=N&showResumeKey=true[&resumeKey=K]``: the captures of exactly
  that URL (scheme and ``www.`` ignored, query kept) between the two timestamps (a prefix means
  "from its start" / "to its end"), oldest first, filtered, collapsed on the first 8 digits,
  ``limit`` rows then ``[]`` and ``[resume key]`` when more remain; a JSON header row first; an
  empty ``[]`` when nothing matches.
- ``GET /web/<timestamp>id_/<original>``: the capture's bytes as captured; a capture recorded as
  a redirect answers 302 to the memento of its target; a timestamp with no capture redirects to
  the nearest one (as the archive does).
- Rate limits: more than ``cdx_limit`` CDX requests in ``cdx_window`` seconds, or ``web_limit``
  playbacks in ``web_window`` seconds, answers 429 with ``Retry-After: retry_after`` and blocks the
  endpoint that long; every request that arrives while an endpoint is blocked is a *violation*
  (answered 429 too). ``violations`` and ``refusals`` count them per endpoint.
"""

from __future__ import annotations

import json
import re
import threading
from bisect import bisect_left
from collections import defaultdict, deque
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from harvest.util.loopback import LoggedRequest, LoopbackServer, Reply

CDX_PATH = "/cdx/search/cdx"
_PLAYBACK = re.compile(r"^/web/(\d{14})id_/(.+)$")


def page_key(url: str) -> str:
    """How the archive matches a URL: no scheme, no ``www.``, no port, no trailing slash."""
    rest = re.sub(r"^[a-zA-Z]+://", "", url)
    host, _, path = rest.partition("/")
    host = host.lower().removeprefix("www.").split(":")[0]
    return (host + "/" + path).rstrip("/")


@dataclass
class Capture:
    """One capture the emulated archive holds."""

    timestamp: str
    original: str
    body: bytes = b""
    status: int = 200
    #: A capture of a redirect: the memento of this original (at this capture's time + 1 s).
    redirect_to: str | None = None
    mimetype: str = "text/html"

    @property
    def digest(self) -> str:
        return f"SHA1{abs(hash((self.timestamp, self.original))) % 10**12:012d}"


class ArchiveEmulator(LoopbackServer):
    """The emulated archive (see the module docstring)."""

    def __init__(
        self,
        *,
        cdx_limit: int = 10_000,
        cdx_window: float = 60.0,
        web_limit: int = 10_000,
        web_window: float = 1.0,
        retry_after: float = 2.0,
        send_retry_after: bool = True,
    ) -> None:
        super().__init__(name="archive")
        self.captures: dict[str, list[Capture]] = defaultdict(list)
        self.limits = {"cdx": (cdx_limit, cdx_window), "web": (web_limit, web_window)}
        self.retry_after = retry_after
        #: Without the header a client must back off on its own (the block still lasts retry_after).
        self.send_retry_after = send_retry_after
        self._recent: dict[str, deque[float]] = {"cdx": deque(), "web": deque()}
        self._blocked: dict[str, float] = {"cdx": 0.0, "web": 0.0}
        self.violations: dict[str, int] = {"cdx": 0, "web": 0}
        self.refusals: dict[str, int] = {"cdx": 0, "web": 0}
        #: Per endpoint, the arrival time of every request answered (not refused).
        self.served: dict[str, list[float]] = {"cdx": [], "web": []}
        self._limit_lock = threading.Lock()
        self.add("/robots.txt", Reply(body="User-agent: *\nAllow: /\n", content_type="text/plain"))

    def capture(self, timestamp: str, original: str, body: bytes = b"", **fields: object) -> Capture:
        """Hold a capture of ``original`` at ``timestamp``."""
        entry = Capture(timestamp, original, body, **fields)  # type: ignore[arg-type]
        found = self.captures[page_key(original)]
        found.append(entry)
        found.sort(key=lambda c: c.timestamp)
        return entry

    # --- rate limits -----------------------------------------------------------------------
    def _admit(self, endpoint: str, arrived: float) -> Reply | None:
        limit, window = self.limits[endpoint]
        with self._limit_lock:
            if arrived < self._blocked[endpoint]:
                self.violations[endpoint] += 1
                left = self._blocked[endpoint] - arrived
                return Reply(429, "Too Many Requests", self._retry_header(left), "text/plain")
            recent = self._recent[endpoint]
            while recent and recent[0] <= arrived - window:
                recent.popleft()
            if len(recent) >= limit:
                self.refusals[endpoint] += 1
                self._blocked[endpoint] = arrived + self.retry_after
                # An honest Retry-After: the window starts again once the block is over.
                recent.clear()
                return Reply(429, "Too Many Requests", self._retry_header(self.retry_after), "text/plain")
            recent.append(arrived)
            self.served[endpoint].append(arrived)
        return None

    def _retry_header(self, seconds: float) -> dict[str, str]:
        return {"Retry-After": f"{seconds:.3f}"} if self.send_retry_after else {}

    # --- answers ---------------------------------------------------------------------------
    def resolve(self, request: LoggedRequest) -> Reply:
        """CDX, playback, or the route table (robots.txt)."""
        path = urlsplit(request.path).path
        if path == CDX_PATH:
            return self._admit("cdx", request.arrived) or self._cdx(request)
        if path.startswith("/web/"):
            return self._admit("web", request.arrived) or self._playback(request)
        return super().resolve(request)

    def _cdx(self, request: LoggedRequest) -> Reply:
        params = {k: v[-1] for k, v in parse_qs(urlsplit(request.path).query).items()}
        if params.get("output") != "json" or "url" not in params:
            return Reply(400, "bad request", content_type="text/plain")
        start = params.get("from", "").ljust(14, "0")
        end = params.get("to", "99999999999999").ljust(14, "9")
        rows = [c for c in self.captures.get(page_key(params["url"]), []) if start <= c.timestamp <= end]
        for condition in [params["filter"]] if "filter" in params else []:
            field, _, wanted = condition.partition(":")
            rows = [c for c in rows if field == "statuscode" and str(c.status) == wanted]
        if params.get("collapse", "").startswith("timestamp:"):
            digits = int(params["collapse"].split(":")[1])
            kept: list[Capture] = []
            for c in rows:
                if not kept or kept[-1].timestamp[:digits] != c.timestamp[:digits]:
                    kept.append(c)
            rows = kept
        if "resumeKey" in params:
            rows = rows[bisect_left([c.timestamp for c in rows], params["resumeKey"]) :]
        limit = int(params.get("limit", "0") or 0)
        more = limit and len(rows) > limit
        page = rows[:limit] if limit else rows
        fields = params.get("fl", "timestamp,original,statuscode,digest,mimetype").split(",")
        out: list[list[str]] = [fields] if page else []
        for c in page:
            values = {"timestamp": c.timestamp, "original": c.original, "statuscode": str(c.status),
                      "digest": c.digest, "mimetype": c.mimetype}  # fmt: skip
            out.append([values[f] for f in fields])
        if more and params.get("showResumeKey") == "true":
            out += [[], [rows[limit].timestamp]]
        return Reply(body=json.dumps(out), content_type="application/json")

    def _playback(self, request: LoggedRequest) -> Reply:
        match = _PLAYBACK.match(request.path)
        if match is None:
            return Reply(404, "not in the archive", content_type="text/plain")
        stamp, original = match.groups()
        found = self.captures.get(page_key(original), [])
        exact = [c for c in found if c.timestamp == stamp]
        if not exact:
            if not found:
                return Reply(404, "not in the archive", content_type="text/plain")
            nearest = min(found, key=lambda c: abs(int(c.timestamp) - int(stamp)))
            return Reply(302, "", {"Location": f"/web/{nearest.timestamp}id_/{nearest.original}"})
        capture = exact[0]
        if capture.redirect_to is not None:
            target = self.captures.get(page_key(capture.redirect_to), [])
            later = [c for c in target if c.timestamp > capture.timestamp] or target
            when = later[0].timestamp if later else capture.timestamp
            return Reply(302, "", {"Location": f"/web/{when}id_/{capture.redirect_to}"})
        return Reply(capture.status, capture.body, content_type=f"{capture.mimetype}; charset=utf-8")

    # --- the log ---------------------------------------------------------------------------
    def playbacks(self) -> list[tuple[str, str]]:
        """``(timestamp, original)`` of every playback request received, in order."""
        out = []
        for path in self.paths_requested():
            match = _PLAYBACK.match(path)
            if match:
                out.append((match.group(1), match.group(2)))
        return out

    def cdx_queries(self) -> list[dict[str, str]]:
        """The parameters of every CDX request received, in order."""
        return [
            {k: v[-1] for k, v in parse_qs(urlsplit(p).query).items()}
            for p in self.paths_requested()
            if urlsplit(p).path == CDX_PATH
        ]

    def most_in_window(self, endpoint: str) -> int:
        """The most requests served to ``endpoint`` within any one of its windows."""
        _, window = self.limits[endpoint]
        times = sorted(self.served[endpoint])
        best = 0
        for i, t in enumerate(times):
            j = bisect_left(times, t + window)
            best = max(best, j - i)
        return best
