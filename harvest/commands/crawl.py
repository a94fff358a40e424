"""``scrapy crawl`` that rejects bad config before the reactor starts, and fails on bad endings.

Scrapy's own ``crawl`` builds the spider inside the reactor, where a config error becomes a
logged traceback and exit code 1 after the engine has already started. Here the settings and
``GITHUB_TOKEN`` (:mod:`harvest.config.checks`), the YAML config and the ``-a`` arguments are
validated first: an error names the file and key and exits with 2,
before any request and before anything is written. After the crawl, a close reason that means
the data is wrong or incomplete (such as ``layout_changed``) gives exit code 1.

With ``-s HARVEST_CRAWL_WORKERS=N`` (N > 1) the command supervises N worker processes that share
the crawl by URL partition (:mod:`harvest.runner.workers`) instead of crawling itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from harvest.crawl import OK_REASONS, build_crawler, finished_ok
from harvest.exceptions import ConfigError
from harvest.partition import resolve_workers
from harvest.runner.workers import exec_supervisor, worker_argv
from harvest.state import is_redis_url

if TYPE_CHECKING:
    import argparse

__all__ = ["OK_REASONS", "Command"]


class Command(ScrapyCrawlCommand):
    """Run a spider of the current project, by name (config validated first)."""

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Validate, crawl, and set the exit code from the crawl's close reason."""
        if len(args) != 1:
            super().run(args, opts)
            return
        assert self.crawler_process
        try:
            crawler = build_crawler(self.crawler_process, args[0], opts.spargs)
        except ConfigError as exc:
            raise UsageError(str(exc), print_help=False) from None
        workers = self._workers(args[0])
        if workers > 1:
            # The supervisor of a partitioned crawl crawls nothing itself: this process becomes
            # a small one that only watches the workers (harvest.runner.workers).
            settings = crawler.settings
            exec_supervisor(
                worker_argv(),
                workers,
                max_restarts=settings.getint("HARVEST_CRAWL_MAX_RESTARTS"),
                log_level=str(settings.get("LOG_LEVEL") or "INFO"),
                log_file=str(settings.get("LOG_FILE") or ""),
            )
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed or not finished_ok(crawler):
            self.exitcode = 1

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
