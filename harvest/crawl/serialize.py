"""A request as the frontier persists it: a pickled ``Request.to_dict``, callbacks by name.

Requests are persisted in the crawl state (the pending frontier) and in hand-off spools, so they
must survive a ``kill -9`` and a restart: plain data, callbacks named as spider methods.
"""

from __future__ import annotations

import logging
import pickle
from typing import TYPE_CHECKING, Any

from scrapy.http import Request

from harvest.meta import META_FRONTIER_KEY

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

#: Same protocol as Scrapy's own pickle disk queues.
PICKLE_PROTOCOL = 4


def method_name(spider: Spider, func: Any) -> str | None:
    """The spider attribute naming bound method ``func``, found without ``inspect``.

    ``Request.to_dict`` finds it with ``inspect.getmembers(spider)``, which evaluates every
    attribute and property of the spider: the largest single cost of a crawl that stores little
    (BENCHMARKS.md, "Issue 9"). None = let ``to_dict`` decide.
    """
    function = getattr(func, "__func__", None)
    if function is None or getattr(func, "__self__", None) is not spider:
        return None
    name = getattr(func, "__name__", None)
    bound = getattr(spider, name, None) if isinstance(name, str) else None
    if getattr(bound, "__func__", None) is not function:
        return None
    return name


def request_dict(request: Request, spider: Spider) -> dict[str, Any]:
    """``request.to_dict(spider=...)``, with the callbacks named cheaply when possible."""
    callback, errback = request.callback, request.errback
    cb_name = method_name(spider, callback)
    eb_name = method_name(spider, errback)
    if (callback is not None and cb_name is None) or (errback is not None and eb_name is None):
        return request.to_dict(spider=spider)
    # The same fields as Request.to_dict (checked by tests/test_frontier.py).
    data: dict[str, Any] = {
        "url": request.url,
        "callback": cb_name,
        "errback": eb_name,
        "headers": dict(request.headers),
    }
    for attr in request.attributes:
        data.setdefault(attr, getattr(request, attr))
    if type(request) is not Request:
        data["_class"] = request.__module__ + "." + request.__class__.__name__
    return data


class RequestCodec:
    """Encodes a crawl's requests for the frontier, counting (and logging once) those it cannot."""

    def __init__(self, spider: Spider, stats: StatsCollector | None) -> None:
        self.spider = spider
        self.stats = stats
        self._unserializable_logged = False

    def encode(self, request: Request) -> bytes | None:
        """The request as a frontier row stores it; None (counted, logged once) if it cannot be."""
        try:
            data = request_dict(request, self.spider)
            # to_dict() hands out the request's own meta dict: copy it, never edit it.
            data["meta"] = {k: v for k, v in data["meta"].items() if k != META_FRONTIER_KEY}
            return pickle.dumps(data, protocol=PICKLE_PROTOCOL)
        except (ValueError, TypeError, AttributeError, pickle.PicklingError) as exc:
            assert self.stats is not None
            self.stats.inc_value("harvest/frontier/unserializable")
            if not self._unserializable_logged:
                logger.warning(
                    "Cannot persist %s in the frontier (%s); it is crawled but would not "
                    "survive a crash. No more unserializable requests will be logged.",
                    request,
                    exc,
                    extra={"spider": self.spider},
                )
                self._unserializable_logged = True
            return None
