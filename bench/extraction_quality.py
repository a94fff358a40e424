"""Main-content extraction quality and CPU cost, side by side, in one process.

Page sets:

* ``trafilatura-eval``: the 945 pages of trafilatura's evaluation set
  (``$HARVEST_SHARED_FIXTURES/extraction/trafilatura-eval``, SOURCE.md there), scored the
  maintainers' way: each "with" snippet found in the output (plain substring) is a true
  positive, each "without" snippet found a false positive; precision, recall and F1 over all
  snippets. The set is split once, by a fixed seed (``HOLDOUT_SEED``), into a tuning part
  (70%) and a hold-out (30%, ``HOLDOUT_SHARE``): harvest's rules were worked out looking at
  tuning pages only, so the hold-out figures say whether they generalise. Both are printed.
* ``labelled``: pages of the blog/docs fixtures with their whole expected body written by
  hand from the page (``bench/labelled/*.json``: fixture path, URL, expected text), scored
  with the shingle metric: tokens are ``\\w+`` runs (of the text in Unicode NFC, both
  sides), 4-token shingles counted per text, per page tp/fp/fn (shingle counts in both /
  only extracted / only expected) normalised to sum 1, precision and recall the means over
  pages of tp/(tp+fp) and tp/(tp+fn), F1 from the two means.

Extractors (each gets the same decoded ``str``, decoded as Scrapy decodes a response):

* ``harvest``: :func:`harvest.parsers.article.extract_article`, scored on the visible text of
  its Markdown (link targets, fences and Markdown markup removed);
* ``harvest@REF`` (``--ref REF``, e.g. ``--ref 8518c3a``): the same from ``harvest/parsers/
  article.py`` at git commit REF (loaded from ``git show``), for before/after in one run;
* ``trafilatura``: ``trafilatura.extract(html, url=url)``, every option at its default;
* ``trafilatura-fast``: the same with ``fast=True``;
* ``resiliparse``: ``resiliparse.extract.html2text.extract_plain_text(main_content=True)``.

CPU is ``time.process_time()`` around each extraction call (turning harvest's Markdown into
visible text is the scoring, not the extraction, and is not timed), per page, extractors
taking turns page by page, in an order rotating from page to page so that none gets a warmer
cache (the first to read a page pays for bringing it into the CPU caches); ms/page and the
ratio to ``trafilatura`` are printed. ``harvest@REF`` is that commit's ``article.py`` only: the modules
it imports (``harvest.parsers.markup``, ``rights``) are the working tree's.

    python bench/extraction_quality.py [--quick | --limit N] [--split tune|holdout|all]
                                       [--ref REF] [--only a,b] [--dump DIR] [--json PATH]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrapy.http import HtmlResponse  # noqa: E402

from harvest.parsers.article import extract_article  # noqa: E402
from tests import SHARED_FIXTURES  # noqa: E402

EVAL_DIR = SHARED_FIXTURES / "extraction" / "trafilatura-eval"
LABELLED_DIR = Path(__file__).resolve().parent / "labelled"
#: The hold-out: a fixed share of the 945 pages, drawn once with this seed; never looked at
#: while working out harvest's rules.
HOLDOUT_SEED = 34
HOLDOUT_SHARE = 0.30
QUICK_PAGES = 150

#: An extractor: the page (decoded text, URL) to its output, and that output to the text scored.
Extractor = tuple[Callable[[str, str], Any], Callable[[Any], str]]


@dataclass
class Page:
    url: str
    html: str
    name: str
    split: str
    with_: list[str] = field(default_factory=list)
    without: list[str] = field(default_factory=list)
    expected: str | None = None


def decode(body: bytes, url: str) -> str:
    """The page as the crawler reads it (Scrapy's decoding: BOM, declared charset, sniffing)."""
    return HtmlResponse(url=url, body=body).text


def eval_pages() -> list[Page]:
    index = EVAL_DIR / "evaldata.json"
    if not index.is_file():
        sys.exit(f"{index} not found: set HARVEST_SHARED_FIXTURES to the shared fixtures folder")
    data = json.loads(index.read_text(encoding="utf-8"))
    entries = sorted(
        (url, item) for url, item in data.items() if (EVAL_DIR / "pages" / f"{item['file']}.gz").is_file()
    )
    holdout = set(
        random.Random(HOLDOUT_SEED).sample(range(len(entries)), round(len(entries) * HOLDOUT_SHARE))
    )
    pages = []
    for i, (url, item) in enumerate(entries):
        with gzip.open(EVAL_DIR / "pages" / f"{item['file']}.gz", "rb") as f:
            body = f.read()
        pages.append(
            Page(
                url=url,
                html=decode(body, url),
                name=item["file"],
                split="holdout" if i in holdout else "tune",
                with_=[s for s in item["with"] if s],
                without=[s for s in item["without"] if s],
            )
        )
    return pages


def labelled_pages() -> list[Page]:
    pages = []
    for path in sorted(LABELLED_DIR.glob("*.json")):
        item = json.loads(path.read_text(encoding="utf-8"))
        html_path = SHARED_FIXTURES / item["fixture"]
        if not html_path.is_file():
            print(f"{path.name}: {html_path} not found, skipped", file=sys.stderr)
            continue
        pages.append(
            Page(
                url=item["url"],
                html=decode(html_path.read_bytes(), item["url"]),
                name=path.stem,
                split="labelled",
                expected=item["expected"],
            )
        )
    return pages


_ESCAPE_RE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_LINK_RE = re.compile(r"!?\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)")
_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})[^\n`]*$", re.M)
_LINE_MARKUP_RE = re.compile(r"^[ \t]*(?:(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)[ \t]*)+", re.M)
_TABLE_RULE_RE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$", re.M)
_TABLE_EDGE_RE = re.compile(r"^[ \t]*\|[ \t]?|[ \t]?\|[ \t]*$", re.M)
_STRONG_RE = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM_RE = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_CODE_RE = re.compile(r"`+")
#: Escaped characters wait here (Unicode private use) while the markup around them goes.
_PRIVATE = 0xE000


def visible_text(markdown: str) -> str:
    """What a reader sees of Markdown: link text without targets, no fences, marks or escapes.

    List numbers stay (a reader sees them); bullets, heading and quote marks, emphasis marks,
    backticks and a table's outer bars go; escaped characters are kept as the characters.
    Line breaks stay, so a snippet spanning two paragraphs is not found (as in plain text);
    runs of spaces (no-break ones too) read as one space.
    """
    text = _ESCAPE_RE.sub(lambda m: chr(_PRIVATE + ord(m.group(1))), markdown)
    text = _FENCE_LINE_RE.sub("", text)
    text = _TABLE_RULE_RE.sub("", text)
    for _ in range(2):  # a link inside an image's alt text
        text = _LINK_RE.sub(r"\1", text)
    text = _LINE_MARKUP_RE.sub("", text)
    text = _TABLE_EDGE_RE.sub("", text)
    text = _STRONG_RE.sub(r"\2", text)
    text = _EM_RE.sub(r"\1", text)
    text = _CODE_RE.sub("", text)
    text = re.sub("[\ue000-\ue0ff]", lambda m: chr(ord(m.group(0)) - _PRIVATE), text)
    # Any run of Unicode spaces (no-break, narrow no-break...) reads as one space, as in
    # trafilatura's own text output.
    return "\n".join(" ".join(line.split()) for line in text.split("\n"))


def harvest_extractor(module: Any) -> Extractor:
    def scored(article: Any) -> str:
        return visible_text(article.markdown) if article is not None else ""

    return module.extract_article, scored


def _text(output: str | None) -> str:
    return output or ""


def module_at(ref: str) -> Any:
    """``harvest.parsers.article`` as it was at git commit ``ref``."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{ref}:harvest/parsers/article.py"], cwd=root, capture_output=True, text=True
    )
    if source.returncode:
        sys.exit(f"--ref {ref}: {source.stderr.strip()}")
    path = Path(tempfile.mkdtemp()) / f"article_{ref}.py"
    path.write_text(source.stdout, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"harvest_article_{ref}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def extractors(ref: str | None) -> dict[str, Extractor]:
    import trafilatura

    found: dict[str, Extractor] = {"harvest": harvest_extractor(sys.modules[extract_article.__module__])}
    if ref:
        found[f"harvest@{ref}"] = harvest_extractor(module_at(ref))
    found["trafilatura"] = (lambda html, url: trafilatura.extract(html, url=url), _text)
    found["trafilatura-fast"] = (lambda html, url: trafilatura.extract(html, url=url, fast=True), _text)
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree
    except ImportError:
        print("resiliparse not installed (pip install '.[bench]'): left out", file=sys.stderr)
    else:
        found["resiliparse"] = (
            lambda html, url: extract_plain_text(HTMLTree.parse(html), main_content=True),
            _text,
        )
    return found


_WORD_RE = re.compile(r"\w+")


def shingles(text: str) -> Counter[tuple[str, ...]]:
    # Unicode NFC first: a hand-copied "Köster" in decomposed form (o + combining diaeresis,
    # not a \w character) would otherwise be two tokens, "ko" and "ster", on one side only.
    tokens = _WORD_RE.findall(unicodedata.normalize("NFC", text).lower())
    return Counter(tuple(tokens[i : i + 4]) for i in range(max(len(tokens) - 3, 0)))


def shingle_scores(got: str, expected: str) -> tuple[float, float]:
    """(precision, recall) of one page.

    tp, fp and fn are shingle counts (in both, only extracted, only expected), normalised to
    sum 1 so that every page weighs the same in the means.
    """
    g, e = shingles(got), shingles(expected)
    counts = sum((g & e).values()), sum((g - e).values()), sum((e - g).values())
    total = sum(counts)
    if not total:
        return 1.0, 1.0
    tp, fp, fn = (c / total for c in counts)
    return (tp / (tp + fp) if tp + fp else 0.0), (tp / (tp + fn) if tp + fn else 0.0)


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    cpu: float = 0.0
    pages: int = 0
    sp: list[float] = field(default_factory=list)
    sr: list[float] = field(default_factory=list)

    def snippet(self) -> tuple[float, float, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    def shingle(self) -> tuple[float, float, float]:
        p = sum(self.sp) / len(self.sp) if self.sp else 0.0
        r = sum(self.sr) / len(self.sr) if self.sr else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def run(pages: list[Page], found: dict[str, Extractor], dump: Path | None) -> dict[tuple[str, str], Tally]:
    tallies: dict[tuple[str, str], Tally] = {}
    for fn, scored in found.values():  # warm up: imports, lazily built tables
        scored(fn(pages[0].html, pages[0].url))
    order = list(found.items())
    for n, page in enumerate(pages, 1):
        # A different extractor first on each page: the first to read a page pays for bringing
        # it into the CPU's caches, which the others then find warm.
        k = n % len(order)
        for name, (fn, scored) in order[k:] + order[:k]:
            start = time.process_time()
            try:
                output = fn(page.html, page.url)
            except Exception as exc:  # noqa: BLE001 - an extractor's failure is a miss, reported
                print(f"{name} failed on {page.url}: {type(exc).__name__}: {exc}", file=sys.stderr)
                output = None
            spent = time.process_time() - start
            text = scored(output)
            tally = tallies.setdefault((name, page.split), Tally())
            tally.cpu += spent
            tally.pages += 1
            if page.expected is not None:
                p, r = shingle_scores(text, page.expected)
                tally.sp.append(p)
                tally.sr.append(r)
            else:
                for s in page.with_:
                    if s in text:
                        tally.tp += 1
                    else:
                        tally.fn += 1
                for s in page.without:
                    if s in text:
                        tally.fp += 1
                    else:
                        tally.tn += 1
            if dump is not None:
                (dump / name).mkdir(parents=True, exist_ok=True)
                (dump / name / f"{page.name}.txt").write_text(text, encoding="utf-8")
        if n % 100 == 0:
            print(f"... {n}/{len(pages)} pages", file=sys.stderr)
    return tallies


def report(tallies: dict[tuple[str, str], Tally], names: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    splits = [
        s for s in ("tune", "holdout", "all", "labelled") if any(k[1] == s for k in tallies) or s == "all"
    ]
    for name in names:
        parts = [t for (n, s), t in tallies.items() if n == name and s in {"tune", "holdout"}]
        if parts:
            total = Tally()
            for t in parts:
                total.tp += t.tp
                total.fp += t.fp
                total.fn += t.fn
                total.tn += t.tn
                total.cpu += t.cpu
                total.pages += t.pages
            tallies[(name, "all")] = total
    for split in splits:
        rows = [(n, tallies[(n, split)]) for n in names if (n, split) in tallies]
        if not rows:
            continue
        base = tallies.get(("trafilatura", split))
        base_ms = 1000 * base.cpu / base.pages if base and base.pages else 0.0
        metric = "shingle" if split == "labelled" else "snippet"
        print(f"\n{split}: {rows[0][1].pages} pages, {metric} metric")
        header = ("precision", 10), ("recall", 9), ("F1", 8), ("CPU ms/page", 13), ("x trafilatura", 15)
        print(f"{'extractor':<22}" + "".join(f"{h:>{w}}" for h, w in header))
        for name, t in rows:
            p, r, f1 = t.shingle() if split == "labelled" else t.snippet()
            ms = 1000 * t.cpu / t.pages
            ratio = ms / base_ms if base_ms else 0.0
            print(f"{name:<22}{p:>10.4f}{r:>9.4f}{f1:>8.4f}{ms:>13.2f}{ratio:>15.2f}")
            out.setdefault(split, {})[name] = {
                "pages": t.pages,
                "precision": p,
                "recall": r,
                "f1": f1,
                "cpu_ms_per_page": ms,
                "cpu_ratio_to_trafilatura": ratio,
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_PAGES} pages of each split")
    parser.add_argument("--limit", type=int, help="at most N pages of the 945-page set (each split in turn)")
    parser.add_argument("--split", choices=("tune", "holdout", "all"), default="all")
    parser.add_argument("--no-labelled", action="store_true", help="leave out bench/labelled pages")
    parser.add_argument("--ref", help="also run harvest's article.py at this git commit")
    parser.add_argument("--only", help="comma-separated extractor names")
    parser.add_argument("--dump", type=Path, help="write each extractor's text per page here")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    found = extractors(args.ref)
    if args.only:
        wanted = args.only.split(",")
        found = {k: v for k, v in found.items() if k in wanted}
    pages = [p for p in eval_pages() if args.split == "all" or p.split == args.split]
    limit = QUICK_PAGES if args.quick else args.limit
    if limit:
        tune = [p for p in pages if p.split == "tune"]
        hold = [p for p in pages if p.split == "holdout"]
        share = round(limit * (1 - HOLDOUT_SHARE)) if tune and hold else limit
        pages = tune[:share] + hold[: limit - share] if tune and hold else pages[:limit]
    if not args.no_labelled and args.split == "all":
        pages += labelled_pages()
    print(
        f"{len(pages)} pages (hold-out seed {HOLDOUT_SEED}, share {HOLDOUT_SHARE}); "
        f"extractors: {', '.join(found)}",
        file=sys.stderr,
    )
    tallies = run(pages, found, args.dump)
    figures = report(tallies, list(found))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
