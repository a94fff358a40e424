"""The child side of the fleet: count items, report progress to run_all.py, stop when asked.

Each spider process that ``harvest.runner`` starts gets a :class:`FleetChannel` (the fleet's
shared item counter, its stop event and a pipe back to the supervisor) through :func:`attach`
before its crawler is built. :class:`FleetExtension` then adds every scraped item to the shared
counter, sends the supervisor a progress report every ``HARVEST_FLEET_POLL_INTERVAL`` seconds
(which doubles as a heartbeat for hang detection), and closes the spider with the reason
``stop_requested`` once the stop event is set or the supervisor has died, so in-flight
requests finish and output and crawl state are flushed by the normal close path.

Under a plain ``scrapy crawl`` no channel is attached and the extension is not configured.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call
from scrapy.utils.defer import deferred_from_coro

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection

    from scrapy.crawler import Crawler
    from scrapy.spiders import Spider
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Close reason of a crawl stopped by the fleet (listed in harvest.commands.crawl.OK_REASONS).
STOP_REASON = "stop_requested"
#: Longest error text carried to the supervisor's table: one line, not a traceback.
_MAX_ERROR_CHARS = 300
#: Seconds a child waits for the shared counter's lock. The lock is held for nanoseconds; the
#: timeout only matters if a sibling was killed while holding it, and then a lost count is
#: better than a hung crawl.
_COUNTER_LOCK_TIMEOUT = 2.0


@dataclass
class FleetChannel:
    """What a spider process shares with the supervisor (inherited through spawn)."""

    #: ``multiprocessing.Value("q")``: items written by all spiders of the fleet.
    counter: Any
    #: ``multiprocessing.Event``: set once, when the whole fleet must stop.
    stop_event: Any
    #: Send end of this process's own pipe to the supervisor.
    conn: Connection
    #: The supervisor's pid; if this process is re-parented, the supervisor is gone.
    parent_pid: int


_channel: FleetChannel | None = None


def attach(channel: FleetChannel | None) -> None:
    """Make ``channel`` the fleet channel of this process (None detaches)."""
    global _channel
    _channel = channel


def attached() -> FleetChannel | None:
    """The fleet channel of this process, if it runs under the fleet."""
    return _channel


def add_to_counter(counter: Any, n: int = 1) -> bool:
    """Add ``n`` to a shared ``multiprocessing.Value`` under its lock; False if the lock is stuck."""
    lock = counter.get_lock()
    if not lock.acquire(timeout=_COUNTER_LOCK_TIMEOUT):
        return False
    try:
        counter.value += n
    finally:
        lock.release()
    return True


class _LastErrorHandler(logging.Handler):
    """Remembers the last ERROR record's first line, for the supervisor's "last error" column."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.last: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # a logging handler must never raise into the code that logged
            self.handleError(record)
            return
        lines = text.strip().splitlines()
        self.last = (lines[0] if lines else record.name)[:_MAX_ERROR_CHARS]


class FleetExtension:
    """Counts items into the fleet's shared counter and honours the fleet's stop event.

    Enabled by the fleet for its children (``harvest.runner.child``); ``NotConfigured``
    when the process runs outside the fleet.
    """

    def __init__(
        self,
        channel: FleetChannel,
        stats: StatsCollector,
        poll_interval: float,
        close_spider: Callable[[str], None],
    ) -> None:
        self.channel = channel
        self.stats = stats
        self.poll_interval = poll_interval
        self.close_spider = close_spider
        self.stopping = False
        self.errors = _LastErrorHandler()
        self._task: Any = None
        self._pipe_open = True
        self._lock_warned = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from the attached channel and ``HARVEST_FLEET_POLL_INTERVAL``."""
        channel = attached()
        if channel is None:
            raise NotConfigured("not running under run_all.py (no fleet channel attached)")
        assert crawler.stats is not None

        def close(reason: str) -> None:
            assert crawler.engine is not None
            dfd = deferred_from_coro(crawler.engine.close_spider_async(reason=reason))
            dfd.addErrback(lambda f: logger.error("Could not close the spider: %s", f.value))

        ext = cls(channel, crawler.stats, crawler.settings.getfloat("HARVEST_FLEET_POLL_INTERVAL"), close)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self, spider: Spider) -> None:
        """Start watching the stop event and reporting progress."""
        logging.getLogger().addHandler(self.errors)
        self.send({"kind": "opened", "pid": os.getpid()})
        self._task = create_looping_call(self.poll)
        self._task.start(self.poll_interval, now=True)

    def item_scraped(self, item: Any, spider: Spider) -> None:
        """An item passed every pipeline (it is written): count it fleet-wide."""
        if not add_to_counter(self.channel.counter) and not self._lock_warned:
            self._lock_warned = True
            logger.warning("The fleet's item counter is locked by a dead process; counts are now low")
            self.stats.inc_value("harvest/fleet/counter_lock_timeout")

    def poll(self) -> None:
        """Stop if the fleet asks to (or its supervisor died); report progress either way."""
        if not self.stopping:
            if self.channel.stop_event.is_set():
                self.request_stop("the fleet is stopping")
            elif os.getppid() != self.channel.parent_pid:
                self.request_stop(f"the supervisor (pid {self.channel.parent_pid}) is gone")
        self.send({"kind": "progress", **self.snapshot()})

    def request_stop(self, why: str) -> None:
        """Close the spider gracefully: in-flight requests finish, output and state are flushed."""
        self.stopping = True
        logger.info("Stopping: %s; finishing in-flight requests", why)
        self.stats.set_value("harvest/fleet/stop_requested", 1)
        self.close_spider(STOP_REASON)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Send the final report with the close reason."""
        self.stopping = True
        if self._task is not None and self._task.running:
            self._task.stop()
        logging.getLogger().removeHandler(self.errors)
        unreachable = self.stats.get_value("harvest/reachability/unreachable") or []
        self.send({"kind": "closed", "reason": reason, "unreachable": list(unreachable), **self.snapshot()})

    def snapshot(self) -> dict[str, Any]:
        """This crawl's counts so far, as the supervisor's table shows them."""
        get = self.stats.get_value
        return {
            "items": int(get("item_scraped_count", 0)),
            "pages": int(get("response_received_count", 0)),
            "requests": int(get("downloader/request_count", 0)),
            "errors": int(get("log_count/ERROR", 0)),
            "last_error": self.errors.last,
        }

    def send(self, message: dict[str, Any]) -> None:
        """Send one report; a closed pipe means the supervisor is gone, so stop."""
        if not self._pipe_open:
            return
        try:
            self.channel.conn.send(message)
        except (BrokenPipeError, EOFError, OSError):
            self._pipe_open = False
            if not self.stopping:
                self.request_stop("the supervisor's pipe is closed")
