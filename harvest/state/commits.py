"""Commit timing and stopping: when the pending batch commits, and when nothing commits any more.

:class:`CommitPoints` owns the commit points of one crawl: every ``commit_items`` stored items,
every ``commit_requests`` frontier changes, every tick of the commit timer, and close. At each,
the pre-commit hooks make the output files durable and return their byte offsets *before* the
:class:`~harvest.state.batches.PendingBatch` commits, so the store never claims more than what
is on disk. A failed commit keeps the batch for the next try; a few in a row stop the crawl.

It also owns stopping: :meth:`CommitPoints.abandon` commits nothing more (a full disk, a lost
lease, an unreachable shared store), which leaves the state as a ``kill -9`` there would, and
:func:`is_disk_full` tells a full disk (retrying cannot help) from a failure worth retrying.
"""

from __future__ import annotations

import errno
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from harvest.exceptions import StateError
from harvest.state import StateStore
from harvest.state.batches import PendingBatch

if TYPE_CHECKING:
    from scrapy.statscollectors import StatsCollector
    from twisted.internet.task import LoopingCall

logger = logging.getLogger(__name__)

#: After this many failed commits in a row the crawl stops: it can no longer promise anything.
_MAX_COMMIT_FAILURES = 3

#: Errors that mean the disk (or quota) is full: retrying a commit cannot help.
_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it was raised from) says the disk or quota is full."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in _DISK_FULL_ERRNOS:
            return True
        # SQLite reports SQLITE_FULL as "database or disk is full".
        if "disk is full" in str(seen) or "No space left" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class CommitPoints:
    """When ``pending`` commits to :attr:`store`, and :meth:`abandon` (see the module docstring).

    ``on_fatal(reason)`` closes the crawl; without it (a test) a fatal failure only stops commits.
    """

    def __init__(
        self,
        pending: PendingBatch,
        *,
        commit_items: int = 100,
        commit_requests: int = 1000,
        stats: StatsCollector | None = None,
        on_fatal: Callable[[str], None] | None = None,
    ) -> None:
        self.pending = pending
        self.commit_items = max(1, commit_items)
        self.commit_requests = max(1, commit_requests)
        self.stats = stats
        self._on_fatal = on_fatal
        #: The store commits go to: None until the crawl state opened it, and again after close.
        self.store: StateStore | None = None
        #: Set by :meth:`abandon`: nothing more is committed in this crawl.
        self.abandoned: str | None = None
        self._failures = 0
        self._pre_commit: list[Callable[[], Mapping[str, int]]] = []
        self._timer: LoopingCall | None = None

    # --- commit points ---------------------------------------------------------------------------

    def add_pre_commit(self, hook: Callable[[], Mapping[str, int]]) -> None:
        """Run ``hook`` before each commit: it makes outputs durable and returns their offsets."""
        self._pre_commit.append(hook)

    def remove_pre_commit(self, hook: Callable[[], Mapping[str, int]]) -> None:
        """Stop calling ``hook`` (its files are closed)."""
        if hook in self._pre_commit:
            self._pre_commit.remove(hook)

    def start_timer(self, seconds: float) -> None:
        """Also commit every ``seconds`` (needs the running reactor: call it once the spider opened)."""
        from twisted.internet.task import LoopingCall

        self._timer = LoopingCall(self.commit_safely)
        self._timer.start(seconds, now=False)

    def stop_timer(self) -> None:
        """No more timed commits (close, or nothing commits any more)."""
        if self._timer is not None and self._timer.running:
            self._timer.stop()
        self._timer = None

    def commit(self) -> None:
        """Make outputs durable, then commit the batch with their offsets (raises StateError)."""
        if self.store is None or self.abandoned is not None:
            return
        batch = self.pending.batch
        for hook in list(self._pre_commit):
            batch.offsets.update(hook())
        if not len(batch):
            return
        self.store.commit(batch)
        self.pending.committed()
        self._failures = 0
        self._inc("state/commits")

    def commit_safely(self) -> bool:
        """Commit at a commit point; a failure is logged, kept for the next try, and counted."""
        try:
            self.commit()
        except (StateError, OSError) as exc:
            self._failures += 1
            self._inc("state/commit_failed")
            if self.stop_if_disk_full(exc) or self.stop_if_fenced() or self.shared_store_failed(exc):
                return False
            logger.error(
                "Commit of the crawl state failed (%d in a row): %s",
                self._failures,
                exc,
                # A StateError names the store and what failed (an unreachable Redis, a locked
                # file): its traceback tells the user nothing more.
                exc_info=not isinstance(exc, StateError),
            )
            if self._failures >= _MAX_COMMIT_FAILURES and self._on_fatal is not None:
                self._on_fatal("state_error")
            return False
        return True

    def shared_store_failed(self, exc: BaseException | None = None) -> bool:
        """Whether a shared store (Redis) failed: its coordinator stops the crawl, saying why once.

        An error of another client of the same Redis (the near-duplicate index, named by the
        same masked URL) fails the store too: it is the same server, unreachable.
        """
        store = self.store
        fail = getattr(store, "fail", None)
        if store is None or fail is None:
            return False
        if getattr(store, "failure", None) is None:
            if not (isinstance(exc, StateError) and exc.location == getattr(store, "location", None)):
                return False
            fail(exc.__cause__ or exc, "commit")
        return True

    def maybe_commit(self) -> None:
        """Commit if enough items or frontier changes are pending (called after each change)."""
        pending = self.pending
        if pending.items >= self.commit_items or pending.requests >= self.commit_requests:
            self.commit_safely()

    # --- stopping --------------------------------------------------------------------------------

    def abandon(self, reason: str) -> None:
        """Commit nothing more and close the crawl with ``reason``, as if it was killed here.

        For a failure that makes the outputs or the state unwritable (a full disk): what was
        committed stays consistent, the lines written since are replayed on the next start
        and the requests not committed as done are fetched again, as after ``kill -9``.
        """
        if self.abandoned is not None:
            return
        self.abandoned = reason
        self.stop_timer()
        if self._on_fatal is not None:
            self._on_fatal(reason)

    def holds_lease(self) -> bool:
        """Whether this process may write output now (False: :meth:`abandon` with ``lease_lost``).

        Always true for a store of one writer; a shared store (Redis) answers whether this
        worker still holds its lease on the shared crawl, so a worker that other workers gave
        up while it was frozen writes nothing they will write again.
        """
        check = getattr(self.store, "holds_lease", None)
        try:
            if check is None or check():
                return True
        except StateError as exc:
            # The shared store cannot say (unreachable): not a lost lease but a failed store.
            if self.abandoned is None:
                logger.error(
                    "%s; stopping this crawl cleanly. Nothing is lost: what was committed "
                    "stays, and the next run resumes from it.",
                    exc,
                )
                self.abandon("state_error")
            return False
        if self.abandoned is None:
            report = getattr(self.store, "report_fence", None)
            if report is not None:
                report()
            self.abandon("lease_lost")
        return False

    def stop_if_fenced(self) -> bool:
        """If the shared store refused a call because this worker's lease was taken: stop, True.

        Not a failure (the others fetch this worker's requests): the fence is reported once, as
        a warning, and the crawl closes with ``lease_lost`` (see :meth:`holds_lease`).
        """
        if not getattr(self.store, "fenced", False):
            return False
        self.holds_lease()
        return True

    def stop_if_disk_full(self, exc: BaseException) -> bool:
        """If ``exc`` says the disk is full: log it (once), :meth:`abandon` the crawl, True."""
        if not is_disk_full(exc):
            return False
        if self.abandoned is None:
            logger.error(
                "No space left on device for the crawl state: %s. Stopping the crawl: "
                "what was committed is intact and the next run resumes from it.",
                exc,
            )
        self.abandon("disk_full")
        return True

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"harvest/{key}")
