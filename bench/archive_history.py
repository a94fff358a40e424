"""How long ``trending_history`` takes for N days at the archive's default limits (emulated).

Serves one capture a day of the real 2019 Trending and developers pages from
``tests/archive_emulator.py`` (limits set to the archive's: 20 CDX queries a minute, 4 playbacks a
second) with ``--latency`` seconds added to every answer, runs a real ``scrapy crawl
trending_history`` with the default pace over N days, and prints the measured time next to the
computed one: 2 pages (repositories, developers) -> 2 CDX queries (one answer holds a year) and
2 x N playbacks, one at a time per endpoint, each 60/20 x 1.02 s or 1/4 x 1.02 s after the
previous answer (so latency adds); the second CDX query overlaps the playbacks. Process start-up (~2-3 s) is
in the measured time only. Loopback only.

    python bench/archive_history.py --days 30 [--latency 0.0]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import SHARED_FIXTURES  # noqa: E402
from tests.archive_emulator import ArchiveEmulator  # noqa: E402

GO = SHARED_FIXTURES / "trending" / "go-trending" / "2019-05-11_7f9d151" / "testdata"
MARGIN = 1.02


def computed(days: int, cdx_per_minute: float, web_per_second: float, latency: float) -> float:
    """Each request waits the interval after the previous answer; the second CDX query overlaps
    the playbacks, which bound the time."""
    cdx_each = 60.0 / cdx_per_minute * MARGIN + latency
    web = 2 * days * (1.0 / web_per_second * MARGIN + latency)
    return max(2 * cdx_each, latency + web)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    repos = (GO / "github.com_trending.html").read_bytes()
    devs = (GO / "github.com_trending_developers.html").read_bytes()
    first = date(2021, 1, 1)
    last = first + timedelta(days=args.days - 1)
    with ArchiveEmulator(cdx_limit=20, cdx_window=60.0, web_limit=4, web_window=1.0) as archive, \
            tempfile.TemporaryDirectory() as tmp:  # fmt: skip
        archive.delay = args.latency
        for n in range(args.days):
            stamp = (first + timedelta(days=n)).strftime("%Y%m%d") + "120000"
            archive.capture(stamp, "https://github.com/trending", repos)
            archive.capture(stamp, "https://github.com/trending/developers", devs)
        cmd = [sys.executable, "-m", "scrapy", "crawl", "trending_history",
               "-a", f"from={first}", "-a", f"to={last}",
               "-s", f"HARVEST_ARCHIVE_CDX_URL={archive.base_url}/cdx/search/cdx",
               "-s", f"HARVEST_ARCHIVE_WEB_URL={archive.base_url}/web",
               "-s", f"HARVEST_DATA_DIR={tmp}/data", "-s", f"HARVEST_CONFIG_DIR={tmp}/config",
               "-s", "GITHUB_WEB_URL=http://127.0.0.1:9", "-s", "LOG_LEVEL=INFO"]  # fmt: skip
        started = time.monotonic()
        result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        elapsed = time.monotonic() - started
        lines = sum(1 for _ in (Path(tmp) / "data" / "trending_history" / "trending_repo.jsonl").open())
        served = {k: len(v) for k, v in archive.served.items()}
        print(json.dumps({
            "days": args.days, "latency_s": args.latency, "exit": result.returncode, "repo_rows": lines,
            "served": served, "refusals": archive.refusals, "violations": archive.violations,
            "most_cdx_per_minute": archive.most_in_window("cdx"),
            "most_web_per_second": archive.most_in_window("web"),
            "elapsed_s": round(elapsed, 1), "computed_s": round(computed(args.days, 20, 4, args.latency), 1),
        }))  # fmt: skip


if __name__ == "__main__":
    main()
