"""``scrapy crawl`` that rejects bad config before the reactor starts, and fails on bad endings.

Scrapy's own ``crawl`` builds the spider inside the reactor, where a config error becomes a
logged traceback and exit code 1 after the engine has already started. Here the settings and
``GITHUB_TOKEN`` (:mod:`harvest.config.checks`), the YAML config and the ``-a`` arguments are
validated first: an error names the file and key and exits with 2,
before any request and before anything is written. After the crawl, a close reason that means
the data is wrong or incomplete (such as ``layout_changed``) gives exit code 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from harvest.crawl import OK_REASONS, build_crawler, finished_ok
from harvest.exceptions import ConfigError

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
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed or not finished_ok(crawler):
            self.exitcode = 1
