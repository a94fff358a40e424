"""CPU of classifying and extracting one big page by its shape and size: work growing faster than pages.

    python bench/page_scaling.py [--sizes 2500 5000 10000 20000] [--real]

Each shape is a page a site may serve (or a hostile one may): N entries of one kind in one
block. Per shape and size: ``classify_page`` and ``extract_article`` CPU seconds, and
``trafilatura.extract``'s on the same page, then the growth from the smallest size to the
largest as an exponent (1.0: linear; 2.0: quadratic). With ``--real``, the largest pages of
Debian's ``vim-doc`` (``/usr/share/doc/vim/html``, one ``<pre>`` of up to 16,000 links) if
installed. Figures in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trafilatura  # noqa: E402

from harvest.parsers.article import extract_article  # noqa: E402
from harvest.parsers.pagekind import classify_page  # noqa: E402
from tests.bigpages import SHAPES, page  # noqa: E402


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(html: str, url: str) -> tuple[float, float, float]:
    return (
        cpu(lambda: classify_page(html, url)),
        cpu(lambda: extract_article(html, url)),
        cpu(lambda: trafilatura.extract(html, url=url)),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2500, 5000, 10000, 20000])
    parser.add_argument("--real", action="store_true", help="also vim-doc's largest pages, if installed")
    options = parser.parse_args()
    sizes = sorted(options.sizes)
    url = "http://127.0.0.1/a.html"
    measure(page("paragraphs", 10), url)  # imports and first-call setup out of the figures
    print("| shape | entries | KB | classify s | harvest extract s | trafilatura s |")
    print("|---|---|---|---|---|---|")
    growth: list[tuple[str, float, float, float]] = []
    for shape in SHAPES:
        rows = []
        for n in sizes:
            html = page(shape, n)
            c, e, t = measure(html, url)
            rows.append((c, e, t))
            print(f"| {shape} | {n} | {len(html) // 1000} | {c:.2f} | {e:.2f} | {t:.2f} |", flush=True)
        span = math.log(sizes[-1] / sizes[0]) if len(sizes) > 1 else 0.0

        def exponent(i: int, rows: list[tuple[float, float, float]] = rows, span: float = span) -> float:
            first, last = max(rows[0][i], 1e-3), max(rows[-1][i], 1e-3)
            return math.log(last / first) / span if span else 0.0

        growth.append((shape, exponent(0), exponent(1), exponent(2)))
    print(f"\nGrowth from {sizes[0]} to {sizes[-1]} entries (CPU ~ size^k; 1.0 linear, 2.0 quadratic):\n")
    print("| shape | classify k | harvest extract k | trafilatura k |")
    print("|---|---|---|---|")
    for shape, c, e, t in growth:
        print(f"| {shape} | {c:.2f} | {e:.2f} | {t:.2f} |")
    vim = Path("/usr/share/doc/vim/html")
    if options.real:
        if not vim.is_dir():
            print("\n--real: skipped, vim-doc not installed (apt-get install vim-doc)")
            return 0
        print("\n| vim-doc page | KB | classify s | harvest extract s | trafilatura s |")
        print("|---|---|---|---|---|")
        for file in sorted(vim.glob("*.html"), key=lambda f: f.stat().st_size, reverse=True)[:4]:
            html = file.read_text(encoding="latin-1")
            c, e, t = measure(html, f"http://127.0.0.1/{file.name}")
            print(f"| {file.name} | {len(html) // 1000} | {c:.2f} | {e:.2f} | {t:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
