"""Requests handed between the workers of a partitioned crawl, and knowing when all are done.

With ``HARVEST_CRAWL_WORKERS=N`` (:mod:`harvest.state.partition`) a worker that discovers a request
owned by another hands it over through a *spool*: ``state/<spider>.handoff/<i>-<j>.spool``
holds what worker ``i`` found for worker ``j``, one request per line (base64 of the frontier's
pickled request), appended by ``i`` only.

- Sender (:meth:`HandoffSpool.send`, called by :class:`harvest.crawl.frontier.FrontierScheduler`,
  for a callback's output from :class:`harvest.crawl.frontier.FrontierMiddleware` before Scrapy
  schedules it): a line (the request's fingerprint in hex, a space, then the request; a
  ``dont_filter`` request has no fingerprint) is written at once and fsynced before the sender's
  state commits (a pre-commit hook), so a page counted as done has its links in the owners'
  spools. A kill can leave a partial last
  line: the sender cuts it when it starts again, and a receiver never reads a line without its
  newline. A page fetched again after a kill hands its links again: the owner's seen set (its
  duplicate filter and its persisted fetch times) drops them.
- Receiver (:class:`HandoffExtension`): every :data:`POLL` seconds it reads
  its spools from the offsets committed in its own state (output offsets named
  ``handoff:<i>``) and schedules each request; the frontier persists it in the same commit as
  the new offset. A request whose fingerprint the receiver's duplicate filter already holds is
  skipped unread: each worker finds most of the site's links itself, so about half of the
  requests handed to it are ones it has queued already (on a 2,000-page site, 460-580 of each
  worker's ~1,000), which it would unpickle and schedule only for the duplicate filter to drop.
  The spider is told of each request handed in (``handed_in``), so it does not build it again
  when one of its own pages links there.
- A failed write (a full disk): the spool's cut back to its last whole line, the failure said
  once in one line naming the file, and the crawl stopped as after a full disk anywhere else
  (reason ``disk_full``, or ``output_error``): nothing more is sent and nothing more commits, so
  the pages whose links were not handed over are fetched again by the next run, which resumes.
- End: each worker keeps ``status-<k>.json`` (its run, whether it is idle, how far it read each
  spool). A worker closes when every worker of this run is idle and every spool was read to its
  end, seen on two checks in a row; reading anything marks the reader busy first, so a request
  in transit always shows as a spool longer than what its reader read.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.request import request_from_dict

from harvest.config.settings_model import retired_value
from harvest.exceptions import NotApplicable
from harvest.meta import upgrade
from harvest.plumbing.capabilities import capabilities
from harvest.plumbing.closing import close_crawl
from harvest.state.crawl import CrawlState, is_disk_full
from harvest.state.partition import RUN_ENV, SUPERVISOR_ENV, Partition, worker_channel
from harvest.util import waits
from harvest.util.files import truncate_partial_tail

if TYPE_CHECKING:
    from collections.abc import Container

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from twisted.internet.task import LoopingCall
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Prefix of the receiver's committed spool offsets in its state's output offsets.
#: How often a worker reads the requests handed to it (seconds). A read is a stat and a read of
#: each spool; the crawl ends two quiet polls after its last page and a handed request waits up to
#: one poll, so shorter is cheaper than it looks (figures: BENCHMARKS.md, issue 18).
POLL = 0.01
OFFSET_PREFIX = "handoff:"
#: Consecutive checks that must find the whole crawl quiet before a worker closes.
QUIET_CHECKS = 2
#: Close reason of a worker whose worker 0 died: its data is consistent, the crawl unfinished.
SUPERVISOR_LOST = "crawl_worker_lost"

_SPOOLS: WeakKeyDictionary[Crawler, HandoffSpool | None] = WeakKeyDictionary()


class Handed(NamedTuple):
    """One request read from a spool."""

    #: The request's fingerprint (None for a ``dont_filter`` request: never skipped).
    fingerprint: bytes | None
    #: The frontier's pickled request dict.
    blob: bytes


@dataclass
class WorkerStatus:
    """What one worker last said about itself (``status-<k>.json``)."""

    run: str
    idle: bool
    #: sender index -> bytes of its spool to this worker read (and scheduled) so far.
    consumed: dict[int, int] = field(default_factory=dict)


class HandoffSpool:
    """The spools and status files of one worker (see the module docstring)."""

    def __init__(self, folder: Path, partition: Partition, run: str, state: CrawlState | None = None) -> None:
        self.folder = folder
        self.partition = partition
        self.run = run
        #: The crawl's state, stopped when a write fails (None: a unit test's spool).
        self.state = state
        #: The write that failed (None while all went well): nothing more is written.
        self.error: OSError | None = None
        self._fds: dict[int, int] = {}
        #: receiver -> the size of its spool (this worker is its only writer): where a line that
        #: a failed write left half-written is cut back to.
        self._sizes: dict[int, int] = {}
        self._unsynced: set[int] = set()
        #: Fingerprints this worker's duplicate filter holds: requests it need not read. Set by
        #: the scheduler when its filter keeps them in a set (Scrapy's RFPDupeFilter).
        self.known: Container[bytes] = frozenset()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HandoffSpool | None:
        """The crawl's spool (one per crawler), None unless the crawl is partitioned."""
        if crawler in _SPOOLS:
            return _SPOOLS[crawler]
        settings = crawler.settings
        partition = Partition.from_settings(settings)
        spool: HandoffSpool | None = None
        if partition.active:
            assert crawler.spidercls is not None
            folder = Path(settings.get("HARVEST_DATA_DIR")) / "state" / f"{crawler.spidercls.name}.handoff"
            spool = cls(
                folder, partition, worker_channel(RUN_ENV, settings), CrawlState.from_crawler(crawler)
            )
        _SPOOLS[crawler] = spool
        return spool

    def path(self, sender: int, receiver: int) -> Path:
        """The spool of ``sender``'s requests for ``receiver``."""
        return self.folder / f"{sender}-{receiver}.spool"

    def open(self) -> None:
        """Create the folder; cut partial last lines this worker's previous run left.

        A failure is said and stops commits (:attr:`error`); the crawl is closed once open
        (:meth:`HandoffExtension.spider_opened`): closing it from within its opening cannot.
        """
        path = self.folder
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            for receiver in range(self.partition.count):
                path = self.path(self.partition.index, receiver)
                if receiver != self.partition.index and path.exists():
                    cut = truncate_partial_tail(path)
                    if cut:
                        logger.info("Cut %d bytes of a request half-written to %s by a killed run", cut, path)
        except OSError as exc:
            self._failed(path, exc, close=False)

    # --- sending -----------------------------------------------------------------------------

    def send(self, receiver: int, blob: bytes, fingerprint: bytes | None = None) -> bool:
        """Append one request (the frontier's pickled dict) to ``receiver``'s spool.

        ``fingerprint`` lets the receiver skip a request it already has without unpickling it;
        None for a request its duplicate filter must not drop (``dont_filter``). False when it
        was not sent: a write failed, now or before (said once, and the crawl stopped).
        """
        if self.error is not None:
            return False
        line = base64.b64encode(blob) + b"\n"
        if fingerprint is not None:
            line = fingerprint.hex().encode("ascii") + b" " + line
        try:
            fd = self._fds.get(receiver)
            if fd is None:
                fd = os.open(
                    self.path(self.partition.index, receiver), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666
                )
                self._fds[receiver] = fd
                self._sizes[receiver] = os.fstat(fd).st_size
            self._append(fd, self._sizes[receiver], line)
        except OSError as exc:
            self._failed(self.path(self.partition.index, receiver), exc)
            return False
        self._sizes[receiver] += len(line)
        self._unsynced.add(receiver)
        return True

    @staticmethod
    def _append(fd: int, size: int, line: bytes) -> None:
        """Write ``line`` whole at the end (``size``), or cut the spool back to ``size`` and raise."""
        view = memoryview(line)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            if len(view) < len(line):
                try:
                    os.ftruncate(fd, size)
                except OSError:
                    pass  # a receiver never reads a line without its newline; the next open cuts it
            raise

    def sync(self) -> dict[str, int]:
        """Make what was sent durable (a pre-commit hook of the crawl state; no offsets).

        A failure is said (once) and raised, so the commit it precedes does not happen.
        """
        for receiver in list(self._unsynced):
            try:
                os.fsync(self._fds[receiver])
            except OSError as exc:
                self._failed(self.path(self.partition.index, receiver), exc)
                raise
        self._unsynced.clear()
        return {}

    def close(self) -> None:
        """Sync and close the spools written (a failure to sync is said by :meth:`sync`)."""
        try:
            self.sync()
        except OSError:
            pass  # said once, and nothing commits after it
        finally:
            for fd in self._fds.values():
                os.close(fd)
            self._fds.clear()
            self._unsynced.clear()

    def _failed(self, path: Path, exc: OSError, *, close: bool = True) -> None:
        """A write to ``path`` failed: say so once and stop the crawl (see the module docstring).

        Nothing is said when the crawl already stopped for a reason of its own (the same full
        disk, met first by the state or the output): one line says why a crawl stopped.
        ``close=False`` stops commits without closing (the crawl is being opened).
        """
        first = self.error is None
        self.error = exc
        state = self.state
        stopping = state is not None and state.abandoned is not None
        if first and not stopping:
            disk_full = is_disk_full(exc)
            logger.error(
                "Cannot write %s: %s. Stopping the crawl: what was committed is intact, and the "
                "next run resumes from it%s.",
                path,
                exc.strerror or exc,
                " once there is space again" if disk_full else "",
            )
        if state is not None and not stopping:
            reason = "disk_full" if is_disk_full(exc) else "output_error"
            if close:
                state.abandon(reason)
            else:
                state.abandoned = reason

    # --- receiving ---------------------------------------------------------------------------

    def read(self, sender: int, offset: int, limit: int = 1 << 20) -> tuple[list[Handed], int]:
        """Whole lines of ``sender``'s spool to this worker from ``offset``: (requests, new offset)."""
        path = self.path(sender, self.partition.index)
        try:
            with path.open("rb") as fh:
                fh.seek(offset)
                chunk = fh.read(limit)
                # A request longer than the limit: read on to its end rather than stall the spool.
                while b"\n" not in chunk and (more := fh.read(limit)):
                    chunk += more
        except FileNotFoundError:
            return [], offset
        end = chunk.rfind(b"\n")
        if end < 0:
            return [], offset
        lines = chunk[: end + 1].splitlines()
        return [_handed(line) for line in lines if line], offset + end + 1

    def size(self, sender: int, receiver: int) -> int:
        """Bytes in ``sender``'s spool to ``receiver`` (a partial last line included: unread)."""
        try:
            return self.path(sender, receiver).stat().st_size
        except FileNotFoundError:
            return 0

    # --- status ------------------------------------------------------------------------------

    def write_status(self, idle: bool, consumed: dict[int, int]) -> bool:
        """Say whether this worker is idle and how far it read (atomically replaced).

        False when it could not (said once, the crawl stopped, the temporary file removed; one
        a killed run left is replaced by the next run's first status).
        """
        if self.error is not None:
            return False
        path = self.folder / f"status-{self.partition.index}.json"
        tmp = path.with_name(f".{path.name}.tmp")
        data = {"run": self.run, "idle": idle, "consumed": {str(k): v for k, v in consumed.items()}}
        try:
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass  # the next run's status replaces it
            self._failed(path, exc)
            return False
        return True

    def statuses(self) -> dict[int, WorkerStatus]:
        """The status of every worker of this run that has written one."""
        found: dict[int, WorkerStatus] = {}
        for index in range(self.partition.count):
            path = self.folder / f"status-{index}.json"
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(data, dict) or data.get("run") != self.run:
                continue  # a previous run's: this run's worker has not started yet
            consumed = {int(k): int(v) for k, v in dict(data.get("consumed") or {}).items()}
            found[index] = WorkerStatus(self.run, bool(data.get("idle")), consumed)
        return found

    def all_done(self) -> bool:
        """Every worker of this run idle and every spool read to its end (one look)."""
        statuses = self.statuses()
        if len(statuses) < self.partition.count or not all(s.idle for s in statuses.values()):
            return False
        count = self.partition.count
        return all(
            self.size(sender, receiver) == statuses[receiver].consumed.get(sender, 0)
            for sender in range(count)
            for receiver in range(count)
            if sender != receiver
        )


def _handed(line: bytes) -> Handed:
    """A spool line: ``<fingerprint hex> <base64>``, or ``<base64>`` alone (no fingerprint).

    A line that does not decode gives an empty request, which the receiver counts as unreadable.
    """
    fingerprint, space, encoded = line.partition(b" ")
    try:
        if not space:
            return Handed(None, base64.b64decode(fingerprint))
        return Handed(bytes.fromhex(fingerprint.decode("ascii")), base64.b64decode(encoded))
    except ValueError:  # binascii.Error and a bad hex digit both are
        return Handed(None, b"")


class HandoffExtension:
    """Receives the requests handed to this worker and holds it open until the crawl is done.

    Applies to a partitioned crawl only (``HARVEST_CRAWL_WORKERS`` > 1, with its worker index);
    :data:`POLL` is how often the spools are read.
    """

    def __init__(
        self, crawler: Crawler, spool: HandoffSpool, state: CrawlState, poll: float, supervisor: int = 0
    ) -> None:
        self.crawler = crawler
        #: The pid of worker 0 when it started this worker (0: none to watch).
        self.supervisor = supervisor
        self.spool = spool
        self.state = state
        self.poll_interval = poll
        self.consumed: dict[int, int] = {}
        self._timer: LoopingCall | None = None
        self._idle = False
        self._quiet = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """On for a worker of a partitioned crawl."""
        spool = HandoffSpool.from_crawler(crawler)
        if spool is None:
            raise NotApplicable("one crawl worker (HARVEST_CRAWL_WORKERS=1)")
        ext = cls(
            crawler,
            spool,
            CrawlState.required(crawler),
            max(0.01, retired_value(crawler.settings, "HARVEST_CRAWL_HANDOFF_POLL", POLL)),
            int(worker_channel(SUPERVISOR_ENV, crawler.settings) or 0),
        )
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def _inc(self, key: str, count: int = 1) -> None:
        if self.crawler.stats is not None and count:
            self.crawler.stats.inc_value(f"harvest/handoff/{key}", count)

    def spider_opened(self, spider: Spider) -> None:
        """Read from the committed offsets; say this worker is busy; start polling."""
        from twisted.internet.task import LoopingCall

        store = self.state.open()
        part = self.spool.partition
        self._split_concurrency(part.count)
        offsets = store.output_offsets()
        self.consumed = {
            i: offsets.get(f"{OFFSET_PREFIX}{i}", 0) for i in range(part.count) if i != part.index
        }
        if not self.spool.write_status(False, self.consumed):
            assert self.spool.error is not None
            # Said by the spool, which stopped commits: the crawl closes once open.
            raise CloseSpider("disk_full" if is_disk_full(self.spool.error) else "output_error")
        logger.info(
            "Crawl worker %d of %d: owns 1/%d of the URLs; requests for the others go through %s",
            part.index,
            part.count,
            part.count,
            self.spool.folder,
        )
        self._timer = LoopingCall(self.poll)
        self._timer.start(self.poll_interval, now=False)

    def _split_concurrency(self, count: int) -> None:
        """Send this worker's share of ``CONCURRENT_REQUESTS``, not the whole of it.

        The workers split each site's concurrency (harvest.middlewares.pace) and so the crawl's:
        with the whole of it each, a worker let twice its share of a site into its downloader
        middlewares, and half of them waited there for a grant its own answers would free
        (BENCHMARKS.md, "Issue 18").
        """
        downloader = getattr(self.crawler.engine, "downloader", None)
        total = self.crawler.settings.getint("CONCURRENT_REQUESTS")
        if downloader is not None and total > 0:
            downloader.total_concurrency = max(1, -(-total // count))

    def receive(self) -> int:
        """Schedule the requests handed to this worker since the last read; return how many.

        Requests skipped as known still move the offsets and mark this worker busy.
        """
        engine = self.crawler.engine
        spider = self.crawler.spider
        handed_in = capabilities(spider).handed_in
        received = known = 0
        for sender, offset in list(self.consumed.items()):
            handed, end = self.spool.read(sender, offset)
            if end == offset:
                continue
            if self._idle:
                # Busy before the offsets move: the others never see this spool read while
                # this worker says idle (see the module docstring).
                self._idle = False
                self._quiet = 0
                self.spool.write_status(False, self.consumed)
                waits.clear(self.crawler, "handoff")
            holds = self._known([fp for fp, _ in handed if fp is not None])
            for fingerprint, blob in handed:
                if fingerprint is not None and fingerprint in holds:
                    known += 1  # the duplicate filter would drop it: not unpickled
                    continue
                try:
                    request = request_from_dict(pickle.loads(blob), spider=spider)  # noqa: S301 - our own spool
                    upgrade(request.meta)  # a spool written by an older harvest
                except Exception:  # a boundary: one bad request must not stop the worker
                    logger.warning("Dropping a handed-over request that cannot be read", exc_info=True)
                    self._inc("unreadable")
                    continue
                handed_in(request)
                engine.crawl(request)
                received += 1
            self.consumed[sender] = end
            self.state.batch.offsets[f"{OFFSET_PREFIX}{sender}"] = end
        self._inc("received", received)
        self._inc("known", known)
        return received

    def _known(self, fingerprints: list[bytes]) -> Container[bytes]:
        """Those of ``fingerprints`` the duplicate filter holds (asked at once when it can)."""
        known = self.spool.known
        seen_many = getattr(known, "seen_many", None)
        if seen_many is not None:
            found: Container[bytes] = seen_many(fingerprints)
            return found
        return known

    def poll(self) -> None:
        """Read the spools; an idle engine is woken to check again whether the crawl is done."""
        if self.supervisor and os.getppid() != self.supervisor:
            # Worker 0 died (kill -9): nobody will restart a worker or say the crawl is done.
            # Closing cleanly commits this worker's state; the next run resumes the crawl.
            if self._timer is not None and self._timer.running:
                self._timer.stop()
            logger.error(
                "Crawl worker %d: worker 0 (pid %d), which started it, is gone; closing (the next "
                "run resumes the crawl)",
                self.spool.partition.index,
                self.supervisor,
            )
            close_crawl(self.crawler, SUPERVISOR_LOST)
            return
        was_idle = self._idle
        self.receive()
        if was_idle:
            # Also when what was read was all known (nothing scheduled, nothing to wake the
            # engine): spider_idle must run again to commit the offsets and say idle again.
            nextcall = getattr(getattr(self.crawler.engine, "_slot", None), "nextcall", None)
            if nextcall is not None:
                nextcall.schedule()

    def spider_idle(self, spider: Spider) -> None:
        """Stay open until every worker is idle and every spool is read (twice in a row)."""
        if self.receive():
            raise DontCloseSpider
        if not self._idle:
            # What was scheduled from the spools is committed before this worker says so.
            self.state.commit_safely()
            self._idle = True
            self.spool.write_status(True, self.consumed)
            # Waiting on purpose: not a stuck crawl (harvest.extensions.stuck), nor a hung child.
            waits.announce(self.crawler, "handoff", "waiting for the other crawl workers to finish")
        if self.spool.all_done():
            self._quiet += 1
            if self._quiet >= QUIET_CHECKS:
                return
        else:
            self._quiet = 0
        raise DontCloseSpider

    def spider_closed(self, spider: Spider) -> None:
        """Stop polling."""
        if self._timer is not None and self._timer.running:
            self._timer.stop()

    def describe(self) -> dict[str, Any]:
        """What this worker read so far (for tests and debugging)."""
        return {"consumed": dict(self.consumed), "idle": self._idle}
