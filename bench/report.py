"""How long ``scrapy report`` takes, and how large its page is, for a data folder of N items.

    python bench/report.py                 # 100,000 items over 30 days (the figure in BENCHMARKS.md)
    python bench/report.py --items 20000 --days 7 --runs 3

The data folder is made up by harvest.report.sample (trending, search and blog items written as
the output pipeline writes them, one log with a stats dump per spider and day) in a temporary
folder; the build is what ``scrapy report`` runs (load, analyse, plot, write), timed in this
process after one warm-up build of a tiny folder (so matplotlib's import and font cache are not
counted; a cold ``scrapy report`` adds about a second).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from harvest.report import build_report
from harvest.report.sample import write_sample


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="harvest-bench-report-"))
    try:
        warm = root / "warm"
        write_sample(warm, 300, days=3)
        build_report(warm, warm / "report")
        data = root / "data"
        started = time.perf_counter()
        counts = write_sample(data, args.items, days=args.days)
        jsonl = sum(p.stat().st_size for p in data.rglob("*.jsonl"))
        print(
            f"data: {counts.total:,} items ({dict(counts.lines)}), {counts.rounds} logged rounds, "
            f"{jsonl / 1024**2:.1f} MB of JSON Lines, generated in {time.perf_counter() - started:.1f} s"
        )
        times = []
        size = 0
        for run in range(args.runs):
            started_cpu = time.process_time()
            result = build_report(data, root / "report")
            cpu = time.process_time() - started_cpu
            times.append(result.seconds)
            size = result.size_bytes
            print(f"run {run + 1}: {result.seconds:.2f} s wall, {cpu:.2f} s CPU, {size / 1024:.0f} KB")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"report of {counts.total:,} items: median {statistics.median(times):.2f} s "
            f"(min {min(times):.2f}), index.html {size / 1024:.0f} KB, peak RSS {peak:.0f} MB"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
