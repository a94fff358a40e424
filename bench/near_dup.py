"""Near-duplicate index at scale: 100,000 generated documents through the SQLite MinHash-LSH index.

Documents of 300 words drawn from a 20,000-word Zipf vocabulary (regenerated from their number,
so the benchmark holds no texts); 1 in 50 is a near copy of an earlier original (a share of its
words replaced, a sentence added), with an exact word-5-gram Jaccard spread around the threshold.
Each document is looked up (index + this batch) and, when original, indexed; commits every 100
documents, as the pipeline does. Reports documents/s, reopen time, index size, peak RSS, the
false-positive rate (flagged although the exact Jaccard is below the threshold) and the recall
(copies at or above the threshold that were flagged).

    python bench/near_dup.py [--docs 100000] [--dir /tmp/neardup-bench]
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import shutil
import time
from pathlib import Path

import numpy as np

from harvest.parsers.neardup import shingles, signature, similarity
from harvest.state.neardup import IndexedDoc, NearDupIndex

VOCAB = [f"w{i}" for i in range(20_000)]
CUM = list(itertools.accumulate(1 / (i + 1) for i in range(len(VOCAB))))


def original(k: int) -> str:
    return " ".join(random.Random(k).choices(VOCAB, cum_weights=CUM, k=300))


def copy_of(src: int, n: int) -> str:
    rng = random.Random(-n)
    words = original(src).split()
    for i in rng.sample(range(len(words)), rng.choice([1, 2, 3, 4, 6, 10])):
        words[i] = rng.choice(VOCAB)
    return " ".join(words) + " plus one sentence added by the mirror"


def jaccard(a: str, b: str) -> float:
    x, y = shingles(a), shingles(b)
    return len(x & y) / len(x | y)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--dir", default="/tmp/neardup-bench")
    parser.add_argument("--threshold", type=float, default=0.9)
    args = parser.parse_args()
    t = args.threshold
    root = Path(args.dir)
    shutil.rmtree(root, ignore_errors=True)
    rng = random.Random(7)
    index = NearDupIndex.open(root, threshold=t)
    originals: list[int] = []
    batch: list[IndexedDoc] = []
    copies = copies_above = found_above = flagged = false_pos = 0
    above95 = found95 = far_false_pos = 0
    buckets: dict[str, list[int]] = {}
    started = time.perf_counter()
    for n in range(args.docs):
        src = rng.choice(originals) if n > 100 and n % 50 == 0 else None
        text = copy_of(src, n) if src is not None else original(n)
        sig = signature(text)
        assert sig is not None
        match = index.find(sig, exclude_url=f"u{n}")
        hit = int(match.url[1:]) if match is not None else None
        if hit is None:
            hit = next((int(d.url[1:]) for d in batch if similarity(sig, d.signature) >= t), None)
        if hit is not None:
            flagged += 1
            exact_hit = jaccard(text, original(hit))
            if exact_hit < t:
                false_pos += 1
                far_false_pos += exact_hit < t - 0.05
        if src is not None:
            copies += 1
            exact = jaccard(text, original(src))
            if exact >= t:
                copies_above += 1
                found_above += hit is not None
            bucket = f"{min(int(exact * 50) / 50, 0.98):.2f}"
            counts = buckets.setdefault(bucket, [0, 0])
            counts[0] += 1
            counts[1] += hit is not None
            if exact >= 0.95:
                above95 += 1
                found95 += hit is not None
        if hit is None:
            batch.append(IndexedDoc("bench", f"u{n}", str(n), np.asarray(sig)))
            originals.append(n)
        if len(batch) >= 100:
            index.add(batch, spider="bench", offset=n)
            batch = []
    index.add(batch, spider="bench", offset=args.docs)
    elapsed = time.perf_counter() - started
    index.close()
    started = time.perf_counter()
    reopened = NearDupIndex.open(root, threshold=t)
    probe = signature(copy_of(originals[5], 1))
    assert probe is not None
    reopened.find(probe)
    reopen = time.perf_counter() - started
    size = sum(p.stat().st_size for p in (root / "_shared").iterdir())
    print(
        f"documents {args.docs}: {copies} near copies generated ({copies_above} at Jaccard >= {t}), "
        f"{flagged} flagged"
    )
    print(
        f"recall at >= {t}: {found_above}/{copies_above}; false positives {false_pos} "
        f"({false_pos / args.docs:.4%} of documents)"
    )
    print(f"recall at >= 0.95: {found95}/{above95}; false positives below {t - 0.05:.2f}: {far_false_pos}")
    print(
        "copies flagged per exact Jaccard bucket: "
        + ", ".join(f"{b}: {f}/{n}" for b, (n, f) in sorted(buckets.items()) if float(b) >= 0.8)
    )
    print(f"{args.docs / elapsed:.0f} documents/s (signature + lookup + insert), {elapsed:.1f} s in all")
    print(
        f"reopen + first lookup {reopen * 1000:.0f} ms; "
        f"index {reopened.size()} documents, {size / 1e6:.1f} MB"
    )
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
