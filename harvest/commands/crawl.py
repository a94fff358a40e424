"""``scrapy crawl`` that rejects bad config before the reactor starts, and fails on bad endings.

Scrapy's own ``crawl`` builds the spider inside the reactor, where a config error becomes a
logged traceback and exit code 1 after the engine has already started. Here the settings and
``GITHUB_TOKEN`` (:mod:`harvest.config.checks`), the YAML config and the ``-a`` arguments are
validated first: an error names the file and key and exits with 2,
before any request and before anything is written. After the crawl, a close reason that means
the data is wrong or incomplete (such as ``layout_changed``) gives exit code 1.

With ``-s HARVEST_CRAWL_WORKERS=N`` (N > 1) the crawl is partitioned: this process crawls as
worker 0 and starts and watches workers 1 to N-1 (:mod:`harvest.runner.workers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from harvest.crawl import OK_REASONS, build_crawler, finished_ok
from harvest.exceptions import ConfigError
from harvest.partition import resolve_workers
from harvest.runner.workers import POLL, WorkerSupervisor, worker_argv
from harvest.state import is_redis_url

if TYPE_CHECKING:
    import argparse

    from scrapy.crawler import Crawler

__all__ = ["OK_REASONS", "Command"]


class Command(ScrapyCrawlCommand):
    """Run a spider of the current project, by name (config validated first)."""

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Validate, crawl, and set the exit code from the crawl's close reason."""
        if len(args) != 1:
            super().run(args, opts)
            return
        assert self.crawler_process and self.settings is not None
        workers = self._workers(args[0])
        supervisor = None
        if workers > 1:
            # This process is worker 0 and supervises the others (harvest.runner.workers).
            supervisor = WorkerSupervisor(
                worker_argv(),
                workers,
                max_restarts=self.settings.getint("HARVEST_CRAWL_MAX_RESTARTS"),
                first=1,
            )
            for key, value in supervisor.worker_settings(0).items():
                self.settings.set(key, value, priority="cmdline")
        try:
            crawler = build_crawler(self.crawler_process, args[0], opts.spargs)
        except ConfigError as exc:
            raise UsageError(str(exc), print_help=False) from None
        if supervisor is not None:
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

    @staticmethod
    def _supervise(crawler: Crawler, supervisor: WorkerSupervisor) -> None:
        """While worker 0 crawls, restart the others when they die (``run`` stops them after)."""
        from twisted.internet.task import LoopingCall

        watch = LoopingCall(supervisor.step)

        def started() -> None:
            watch.start(POLL, now=False)

        def closed() -> None:
            if watch.running:
                watch.stop()

        crawler.signals.connect(started, signal=signals.engine_started, weak=False)
        crawler.signals.connect(closed, signal=signals.spider_closed, weak=False)

    def _workers(self, spider: str) -> int:
        """How many worker processes this crawl runs (1 in a worker, or without partitioning)."""
        settings = self.settings
        assert settings is not None
        requested = settings.getint("HARVEST_CRAWL_WORKERS")
        if requested <= 1 or settings.get("HARVEST_CRAWL_WORKER") not in (None, ""):
            return 1
        if is_redis_url(settings.get("HARVEST_STATE_URL")):
            raise UsageError(
                "HARVEST_CRAWL_WORKERS > 1 partitions a crawl over the embedded state; with "
                "HARVEST_STATE_URL=redis://... run several processes of the spider instead "
                "(run_all.py --replicas)",
                print_help=False,
            )
        try:
            return resolve_workers(settings.get("HARVEST_DATA_DIR"), spider, requested)
        except ValueError as exc:
            raise UsageError(str(exc), print_help=False) from None


def _reason(crawler: Crawler) -> str | None:
    """The crawl's close reason (None before it closed)."""
    return crawler.stats.get_value("finish_reason") if crawler.stats is not None else None
