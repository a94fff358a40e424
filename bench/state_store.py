"""Benchmark of the crawl-state store against the usual JSON seen-file.

    python bench/state_store.py                 # 1,000,000 documents, JSON baseline to 100,000
    python bench/state_store.py --n 200000      # quicker

The store side inserts, for each simulated document, what a crawl commits: its URL fingerprint
(``fetched``, with its fetch time) and its content hash (``content``, plus the shared cross-spider
table), in batches of ``HARVEST_STATE_COMMIT_ITEMS`` documents per transaction, exactly through
``SqliteStateStore.commit`` (journal appends, and the periodic sorted merges they trigger).
Only the time spent in the store is counted: building the keys is the crawl's work (reported
apart). Then it closes, reopens, and looks up 100,000 fingerprints and 100,000 content hashes,
half of them present.

The baseline keeps every seen URL and content hash in a Python set and rewrites a JSON file of
them every 50 documents (the approach the issue describes). It is O(n^2) over a run, so it runs
to ``--baseline-n`` and is extrapolated to ``--n`` (rewrite cost grows linearly with n, so total
time grows with n^2); the extrapolation is labelled as such.

Each side runs in its own process so that peak RSS (ru_maxrss) is its own. Nothing touches the
network.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))


def fingerprint(i: int) -> bytes:
    """The i-th document's request fingerprint (20 bytes, like Scrapy's)."""
    return hashlib.sha1(f"https://example.org/article/{i}".encode()).digest()  # noqa: S324


def chash(i: int) -> str:
    """The i-th document's content hash (sha256 hex, like harvest.fingerprints.content_hash)."""
    return hashlib.sha256(f"text of article {i}".encode()).hexdigest()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def disk_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def probe_ids(n: int, count: int, seed: int) -> list[int]:
    """Half present (ids < n), half absent (ids >= n), shuffled."""
    rng = random.Random(seed)
    ids = [rng.randrange(n) for _ in range(count // 2)]
    ids += [n + rng.randrange(n) for _ in range(count - count // 2)]
    rng.shuffle(ids)
    return ids


def bench_store(root: str, n: int, commit_items: int, lookups: int, out: Any) -> None:
    from harvest.state import StateBatch
    from harvest.state.sqlite import SqliteStateStore

    state_root = Path(root) / "state"
    store = SqliteStateStore.open(state_root, "bench")
    insert_s = 0.0
    commits = 0
    for start in range(0, n, commit_items):
        # The batch is built outside the timed part: hashing URLs and texts is the crawl's work,
        # not the store's (it is reported separately).
        batch = StateBatch()
        now = time.time()
        for i in range(start, min(n, start + commit_items)):
            fp = fingerprint(i)
            batch.fetched[fp] = now
            batch.contents[chash(i)] = (f"https://example.org/article/{i}", now)
            batch.retire_frontier(fp)
        batch.offsets["document.jsonl"] = start * 300
        t0 = time.perf_counter()
        store.commit(batch)
        insert_s += time.perf_counter() - t0
        commits += 1
    t0 = time.perf_counter()
    for i in range(min(n, 100_000)):
        fingerprint(i), chash(i)
    keygen_s = (time.perf_counter() - t0) * n / min(n, 100_000)
    store.close()
    rss_insert = peak_rss_mb()

    t0 = time.perf_counter()
    store = SqliteStateStore.open(state_root, "bench")
    store.last_fetched(fingerprint(0))
    reopen_s = time.perf_counter() - t0

    fp_ids = probe_ids(n, lookups, 1)
    fps = [fingerprint(i) for i in fp_ids]
    t0 = time.perf_counter()
    fp_found = sum(store.last_fetched(fp) is not None for fp in fps)
    fp_lookup_s = time.perf_counter() - t0

    hash_ids = probe_ids(n, lookups, 2)
    hashes = [chash(i) for i in hash_ids]
    t0 = time.perf_counter()
    hash_found = sum(store.content_url(h) is not None for h in hashes)
    hash_lookup_s = time.perf_counter() - t0
    store.close()

    out.put(
        {
            "n": n,
            "commit_items": commit_items,
            "commits": commits,
            "insert_s": insert_s,
            "keygen_s": keygen_s,
            "reopen_s": reopen_s,
            "fp_lookups": len(fps),
            "fp_found": fp_found,
            "fp_lookup_s": fp_lookup_s,
            "hash_lookups": len(hashes),
            "hash_found": hash_found,
            "hash_lookup_s": hash_lookup_s,
            "rss_insert_mb": rss_insert,
            "rss_mb": peak_rss_mb(),
            "disk_spider": disk_bytes(state_root / "bench"),
            "disk_shared": disk_bytes(state_root / "_shared"),
        }
    )


def bench_json(root: str, n: int, every: int, lookups: int, out: Any) -> None:
    path = Path(root) / "seen.json"
    urls: set[str] = set()
    hashes: set[str] = set()
    insert_s = 0.0
    rewrites = 0
    for start in range(0, n, every):
        keys = [(fingerprint(i).hex(), chash(i)) for i in range(start, min(n, start + every))]
        t0 = time.perf_counter()  # as for the store, only the seen-file's own work is timed
        for url, content in keys:
            urls.add(url)
            hashes.add(content)
        with path.open("w", encoding="utf-8") as fh:
            json.dump({"urls": list(urls), "hashes": list(hashes)}, fh)
        insert_s += time.perf_counter() - t0
        rewrites += 1
    rss_insert = peak_rss_mb()
    urls.clear()
    hashes.clear()

    t0 = time.perf_counter()
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    urls, hashes = set(data["urls"]), set(data["hashes"])
    reopen_s = time.perf_counter() - t0
    fps = [fingerprint(i).hex() for i in probe_ids(n, lookups, 1)]
    t0 = time.perf_counter()
    found = sum(fp in urls for fp in fps)
    lookup_s = time.perf_counter() - t0
    out.put(
        {
            "n": n,
            "every": every,
            "rewrites": rewrites,
            "insert_s": insert_s,
            "reopen_s": reopen_s,
            "lookups": len(fps),
            "found": found,
            "lookup_s": lookup_s,
            "rss_insert_mb": rss_insert,
            "rss_mb": peak_rss_mb(),
            "disk": path.stat().st_size,
        }
    )


def in_process(target: Any, *args: Any) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(*args, queue))
    proc.start()
    result: dict[str, Any] = queue.get()
    proc.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="documents to insert (default 1,000,000)")
    parser.add_argument("--lookups", type=int, default=100_000, help="lookups after reopening (half present)")
    parser.add_argument(
        "--commit-items",
        type=int,
        default=None,
        help="documents per commit (default: HARVEST_STATE_COMMIT_ITEMS)",
    )
    parser.add_argument("--baseline-n", type=int, default=100_000, help="documents for the JSON baseline")
    parser.add_argument("--baseline-every", type=int, default=50, help="JSON rewrite interval (documents)")
    parser.add_argument("--dir", default=None, help="scratch folder (default: a temp folder, removed after)")
    args = parser.parse_args()
    if args.commit_items is None:
        from harvest import settings

        args.commit_items = settings.HARVEST_STATE_COMMIT_ITEMS

    scratch = Path(args.dir or tempfile.mkdtemp(prefix="harvest-bench-"))
    try:
        (scratch / "store").mkdir(parents=True, exist_ok=True)
        (scratch / "json").mkdir(parents=True, exist_ok=True)
        print(f"SQLite store: {args.n:,} documents, commit every {args.commit_items} ...", flush=True)
        s = in_process(bench_store, str(scratch / "store"), args.n, args.commit_items, args.lookups)
        print(
            f"JSON baseline: {args.baseline_n:,} documents, rewrite every {args.baseline_every} ...",
            flush=True,
        )
        j = in_process(bench_json, str(scratch / "json"), args.baseline_n, args.baseline_every, args.lookups)
    finally:
        if args.dir is None:
            shutil.rmtree(scratch, ignore_errors=True)

    n, bn = s["n"], j["n"]
    fh_rate = 2 * n / s["insert_s"]  # fingerprints + content hashes
    json_rate = 2 * bn / j["insert_s"]
    scale = n / bn
    json_extrap_s = j["insert_s"] * scale * scale
    json_extrap_rate = 2 * n / json_extrap_s
    print()
    print(
        f"python {sys.version.split()[0]}, sqlite {__import__('sqlite3').sqlite_version}, "
        f"{os.cpu_count()} CPUs"
    )
    print()
    print(f"| measure | SQLite store (harvest) | JSON seen-file, rewritten every {j['every']} |")
    print("|---|---|---|")
    print(
        f"| documents inserted | {n:,} ({s['commits']:,} commits of {s['commit_items']}) | "
        f"{bn:,} measured ({j['rewrites']:,} rewrites); {n:,} extrapolated (n^2) |"
    )
    print(
        f"| insert time (in the store) | {s['insert_s']:.1f} s (the crawl's own key hashing: "
        f"{s['keygen_s']:.1f} s more) | "
        f"{j['insert_s']:.1f} s at {bn:,}; ~{json_extrap_s:,.0f} s (~{json_extrap_s / 3600:.1f} h) "
        f"at {n:,} (extrapolated) |"
    )
    print(
        f"| inserts/s (fingerprints + content hashes) | {fh_rate:,.0f} | {json_rate:,.0f} at {bn:,}; "
        f"~{json_extrap_rate:,.0f} at {n:,} (extrapolated) |"
    )
    print(
        f"| ratio (store / JSON) | | {fh_rate / json_rate:,.1f}x at {bn:,}; "
        f"~{fh_rate / json_extrap_rate:,.0f}x at {n:,} (extrapolated) |"
    )
    print(
        f"| reopen | {s['reopen_s'] * 1000:.1f} ms at {n:,} | {j['reopen_s'] * 1000:.0f} ms at {bn:,} "
        f"(json.load of everything; linear in n) |"
    )
    print(
        f"| lookups/s, URL fingerprints | {s['fp_lookups'] / s['fp_lookup_s']:,.0f} "
        f"({s['fp_found']:,} of {s['fp_lookups']:,} found) | {j['lookups'] / j['lookup_s']:,.0f} "
        f"(in-memory set; {j['found']:,} found) |"
    )
    print(
        f"| lookups/s, content hashes | {s['hash_lookups'] / s['hash_lookup_s']:,.0f} "
        f"({s['hash_found']:,} of {s['hash_lookups']:,} found) | (same set) |"
    )
    print(
        f"| peak RSS | {s['rss_mb']:.0f} MB (insert phase {s['rss_insert_mb']:.0f} MB) | "
        f"{j['rss_mb']:.0f} MB at {bn:,} (every entry is a Python object; grows with n) |"
    )
    print(
        f"| bytes on disk | {s['disk_spider']:,} spider db + {s['disk_shared']:,} shared db "
        f"= {(s['disk_spider'] + s['disk_shared']) / n:.0f} B/document | {j['disk']:,} at {bn:,} "
        f"({j['disk'] / bn:.0f} B/document) |"
    )
    print()
    ok = fh_rate >= 100_000 and s["reopen_s"] < 0.5 and s["rss_mb"] < 100
    print(
        f"targets: >=100,000 inserts/s {'OK' if fh_rate >= 100_000 else 'MISSED'}; "
        f"reopen < 0.5 s {'OK' if s['reopen_s'] < 0.5 else 'MISSED'}; "
        f"peak RSS < 100 MB {'OK' if s['rss_mb'] < 100 else 'MISSED'} -> {'all met' if ok else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
