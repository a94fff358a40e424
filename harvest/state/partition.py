"""One spider's crawl as N processes on one machine (``HARVEST_CRAWL_WORKERS``): who owns what.

The URL space is hash-partitioned: a request belongs to worker ``fingerprint % N``
(:meth:`Partition.owner`). Each worker is a whole crawl of its partition with its own embedded
state (``state/<spider>.w<k>/``: frontier, seen set, output offsets) and its own output files
(``<spider>/<type>.w<k>.jsonl``); requests it discovers for another worker are handed to that
worker through a spool (:mod:`harvest.crawl.handoff`). So everything a single crawl guarantees (exactly
once across ``kill -9``) holds per worker, and the hand-off is idempotent: a request handed twice
is dropped by its owner's seen set.

The number of workers of a data folder is fixed by its first partitioned run and recorded in
``state/<spider>.workers.json``: changing it would move URLs to workers whose seen set does not
know them. A folder crawled by one process (``state/<spider>/`` without the record) stays at one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from harvest.util.machine import available_memory, cpu_count

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: The worker's own channel from its supervisor (``scrapy crawl`` or the fleet): environment
#: variables of the worker process, not settings (plumbing between harvest's own processes).
#: Its index among the crawl's workers.
WORKER_ENV = "HARVEST_CRAWL_WORKER"
#: The supervisor's run id: one run's workers tell their status files from a previous run's.
RUN_ENV = "HARVEST_CRAWL_RUN"
#: Set by a ``scrapy crawl`` that is worker 0 for the workers it forked or started: its pid. A
#: worker whose supervisor died (kill -9) closes cleanly instead of waiting for it for ever.
SUPERVISOR_ENV = "HARVEST_CRAWL_SUPERVISOR"


def worker_channel(name: str, settings: BaseSettings | None = None) -> str:
    """The value of ``name`` (WORKER_ENV, RUN_ENV, SUPERVISOR_ENV) given to this process, or "".

    Read from the environment; a setting of the same name (how harvest passed it before
    issue 31) is still read for one release.
    """
    value = os.environ.get(name)
    if value is None and settings is not None:
        value = settings.get(name)
    return "" if value is None else str(value).strip()


#: File under ``HARVEST_DATA_DIR/state/`` recording a spider's number of workers.
RECORD = "{spider}.workers.json"


@dataclass(frozen=True)
class Partition:
    """This process's share of its spider's crawl: worker ``index`` of ``count``."""

    index: int = 0
    count: int = 1

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Partition:
        """The partition of a worker process (:data:`WORKER_ENV` set by its supervisor)."""
        # An int 0 set in code is worker 0, not "no worker": only None and "" mean none.
        worker = worker_channel(WORKER_ENV, settings)
        count = max(1, settings.getint("HARVEST_CRAWL_WORKERS"))
        if not worker or count == 1:
            return cls()
        index = int(worker)
        if not 0 <= index < count:
            raise ValueError(f"HARVEST_CRAWL_WORKER={index} is not a worker of {count}")
        return cls(index, count)

    @property
    def active(self) -> bool:
        """More than one worker."""
        return self.count > 1

    @property
    def suffix(self) -> str:
        """What this worker adds to its state's and output files' names ("" for one worker)."""
        return f".w{self.index}" if self.active else ""

    def state_name(self, spider: str) -> str:
        """The crawl state's name for this worker (the spider's own name for one worker)."""
        return f"{spider}{self.suffix}"

    def output_file(self, item_type: str) -> str:
        """This worker's JSON Lines file of ``item_type``."""
        return f"{item_type}{self.suffix}.jsonl"

    def writes(self, filename: str) -> bool:
        """Whether ``filename`` (in the spider's folder) is one of this worker's output files."""
        if not filename.endswith(".jsonl"):
            return False
        stem = filename[: -len(".jsonl")]
        if self.suffix:
            return stem.endswith(self.suffix) and "." not in stem[: -len(self.suffix)]
        return "." not in stem

    def owner(self, fingerprint: bytes) -> int:
        """The worker owning a request of this ``fingerprint``."""
        return int.from_bytes(fingerprint[:8], "big") % self.count

    def owns(self, fingerprint: bytes) -> bool:
        """Whether this worker fetches the request of ``fingerprint``."""
        return not self.active or self.owner(fingerprint) == self.index


def record_path(data_dir: str | Path, spider: str) -> Path:
    """Where the number of workers of ``spider`` is recorded."""
    return Path(data_dir) / "state" / RECORD.format(spider=spider)


def _read_record(path: Path) -> int:
    """The number of workers recorded in ``path``; ValueError naming it when it is not one."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))["workers"]
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: unreadable record of the number of workers ({exc})") from None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(
            f"{path}: unreadable record of the number of workers ('workers' must be a whole "
            f"number of at least 1, not {value!r})"
        )
    return value


def state_names(data_dir: str | Path, spider: str) -> list[str]:
    """Every crawl state of ``spider`` under ``data_dir``: its own, and its workers' if recorded.

    For readers of a whole spider's output (exports): each worker commits the offsets of its
    own files in its own state.
    """
    names = [spider]
    path = record_path(data_dir, spider)
    try:
        count = _read_record(path)
    except FileNotFoundError:
        return names
    return names + [Partition(k, count).state_name(spider) for k in range(count)]


def recorded_workers(data_dir: str | Path, spider: str) -> int | None:
    """The number of workers ``spider``'s state in ``data_dir`` was built with; None for none yet.

    1 for a state crawled by one process (``state/<spider>/`` without a record).
    """
    path = record_path(data_dir, spider)
    try:
        return _read_record(path)
    except FileNotFoundError:
        pass
    return 1 if (Path(data_dir) / "state" / spider).exists() else None


#: Requests a worker keeps in flight at least when workers are chosen from the machine: the
#: crawl's CONCURRENT_REQUESTS shared by more workers leaves each waiting on the network rather
#: than on a core (a 32-core machine gets 4 workers, not 32; BENCHMARKS.md, "Figures behind comments").
MIN_IN_FLIGHT = 4


def machine_workers(process_memory_mb: int, concurrency: int | None = None) -> int:
    """Workers this machine runs one crawl as: one per usable core, as many as memory holds.

    ``process_memory_mb`` is the budget of one crawl process (HARVEST_FLEET_PROCESS_MEMORY_MB),
    ``concurrency`` the crawl's CONCURRENT_REQUESTS, of which each worker keeps at least
    :data:`MIN_IN_FLIGHT` (None: no such cap, the machine's share alone).
    """
    memory = available_memory()
    by_memory = cpu_count() if memory is None else memory // (max(1, process_memory_mb) * 1024 * 1024)
    by_concurrency = by_memory if concurrency is None else concurrency // MIN_IN_FLIGHT
    return max(1, min(cpu_count(), by_memory, by_concurrency))


def resolve_workers(data_dir: str | Path, spider: str, requested: int, *, chosen: bool = False) -> int:
    """The number of workers to run: the recorded one, else 1 for a one-process state, else asked.

    Records it for a partitioned crawl (see the module docstring; OSError naming the record
    when it cannot be written, a full disk, with no temporary file left); logs at INFO when the
    request differs from what the folder holds. ``chosen``: ``requested`` was chosen from the
    machine (HARVEST_CRAWL_WORKERS=0), not asked for; said so in that line.
    """
    requested = max(1, requested)
    path = record_path(data_dir, spider)
    recorded = recorded_workers(data_dir, spider)
    if recorded is not None:
        if recorded != requested:
            asked = f"{requested} chosen from the machine" if chosen else f"HARVEST_CRAWL_WORKERS={requested}"
            logger.info(
                "%s keeps %d crawl worker(s), the number its state in %s was built with "
                "(%s; a fresh data folder or state takes a new number)",
                spider,
                recorded,
                Path(data_dir) / "state",
                asked,
            )
        return recorded
    if requested > 1:
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"workers": requested}), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:  # a full disk: nothing is left half-written, the record is named
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise OSError(exc.errno, exc.strerror, str(path)) from None
    return requested
