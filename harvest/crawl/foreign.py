"""Requests another worker of a partitioned crawl owns: handed to its spool, once per run and URL.

:class:`harvest.crawl.frontier.FrontierScheduler` asks :class:`ForeignRequests` who owns each
request it is given (and :class:`~harvest.crawl.frontier.FrontierMiddleware` each request a
callback yields); one another worker owns is written to that worker's spool
(:mod:`harvest.crawl.handoff`) with the cookies this worker's jar would send, and remembered in
the crawl process's :class:`harvest.state.seen.SeenSet`, as the duplicate filter's fingerprints are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harvest.crawl.handoff import HandoffSpool
from harvest.crawl.serialize import RequestCodec
from harvest.meta import META_FRONTIER_KEY
from harvest.middlewares.cookies import cookies_to_hand_over
from harvest.state.crawl import CrawlState
from harvest.state.dupefilter import SeenDupeFilter
from harvest.state.seen import SeenSet

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.dupefilters import BaseDupeFilter
    from scrapy.http import Request


class ForeignRequests:
    """This worker's side of the hand-off: who owns a request, and sending the others theirs."""

    def __init__(self, crawler: Crawler, spool: HandoffSpool, state: CrawlState, seen: SeenSet) -> None:
        self.crawler = crawler
        self.spool = spool
        self.state = state
        self.seen = seen
        self.codec: RequestCodec | None = None

    def open(self, dupefilter: BaseDupeFilter, codec: RequestCodec) -> None:
        """Open the spools, with the fingerprints a handed request is checked against."""
        self.codec = codec
        self.spool.open()
        # A handed request already among the duplicate filter's fingerprints is
        # skipped before it is unpickled (harvest.crawl.handoff). Ours keeps them in the
        # seen set, Scrapy's RFPDupeFilter in ``_fingerprints`` (its public
        # ``fingerprints`` is deprecated and copies the set); another filter leaves every
        # handed request to be read.
        if isinstance(dupefilter, SeenDupeFilter):
            self.spool.known = dupefilter.seen
        else:
            known = getattr(dupefilter, "_fingerprints", None)
            if isinstance(known, set):
                self.spool.known = known
        # Handed requests are durable before the pages that found them count as done.
        self.state.add_pre_commit(self.spool.sync)

    def close(self) -> None:
        """Close the spools this worker wrote."""
        self.state.remove_pre_commit(self.spool.sync)
        self.spool.close()

    def owner(self, fingerprint: bytes) -> int | None:
        """The worker owning ``fingerprint`` when that is another one; None for this one's."""
        partition = self.spool.partition
        owner = partition.owner(fingerprint)
        return None if owner == partition.index else owner

    def send(self, request: Request, fingerprint: bytes, owner: int) -> bool:
        """Give ``request`` to the worker that owns it (see the module docstring)."""
        stats = self.crawler.stats
        assert self.codec is not None and stats is not None
        if request.dont_filter or fingerprint not in self.seen:
            # The other worker has its own cookie jar: the request takes this one's cookies along.
            carried = cookies_to_hand_over(self.crawler, request)
            if carried:
                request = request.replace(cookies=[*_cookie_list(request.cookies), *carried])
            blob = self.codec.encode(request)
            if blob is None:
                return False  # cannot travel: logged by the codec, counted as unserializable
            if not self.spool.send(owner, blob, None if request.dont_filter else fingerprint):
                # The spool cannot be written: the crawl stops without committing (said once by
                # the spool), so the page that found this request is fetched again next run.
                return True
            if request.dont_filter:
                self.seen.add(fingerprint)
            else:
                self.seen.add_new(fingerprint)  # not seen: asked just above
            stats.inc_value("harvest/handoff/sent")
        marker = request.meta.get(META_FRONTIER_KEY)
        if isinstance(marker, str) and marker != fingerprint.hex():
            # A redirect to another worker's URL: the original request is done here.
            self.state.retire(bytes.fromhex(marker))
        return True


def _cookie_list(cookies: Any) -> list[Any]:
    """``Request.cookies`` (a dict or a list of dicts) as a list of dicts."""
    if isinstance(cookies, dict):
        return [{"name": name, "value": value} for name, value in cookies.items()]
    return list(cookies or [])
