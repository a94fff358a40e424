"""``scrapy crawl`` that rejects bad config before the reactor starts, and fails on bad endings.

Scrapy's own ``crawl`` builds the spider inside the reactor, where a config error becomes a
logged traceback and exit code 1 after the engine has already started. Here the settings and
``GITHUB_TOKEN`` (:mod:`harvest.crawl.checks`), the YAML config and the ``-a`` arguments are
validated first: an error names the file and key and exits with 2,
before any request and before anything is written. After the crawl, a close reason that means
the data is wrong or incomplete (such as ``layout_changed``) gives exit code 1.

With ``-s HARVEST_CRAWL_WORKERS=N`` (N > 1) the crawl is partitioned: this process crawls as
worker 0 and starts and watches workers 1 to N-1 (:mod:`harvest.crawl.workers`). It forks them
once the options are read and the config checked, before the reactor, the log handlers or any
state exist: each starts as a copy with Scrapy and the spider already imported.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from harvest.crawl.build import build_crawler, validate_crawl
from harvest.crawl.checks import data_dir_problem
from harvest.crawl.policy import WorkersRefused, crawl_workers
from harvest.crawl.workers import POLL, WORKER_FAILED, WorkerSupervisor, can_fork, worker_argv
from harvest.exceptions import ConfigError, DataDirError
from harvest.plumbing.capabilities import class_capabilities
from harvest.plumbing.closing import OK_REASONS, close_crawl, finished_ok
from harvest.state import is_redis_url
from harvest.state.partition import WORKER_ENV, machine_workers, recorded_workers, worker_channel

if TYPE_CHECKING:
    import argparse

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.spiders import Spider

    from harvest.config import SpiderConfig

__all__ = ["OK_REASONS", "Command"]

logger = logging.getLogger(__name__)


class Command(ScrapyCrawlCommand):
    """Run a spider of the current project, by name (config validated first)."""

    #: Worker 0's supervisor of a partitioned crawl (None in a worker, or for one process).
    supervisor: WorkerSupervisor | None = None
    #: What was logged before Scrapy's log handlers existed (said in ``run``).
    held: tuple[logging.LogRecord, ...] = ()
    #: This process is a worker forked by worker 0 (it ends without its host's clean-up).
    in_fork = False

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Read the options; for a partitioned crawl, check the config and fork the workers."""
        super().process_options(args, opts)
        if len(args) != 1:
            return
        # Scrapy sets up logging later, with the crawler process: what is said before is kept
        # and said then (in this process only, not in the forked workers).
        with _Held() as held:
            workers = self._workers(args[0], opts.spargs)
            self.in_fork = workers > 1 and self._partition(workers)
        if not self.in_fork:
            self.held = tuple(held.records)

    def _partition(self, workers: int) -> bool:
        """Become worker 0 of ``workers``, forking the others when this process can.

        Returns True in a forked worker.
        """
        assert self.settings is not None
        supervisor = WorkerSupervisor(
            worker_argv(),
            workers,
            max_restarts=self.settings.getint("HARVEST_CRAWL_MAX_RESTARTS"),
            first=1,
        )
        if can_fork():
            index = supervisor.fork_all()
            if index is not None:
                # A forked worker: the same command with its own index, and nobody to supervise.
                os.environ.update(supervisor.worker_environ(index))
                for key, value in supervisor.worker_settings().items():
                    self.settings.set(key, value, priority="cmdline")
                return True
        os.environ.update(supervisor.worker_environ(0, started=False))
        for key, value in supervisor.worker_settings().items():
            self.settings.set(key, value, priority="cmdline")
        self.supervisor = supervisor
        return False

    def _check(self, spider: str, arguments: dict[str, str]) -> _Checked | None:
        """Check the settings and config before any worker exists: an error is said once.

        Returns the spider's class, settings and config for this run (None for an unknown
        spider: Scrapy's crawl says "Spider not found", once, as no worker is started).
        """
        from scrapy.spiderloader import get_spider_loader

        assert self.settings is not None
        try:
            spidercls = get_spider_loader(self.settings).load(spider)
        except KeyError:
            return None
        settings = self.settings.copy()
        spidercls.update_settings(settings)
        try:
            config = validate_crawl(spidercls, settings, arguments)
        except ConfigError as exc:
            raise UsageError(str(exc), print_help=False) from None
        _import_components(settings)
        return _Checked(spidercls, settings, config)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Validate, crawl, and set the exit code from the crawl's close reason."""
        if len(args) != 1:
            super().run(args, opts)
            return
        assert self.crawler_process and self.settings is not None
        for record in self.held:
            logging.getLogger(record.name).handle(record)
        supervisor = self.supervisor
        try:
            crawler = build_crawler(self.crawler_process, args[0], opts.spargs)
        except ConfigError as exc:
            if supervisor is not None:
                supervisor.kill_all()
            raise UsageError(str(exc), print_help=False) from None
        if supervisor is not None:
            if supervisor.procs:  # forked in process_options
                for index in supervisor.procs:
                    supervisor.log_started(index, "forked")
            else:
                supervisor.start_all()
            self._supervise(crawler, supervisor)
        try:
            self.crawler_process.crawl(crawler, **opts.spargs)
            self.crawler_process.start()
        finally:
            if supervisor is not None:
                # "finished": every worker was idle with every spool read, the others end on
                # their own. Any other end (shutdown, a limit, an error, a forced stop) stops them.
                supervisor.stop_unless_finished(_reason(crawler) == "finished")
        ok = not self.crawler_process.bootstrap_failed and finished_ok(crawler)
        if supervisor is not None:
            supervisor.exits[0] = 0 if ok else 1
            ok = supervisor.wait() == 0
        if not ok:
            self.exitcode = 1
        _exit_now(self.exitcode, forked=self.in_fork)

    @staticmethod
    def _supervise(crawler: Crawler, supervisor: WorkerSupervisor) -> None:
        """While worker 0 crawls, restart the others when they die (``run`` stops them after)."""
        from twisted.internet.task import LoopingCall

        def step() -> None:
            supervisor.step()
            if supervisor.stopping:
                # Another worker ended for good and the others were told to stop: this one too
                # (it would wait for that worker's share for ever), cleanly.
                if watch.running:
                    watch.stop()
                close_crawl(crawler, WORKER_FAILED)

        watch = LoopingCall(step)

        def started() -> None:
            watch.start(POLL, now=False)

        def closed() -> None:
            if watch.running:
                watch.stop()

        crawler.signals.connect(started, signal=signals.engine_started, weak=False)
        crawler.signals.connect(closed, signal=signals.spider_closed, weak=False)

    def _workers(self, spider: str, arguments: dict[str, str]) -> int:
        """How many worker processes this crawl runs (1 in a worker, or without partitioning).

        ``HARVEST_CRAWL_WORKERS=0`` (the default) chooses: one per core for a crawl bound by its
        own process's CPU (:meth:`HarvestSpider.cpu_bound`), else 1. A data folder keeps the
        number its state was built with. For more than one, the config is checked first: an
        error is said once, by this process, before any worker exists and before the data
        folder records a number of workers.
        """
        settings = self.settings
        assert settings is not None
        requested = settings.getint("HARVEST_CRAWL_WORKERS")  # a negative one: _check says so
        if worker_channel(WORKER_ENV, settings):
            return 1
        if is_redis_url(settings.get("HARVEST_STATE_URL")):
            if requested > 1:
                raise UsageError(
                    "HARVEST_CRAWL_WORKERS > 1 partitions a crawl over the embedded state; with "
                    "HARVEST_STATE_URL=redis://... run several processes of the spider instead "
                    "(run_all.py --replicas)",
                    print_help=False,
                )
            return 1  # processes share a Redis crawl by being started, not partitioned here
        data_dir = settings.get("HARVEST_DATA_DIR")
        _check_data_dir(data_dir)
        try:
            recorded = recorded_workers(data_dir, spider)
        except ValueError as exc:  # an unreadable record, named
            raise UsageError(str(exc), print_help=False) from None
        if requested == 1 and recorded in (None, 1):
            return 1
        checked = self._check(spider, arguments)
        if checked is None:
            return 1
        chosen = requested == 0
        if chosen:
            requested = checked.workers()
        workers = _crawl_workers(data_dir, spider, requested, chosen, feeds=bool(settings.getdict("FEEDS")))
        if chosen and workers == requested > 1:
            logger.info(
                "Crawling %s as %d worker processes, one per core (HARVEST_CRAWL_WORKERS=0 chooses "
                "from the machine; 1 crawls in one process)",
                spider,
                workers,
            )
        return workers


@dataclass(frozen=True)
class _Checked:
    """A spider's class, settings (its own applied) and config, checked before the crawl."""

    spidercls: type[Spider]
    settings: BaseSettings
    config: SpiderConfig | None

    def workers(self) -> int:
        """The workers chosen from the machine for this crawl (HARVEST_CRAWL_WORKERS=0)."""
        cpu_bound = class_capabilities(self.spidercls).cpu_bound
        if self.config is None or not cpu_bound(self.settings, self.config):
            return 1
        settings = self.settings
        return machine_workers(
            settings.getint("HARVEST_FLEET_PROCESS_MEMORY_MB"), settings.getint("CONCURRENT_REQUESTS")
        )


def _check_data_dir(data_dir: str) -> None:
    """UsageError when the data folder cannot hold files: said before its record is read."""
    problem = data_dir_problem(data_dir)
    if problem:
        raise UsageError(str(DataDirError(data_dir, problem)), print_help=False)


def _crawl_workers(data_dir: str, spider: str, requested: int, chosen: bool, *, feeds: bool) -> int:
    """:func:`harvest.crawl.policy.crawl_workers`, its errors said in one line."""
    try:
        return crawl_workers(data_dir, spider, requested, chosen=chosen, feeds=feeds)
    except WorkersRefused as exc:
        raise UsageError(str(exc), print_help=False) from None
    except OSError as exc:
        # A full disk before anything started: one line and exit 1, as a full disk later.
        print(f"scrapy crawl: error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        raise SystemExit(1) from None


def _reason(crawler: Crawler) -> str | None:
    """The crawl's close reason (None before it closed)."""
    return crawler.stats.get_value("finish_reason") if crawler.stats is not None else None


class _Held(logging.Handler):
    """Keeps the records logged while it is attached to the root logger (before Scrapy's)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> _Held:
        root = logging.getLogger()
        self._level = root.level
        root.addHandler(self)
        root.setLevel(logging.DEBUG)
        return self

    def __exit__(self, *exc: object) -> None:
        root = logging.getLogger()
        root.removeHandler(self)
        root.setLevel(self._level)


def _exit_now(code: int, *, forked: bool = False) -> None:
    """End a ``scrapy crawl`` program whose crawl has closed, skipping the interpreter's teardown.

    Freeing every object of every module took ~0.2 s of each crawl process (of a 2,000-page
    crawl's 3-4 s), after everything was written, fsynced, committed and closed. The exit
    handlers still run (log handlers flushed and closed, temporary files removed); only the
    teardown is skipped. Only with no other thread left, and as the program itself (``scrapy
    crawl``, ``python -m scrapy crawl``), or in a forked worker: a host that runs the command
    (scrapyd's runner) has its own clean-up after it, which is worker 0's to do, not a copy's
    (scrapyd's runner removes its temporary egg: twice would fail).
    """
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    program = spec.name == "scrapy.__main__" if spec is not None else Path(sys.argv[0]).name == "scrapy"
    if not (program or forked) or threading.active_count() != 1:
        return
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(code)


#: Component lists: {path: order}, None for a disabled one.
_COMPONENT_LISTS = ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "EXTENSIONS", "ITEM_PIPELINES")


#: Settings naming one class each that every crawl loads (after the fork, each worker imported
#: its robots.txt parser, queues and log formatter again: ~20 modules).
_COMPONENT_SETTINGS = (
    "SCHEDULER",
    "DUPEFILTER_CLASS",
    "STATS_CLASS",
    "LOG_FORMATTER",
    "ROBOTSTXT_PARSER",
    "SCHEDULER_PRIORITY_QUEUE",
    "SCHEDULER_MEMORY_QUEUE",
    "SCHEDULER_DISK_QUEUE",
)


def _import_components(settings: BaseSettings) -> None:
    """Import the crawl's components before the workers are forked, so each has them.

    Scrapy imports every listed component when it builds the crawler: in each worker, after the
    fork, that was ~0.15 s of start-up (its HTTP handler alone ~0.08 s). Importing a module
    builds nothing; a component that does not load is left for Scrapy to report as it would.
    """
    from scrapy.utils.misc import load_object

    paths: list[object] = [settings.get(name) for name in _COMPONENT_SETTINGS]
    for name in _COMPONENT_LISTS:
        paths += [path for path, order in settings.getwithbase(name).items() if order is not None]
    paths += settings.getwithbase("DOWNLOAD_HANDLERS").values()  # {scheme: path}
    for path in paths:
        if isinstance(path, str):
            try:
                load_object(path)
            except Exception:  # noqa: BLE001 - Scrapy reports it where it loads it
                logger.debug("Not imported before forking: %s", path, exc_info=True)
