"""``scrapy report``: one self-contained HTML page of what the data folder holds, with plots."""

from __future__ import annotations

from harvest.report.build import BuildResult, build_report, parse_since

__all__ = ["BuildResult", "build_report", "parse_since"]
