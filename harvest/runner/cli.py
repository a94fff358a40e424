"""``python run_all.py``: the command line of the fleet (see ``--help``).

Every bad flag exits with code 2 and a message naming the flag, before any process starts;
so does a bad spider config (naming the file and key), as with ``scrapy crawl``.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harvest.crawl.checks import check_settings
from harvest.crawl.policy import WorkersRefused, crawl_workers
from harvest.exceptions import ConfigError
from harvest.runner.options import FleetConfig, FleetOptions
from harvest.runner.plan import PlanError, build_plan, spread_cores
from harvest.state import is_redis_url
from harvest.state.partition import machine_workers
from harvest.util.machine import Capacity
from harvest.util.units import format_size, parse_positive_duration, parse_size

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console
    from scrapy.settings import Settings

    from harvest.runner.dashboard import Dashboard
    from harvest.runner.fleet import Fleet
    from harvest.runner.plan import SpiderPlan

logger = logging.getLogger(__name__)

PROG = "run_all.py"
EXIT_USAGE = 2
#: The shell's convention for a process ended by SIGINT.
EXIT_INTERRUPTED = 130
#: Where ``--demo`` writes when no --data-dir is given (kept apart from real data).
DEMO_DATA_DIR = "data/demo"
#: Larger JSON Lines files are summarised by size: counting their lines would delay the exit.
_COUNT_LINES_UP_TO = 64 * 1024 * 1024
#: Width of the tables when the output is not a terminal.
_PLAIN_WIDTH = 140
#: A file marking a folder as demo output, which the next ``--demo`` may wipe.
DEMO_MARKER = ".harvest-demo"

DESCRIPTION = """\
Run every harvest spider in its own OS process, keep them alive, and stop cleanly.

By default the fleet runs each spider that has a YAML file in spiders_config/ (HARVEST_CONFIG_DIR),
and re-runs each one on the refresh_interval of its YAML, until stopped. Each run is a fresh
process: crashed runs are restarted with backoff (and marked failed after repeated crashes), hung
runs are killed and restarted. Ctrl-C or SIGTERM asks every spider to finish its in-flight work
and flush its output and crawl state; after --grace seconds the rest are terminated (a second
Ctrl-C terminates at once). Nothing already collected is lost: the next run resumes.
"""

EPILOG = """\
examples:
  python run_all.py                           all spiders, forever, on their refresh intervals
  python run_all.py --once                    one round of each, then exit
  python run_all.py --spiders trending,blogs --duration 2h --max-data-size 20GB
  python run_all.py --demo                    the whole fleet in a minute against local sample sites
  python run_all.py --dashboard 127.0.0.1:8787  the live table, /status.json and /metrics over HTTP
  python run_all.py -s LOG_LEVEL=DEBUG -s CONCURRENT_REQUESTS_PER_DOMAIN=2

what it writes (under --data-dir, default data/):
  <spider>/<type>.jsonl, <spider>/**/*.md    the items (see README)
  logs/<spider>/<time>-<n>.log               one log per spider process run
  logs/fleet/<time>.log                      the supervisor's own log
  fleet/status.json                          the live table as JSON, rewritten every few seconds

exit codes:
  0  every spider finished its rounds, or stopped cleanly when asked (signal, --duration)
  1  a spider failed: crashed too often, could not reach its hosts, ended with a bad close
     reason (e.g. layout_changed), or was terminated after the grace period
  2  bad command line or spider config, or a --data-dir that cannot hold files (nothing was
     started)
  3  stopped because the data folder reached --max-data-size

The supervisor's knobs are settings (-s NAME=VALUE): HARVEST_FLEET_HUNG_TIMEOUT,
HARVEST_FLEET_MAX_CRASHES, HARVEST_FLEET_CRASH_WINDOW, HARVEST_FLEET_RESTART_BACKOFF, ...
(defaults and reasons in harvest/settings.py).
"""


def _duration(text: str) -> float:
    try:
        return parse_positive_duration(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _grace(text: str) -> float:
    if text.strip() in {"0", "0s"}:
        return 0.0
    return _duration(text)


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return key.strip(), value


def _spider_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"expected spider names separated by commas, got {text!r}")
    return names


def _replica(text: str) -> tuple[str, int]:
    name, sep, count = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected SPIDER=N (e.g. blogs=3), got {text!r}")
    return name.strip(), _positive_int(count)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with help for every flag."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--spiders",
        type=_spider_list,
        metavar="NAME[,NAME...]",
        help="run only these spiders (default: those with a YAML file in spiders_config/)",
    )
    parser.add_argument(
        "--once",
        action="store_true",
        help="one round of each spider, then exit (default: loop on each refresh_interval)",
    )
    parser.add_argument(
        "--duration", type=_duration, metavar="TIME", help="stop gracefully after this long: 90s, 30m, 2h, 7d"
    )
    parser.add_argument(
        "--max-data-size",
        type=_size,
        metavar="SIZE",
        help="stop gracefully once the data folder holds more than this: 500MB, 20GB, 1TB",
    )
    parser.add_argument(
        "--processes",
        type=_positive_int,
        metavar="N",
        help="at most N spider processes at once (default: from the CPU count and memory)",
    )
    parser.add_argument(
        "--force", action="store_true", help="accept a --processes value beyond what this machine can carry"
    )
    parser.add_argument(
        "--replicas",
        type=_replica,
        action="append",
        default=[],
        metavar="SPIDER=N",
        help="run N processes of SPIDER (repeatable): on the embedded state, the N workers of one "
        "crawl, each owning a share of the URLs (HARVEST_CRAWL_WORKERS); with a Redis crawl state "
        "(HARVEST_STATE_URL=redis://...), N processes sharing it",
    )
    parser.add_argument(
        "-s",
        "--set",
        dest="settings",
        type=_setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a Scrapy/harvest setting for every spider (repeatable)",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the output folder (HARVEST_DATA_DIR; default: data, or data/demo with --demo)",
    )
    parser.add_argument(
        "--grace",
        type=_grace,
        metavar="TIME",
        help="time spiders get to finish after Ctrl-C/SIGTERM before they are terminated "
        "(default: 30s, HARVEST_FLEET_GRACE)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="run the three spiders once against sample sites served on 127.0.0.1 by this "
        "command: no network, no token, about a minute",
    )
    parser.add_argument(
        "--dashboard",
        metavar="[HOST:]PORT",
        help="serve the live table, /status.json and Prometheus /metrics over HTTP while the fleet "
        "runs (read-only; 127.0.0.1 unless a host is given; default: HARVEST_FLEET_DASHBOARD)",
    )
    parser.add_argument(
        "--no-live",
        dest="live",
        action="store_false",
        default=None,
        help="log progress lines even on a terminal (instead of the live table)",
    )
    return parser


def parse_args(argv: Sequence[str] | None, parser: argparse.ArgumentParser | None = None) -> FleetOptions:
    """Parse the command line into FleetOptions; a bad flag exits with 2 naming it."""
    parser = parser or build_parser()
    ns = parser.parse_args(argv)
    replicas: dict[str, int] = {}
    for name, count in ns.replicas:
        if name in replicas:
            parser.error(f"argument --replicas: {name} is given twice")
        replicas[name] = count
    if ns.demo and ns.spiders:
        parser.error("argument --spiders: --demo always runs trending, github_search and blogs")
    if ns.dashboard:
        # Imported when asked for: the dashboard's server (prometheus_client) loads only with --dashboard.
        from harvest.runner.dashboard import parse_address

        try:
            parse_address(ns.dashboard)
        except ValueError as exc:
            parser.error(f"argument --dashboard: {exc}")
    return FleetOptions(
        spiders=ns.spiders,
        once=ns.once or ns.demo,
        duration=ns.duration,
        max_data_size=ns.max_data_size,
        processes=ns.processes,
        force=ns.force,
        settings=dict(ns.settings),
        data_dir=ns.data_dir,
        grace=ns.grace,
        demo=ns.demo,
        replicas=replicas,
        live=ns.live,
        dashboard=ns.dashboard,
    )


def _setup_logging(console: Console, live: bool) -> None:
    from rich.logging import RichHandler

    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for old in list(root.handlers):
        root.removeHandler(old)
    handler: logging.Handler
    if live:
        handler = RichHandler(console=console, show_path=False, rich_tracebacks=False, markup=False)
        handler.setFormatter(logging.Formatter("%(message)s"))
    else:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s [fleet] %(levelname)s: %(message)s", "%H:%M:%S"))
    root.addHandler(handler)


def _log_to_file(data_dir: Path, keep: int) -> Path:
    from datetime import datetime, timezone

    path = data_dir / "logs" / "fleet" / f"{datetime.now(timezone.utc):%Y%m%dT%H%M%S}.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    logs = sorted(path.parent.glob("*.log"))  # time-stamped names sort oldest first
    for old in logs[: max(0, len(logs) - keep + 1)]:
        old.unlink(missing_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s [%(name)s] %(levelname)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    return path


def output_lines(data_dir: Path, spiders: list[str]) -> list[str]:
    """Where each spider's output is: its JSON Lines files with their line counts, and documents."""
    lines = []
    for spider in spiders:
        folder = data_dir / spider
        if not folder.is_dir():
            lines.append(f"{folder}/  (nothing written)")
            continue
        parts = []
        for jsonl in sorted(folder.glob("*.jsonl")):
            size = jsonl.stat().st_size
            if size > _COUNT_LINES_UP_TO:
                parts.append(f"{jsonl.name} ({format_size(size)})")
                continue
            with jsonl.open("rb") as fh:
                parts.append(f"{jsonl.name} ({sum(1 for _ in fh):,} lines)")
        docs = sum(1 for _ in folder.rglob("*.md"))
        if docs:
            parts.append(f"{docs:,} Markdown documents")
        lines.append(f"{folder}/  " + (", ".join(parts) or "(nothing written)"))
    lines.append(f"{data_dir / 'logs'}/  logs;  {data_dir / 'fleet' / 'status.json'}  status")
    return lines


def _usage_error(parser: argparse.ArgumentParser, flag: str, message: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"{PROG}: error: {flag}: {message}", file=sys.stderr)
    return EXIT_USAGE


def _prepare_demo_dir(data_dir: Path) -> None:
    """Start each demo from an empty folder, but never wipe a folder the demo did not create."""
    if (data_dir / DEMO_MARKER).exists():
        shutil.rmtree(data_dir)
    elif data_dir.exists() and any(data_dir.iterdir()):
        logger.warning("%s is not empty; the demo adds to it (and skips what its state has seen)", data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / DEMO_MARKER).write_text("made by run_all.py --demo; the next --demo may delete this folder\n")


def _demo_report(console: Console, data_dir: Path) -> None:
    """Build the report of the demo's data and say where it is (a failure is logged, not fatal)."""
    # Imported when asked for: the report (matplotlib) loads only after a --demo run.
    from harvest.report import build_report

    try:
        result = build_report(data_dir, data_dir / "report")
    except Exception:  # the demo's crawl succeeded; a report problem must not turn it into a failure
        logger.exception("Could not build the report of %s", data_dir)
        return
    console.print(
        f"Report: {result.path} (open it in a browser; `scrapy report -s HARVEST_DATA_DIR={data_dir}` "
        "rebuilds it)",
        highlight=False,
        soft_wrap=True,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fleet as the command line asks; return the exit code."""
    from rich.console import Console

    parser = build_parser()
    options = parse_args(argv, parser)
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "harvest.settings")
    console = Console()
    if not console.is_terminal:
        # Piped to a file or a CI log: no terminal width to fit, and a cramped table wraps badly.
        console = Console(width=_PLAIN_WIDTH)
    live = console.is_terminal if options.live is None else options.live
    _setup_logging(console, live)

    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    overrides: dict[str, Any] = dict(options.settings)
    demo = None
    config_dir_tmp: str | None = None
    try:
        if options.demo:
            # Imported when asked for: the demo's sites load only with --demo.
            from harvest.demo import DemoSites, write_demo_config

            # The demo talks only to its own sites: a real token must not be sent to them.
            os.environ.pop("GITHUB_TOKEN", None)
            demo = DemoSites().start()
            config_dir_tmp = tempfile.mkdtemp(prefix="harvest-demo-config-")
            write_demo_config(Path(config_dir_tmp), demo)
            overrides.update(demo.settings())
            overrides["HARVEST_CONFIG_DIR"] = config_dir_tmp
            options.spiders = ["trending", "github_search", "blogs"]
            logger.info("Demo sites on 127.0.0.1: %s", ", ".join(f"{k} {v}" for k, v in demo.urls().items()))
        if options.data_dir:
            overrides["HARVEST_DATA_DIR"] = options.data_dir
        elif options.demo:
            overrides["HARVEST_DATA_DIR"] = DEMO_DATA_DIR
        settings.setdict(overrides, priority="cmdline")
        return _run(parser, options, settings, overrides, console, live)
    except KeyboardInterrupt:  # Ctrl-C before the fleet took over the signals
        print(f"{PROG}: interrupted before the fleet started", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if demo is not None:
            demo.stop()
        if config_dir_tmp is not None:
            shutil.rmtree(config_dir_tmp, ignore_errors=True)


class _Refused(Exception):
    """The command line or settings were refused (the error is printed); ``code`` is the exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _fleet_config(settings: Settings) -> FleetConfig:
    """The checked settings as the fleet's config; _Refused (usage) on a bad setting."""
    try:
        check_settings(settings)
        return FleetConfig.from_settings(settings)
    except ConfigError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        raise _Refused(EXIT_USAGE) from None


def _capacity(parser: argparse.ArgumentParser, options: FleetOptions, config: FleetConfig) -> Capacity:
    """The machine's capacity; _Refused when ``--processes`` exceeds it without ``--force``."""
    capacity = Capacity.measure(
        config.processes_per_cpu, config.max_processes_per_cpu, config.process_memory_mb
    )
    if options.processes is not None:
        refusal = capacity.refusal(options.processes)
        if refusal and not options.force:
            raise _Refused(_usage_error(parser, "argument --processes", refusal))
    return capacity


def _checked_plan(
    parser: argparse.ArgumentParser, options: FleetOptions, settings: Settings
) -> list[SpiderPlan]:
    """The fleet's spiders; _Refused on a bad selection or replicas without a shared state."""
    try:
        plan = build_plan(settings, options.spiders, options.replicas)
    except PlanError as exc:
        flag = f"argument {exc.flag}" if exc.flag.startswith("-") else exc.flag
        raise _Refused(_usage_error(parser, flag, exc.message)) from None
    except ConfigError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        raise _Refused(EXIT_USAGE) from None
    if settings.getint("HARVEST_CRAWL_WORKERS") > 1:
        raise _Refused(
            _usage_error(
                parser,
                "HARVEST_CRAWL_WORKERS",
                "the fleet runs a spider's crawl workers as its replicas: use --replicas SPIDER=N",
            )
        )
    shared_state = is_redis_url(settings.get("HARVEST_STATE_URL"))
    if shared_state or not settings.getbool("HARVEST_STATE_ENABLED", True):
        return plan
    # On the embedded state, N processes of a spider are the N workers of one partitioned crawl
    # (harvest.state.partition): the number a data folder's state was built with is kept
    # (harvest.crawl.policy, shared with scrapy crawl).
    data_dir = settings.get("HARVEST_DATA_DIR")
    wanted = {p.name: p.replicas for p in plan}
    # Feed exports (FEEDS) are files of one process: the workers of a crawl would share them.
    feeds = bool(settings.getdict("FEEDS"))
    if settings.getint("HARVEST_CRAWL_WORKERS") == 0 and not feeds:
        # The default: the cores one process per spider leaves free go to the CPU-bound spiders
        # (without --replicas) as workers of their crawl, within --processes.
        memory_mb = settings.getint("HARVEST_FLEET_PROCESS_MEMORY_MB")
        cores = machine_workers(memory_mb)
        if options.processes is not None:
            cores = min(cores, options.processes)
        most = machine_workers(memory_mb, settings.getint("CONCURRENT_REQUESTS"))
        wanted = spread_cores(plan, cores, set(options.replicas), most)
    partitioned = []
    for p in plan:
        requested = wanted[p.name]
        chosen = requested != p.replicas
        try:
            workers = crawl_workers(data_dir, p.name, requested, chosen=chosen, feeds=feeds)
        except WorkersRefused as exc:
            raise _Refused(_usage_error(parser, exc.setting or "argument --replicas", str(exc))) from None
        except OSError as exc:  # a full disk before anything started: one line, exit 1
            print(f"{PROG}: error: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
            raise _Refused(1) from None
        if chosen and workers == requested:
            logger.info(
                "Crawling %s as %d worker processes on the cores the fleet leaves free "
                "(HARVEST_CRAWL_WORKERS=0 chooses from the machine; --replicas %s=1 for one)",
                p.name,
                workers,
                p.name,
            )
        partitioned.append(replace(p, replicas=workers, partitioned=workers > 1))
    return partitioned


def _start_dashboard(
    parser: argparse.ArgumentParser, options: FleetOptions, settings: Settings, fleet: Fleet
) -> Dashboard | None:
    """The dashboard if ``--dashboard`` or ``HARVEST_FLEET_DASHBOARD`` asks for one; _Refused if it cannot."""
    dashboard_at = options.dashboard or str(settings.get("HARVEST_FLEET_DASHBOARD") or "")
    if not dashboard_at:
        return None
    # Imported when asked for: the dashboard's server (prometheus_client) loads only with --dashboard.
    from harvest.runner.dashboard import open_dashboard

    try:
        return open_dashboard(dashboard_at, lambda: fleet.last_snapshot, settings)
    except (ValueError, OSError) as exc:
        raise _Refused(_usage_error(parser, "argument --dashboard", str(exc))) from None


def _print_outcome(
    console: Console, options: FleetOptions, fleet: Fleet, plan: list[SpiderPlan], fleet_log: Path, code: int
) -> None:
    """The summary table, where the logs and outputs are, the demo's report, the exit code."""
    # Imported once the command line is valid: `run_all.py --help` and a usage error stay quick.
    from harvest.runner.display import print_summary

    data_dir = fleet.data_dir
    assert fleet.last_snapshot is not None
    print_summary(console, fleet.last_snapshot, output_lines(data_dir, [p.name for p in plan]))
    console.print(f"Supervisor log: {fleet_log}", highlight=False, soft_wrap=True)
    if options.demo:
        _demo_report(console, data_dir)
        console.print(
            f"[bold]Demo done.[/] Its output is in {data_dir}/; configure spiders_config/ "
            f"and run `python run_all.py` for the real thing.",
            soft_wrap=True,
        )
    console.print(f"Exit code {code}.", highlight=False)


def _run(
    parser: argparse.ArgumentParser,
    options: FleetOptions,
    settings: Settings,
    overrides: dict[str, Any],
    console: Console,
    live: bool,
) -> int:
    # Imported once the command line is valid: `run_all.py --help` and a usage error stay quick.
    from harvest.runner.display import Display
    from harvest.runner.fleet import Fleet

    try:
        config = _fleet_config(settings)
        capacity = _capacity(parser, options, config)
        plan = _checked_plan(parser, options, settings)
    except _Refused as refused:
        return refused.code
    jobs = sum(p.replicas for p in plan)
    processes = options.processes if options.processes is not None else min(capacity.default, jobs)
    workers = max((p.replicas for p in plan if p.partitioned), default=0)
    if workers > processes:
        # The workers of a partitioned crawl wait for each other: they must all run at once.
        return _usage_error(
            parser,
            "argument --replicas",
            f"the {workers} workers of one crawl run at once, and at most {processes} spider "
            f"processes may (--processes)",
        )
    if jobs > processes:
        logger.warning("%d spider processes share %d slots: some wait for others to finish", jobs, processes)

    data_dir = Path(settings.get("HARVEST_DATA_DIR"))
    if options.demo:
        _prepare_demo_dir(data_dir)
    fleet_log = _log_to_file(data_dir, config.log_keep)
    grace = options.grace if options.grace is not None else config.grace
    display = Display(console, live=live, log_interval=config.log_interval)
    fleet = Fleet(
        plan,
        config,
        display,
        data_dir=data_dir,
        child_settings={**overrides, "HARVEST_DATA_DIR": str(data_dir)},
        processes=processes,
        once=options.once,
        grace=grace,
        duration=options.duration,
        max_data_size=options.max_data_size,
        config_dir=settings.get("HARVEST_CONFIG_DIR"),
    )
    if options.max_data_size is not None:
        logger.info("Data folder limit: %s", format_size(options.max_data_size))
    try:
        dashboard = _start_dashboard(parser, options, settings, fleet)
    except _Refused as refused:
        return refused.code
    try:
        code = fleet.run()
    finally:
        if dashboard is not None:
            dashboard.stop()
    _print_outcome(console, options, fleet, plan, fleet_log, code)
    return code
