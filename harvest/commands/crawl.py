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

from harvest.config.checks import check_settings
from harvest.exceptions import ConfigError

if TYPE_CHECKING:
    import argparse

#: Close reasons of a crawl that did its job (or was asked to stop and stopped cleanly).
OK_REASONS = frozenset(
    {
        "finished",
        "shutdown",
        "closespider_timeout",
        "closespider_itemcount",
        "closespider_pagecount",
        "stop_requested",
    }
)


class Command(ScrapyCrawlCommand):
    """Run a spider of the current project, by name (config validated first)."""

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Validate, crawl, and set the exit code from the crawl's close reason."""
        if len(args) != 1:
            super().run(args, opts)
            return
        assert self.crawler_process
        crawler = self._create_crawler(args[0])
        resolve = getattr(crawler.spidercls, "resolve_config", None)
        try:
            check_settings(crawler.settings)
            if resolve is not None:
                resolve(crawler.settings, {k: str(v) for k, v in opts.spargs.items()})
        except ConfigError as exc:
            raise UsageError(str(exc), print_help=False) from None
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
            return
        reason = crawler.stats.get_value("finish_reason") if crawler.stats else None
        if reason is not None and reason not in OK_REASONS:
            self.exitcode = 1
