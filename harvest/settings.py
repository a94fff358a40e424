"""Scrapy settings for harvest, and the one place where every HARVEST_* default lives.

Each default carries a line saying why it has that value. Override any of them with
``-s NAME=VALUE`` on the command line, ``setting=NAME=VALUE`` in scrapyd, or ``-s`` in run_all.py.
"""

from __future__ import annotations

from scrapy.settings import default_settings as _scrapy_defaults

BOT_NAME = "harvest"
SPIDER_MODULES = ["harvest.spiders"]
# Imports only the spider a crawl runs, not every spider module (memory and start-up:
# BENCHMARKS.md, "Figures behind comments").
SPIDER_LOADER_CLASS = "harvest.plumbing.spiderloader.SpiderLoader"
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
# A response's header section past either bound fails its page (stat
# harvest/download/headers_too_large) instead of filling memory: Scrapy bounds bodies, not
# headers. 64 KB is a quarter of Chromium's bound and far above real pages' few KB; 100 headers
# is where Python's http.client stops too (real pages send 10 to 40). 0 = no bound.
HARVEST_DOWNLOAD_MAX_HEADER_BYTES = 64 * 1024
HARVEST_DOWNLOAD_MAX_HEADERS = 100
# Scrapy's HTTP/1.1 handler with those two bounds (harvest/middlewares/download_handler.py).
DOWNLOAD_HANDLERS = {
    "http": "harvest.middlewares.download_handler.BoundedHttpDownloadHandler",
    "https": "harvest.middlewares.download_handler.BoundedHttpDownloadHandler",
}
REDIRECT_MAX_TIMES = 10

# --- Framework plumbing ---------------------------------------------------------------------
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
FEED_EXPORT_ENCODING = "utf-8"
# -o/-O out.csv: fixed columns, every field of every item type (Scrapy's CSV exporter took its
# columns from the first item and dropped the others' fields).
FEED_EXPORTERS = {"csv": "harvest.extensions.feeds.TypedCsvItemExporter"}
# Scrapy 2.19 opens a telnet console and a remote-control HTTP server; a collector needs neither,
# and many parallel fleet processes would each open their own ports.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
LOG_LEVEL = "INFO"
# Skips building Scrapy's per-page DEBUG messages when LOG_LEVEL drops them (CPU: BENCHMARKS.md,
# "Second round of CPU cuts").
LOG_FORMATTER = "harvest.plumbing.logformatter.HarvestLogFormatter"
# Scrapy's stats collector without its per-call deprecation shim (harvest/plumbing/stats.py; CPU:
# BENCHMARKS.md, "Figures behind comments").
STATS_CLASS = "harvest.plumbing.stats.StatsCollector"

# --- GitHub REST API (harvest/github/, the github_search spider) ------------------------------
# Requests in flight per token, summed over every process sharing it. GitHub asks for serial
# requests; with more, a request already on the wire when a secondary-limit 403 comes back lands
# before its Retry-After. The rate limit, not latency, bounds throughput (30 searches a minute).
HARVEST_GITHUB_CONCURRENCY = 1
# First wait (seconds) after a rate-limit answer that has neither Retry-After nor remaining=0;
# doubles per answer in a row. GitHub asks for at least a minute (tests use small values).
HARVEST_GITHUB_BACKOFF_BASE = 60.0
# Longest such wait: an hour is GitHub's longest primary window.
HARVEST_GITHUB_BACKOFF_MAX = 3600.0
# Rate-limit answers one request may receive before its search fails: each one waits as GitHub
# asks, so reaching this means the token is throttled for a reason waiting does not fix.
HARVEST_GITHUB_RATE_LIMIT_RETRIES = 8
# Seconds added to x-ratelimit-reset before the new window is used (one-second resolution of
# the header, clock differences the Date header cannot show).
HARVEST_GITHUB_RESET_MARGIN = 1.0
# Where the shared budget and ETags live; empty = HARVEST_DATA_DIR/state/_github (shared by
# every process on the same data folder, which is what makes a fleet share one budget).
HARVEST_GITHUB_STATE_DIR = ""
# Ask GET /rate_limit (free of the primary limit) before the first search, so a budget spent
# by another program is known before anything is sent.
HARVEST_GITHUB_CHECK_RATE_LIMIT = True
# Times a page with incomplete_results (GitHub's search timed out) is asked again before it is
# kept with a warning and the stat harvest/github_search/incomplete_accepted.
HARVEST_GITHUB_INCOMPLETE_RETRIES = 2

# --- Web archives (harvest/middlewares/archive.py, the trending_history spider) ---------------
# The Wayback Machine's CDX API and playback (tests point them at a loopback emulator).
HARVEST_ARCHIVE_CDX_URL = "https://web.archive.org/cdx/search/cdx"
HARVEST_ARCHIVE_WEB_URL = "https://web.archive.org/web"
# CDX queries a minute, summed over every process: below what the archive allows an IP (which
# has shrunk over the years: BENCHMARKS.md, "Figures behind comments"); it blocks an IP for an
# hour when 429s are ignored.
HARVEST_ARCHIVE_CDX_PER_MINUTE = 20.0
# Playback requests a second, summed over every process: well under the archive's tolerance.
HARVEST_ARCHIVE_WEB_PER_SECOND = 4.0
# First wait (seconds) after a 429/503 without Retry-After; doubles per refusal in a row (the
# archive's own firewall block doubles from an hour, so a minute is the least to give).
HARVEST_ARCHIVE_BACKOFF = 60.0
# Longest such wait: the archive's first firewall block lasts an hour.
HARVEST_ARCHIVE_BACKOFF_MAX = 3600.0
# Refusals one request may receive before it fails: each one waits as asked first, so reaching
# this means waiting does not help.
HARVEST_ARCHIVE_REFUSALS_MAX = 8
# Captures per CDX answer (the rest follows with the CDX resume key): a year of daily captures
# of one page is ~365 rows, one query.
HARVEST_ARCHIVE_CDX_LIMIT = 1000
# Live trending: GitHub's "Whoa there!" abuse page is a rate limit. First wait (seconds), doubled
# per page in a row, and the tries before the page is skipped (counted, never a layout change).
HARVEST_TRENDING_ABUSE_BACKOFF = 60.0
HARVEST_TRENDING_ABUSE_RETRIES = 3

# --- Pipelines --------------------------------------------------------------------------------
ITEM_PIPELINES = {
    # Drops items whose key or content is stored already (before anything is written).
    "harvest.pipelines.dedup.DedupPipeline": 700,
    # Spiders writing the same items (trending, trending_history): a key one stored is not stored
    # again by the other (first stored wins, live or archived).
    "harvest.pipelines.sibling.SiblingDedupPipeline": 705,
    # Documents: the language detected from the text (after dedup: a dropped copy costs nothing).
    "harvest.pipelines.language.LanguagePipeline": 710,
    # Documents: near-duplicates of stored ones flagged or dropped (MinHash-LSH, HARVEST_NEAR_DUP).
    "harvest.pipelines.neardup.NearDupPipeline": 720,
    # Documents whose site opted out of AI use keep metadata and rights, not text (last before output).
    "harvest.pipelines.rights.OptOutPipeline": 750,
    # HARVEST_WARC_ENABLED: the response of each stored item archived as WARC, right before its line.
    "harvest.pipelines.warc.WarcPipeline": 790,
    # Writes JSON Lines per item type and a Markdown file per document under HARVEST_DATA_DIR.
    "harvest.pipelines.output.OutputPipeline": 800,
}

# Scrapy's base extensions with its remote control swapped for harvest's stand-in: Scrapy imports
# every listed extension, even one mapped to None, and that one imports aiohttp (memory of each
# crawl process: BENCHMARKS.md, "Issue 18") for a server that is off; the stand-in imports it only
# when turned on.
# Scrapy's base downloader middlewares with its cookie middleware swapped for a stand-in that
# imports it at the first cookie: Scrapy imports every base component, and that module imports
# tldextract and requests (memory and start-up of each process: BENCHMARKS.md, "Issue 18") for
# sites that mostly set no cookie.
DOWNLOADER_MIDDLEWARES_BASE = {
    name.replace(
        "scrapy.downloadermiddlewares.cookies.CookiesMiddleware",
        "harvest.middlewares.cookies.LazyCookiesMiddleware",
    ): order
    for name, order in _scrapy_defaults.DOWNLOADER_MIDDLEWARES_BASE.items()
}
EXTENSIONS_BASE = {
    name.replace("scrapy.extensions.remote_control", "harvest.extensions.remote_control"): order
    for name, order in _scrapy_defaults.EXTENSIONS_BASE.items()
}
EXTENSIONS = {
    # Fewer young garbage collections and start-up objects frozen: the cyclic collector took a
    # large share of a crawl's CPU (harvest/plumbing/gctuning.py; BENCHMARKS.md, "Second round of
    # CPU cuts").
    "harvest.plumbing.gctuning.GarbageCollectorTuning": 0,
    # Fleet children only (run_all.py): shared item counter, progress heartbeats, stop flag.
    "harvest.extensions.fleet.FleetExtension": 0,
    # One log line naming the scheduler and duplicate filter, which Scrapy's own lists omit.
    "harvest.plumbing.components.CrawlComponentsLog": 0,
    # Closes a crawl that is idle and alive (nothing sent or in flight, nothing handed out, no
    # announced wait) with reason "stuck", instead of letting it poll for ever.
    "harvest.extensions.stuck.StuckCrawlGuard": 0,
    # Partitioned crawls only (HARVEST_CRAWL_WORKERS > 1): requests handed over by the other
    # workers, and staying open until all of them are done.
    "harvest.crawl.handoff.HandoffExtension": 0,
    # `scrapy crawl` only: the final stats under logs/<spider>/, where the report reads rounds
    # (a fleet child's log holds them already).
    "harvest.extensions.roundrecord.RoundRecord": 0,
    # Crawls with -o/-O/FEEDS: what each feed got, and the items not in it as already stored.
    "harvest.extensions.feednotice.FeedNotice": 0,
    # `scrapy crawl` only: a progress line every HARVEST_PROGRESS_INTERVAL and an end summary.
    "harvest.extensions.progress.CrawlProgress": 0,
}
# Seconds between `scrapy crawl`'s progress lines (0 = none): often enough to see a long crawl
# move, rarely enough not to bury its warnings.
HARVEST_PROGRESS_INTERVAL = 10.0
# Seconds a crawl may sit idle and alive before it is closed as stuck (0 = never): past any
# DOWNLOAD_TIMEOUT, retry or delay, since those keep a request in flight anyway.
HARVEST_CRAWL_STUCK_TIMEOUT = 120.0
# Net allocations between young collections (Python's default 700; 0 leaves the collector alone):
# a crawl allocates many short-lived objects, and far fewer collections cost no memory (figures:
# BENCHMARKS.md, "Figures behind settings and constants").
HARVEST_GC_THRESHOLD = 10_000
# Freeze the objects that exist when the engine starts (modules, classes): never scanned again.
HARVEST_GC_FREEZE = True

# --- One pace per site across processes (harvest/state/pace.py, harvest/middlewares/pace.py) -------
# On: a site's delay and concurrency (a blogs site's download_delay/concurrency, else
# DOWNLOAD_DELAY and CONCURRENT_REQUESTS_PER_DOMAIN) and its robots.txt Crawl-delay hold in total
# over every harvest process of a data folder (state/_pace/pace.sqlite) or of a Redis state, not
# per process: --replicas or a second fleet must not hit a small site harder.
HARVEST_PACE_ENABLED = True
# Longest Crawl-delay obeyed (seconds): a site asking for more is paced at this (and told in the
# log); one request a minute already means a day for 1,440 pages.
HARVEST_PACE_MAX_DELAY = 60.0
# A grant not given back after this long is presumed lost (its process is frozen, or was killed
# on another machine; dead processes of this machine are noticed at once). A grant covers one
# attempt on the wire, so twice DOWNLOAD_TIMEOUT; longer would let a frozen process stall a site.
HARVEST_PACE_STALE_AFTER = 60.0
# Seconds a process keeps a grant of a site paced by concurrency alone (no delay) for its next
# requests to that site before giving it back: the shared store is asked once per slot and
# second instead of twice per request, and another process waits at most this long for a slot.
HARVEST_PACE_HOLD = 1.0

# --- One crawl on several cores (harvest/state/partition.py, harvest/crawl/handoff.py) -------------------
# Processes one spider's crawl runs as on this machine, each owning a hash partition of the URL
# space with its own embedded state; links are handed to their owner (README "Both cores").
# 0 = chosen from the machine: one per usable core (as many as HARVEST_FLEET_PROCESS_MEMORY_MB
# each fits in available memory, and at most CONCURRENT_REQUESTS / 4: fewer requests in flight
# leave a worker waiting on the network) for a crawl bound by its own process's CPU (blogs with
# extraction off or inline), 1 for the others (the GitHub spiders wait on rate limits; the
# extraction pool already uses every core). Two workers crawl faster than one from 2,000 pages on
# (BENCHMARKS.md). Workers write per-worker files (page.w0.jsonl, ...; `scrapy export` reads
# them as one) and a data folder keeps the number its state was first built with
# (state/<spider>.workers.json; a folder crawled by one process stays at one).
HARVEST_CRAWL_WORKERS = 0
# Restarts of a worker that died (kill -9, a crash) before the supervisor gives the crawl up.
HARVEST_CRAWL_MAX_RESTARTS = 5

# --- Crawl state, frontier, dedup, revisits (harvest/state/, docs/ARCHITECTURE.md) ------------
# Scrapy's scheduler plus a persisted frontier: a crawl killed with kill -9 resumes its pending
# requests.
SCHEDULER = "harvest.crawl.frontier.FrontierScheduler"
SPIDER_MIDDLEWARES = {
    # Outermost (lowest order): it must see every callback's final output to know when a
    # request is done.
    "harvest.crawl.frontier.FrontierMiddleware": 10,
    # HARVEST_WARC_ENABLED: hands each response's captured exchange to the items it gives.
    "harvest.middlewares.warc.WarcItemMiddleware": 900,
}
DOWNLOADER_MIDDLEWARES = {
    # Before robots.txt (100) so a fresh document costs no traffic at all; after offsite (50).
    # Low order also means it sees final download failures, after RetryMiddleware gave up.
    "harvest.middlewares.revisit.RevisitMiddleware": 75,
    # The GitHub spiders fetch from GITHUB_API_URL/WEB_URL/RAW_URL only, and a redirect stays on
    # the host it started from: a Location or Link the API sends elsewhere is refused before it
    # leaves, and before robots.txt (100) would fetch the other host's (harvest/github/hosts.py).
    "harvest.github.hosts.GithubHostGuardMiddleware": 55,
    # Safety of open-ended crawls, active where HARVEST_SAFETY_ENABLED (the blogs spider sets it).
    # Private-address guard first of all (after offsite), before robots.txt or state are consulted.
    "harvest.middlewares.safety.PrivateAddressMiddleware": 60,
    # Trap guards last before the download, so they count only pages really fetched.
    "harvest.middlewares.safety.TrapGuardMiddleware": 950,
    # A rendered page the guard left on an error page (a refused script navigation) is dropped
    # next to the downloader, before any other middleware sees it (harvest/browser/guard.py).
    "harvest.browser.guard.BrowserPageMiddleware": 980,
    # Scrapy's decompression, replaced at its order: a body labelled gzip/deflate/br/zstd that
    # is not encoded is used as it is instead of failing the page (harvest/middlewares/compression.py).
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "harvest.middlewares.compression.HttpCompressionMiddleware": 590,
    # Token, shared rate budget and ETags for requests under GITHUB_API_URL, for spiders that
    # declare uses_github_api (github_search; trending's READMEs). After every built-in
    # middleware, so a grant of the budget is held only while the request is on the wire.
    "harvest.github.middleware.GithubApiMiddleware": 960,
    # One pace per site across every process of the data folder (or of the Redis state), with
    # robots.txt Crawl-delay: after every built-in middleware, so a grant is held only while the
    # request is on the wire and the time between grants is the time between arrivals.
    "harvest.middlewares.pace.PaceMiddleware": 955,
    # Spiders that read web archives (trending_history): the archive's limits, shared by every
    # process, with 429/503 honoured; next to PaceMiddleware for the same reason.
    "harvest.middlewares.archive.ArchiveMiddleware": 957,
    # Live trending pages: GitHub's "Whoa there!" abuse page is waited out and asked again.
    # Below PaceMiddleware: a request waiting out the page holds no grant of the site's pace.
    "harvest.middlewares.abuse.AbusePageMiddleware": 545,
    # Every crawl: closes one none of whose hosts can be reached ("cannot reach HOST (why)", exit 1).
    # Above RetryMiddleware (550): it sees a connection failure before a retry is scheduled.
    "harvest.extensions.reachability.ReachabilityMiddleware": 560,
    # Spiders that collect rights (blogs): the site's TDMRep rules and robots.txt verdict per page.
    # Low order: its process_response runs after redirects and retries were handled.
    "harvest.middlewares.rights.SiteRightsMiddleware": 80,
    # Scrapy's robots.txt middleware, replaced at its order: a robots.txt that cannot be read is
    # said in one line (not an ERROR with a traceback) and recorded on its site's documents.
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "harvest.middlewares.robots.RobotsTxtMiddleware": 100,
    # HARVEST_WARC_ENABLED: next to the downloader, so the exchange is kept as it came off the
    # wire (before decompression and redirects).
    "harvest.middlewares.warc.WarcCaptureMiddleware": 990,
}
# Off only for tools and tests that want Scrapy's plain behaviour (no dedup, no resume).
HARVEST_STATE_ENABLED = True
# Empty = embedded SQLite under HARVEST_DATA_DIR/state/<spider>/ (no server needed);
# "sqlite:///<dir>" = SQLite under another folder; "redis://host:port/db" = Redis, shared by
# every process and machine of a spider (with scrapy-redis's scheduler, see the Redis section).
HARVEST_STATE_URL = ""
# Commit points: outputs fsynced, then the state committed in one transaction. 100 items keeps
# the fsync cost per item small and a crash's replay short.
HARVEST_STATE_COMMIT_ITEMS = 100
# Pending-request writes (newly scheduled, done) that force a commit: bounds the batch in memory
# when a sitemap or index schedules thousands of requests without yielding items.
HARVEST_STATE_COMMIT_REQUESTS = 1000
# A slow crawl still commits this often (seconds), so a kill loses at most this much progress.
HARVEST_STATE_COMMIT_SECONDS = 5.0
# Seconds a writer waits for a lock held by another process (the shared content database is
# written by every spider) before failing; commits take milliseconds. A crawl also waits this
# long for its spider's lock, so a run started while the previous one flushes does not fail.
# With a Redis state it bounds every Redis call (state, pace, archive limits) the same way.
HARVEST_STATE_BUSY_TIMEOUT = 30.0
# Pending requests restored into memory at a time when a crawl resumes (bounds memory for a
# large frontier).
HARVEST_FRONTIER_RESTORE_BATCH = 500
# Requests kept queued in memory (each costs a few KB: BENCHMARKS.md, "Issue 18"); past this, new
# ones wait in the frontier table
# and are read back in pages when the queue runs dry, so a large site's frontier is on disk, not
# in memory (0: no limit).
HARVEST_FRONTIER_MEMORY_MAX = 1000
# Requests at this priority or above always stay in memory: feeds, sitemaps and start pages
# steer the crawl (the blogs spider gives them 20 and 30; links and listed articles less).
HARVEST_FRONTIER_KEEP_PRIORITY = 20
# Scrapy's duplicate filter over the crawl process's seen set (harvest/state/seen.py): the
# fingerprints scheduled in a run are on disk behind a Bloom filter and the most recent ones,
# so a crawl's memory does not grow with its pages (RFPDupeFilter's set: ~90 bytes a request).
DUPEFILTER_CLASS = "harvest.state.dupefilter.SeenDupeFilter"
# Keys (fingerprints, requested URLs) a crawl process keeps in memory, most recent first, in
# front of its seen set on disk: a site's navigation links, on every page, are answered here.
# Two generations of this many: ~1.3 MB each.
HARVEST_DEDUP_RECENT_KEYS = 16_384
# Keys the seen set's Bloom filter is sized for, at a 1% false-positive rate (9.6 bits a key:
# 2.4 MB a crawl process). A "not seen" answer costs no disk read; a false positive costs one
# lookup, never a page. Past this many keys the rate rises (16% at twice as many), and so do the
# disk lookups. A worker of a 1,000,000-page crawl holds ~2,000,000 (its requests and its links'
# URLs). 0 = no filter (every older key is looked up).
HARVEST_DEDUP_BLOOM_KEYS = 2_000_000
# Start this spider from a clean state (old state moved aside, not deleted); also -a reset=1.
HARVEST_DEDUP_RESET = False
# Drop a document whose text another spider already stored (a README found by trending is not
# stored again by github_search).
HARVEST_DEDUP_CROSS_SPIDER = True
# Log every dropped duplicate at INFO (they are expected on every round, so DEBUG by default).
HARVEST_DEDUP_DEBUG = False

# --- Dataset signals: language, opt-outs, near-duplicates (docs/ARCHITECTURE.md) ---------------
# Detect each document's language from its text (py3langid, model inside its wheel; cheap beside
# extraction: BENCHMARKS.md, "Figures behind comments"): pages often declare their theme's lang,
# not their text's.
HARVEST_LANGUAGE_DETECT = True
# Record sites' opt-out and licence signals per document (robots meta, X-Robots-Tag, TDMRep,
# rel=license) for spiders that collect them (blogs).
HARVEST_RIGHTS_ENABLED = True
# Fetch /.well-known/tdmrep.json once per site and round: TDMRep's site-wide reservation.
HARVEST_RIGHTS_TDMREP = True
# A document whose site reserved text-and-data mining or said noai keeps its metadata and
# rights, not its text: the safe default for a dataset someone will publish.
HARVEST_RESPECT_OPTOUT = True
# Near-duplicate documents (same text with another sidebar, mirrors): "flag" stores them with
# near_duplicate_of = the earlier URL (nothing lost, a dataset builder decides), "drop", "off".
HARVEST_NEAR_DUP = "flag"
# Estimated Jaccard similarity of word 5-gram shingles from which a document is a near-duplicate:
# 0.9 catches a changed template or footer, not two posts on one topic.
HARVEST_NEAR_DUP_THRESHOLD = 0.9
# Archive the responses of stored items as WARC under HARVEST_DATA_DIR/<spider>/warc/ (off: the
# archive roughly doubles the disk a crawl uses; on for provenance when publishing).
HARVEST_WARC_ENABLED = False
# A WARC file is closed and the next one started past this size (1 GB, Common Crawl's order).
HARVEST_WARC_MAX_SIZE = 1024 * 1024 * 1024

# --- Fleet (run_all.py, harvest/runner/) ------------------------------------------------------
# Seconds the children get to finish in-flight work and flush after Ctrl-C/SIGTERM (--grace):
# long enough for one DOWNLOAD_TIMEOUT, short enough that a service manager does not give up.
HARVEST_FLEET_GRACE = 30.0
# Default --processes per CPU: a crawler spends most of its time waiting on the network.
HARVEST_FLEET_PROCESSES_PER_CPU = 2
# --processes beyond this many per CPU is refused without --force (scrapyd's max_proc_per_cpu).
HARVEST_FLEET_MAX_PROCESSES_PER_CPU = 4
# Memory budgeted per spider process (MB) when sizing --processes: a Scrapy process's peak with
# headroom (BENCHMARKS.md, "Figures behind comments"); a browser-rendering one takes far more.
HARVEST_FLEET_PROCESS_MEMORY_MB = 300
# First restart delay after a crash (seconds); doubles with each crash in a row.
HARVEST_FLEET_RESTART_BACKOFF = 2.0
# Ceiling of that delay, so a spider recovers within minutes once its cause goes away.
HARVEST_FLEET_RESTART_BACKOFF_MAX = 300.0
# A round that reached none of its hosts (offline, DNS down) is tried again after this many
# seconds, not after its refresh_interval (a day for trending): a network back in minutes is
# used in minutes. Doubles with each such round in a row...
HARVEST_FLEET_UNREACHABLE_RETRY = 120.0
# ...up to this ceiling: an offline machine tries at most once an hour per spider.
HARVEST_FLEET_UNREACHABLE_RETRY_MAX = 3600.0
# A spider that crashes this many times within HARVEST_FLEET_CRASH_WINDOW is marked failed.
HARVEST_FLEET_MAX_CRASHES = 5
HARVEST_FLEET_CRASH_WINDOW = 3600.0
# Seconds before a child counts as hung and is restarted: with no heartbeat at all (its reactor
# is blocked), or with heartbeats but no activity (no page, item or request, nothing in flight)
# and no announced wait (harvest/util/waits.py). A few minutes: well past DOWNLOAD_TIMEOUT and a
# retry, so a slow site is not a hang; a spider that waits on purpose (an hour for the GitHub
# rate limit) announces it and is left alone while its heartbeats keep coming.
HARVEST_FLEET_HUNG_TIMEOUT = 300.0
# Until a child's first heartbeat it is still importing and opening its state, which on a loaded
# machine can take far longer than usual: it is judged hung only after this many seconds
# (or HARVEST_FLEET_HUNG_TIMEOUT, if that is longer).
HARVEST_FLEET_START_TIMEOUT = 120.0
# How often data/fleet/status.json is rewritten (seconds).
HARVEST_FLEET_STATUS_INTERVAL = 2.0
# Without a terminal: one progress line per spider this often (seconds).
HARVEST_FLEET_LOG_INTERVAL = 30.0
# How often the data folder is measured for --max-data-size (seconds); walking a large folder
# costs I/O, and the monitor stretches this further when a walk takes long.
HARVEST_FLEET_SIZE_CHECK_INTERVAL = 10.0
# How often a child checks the stop flag and reports progress (seconds).
HARVEST_FLEET_POLL_INTERVAL = 0.5
# Log files kept per spider under data/logs/<spider>/ (one per process run); older ones go.
HARVEST_FLEET_LOG_KEEP = 50
# Close a crawl at once with reason "cannot_reach" when every host it tried failed to connect
# (DNS, refused, timeout) and none ever answered: a machine without internet fails fast.
HARVEST_FLEET_REACHABILITY_ENABLED = True
# run_all.py --dashboard: "[HOST:]PORT" to serve the live table, /status.json and /metrics over
# HTTP; empty = off (a server nobody asked for is an open port). No host = 127.0.0.1 (loopback).
HARVEST_FLEET_DASHBOARD = ""

# --- blogs spider (harvest/spiders/blogs.py) ---------------------------------------------------
# Where article extraction runs (trafilatura, the crawl's dominant cost: BENCHMARKS.md, "blogs:
# crawl throughput and extraction" and "Figures behind comments"): "pool" = worker processes, so
# fetching never waits on it;
# "inline" = in the callback (the comparison in bench/crawl_throughput.py); "off" = no
# extraction: every HTML page is written as fetched, one line per page in
# HARVEST_DATA_DIR/blogs/page.jsonl ({"type": "page", url, site, status, fetched_at,
# body_sha256, html, warc_file, warc_record_id}: the last two set with WARC on), exactly once
# across kill -9 like every output (the fastest setting: a page costs no parsing beyond its
# links, and its output one appended line, fsynced at commit points). Identity: canonical
# URL + body_sha256, so an unchanged page is not written again.
HARVEST_BLOGS_EXTRACTION = "pool"
# Extraction worker processes; 0 = one per CPU (the crawl itself uses less than one core).
HARVEST_BLOGS_EXTRACT_WORKERS = 0
# Niceness added to the extraction workers (0-19): the crawl process feeds them, and preempted by
# them it leaves them waiting for pages; below it they still get every idle cycle (figures:
# BENCHMARKS.md, "Figures behind settings and constants").
HARVEST_BLOGS_EXTRACT_NICE = 10
# Sitemaps may hold 50,000 URLs / 50 MB (sitemaps.org): their own cap, above the page cap.
HARVEST_BLOGS_MAX_SITEMAP_BYTES = 50 * 1024 * 1024
# A page's <meta name="robots"> and X-Robots-Tag, for every agent or harvest's: "noindex" keeps
# it out of the output (a wiki's special pages, a site's search results), "nofollow" keeps its
# links unfollowed, as a link's own rel="nofollow" keeps it (a wiki's edit and history actions,
# WordPress' reply links); off stores and follows them all (the directives are still in each
# item's rights).
HARVEST_BLOGS_OBEY_ROBOTS_META = True

# --- Safety of open-ended crawls (harvest/middlewares/safety.py) ------------------------------
# Off by default: the GitHub spiders talk to known APIs; the blogs spider turns it on in its
# custom_settings (spider priority survives Scrapy 2.19 re-applying the process settings to a
# crawler made in advance, which undoes components added in update_settings).
HARVEST_SAFETY_ENABLED = False
# Refuse private, loopback and link-local addresses unless that exact host:port is a configured site.
HARVEST_SAFETY_PRIVATE_ADDRESSES = True
# More host:port entries allowed although private (an intranet docs server that is not a site).
HARVEST_SAFETY_ALLOWED_HOSTS: list[str] = []
# Links followed from a start page at most: deep enough for long /page/N pagination chains,
# shallow enough to stop a calendar that links one month further on every page.
HARVEST_SAFETY_MAX_DEPTH = 50
# Pages fetched per site and round at most (a site's max_pages overrides it).
HARVEST_SAFETY_MAX_PAGES = 20000
# Longer URLs are traps or junk (2,048 is what browsers and servers reliably accept).
HARVEST_SAFETY_MAX_URL_LENGTH = 2048
# A path segment repeated more often than this (/a/b/a/b/a/b/) is a relative-link loop.
HARVEST_SAFETY_MAX_SEGMENT_REPEATS = 3
# Distinct query strings per path reached through links (calendars, faceted search);
# URLs listed in sitemaps and feeds are exempt.
HARVEST_SAFETY_MAX_QUERY_VARIANTS = 100
# New links followed from one page at most: a real index rarely names more than a few thousand
# pages (sitemaps, which may list 50,000, are exempt); past this a page is a link farm or a
# generated trap, and each link would cost a scheduled, persisted request (BENCHMARKS.md,
# "Figures behind comments").
HARVEST_SAFETY_MAX_LINKS_PER_PAGE = 10000
# An HTML page larger than this is dropped (stat harvest/safety/oversize): no article is.
HARVEST_SAFETY_MAX_PAGE_BYTES = 5 * 1024 * 1024

# --- Browser for sites with render: true (harvest/browser/install.py) ---------------------------------
# Browser executable to use; "" = Playwright's own if installed, else the system Chromium.
HARVEST_BROWSER_EXECUTABLE = ""
# Pages open at once in the one browser context: past a few the browser is CPU-bound
# (BENCHMARKS.md, "Figures behind comments").
HARVEST_BROWSER_PAGES = 4
# When a page counts as loaded: "networkidle" = scripts stopped fetching for 500 ms.
HARVEST_BROWSER_WAIT_UNTIL = "networkidle"
# Seconds a page may take to load before its request fails.
HARVEST_BROWSER_NAVIGATION_TIMEOUT = 30.0
# Seconds the browser may take to start.
HARVEST_BROWSER_LAUNCH_TIMEOUT = 30.0
# Bytes a rendered page may receive, document and sub-resources decoded (images, fonts, media
# are aborted): a heavy app's scripts are a few MB; past this a server streams without end
# (BENCHMARKS.md, "Rendered pages").
HARVEST_BROWSER_MAX_PAGE_BYTES = 20 * 1024 * 1024
# MB of JavaScript heap per page (V8's old space): past it the page's renderer crashes and the
# page fails, where V8's default lets a script grow to several GB (BENCHMARKS.md, "Rendered pages").
HARVEST_BROWSER_MAX_SCRIPT_HEAP_MB = 256

# --- Scale-out on Redis (HARVEST_STATE_URL=redis://..., harvest/scale/) -----------------------
# Does nothing unless HARVEST_STATE_URL is a Redis URL; then it swaps in scrapy-redis's
# scheduler and duplicate filter and the coordinator that shares one crawl between processes.
ADDONS = {"harvest.scale.addon.RedisScaleAddon": 0}
# A Redis worker closes once nothing is queued and no worker holds a request for this many
# seconds (scrapy-redis's setting; 0 = wait for work forever, as there). A few seconds lets a
# slow callback elsewhere add work before everyone leaves.
MAX_IDLE_TIME_BEFORE_CLOSE = 5
# Seconds between a worker's heartbeats in the shared registry (also how often dead workers
# are looked for).
HARVEST_REDIS_HEARTBEAT = 5.0
# An idle worker asks the shared queue again this often (seconds); Scrapy alone waits 5 s, long
# enough for the other workers to take all the work of a short crawl.
HARVEST_REDIS_IDLE_POLL = 0.5
# A worker of this machine silent this long is dead: its requests go back to the queue. Six
# missed heartbeats: a busy reactor is never mistaken for a dead one.
HARVEST_REDIS_WORKER_TIMEOUT = 30.0
# A worker of another machine is given up only after this long, so that its own restart
# (run_all.py restarts crashed spiders) can first commit what it wrote there.
HARVEST_REDIS_ABANDON_TIMEOUT = 600.0
