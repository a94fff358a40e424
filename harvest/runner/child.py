"""One spider run in a fresh OS process: the target the supervisor starts with the spawn method.

A Twisted reactor cannot be restarted, and a forked copy of a parent that imported one fails
silently, so each run is a new interpreter (``multiprocessing`` spawn). The child:

- ignores SIGINT and leads its own process group: a Ctrl-C in the terminal must not reach it
  (stopping is the supervisor's decision: it sets the stop flag, see harvest.extensions.fleet),
  and a kill by the supervisor takes the helpers it started along;
- sends its stdout and stderr (Scrapy's log, and any traceback of a crash) to its own log file
  under ``data/logs/<spider>/``;
- validates the spider's config and arguments before the reactor starts, like ``scrapy crawl``;
- builds its crawler with :func:`harvest.crawl.build.build_crawler`, like ``scrapy crawl`` (the fleet
  only attaches its channel, which turns on the fleet's own components), and exits with 0 (an
  OK close reason), 1 (another reason or a failed start) or 2 (bad config).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harvest.util.redaction import scrub

logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2


@dataclass(frozen=True)
class ChildSpec:
    """Everything a child needs; plain data, so it pickles for spawn."""

    spider: str
    log_file: str
    #: Settings at command-line priority (-s, --data-dir...).
    settings: dict[str, Any] = field(default_factory=dict)
    #: Environment of the child: the fleet's own channel to it (a worker's index and run).
    environ: dict[str, str] = field(default_factory=dict)
    spider_args: dict[str, str] = field(default_factory=dict)


def _redirect_output(log_file: str) -> None:
    """Point file descriptors 1 and 2 at the log file, so nothing reaches the fleet's terminal."""
    Path(log_file).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(log_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def _send(channel: Any, message: dict[str, Any]) -> None:
    try:
        channel.conn.send(message)
    except (BrokenPipeError, EOFError, OSError):
        pass  # the supervisor is gone; the log file has the story


def run_child(spec: ChildSpec, channel: Any) -> None:
    """Process target: run one crawl of ``spec.spider`` and exit with its outcome."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Our own process group: when the supervisor must kill this run, it kills the group, so
    # helpers this process started (an extraction pool, a browser) do not outlive it as orphans.
    try:
        os.setpgid(0, 0)
    except OSError:
        pass  # already a group leader; the supervisor falls back to killing this pid alone
    _redirect_output(spec.log_file)
    os.environ.update(spec.environ)
    try:
        code = _crawl(spec, channel)
    except Exception as exc:  # the process boundary: log it, tell the supervisor, exit non-zero
        sys.stderr.write(scrub(traceback.format_exc()))
        message = scrub(f"{type(exc).__name__}: {exc}".splitlines()[0])[:300]
        _send(channel, {"kind": "fatal", "message": message})
        code = EXIT_FAILED
    sys.stdout.flush()
    sys.stderr.flush()
    channel.conn.close()
    sys.exit(code)


def _crawl(spec: ChildSpec, channel: Any) -> int:
    # Imported in the child: the fleet's process imports this module to spawn it, never a crawl.
    from scrapy.crawler import AsyncCrawlerProcess

    from harvest.crawl.build import build_crawler, project_settings
    from harvest.exceptions import ConfigError
    from harvest.extensions import fleet
    from harvest.plumbing.closing import finished_ok

    # The channel is all the fleet adds: its extension and reachability middleware are listed
    # in harvest/settings.py like every component and apply once a channel is attached.
    fleet.attach(channel)
    process = AsyncCrawlerProcess(project_settings(spec.settings))
    try:
        crawler = build_crawler(process, spec.spider, spec.spider_args)
    except ConfigError as exc:
        logger.error("%s", exc)
        _send(channel, {"kind": "config_error", "message": str(exc)})
        return EXIT_CONFIG
    process.crawl(crawler, **spec.spider_args)
    # No signal handlers: the supervisor stops us through the stop flag (graceful) or SIGTERM.
    process.start(install_signal_handlers=False)
    if process.bootstrap_failed:
        _send(channel, {"kind": "fatal", "message": "the crawl failed to start (see the log)"})
        return EXIT_FAILED
    return EXIT_OK if finished_ok(crawler) else EXIT_FAILED
