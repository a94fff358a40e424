"""The child side of the fleet: count items, report progress to run_all.py, stop when asked.

Each spider process that ``harvest.runner`` starts gets a :class:`FleetChannel` (its own slot of
the fleet's item counter, the stop flag and a pipe back to the supervisor) through
:func:`attach` before its crawler is built. :class:`FleetExtension` then adds every scraped item
to its slot (no lock: see harvest.runner.counter), sends the supervisor a progress report every
``HARVEST_FLEET_POLL_INTERVAL`` seconds, and closes the spider with the reason
``stop_requested`` once the stop flag is set or the supervisor has died, so in-flight
requests finish and output and crawl state are flushed by the normal close path.

The progress report is the heartbeat the supervisor's watchdog reads. It comes from a looping
call on the reactor, so a blocked reactor sends none; and it says what the crawl is doing:
its counts, the requests in flight in the downloader, the requests waiting in the scheduler,
and the waits components announced (:mod:`harvest.util.waits`, e.g. the GitHub rate limit).

Under a plain ``scrapy crawl`` no channel is attached and the extension is not configured.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.utils.asyncio import create_looping_call

from harvest.exceptions import NotApplicable
from harvest.plumbing.closing import close_crawl
from harvest.util import waits

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection

    from scrapy.crawler import Crawler
    from scrapy.spiders import Spider
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Close reason of a crawl stopped by the fleet (listed in harvest.plumbing.closing.OK_REASONS).
STOP_REASON = "stop_requested"
#: Longest error text carried to the supervisor's table: one line, not a traceback.
_MAX_ERROR_CHARS = 300


@dataclass
class FleetChannel:
    """What a spider process shares with the supervisor (inherited through spawn)."""

    #: The fleet's item counter: a shared ``Array("q", lock=False)``, one slot per running child.
    counter: Any
    #: Set once, when the whole fleet must stop: the supervisor's lock-free
    #: ``harvest.runner.stopflag.StopFlag`` (anything with ``is_set()``).
    stop_flag: Any
    #: Send end of this process's own pipe to the supervisor.
    conn: Connection
    #: The supervisor's pid; if this process is re-parented, the supervisor is gone.
    parent_pid: int
    #: This process's slot of ``counter``: it is the slot's only writer.
    slot: int = 0


_channel: FleetChannel | None = None


def attach(channel: FleetChannel | None) -> None:
    """Make ``channel`` the fleet channel of this process (None detaches)."""
    global _channel
    _channel = channel


def attached() -> FleetChannel | None:
    """The fleet channel of this process, if it runs under the fleet."""
    return _channel


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
    """Counts items into this process's counter slot, sends heartbeats, honours the stop flag.

    Enabled by the fleet for its children (``harvest.runner.child``); ``NotConfigured``
    when the process runs outside the fleet.
    """

    def __init__(
        self,
        channel: FleetChannel,
        stats: StatsCollector,
        poll_interval: float,
        close_spider: Callable[[str], None],
        crawler: Crawler | None = None,
    ) -> None:
        self.channel = channel
        #: For the heartbeat's activity (engine, announced waits); None in unit tests.
        self.crawler = crawler
        self.stats = stats
        self.poll_interval = poll_interval
        self.close_spider = close_spider
        self.stopping = False
        self.errors = _LastErrorHandler()
        self._task: Any = None
        self._pipe_open = True

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from the attached channel and ``HARVEST_FLEET_POLL_INTERVAL``."""
        channel = attached()
        if channel is None:
            raise NotApplicable("not running under run_all.py (no fleet channel attached)")
        assert crawler.stats is not None
        poll = crawler.settings.getfloat("HARVEST_FLEET_POLL_INTERVAL")
        ext = cls(channel, crawler.stats, poll, partial(close_crawl, crawler), crawler)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self, spider: Spider) -> None:
        """Start watching the stop flag and reporting progress."""
        logging.getLogger().addHandler(self.errors)
        self.send({"kind": "opened", "pid": os.getpid()})
        self._task = create_looping_call(self.poll)
        self._task.start(self.poll_interval, now=True)

    def item_scraped(self, item: Any, spider: Spider) -> None:
        """An item passed every pipeline (it is written): count it fleet-wide, in our own slot."""
        # This process is the slot's only writer (harvest.runner.counter): no lock to take, so
        # a sibling killed at any instant cannot make this wait.
        self.channel.counter[self.channel.slot] += 1

    def poll(self) -> None:
        """Stop if the fleet asks to (or its supervisor died); send the heartbeat either way."""
        if not self.stopping:
            if self.channel.stop_flag.is_set():
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
        """This crawl's counts and activity so far, as the supervisor's watchdog and table use them."""
        get = self.stats.get_value
        return {
            "items": int(get("item_scraped_count", 0)),
            "pages": int(get("response_received_count", 0)),
            "requests": int(get("downloader/request_count", 0)),
            "errors": int(get("log_count/ERROR", 0)),
            # For the dashboard's /metrics: requests that waited for a rate limit (the GitHub budget,
            # a web archive's 429/503), state commits.
            "rate_limit_waits": int(get("harvest/github/waits", 0))
            + int(get("harvest/archive/cdx/waits", 0))
            + int(get("harvest/archive/web/waits", 0)),
            "state_commits": int(get("harvest/state/commits", 0)),
            "last_error": self.errors.last,
            **self.activity(),
        }

    def activity(self) -> dict[str, Any]:
        """Requests in flight and scheduled, and the announced waits (empty outside a crawl)."""
        if self.crawler is None:
            return {"in_flight": 0, "scheduled": 0, "waits": []}
        in_flight = scheduled = 0
        try:
            engine = self.crawler.engine
        except RuntimeError:  # Scrapy 2.19: "not set yet", before the crawl starts
            engine = None
        if engine is not None:
            in_flight = len(engine.downloader.active)
            scheduler = engine.scheduler
            if scheduler is not None:
                # Every scheduler has has_pending_requests(); ours and Scrapy's also count cheaply.
                sized = getattr(scheduler, "__len__", None)
                scheduled = int(sized()) if sized is not None else int(scheduler.has_pending_requests())
        return {
            "in_flight": in_flight,
            "scheduled": scheduled,
            "waits": [w.as_dict() for w in waits.current(self.crawler)],
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
