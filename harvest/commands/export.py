"""``scrapy export``: the committed outputs as Parquet or JSON Lines parts with a dataset card."""

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

_NOT_KEPT = "Nothing of this export was kept; run it again"
_KEPT = "The rows were exported; the next export writes the card again"


class Command(ScrapyCommand):
    """Export a spider's (or every spider's) committed items (see :mod:`harvest.report.export`)."""

    requires_project = True
    requires_crawler_process = False
    default_settings = {"LOG_LEVEL": "INFO"}

    def syntax(self) -> str:
        """A spider name or ``all``, then options."""
        return "<spider|all> --output DIR [--format parquet|jsonl] [--since DATE]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "Export committed items as Parquet or JSON Lines with a dataset card"

    def long_desc(self) -> str:
        """The help text of ``scrapy export -h``."""
        return (
            "Write DIR/<type>/part-NNNNN.parquet (or .jsonl) with a fixed schema per item type, "
            "documents with their Markdown text, and DIR/README.md, a dataset card. Reads only what "
            "the crawls committed (a crawl may be running). Incremental: exporting into the same DIR "
            "again adds only the rows not exported there yet, as new parts: every row reaches DIR "
            "once, whatever the --since of each export. Exit codes: 0 done, 1 a file could not be "
            "written (a full disk: nothing of that export is kept), 2 bad command line or folder."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """``--output``, ``--format``, ``--since`` and Scrapy's global options."""
        super().add_options(parser)
        parser.add_argument("-o", "--output", metavar="DIR", help="folder of the dataset (required)")
        parser.add_argument(
            "--format", default="parquet", choices=["parquet", "jsonl"], help="default parquet"
        )
        parser.add_argument(
            "--since", metavar="DATE", help="only items fetched or observed since (2026-11-01)"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Export and say what was written."""
        # Imported when run: Scrapy imports every command's module at each start, `scrapy crawl` too.
        from harvest.report.export import CARD_SETTINGS, export
        from harvest.report.writefolder import FolderBusy, WriteError

        if len(args) != 1:
            raise UsageError("name one spider, or all")
        if not opts.output:
            raise UsageError("--output DIR is required")
        assert self.settings is not None
        configure_logging(self.settings)
        settings = {name: self.settings.get(name) for name in CARD_SETTINGS}
        try:
            result = export(
                self.settings.get("HARVEST_DATA_DIR"),
                args[0],
                Path(opts.output),
                fmt=opts.format,
                since=opts.since,
                state_url=self.settings.get("HARVEST_STATE_URL") or "",
                settings=settings,
            )
        except (ValueError, FolderBusy) as exc:
            raise UsageError(str(exc), print_help=False) from None
        except WriteError as exc:
            kept = _KEPT if exc.path.name == "README.md" else _NOT_KEPT
            logger.error("%s. %s%s", exc, kept, " once the disk has room" if exc.disk_full else "")
            self.exitcode = 1
            return
        rows = ", ".join(f"{n:,} {t}" for t, n in sorted(result.rows.items())) or "no new rows"
        print(
            f"Exported {rows} to {opts.output} ({len(result.files)} new parts, {result.seconds:.1f} s); "
            f"card: {result.card}"
        )
