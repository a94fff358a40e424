"""harvest: collect GitHub Trending, GitHub search and blog/docs articles with Scrapy."""

from __future__ import annotations

from harvest.util.redaction import install_log_redaction

__version__ = "0.1.0"

# Every process that runs harvest code imports this package first (scrapy crawl through
# harvest.settings, the fleet's children, run_all.py, scrapyd's jobs): from then on no log record
# of the process shows a secret, whichever handler writes it.
install_log_redaction()
