"""The report's Blogs and docs section: documents per site and month, revisits, extraction failures.

"Changed" documents are URLs stored more than once (each stored version had a different text);
"unchanged" revisits are what the rounds' stats counted: ``304 Not Modified`` answers and bodies
whose text was already stored (``harvest/revisit/not_modified``, ``harvest/dedup/url_seen``).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict

from harvest.report.days import month_range
from harvest.report.health import RoundStats
from harvest.report.model import Cell, Chart, Fact, Figure, Section, Series, Table
from harvest.report.records import Document, Page

logger = logging.getLogger(__name__)

#: Sites listed in the per-site chart.
TOP_SITES = 20
#: Stats of the blogs spider that mean a page gave no article (harvest/spiders/blogs.py).
EXTRACTION_FAILURES = (
    "extract_failed",
    "empty_article",
    "not_html",
    "undecodable",
    "truncated",
    "misdeclared_charset",
    "xml_unreadable",
)
_BLOGS = "harvest/blogs/"
#: Documents held back by the pipelines, per round's stats: (stat, column).
HELD_BACK = (
    ("harvest/dedup/near_duplicate", "near-duplicates dropped"),
    ("harvest/rights/withheld", "withheld (opt-outs)"),
    ("harvest/language/undetected", "language not detected"),
    ("harvest/dedup/content_seen", "same text elsewhere"),
)


def _per_site(documents: list[Document], pages: list[Page]) -> Figure:
    urls: dict[str, set[str]] = defaultdict(set)
    versions: Counter[str] = Counter()
    for doc in documents:
        urls[doc.group].add(doc.url)
        versions[doc.group] += 1
    page_counts = Counter(p.site or p.spider for p in pages)
    groups = sorted(set(urls) | set(page_counts), key=lambda g: (-len(urls.get(g, ())) - page_counts[g], g))
    rows: list[list[Cell]] = [[g, len(urls.get(g, ())), versions[g], page_counts[g]] for g in groups]
    top = groups[:TOP_SITES]
    series = [Series("documents", [float(len(urls.get(g, ()))) for g in top])]
    if pages:
        series.append(Series("pages kept as HTML", [float(page_counts[g]) for g in top]))
    chart = Chart("barh", top, series, x_label="distinct URLs")
    return Figure(
        "docs-per-site",
        "Documents per site (distinct URLs; READMEs grouped by the spider that stored them)",
        Table(["site", "documents", "versions stored", "pages kept as HTML"], rows),
        chart,
    )


def _per_month(documents: list[Document]) -> Figure:
    months = Counter(d.published[:7] for d in documents if d.published and len(d.published) >= 7)
    # Every month from the first to the last: an empty month is a zero, not a missing column
    # (2003 and 2026 drawn side by side looked adjacent).
    ordered = month_range(months)
    undated = sum(1 for d in documents if not d.published)
    chart = Chart(
        "bar",
        ordered,
        [Series("documents", [float(months.get(m, 0)) for m in ordered])],
        y_label="documents",
        time_axis=True,
    )
    return Figure(
        "docs-per-month",
        "Documents per month of publication (as the articles state it; months without one at 0)",
        Table(["month", "documents"], [[m, months[m]] for m in sorted(months)]),
        chart if ordered else None,
        note=f"{undated:,} {'document states' if undated == 1 else 'documents state'} no publication "
        "date (READMEs never do)."
        if undated
        else "",
    )


def _revisits(documents: list[Document], rounds: list[RoundStats]) -> Figure:
    versions: dict[str, Counter[str]] = defaultdict(Counter)
    for doc in documents:
        versions[doc.spider][doc.url] += 1
    spiders = sorted(set(versions) | {r.spider for r in rounds if r.get("harvest/revisit/conditional")})
    rows: list[list[Cell]] = []
    changed: list[float] = []
    unchanged: list[float] = []
    for spider in spiders:
        mine = [r for r in rounds if r.spider == spider]
        stored_again = sum(1 for n in versions[spider].values() if n > 1)
        not_modified = sum(r.get("harvest/revisit/not_modified") for r in mine)
        same_text = sum(r.get("harvest/dedup/url_seen") for r in mine)
        fresh = sum(r.get("harvest/revisit/fresh") for r in mine)
        rows.append([spider, len(versions[spider]), stored_again, not_modified, same_text, fresh])
        changed.append(float(stored_again))
        unchanged.append(float(not_modified + same_text))
    chart = Chart(
        "bar",
        spiders,
        [Series("changed (stored again)", changed), Series("unchanged on revisit", unchanged)],
        y_label="documents",
    )
    return Figure(
        "docs-revisits",
        "Documents changed vs unchanged when revisited, per spider",
        Table(
            [
                "spider",
                "documents (URLs)",
                "changed: stored again",
                "unchanged: 304 Not Modified",
                "unchanged: same text",
                "skipped while fresh",
            ],
            rows,
        ),
        chart if spiders else None,
        note="Unchanged counts come from the rounds' logs still kept under logs/."
        + ("" if any(changed) or any(unchanged) else " No document was revisited yet."),
    )


def _extraction(rounds: list[RoundStats]) -> Figure:
    rows: list[list[Cell]] = []
    for r in rounds:
        if not any(k.startswith(_BLOGS) for k in r.counters):
            continue
        failed = {k: v for k, v in r.prefixed(_BLOGS + "failed/").items()}
        rows.append(
            [
                r.started,
                r.spider,
                r.get(_BLOGS + "articles"),
                *[r.get(_BLOGS + k) for k in EXTRACTION_FAILURES],
                ", ".join(f"{k}: {v}" for k, v in sorted(failed.items())),
            ]
        )
    return Figure(
        "docs-extraction",
        "Extraction failures per blogs round (pages that gave no article, and why)",
        Table(["round started", "spider", "articles", *EXTRACTION_FAILURES, "fetch failures"], rows),
        note="" if rows else "No blogs round is recorded in the logs kept under logs/.",
    )


def _held_back(rounds: list[RoundStats]) -> Figure:
    spiders = sorted({r.spider for r in rounds})
    rows: list[list[Cell]] = []
    for spider in spiders:
        mine = [r for r in rounds if r.spider == spider]
        counts = [sum(r.get(stat) for r in mine) for stat, _ in HELD_BACK]
        if any(counts):
            rows.append([spider, *counts])
    return Figure(
        "docs-held-back",
        "Documents not stored again: near-duplicates, opt-outs, same text found elsewhere (per spider)",
        Table(["spider", *[column for _, column in HELD_BACK]], rows),
        note="" if rows else "No document was held back in the rounds recorded.",
    )


def documents_section(documents: list[Document], pages: list[Page], rounds: list[RoundStats]) -> Section:
    """The Blogs and docs section of the report."""
    section = Section("documents", "Blogs and docs")
    if not documents and not pages:
        section.empty = "No documents or pages in the data folder (no spider has stored one yet)."
        return section
    articles = [d for d in documents if d.source != "readme"]
    section.facts = [
        Fact("documents_stored", "document versions stored", len(documents)),
        Fact("documents_urls", "distinct document URLs", len({d.url for d in documents})),
        Fact("documents_articles", "articles (blogs and docs)", len(articles)),
        Fact("documents_readmes", "READMEs", len(documents) - len(articles)),
        Fact("pages_stored", "pages kept as HTML", len(pages)),
    ]
    section.figures = [_per_site(documents, pages), _per_month(documents), _revisits(documents, rounds)]
    section.figures.append(_extraction(rounds))
    section.figures.append(_held_back(rounds))
    return section
