"""Scrapy settings for harvest, and the one place where every HARVEST_* default lives.

Each default carries a line saying why it has that value. Override any of them with
``-s NAME=VALUE`` on the command line, ``setting=NAME=VALUE`` in scrapyd, or ``-s`` in run_all.py.
"""

from __future__ import annotations

BOT_NAME = "harvest"
SPIDER_MODULES = ["harvest.spiders"]
NEWSPIDER_MODULE = "harvest.spiders"
# Our `crawl` validates YAML config and spider arguments before the reactor starts (exit code 2).
COMMANDS_MODULE = "harvest.commands"

# --- Endpoints (tests and staging point these at a loopback server) --------------------------
GITHUB_WEB_URL = "https://github.com"
GITHUB_RAW_URL = "https://raw.githubusercontent.com"
GITHUB_API_URL = "https://api.github.com"

# --- Where things live --------------------------------------------------------------------
# Relative to the working directory, like Scrapy's own JOBDIR; run_all.py --data-dir overrides it.
HARVEST_DATA_DIR = "data"
# One YAML file per spider, named after it.
HARVEST_CONFIG_DIR = "spiders_config"

# --- Politeness, fit for github.com and small blogs -----------------------------------------
# A real User-Agent naming the project, so site owners can see who we are.
USER_AGENT = "harvest/0.1 (+https://github.com/harvest-crawler/harvest; Scrapy)"
ROBOTSTXT_OBEY = True
# Modest concurrency: a per-site budget, not a load test (the startproject template's 1 is too slow).
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
AUTOTHROTTLE_ENABLED = True
# Start fast; AutoThrottle slows down only when the server's latency grows.
AUTOTHROTTLE_START_DELAY = 0.5
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
RETRY_ENABLED = True
RETRY_TIMES = 3
RETRY_HTTP_CODES = [429, 500, 502, 503, 504, 522, 524, 408]
DOWNLOAD_TIMEOUT = 30
# Pages past these sizes are dropped (and counted) instead of filling memory.
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
REDIRECT_MAX_TIMES = 10

# --- Framework plumbing ---------------------------------------------------------------------
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
FEED_EXPORT_ENCODING = "utf-8"
# Scrapy 2.19 opens a telnet console and a remote-control HTTP server; a collector needs neither,
# and many parallel fleet processes would each open their own ports.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
LOG_LEVEL = "INFO"

# --- Pipelines --------------------------------------------------------------------------------
ITEM_PIPELINES = {
    # Writes JSON Lines per item type and a Markdown file per document under HARVEST_DATA_DIR.
    "harvest.pipelines.output.OutputPipeline": 800,
}
