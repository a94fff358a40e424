"""The report's Search section: results per query over time, new repositories, stars, topics."""

from __future__ import annotations

import logging
import math
from collections import Counter, defaultdict

from harvest.report.days import day_range, new_per_day_figure, one_day_note
from harvest.report.health import RoundStats
from harvest.report.model import Chart, Fact, Figure, Section, Series, Table
from harvest.report.records import SearchResult

logger = logging.getLogger(__name__)

#: Queries drawn as separate lines (the busiest); the table lists them all.
TOP_QUERIES = 8
#: Topics listed.
TOP_TOPICS = 20


def _per_query(results: list[SearchResult], days: list[str], empty: dict[str, str]) -> Figure:
    repos: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in results:
        repos[(r.query, r.day)].add(r.repo)
    sizes = Counter({q: 0 for q, _ in repos})
    for (query, _), found in repos.items():
        sizes[query] = max(sizes[query], len(found))
    queries = [q for q, _ in sizes.most_common()]
    rows: list[list[str | int | float | None]] = [
        [q, d, len(repos[(q, d)])] for q in queries for d in days if (q, d) in repos
    ]
    nothing = sorted(q for q in empty if q not in sizes)
    rows += [[q, empty[q], 0] for q in nothing]
    series = [Series(q, [float(len(repos.get((q, d), ()))) for d in days]) for q in queries[:TOP_QUERIES]]
    notes = [one_day_note(days)]
    if nothing:
        notes.append(
            f"{len(nothing)} quer{'y' if len(nothing) == 1 else 'ies'} returned no result: "
            + "; ".join(nothing)
            + "."
        )
    return Figure(
        "search-per-query",
        "Search results per query per day (distinct repositories returned)",
        Table(["query", "day", "results"], rows),
        Chart("lines", days, series, y_label="repositories", time_axis=True),
        note=" ".join(n for n in notes if n),
    )


def latest_by_repo(results: list[SearchResult]) -> dict[str, SearchResult]:
    """Each repository's most recent observation."""
    latest: dict[str, SearchResult] = {}
    for r in results:
        old = latest.get(r.repo)
        if old is None or r.observed_at >= old.observed_at:
            latest[r.repo] = r
    return latest


def _stars(latest: dict[str, SearchResult]) -> Figure:
    buckets: Counter[int] = Counter()
    for r in latest.values():
        buckets[0 if r.stars < 10 else int(math.log10(r.stars))] += 1
    rows: list[list[str | int | float | None]] = []
    for power in range(max(buckets, default=0) + 1):
        low = 0 if power == 0 else 10**power
        rows.append([f"{low:,}–{10 ** (power + 1) - 1:,}", buckets.get(power, 0)])
    chart = Chart("hist", values=[float(max(1, r.stars)) for r in latest.values()], log_x=True)
    chart.x_label = "stars (log scale)"
    chart.y_label = "repositories"
    return Figure(
        "search-stars",
        "Stars of the repositories found (latest count of each, log scale)",
        Table(["stars", "repositories"], rows),
        chart,
    )


def _topics(latest: dict[str, SearchResult]) -> Figure:
    counts = Counter(t for r in latest.values() for t in r.topics)
    top = counts.most_common(TOP_TOPICS)
    chart = Chart("barh", [t for t, _ in top], [Series("repositories", [float(c) for _, c in top])])
    chart.x_label = "repositories"
    return Figure(
        "search-topics",
        f"Most common topics of the repositories found (top {TOP_TOPICS})",
        Table(["topic", "repositories"], [[t, c] for t, c in top]),
        chart if top else None,
        note="" if top else "No repository found carries a topic.",
    )


def empty_queries(rounds: list[RoundStats]) -> dict[str, str]:
    """Queries a round ran that returned no result, with the last day one did."""
    empty: dict[str, str] = {}
    for r in sorted(rounds, key=lambda r: r.started):
        for query in r.prefixed("harvest/github_search/no_results/"):
            empty[query] = r.started[:10]
    return empty


def search_section(results: list[SearchResult], empty: dict[str, str] | None = None) -> Section:
    """The Search section of the report (``empty``: queries that returned nothing, by last day run)."""
    section = Section("search", "Search")
    empty = {q: d for q, d in (empty or {}).items() if q not in {r.query for r in results}}
    if not results and empty:
        section.empty = (
            f"No search results in the data folder: {len(empty)} "
            f"quer{'y' if len(empty) == 1 else 'ies'} returned no result ({'; '.join(sorted(empty))})."
        )
        return section
    if not results:
        section.empty = "No search results in the data folder (the github_search spider has not written any)."
        return section
    days = day_range(r.day for r in results)
    latest = latest_by_repo(results)
    section.facts = [
        Fact("search_results", "results stored", len(results)),
        Fact("search_repositories", "distinct repositories", len(latest)),
        Fact("search_queries", "queries run", len({r.query for r in results} | set(empty))),
        Fact("search_queries_empty", "queries with no result", len(empty)),
        Fact("search_days", "days observed", len({r.day for r in results})),
    ]
    section.intro = f"Observed from {days[0]} to {days[-1]}."
    section.figures = [
        _per_query(results, days, empty),
        new_per_day_figure(
            "search-new",
            "Repositories new to the searches per day (first day any query returned them)",
            ((r.repo, r.day) for r in results),
            days,
        ),
        _stars(latest),
        _topics(latest),
    ]
    return section
