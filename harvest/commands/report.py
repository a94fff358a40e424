"""``scrapy report``: write a self-contained HTML report of the data folder (see harvest.report)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.utils.log import configure_logging

if TYPE_CHECKING:
    import argparse

logger = logging.getLogger(__name__)


class Command(ScrapyCommand):
    """Build ``index.html`` from the committed outputs under HARVEST_DATA_DIR."""

    requires_project = True
    requires_crawler_process = False
    default_settings = {"LOG_LEVEL": "INFO"}

    def syntax(self) -> str:
        """Options only: no positional argument."""
        return "[--output DIR] [--since DATE|DURATION] [--spider NAME]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Write an HTML report with plots of what the data folder holds"

    def long_desc(self) -> str:
        """The help text of ``scrapy report -h``."""
        return (
            "Write one self-contained HTML page (inline SVG plots, no network) of the items under "
            "HARVEST_DATA_DIR: trending risers, search results, documents per site, and crawl health "
            "from the logs and the fleet status. Default output: HARVEST_DATA_DIR/report/index.html. "
            "Exit codes: 0 done, 1 the page could not be written (a full disk: the page before is "
            "kept), 2 bad command line."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--output``, ``--since``, ``--spider`` and Scrapy's global options."""
        super().add_options(parser)
        parser.add_argument(
            "-o", "--output", metavar="DIR", help="where index.html goes (default HARVEST_DATA_DIR/report)"
        )
        parser.add_argument(
            "--since",
            metavar="WHEN",
            help="only items observed or fetched since this date (2026-11-01), time or duration ago (7d)",
        )
        parser.add_argument("--spider", metavar="NAME", help="only this spider's output, logs and state")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Build the report and say where it is."""
        # Imported when run: Scrapy imports every command's module at each start (matplotlib is slow).
        from harvest.report import build_report, parse_since
        from harvest.report.writefolder import WriteError

        if args:
            raise UsageError(f"unexpected argument(s): {' '.join(args)}")
        assert self.settings is not None
        configure_logging(self.settings)
        data_dir = Path(self.settings.get("HARVEST_DATA_DIR"))
        output = Path(opts.output) if opts.output else data_dir / "report"
        try:
            since = parse_since(opts.since) if opts.since else None
        except ValueError as exc:
            raise UsageError(f"--since: {exc}", print_help=False) from None
        try:
            result = build_report(data_dir, output, since=since, spider=opts.spider)
        except WriteError as exc:
            logger.error("%s. The report was not written; the one before, if any, is kept", exc)
            self.exitcode = 1
            return
        what = "an empty report (no data yet)" if result.empty else f"{result.items:,} items"
        print(
            f"Report of {what} written to {result.path} "
            f"({result.size_bytes / 1024:,.0f} KB, {result.seconds:.1f} s)"
        )
