"""Benchmark: the three spiders one after another (`scrapy crawl` x3) versus `run_all.py --once`.

Both run against the --demo sites (harvest.demo, served here on 127.0.0.1) with a per-response
latency, so the work is I/O-bound as real crawling is. Printed: wall time, items and items/s of
each, the fleet's speed-up, and the supervisor's own overhead: its peak RSS during the run, and
its RSS and CPU use while the fleet idles between rounds (loop mode, nothing due).

    python bench/fleet.py [--latency 0.05] [--idle 10] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harvest.demo import DemoSites, write_demo_config  # noqa: E402

SPIDERS = ("trending", "github_search", "blogs")


def count_items(data: Path) -> int:
    total = 0
    for spider in SPIDERS:
        for path in (data / spider).glob("*.jsonl"):
            with path.open("rb") as fh:
                total += sum(1 for line in fh if line.strip())
    return total


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.pop("GITHUB_TOKEN", None)
    return e


def settings_args(settings: dict[str, str]) -> list[str]:
    out = []
    for key, value in settings.items():
        out += ["-s", f"{key}={value}"]
    return out


def sequential(work: Path, settings: dict[str, str]) -> tuple[float, int]:
    data = work / "sequential"
    started = time.perf_counter()
    for spider in SPIDERS:
        cmd = [
            sys.executable,
            "-m",
            "scrapy",
            "crawl",
            spider,
            *settings_args({**settings, "HARVEST_DATA_DIR": str(data), "LOG_LEVEL": "WARNING"}),
        ]
        result = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True, timeout=600)
        if result.returncode != 0:
            raise SystemExit(f"scrapy crawl {spider} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return time.perf_counter() - started, count_items(data)


class RssSampler(threading.Thread):
    """Peak RSS of one process, sampled every 50 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.proc = psutil.Process(pid)
        self.peak = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.peak = max(self.peak, self.proc.memory_info().rss)
            except psutil.Error:
                return
            time.sleep(0.05)


def fleet(work: Path, settings: dict[str, str]) -> tuple[float, int, int]:
    data = work / "fleet"
    cmd = [
        sys.executable,
        "run_all.py",
        "--once",
        "--spiders",
        ",".join(SPIDERS),
        "--data-dir",
        str(data),
        *settings_args(settings),
    ]
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    sampler = RssSampler(proc.pid)
    sampler.start()
    _, err = proc.communicate(timeout=600)
    wall = time.perf_counter() - started
    sampler.stop.set()
    if proc.returncode != 0:
        raise SystemExit(f"run_all.py failed ({proc.returncode}):\n{err[-3000:]}")
    status = json.loads((data / "fleet" / "status.json").read_text())
    items = count_items(data)
    assert status["items_total"] == items, (status["items_total"], items)
    return wall, items, sampler.peak


def idle_overhead(work: Path, settings: dict[str, str], idle: float) -> tuple[int, float]:
    """Supervisor RSS and CPU share while every spider waits for its next round."""
    data = work / "idle"
    cmd = [
        sys.executable,
        "run_all.py",
        "--spiders",
        ",".join(SPIDERS),
        "--data-dir",
        str(data),
        *settings_args(settings),
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    status_file = data / "fleet" / "status.json"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                rows = json.loads(status_file.read_text())["spiders"]
                if all(r["state"] == "waiting" for r in rows):
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.2)
        else:
            raise SystemExit("the fleet never went idle")
        me = psutil.Process(proc.pid)
        time.sleep(1.0)
        cpu0, t0 = sum(me.cpu_times()[:2]), time.perf_counter()
        time.sleep(idle)
        cpu1, t1 = sum(me.cpu_times()[:2]), time.perf_counter()
        return me.memory_info().rss, (cpu1 - cpu0) / (t1 - t0)
    finally:
        proc.terminate()
        proc.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=0.05, help="seconds added to every response")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    print(
        f"machine: {psutil.cpu_count()} CPUs, {psutil.virtual_memory().total / 1024**3:.0f} GB; "
        f"response latency {args.latency * 1000:.0f} ms"
    )
    sites = DemoSites(latency=args.latency).start()
    try:
        for run in range(1, args.repeat + 1):
            with tempfile.TemporaryDirectory(prefix="bench-fleet-") as tmp:
                work = Path(tmp)
                write_demo_config(work / "config", sites)
                # Pace like the defaults do; only the config dir and endpoints differ from a real run.
                settings = {**sites.settings(), "HARVEST_CONFIG_DIR": str(work / "config")}
                seq_wall, seq_items = sequential(work, settings)
                fleet_wall, fleet_items, peak = fleet(work, settings)
                print(f"run {run}:")
                print(
                    f"  sequential (scrapy crawl x3): {seq_wall:6.1f} s  {seq_items:5d} items  "
                    f"{seq_items / seq_wall:6.1f} items/s"
                )
                print(
                    f"  run_all.py --once           : {fleet_wall:6.1f} s  {fleet_items:5d} items  "
                    f"{fleet_items / fleet_wall:6.1f} items/s"
                )
                print(
                    f"  speed-up: {seq_wall / fleet_wall:.2f}x wall time; supervisor peak RSS "
                    f"{peak / 1024**2:.0f} MB"
                )
                if run == 1 and args.idle > 0:
                    rss, cpu = idle_overhead(work, settings, args.idle)
                    print(
                        f"  supervisor idle (loop mode, all spiders waiting): RSS {rss / 1024**2:.0f} MB, "
                        f"CPU {cpu * 100:.2f}% of one core over {args.idle:.0f} s"
                    )
    finally:
        sites.stop()


if __name__ == "__main__":
    main()
