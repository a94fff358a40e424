"""Soak benchmark: ``python run_all.py`` in loop mode for many rounds, its memory sampled per round.

The fleet's supervisor lives for days and starts a fresh process for every round of every spider;
nothing it keeps per round may grow. This runs the three spiders against the --demo sites (served
here on 127.0.0.1) with a short ``refresh_interval`` (``--interval``, default 2 s), so ``--rounds``
rounds (default 50) fit in minutes, and samples after each round the supervisor's RSS and, for
each spider, the peak RSS of its round's process tree (the spider process and its extraction
workers), summed over the spiders: the fleet's memory at a round, whether or not the spiders'
rounds happened to overlap. Printed: RSS per round (every 5th), and issue 36's target: after the
last round <= 1.1x after round 5, for both.

    python bench/fleet_soak.py [--rounds 50] [--interval 2s] [--latency 0.0]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harvest.demo import DemoSites  # noqa: E402
from harvest.demo.config import demo_configs  # noqa: E402

#: Issue 36's target: RSS after the last round at most this times RSS after round 5.
GROWTH_MAX = 1.1
BASE_ROUND = 5


def _tree_rss(proc: psutil.Process) -> float:
    total = 0
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0.0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            continue
    return total / 2**20


def _spider_trees(supervisor: psutil.Process) -> dict[str, float]:
    """RSS of each spider process's tree, by spider name (the argument after ``crawl``)."""
    found: dict[str, float] = {}
    try:
        children = supervisor.children()
    except psutil.Error:
        return found
    for child in children:
        try:
            args = child.cmdline()
        except psutil.Error:
            continue
        spider = args[args.index("crawl") + 1] if "crawl" in args[:-1] else f"pid {child.pid}"
        found[spider] = found.get(spider, 0.0) + _tree_rss(child)
    return found


def soak(work: Path, sites: DemoSites, rounds: int, interval: str, limit: float) -> list[dict[str, float]]:
    config = work / "config"
    config.mkdir(parents=True)
    for spider, data in demo_configs(sites).items():
        data["refresh_interval"] = interval
        (config / f"{spider}.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    data_dir = work / "data"
    settings = {**sites.settings(), "HARVEST_CONFIG_DIR": str(config)}
    cmd = [sys.executable, "run_all.py", "--data-dir", str(data_dir), "--no-live"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    env = dict(os.environ)
    env.pop("GITHUB_TOKEN", None)
    log = (work / "fleet.log").open("wb")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    me = psutil.Process(proc.pid)
    status = data_dir / "fleet" / "status.json"
    samples: list[dict[str, float]] = []
    done = 0
    peaks: dict[str, float] = {}
    started = time.monotonic()
    try:
        while done < rounds and proc.poll() is None:
            if time.monotonic() - started > limit:
                print(f"time limit ({limit:.0f} s) reached after {done} rounds", flush=True)
                break
            for spider, mb in _spider_trees(me).items():
                peaks[spider] = max(peaks.get(spider, 0.0), mb)
            try:
                rows = json.loads(status.read_text(encoding="utf-8"))["spiders"]
                finished = min(int(r["rounds"]) for r in rows)
            except (OSError, ValueError, KeyError):
                finished = 0
            if finished > done:
                done = finished
                sample = {
                    "round": done,
                    "seconds": round(time.monotonic() - started, 1),
                    "supervisor_mb": me.memory_info().rss / 2**20,
                    "spiders_peak_mb": sum(peaks.values()),
                }
                samples.append(sample)
                peaks = {}
                if done % 5 == 0 or done == 1:
                    print(
                        f"round {done}: supervisor RSS {sample['supervisor_mb']:.1f} MB, spiders' peaks "
                        f"{sample['spiders_peak_mb']:.0f} MB ({sample['seconds']:.0f} s)",
                        flush=True,
                    )
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    if proc.returncode not in (0, None, -signal.SIGTERM, 143) and done < rounds:
        print((work / "fleet.log").read_text(encoding="utf-8", errors="replace")[-3000:])
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--interval", default="2s", help="each spider's refresh_interval")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every response")
    parser.add_argument("--limit", type=float, default=3600, help="seconds before the soak is stopped")
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    sites = DemoSites(latency=args.latency).start()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-soak-") as tmp:
            samples = soak(Path(tmp), sites, args.rounds, args.interval, args.limit)
    finally:
        sites.stop()
    if args.json:
        args.json.write_text(json.dumps(samples, indent=1), encoding="utf-8")
    by_round = {int(s["round"]): s for s in samples}
    print("\n| round | supervisor RSS MB | spiders' peak RSS MB (sum) |")
    print("|---:|---:|---:|")
    for n, s in sorted(by_round.items()):
        if n in (1, BASE_ROUND) or n % 10 == 0 or n == max(by_round):
            print(f"| {n} | {s['supervisor_mb']:.1f} | {s['spiders_peak_mb']:.0f} |")
    if BASE_ROUND in by_round and max(by_round) > BASE_ROUND:
        last = max(by_round)
        base, end = by_round[BASE_ROUND], by_round[last]
        for key, label in (("supervisor_mb", "supervisor RSS"), ("spiders_peak_mb", "spiders' peak RSS")):
            ratio = end[key] / base[key]
            verdict = "held" if ratio <= GROWTH_MAX else "MISSED"
            print(
                f"issue 36: {label} after round {last} / after round {BASE_ROUND}: {ratio:.3f}x "
                f"(target <= {GROWTH_MAX}x: {verdict})"
            )
        # A round's spider processes peak at different moments (extraction workers starting,
        # rounds overlapping or not): the median of five rounds on each side says more.
        peaks = {n: s["spiders_peak_mb"] for n, s in by_round.items()}
        early = [peaks[n] for n in range(BASE_ROUND - 2, BASE_ROUND + 3) if n in peaks]
        late = [peaks[n] for n in range(last - 4, last + 1) if n in peaks]
        if early and late:
            ratio = statistics.median(late) / statistics.median(early)
            print(
                f"spiders' peak RSS, median of rounds {last - 4}-{last} / of rounds "
                f"{BASE_ROUND - 2}-{BASE_ROUND + 2}: {ratio:.3f}x"
            )


if __name__ == "__main__":
    main()
