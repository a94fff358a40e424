"""The report's Trending section: risers, rank and stars over time, new entries, languages, developers.

Windows ("this week", "this month") end on the latest day observed, not today, so a report of
an old data folder still shows its last week. Stars gained in a window are the difference
between the last and first star counts observed in it when the repository was seen on two days
or more, else the most stars gained that GitHub reported for the matching period (``weekly``,
``monthly``; any period when that one was not collected).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass

from harvest.report.days import day_range, new_per_day_figure, one_day_note, window_start
from harvest.report.model import Chart, Fact, Figure, Panel, Section, Series, Table
from harvest.report.records import DeveloperObservation, TrendingObservation

logger = logging.getLogger(__name__)

#: Repositories listed per risers chart.
TOP_RISERS = 15
#: Languages drawn separately in the share chart; the rest is "other".
TOP_LANGUAGES = 6
#: Developers listed as recurring.
TOP_DEVELOPERS = 15


@dataclass(frozen=True)
class Riser:
    """A repository's rise within a window."""

    repo: str
    language: str
    gained: int
    best_rank: int
    ranks: str
    days: int
    stars: int | None


def risers(observations: list[TrendingObservation], since_day: str, period: str) -> list[Riser]:
    """Repositories seen on or after ``since_day``, by stars gained (most first)."""
    by_repo: dict[str, list[TrendingObservation]] = defaultdict(list)
    for obs in observations:
        if obs.day >= since_day:
            by_repo[obs.repo].append(obs)
    out = []
    for repo, seen in by_repo.items():
        seen.sort(key=lambda o: o.observed_at)
        stars_by_day: dict[str, int] = {}
        rank_by_day: dict[str, int] = {}
        for obs in seen:
            if obs.stars is not None:
                stars_by_day[obs.day] = max(stars_by_day.get(obs.day, 0), obs.stars)
            rank_by_day[obs.day] = min(rank_by_day.get(obs.day, obs.rank), obs.rank)
        if len(stars_by_day) >= 2:
            days = sorted(stars_by_day)
            gained = stars_by_day[days[-1]] - stars_by_day[days[0]]
        else:
            reported = [o.period_stars for o in seen if o.period_stars is not None and o.since == period]
            if not reported:
                reported = [o.period_stars for o in seen if o.period_stars is not None]
            gained = max(reported, default=0)
        ranks = [rank_by_day[d] for d in sorted(rank_by_day)]
        out.append(
            Riser(
                repo=repo,
                language=next((o.language for o in reversed(seen) if o.language), None) or "unknown",
                gained=gained,
                best_rank=min(ranks),
                ranks=" → ".join(str(r) for r in ranks[-8:]),
                days=len(rank_by_day),
                stars=max(stars_by_day.values()) if stars_by_day else None,
            )
        )
    out.sort(key=lambda r: (-r.gained, r.best_rank, r.repo))
    return out


def _risers_figure(fid: str, title: str, found: list[Riser]) -> Figure:
    top = found[:TOP_RISERS]
    table = Table(
        ["repository", "language", "stars gained", "best rank", "rank by day", "days seen", "stars"],
        [[r.repo, r.language, r.gained, r.best_rank, r.ranks, r.days, r.stars] for r in top],
    )
    chart = Chart("barh", [r.repo for r in top], [Series("stars gained", [float(r.gained) for r in top])])
    chart.x_label = "stars gained"
    return Figure(fid, title, table, chart if top else None)


def _risers_figures(
    observations: list[TrendingObservation], latest: str, week: list[Riser], month: list[Riser]
) -> list[Figure]:
    """The week's and the 30 days' risers; one figure, saying why, when the two are the same."""
    if week[:TOP_RISERS] != month[:TOP_RISERS]:
        return [
            _risers_figure("trending-week", f"Fastest risers of the week to {latest}: stars gained", week),
            _risers_figure(
                "trending-month", f"Fastest risers of the 30 days to {latest}: stars gained", month
            ),
        ]
    days = len({o.day for o in observations if o.day >= window_start(latest, 30)})
    figure = _risers_figure(
        "trending-week", f"Fastest risers of the week and of the 30 days to {latest}: stars gained", month
    )
    figure.note = (
        f"The week's and the 30 days' risers are the same ({days} day{'' if days == 1 else 's'} "
        "observed in the 30 days): shown once. Stars gained over one day are what GitHub reported "
        "for its own period; a rise measured from our observations needs two days or more."
        if days == 1
        else f"The week's and the 30 days' risers are the same ({days} days observed in the 30 days): "
        "shown once."
    )
    return [figure]


def _source(kinds: set[bool]) -> str:
    """How a repository's day was observed: live, archived (a web archive's capture) or both."""
    return " + ".join(name for flag, name in ((False, "live"), (True, "archived")) if flag in kinds)


def _multiples(
    observations: list[TrendingObservation],
    repos: list[str],
    days: list[str],
    fid: str = "trending-multiples",
    title: str = "",
) -> Figure:
    rank: dict[tuple[str, str], int] = {}
    stars: dict[tuple[str, str], int] = {}
    sources: dict[tuple[str, str], set[bool]] = defaultdict(set)
    wanted = set(repos)
    for obs in observations:
        if obs.repo not in wanted:
            continue
        key = (obs.repo, obs.day)
        rank[key] = min(rank.get(key, obs.rank), obs.rank)
        sources[key].add(obs.archived)
        if obs.stars is not None:
            stars[key] = max(stars.get(key, 0), obs.stars)
    panels = []
    rows: list[list[str | int | float | None]] = []
    for repo in repos:
        seen_days = [d for d in days if (repo, d) in rank]
        panels.append(
            Panel(
                repo,
                days,
                [float(rank[(repo, d)]) if (repo, d) in rank else None for d in days],
                [float(stars[(repo, d)]) if (repo, d) in stars else None for d in days],
            )
        )
        rows += [
            [repo, d, rank[(repo, d)], stars.get((repo, d)), _source(sources[(repo, d)])] for d in seen_days
        ]
    return Figure(
        fid,
        title
        or f"Rank (line, best of the day; 1 at the top) and stars (bars) by day for the top {len(repos)} "
        "risers",
        Table(["repository", "day", "best rank", "stars", "source"], rows),
        Chart("multiples", panels=panels) if panels else None,
        note=one_day_note(days),
    )


def _languages(observations: list[TrendingObservation], days: list[str]) -> Figure:
    totals = Counter(o.language or "unknown" for o in observations)
    top = [lang for lang, _ in totals.most_common(TOP_LANGUAGES)]
    per_day: dict[str, Counter[str]] = defaultdict(Counter)
    for obs in observations:
        lang = obs.language or "unknown"
        per_day[obs.day][lang if lang in top else "other"] += 1
    names = top + (["other"] if len(totals) > len(top) else [])
    shares: dict[str, list[float]] = {n: [] for n in names}
    rows: list[list[str | int | float | None]] = []
    for day in days:
        count = per_day.get(day, Counter())
        total = sum(count.values())
        row: list[str | int | float | None] = [day]
        for name in names:
            share = round(100.0 * count[name] / total, 1) if total else 0.0
            shares[name].append(share)
            row.append(share)
        rows.append(row)
    return Figure(
        "trending-languages",
        "Languages' share of the Trending observations per day (%)",
        Table(["day", *[f"{n} %" for n in names]], rows),
        Chart(
            "stacked",
            days,
            [Series(n, shares[n]) for n in names],
            y_label="% of observations",
            counts=False,
            time_axis=True,
        ),
        note=one_day_note(days),
    )


def _developers(developers: list[DeveloperObservation]) -> Figure:
    days: dict[str, set[str]] = defaultdict(set)
    seen: Counter[str] = Counter()
    best: dict[str, int] = {}
    names: dict[str, str] = {}
    for dev in developers:
        days[dev.username].add(dev.day)
        seen[dev.username] += 1
        best[dev.username] = min(best.get(dev.username, dev.rank), dev.rank)
        if dev.name:
            names[dev.username] = dev.name
    ranked = sorted(seen, key=lambda u: (-len(days[u]), -seen[u], best[u], u))[:TOP_DEVELOPERS]
    table = Table(
        ["developer", "name", "days on Trending", "appearances", "best rank"],
        [[u, names.get(u, ""), len(days[u]), seen[u], best[u]] for u in ranked],
    )
    chart = Chart("barh", ranked, [Series("appearances", [float(seen[u]) for u in ranked])])
    chart.x_label = "appearances (pages × days)"
    return Figure(
        "trending-developers",
        "Developers who recur on Trending (by days seen, then appearances)",
        table,
        chart if ranked else None,
    )


def trending_section(
    observations: list[TrendingObservation], developers: list[DeveloperObservation]
) -> Section:
    """The Trending section of the report."""
    section = Section("trending", "Trending")
    if not observations and not developers:
        section.empty = (
            "No trending observations in the data folder (the trending spider has not written any)."
        )
        return section
    all_days = [o.day for o in observations] + [d.day for d in developers]
    days = day_range(all_days)
    section.facts = [
        Fact("trending_observations", "repository observations", len(observations)),
        Fact("trending_repositories", "distinct repositories", len({o.repo for o in observations})),
        Fact("trending_developer_observations", "developer observations", len(developers)),
        Fact("trending_days", "days observed", len(set(all_days))),
    ]
    if days:
        section.intro = f"Observed from {days[0]} to {days[-1]}; windows end on the latest day observed."
    if observations:
        latest = max(o.day for o in observations)
        week = risers(observations, window_start(latest, 7), "weekly")
        month = risers(observations, window_start(latest, 30), "monthly")
        section.figures += _risers_figures(observations, latest, week, month)
        repos = [r.repo for r in month[:6]]
        section.figures.append(_multiples(observations, repos, days[-30:]))
        section.figures.append(
            new_per_day_figure(
                "trending-new",
                "Repositories new to Trending per day (first day each one was observed)",
                ((obs.repo, obs.day) for obs in observations),
                days,
            )
        )
        section.figures.append(_languages(observations, days))
    if developers:
        section.figures.append(_developers(developers))
    archived = [o for o in observations if o.archived]
    if archived or any(d.archived for d in developers):
        section.facts.append(
            Fact(
                "trending_archived_observations",
                "observations read from web archive captures (archived)",
                len(archived) + sum(1 for d in developers if d.archived),
            )
        )
        section.intro += (
            " Archived observations come from web archive captures (trending_history), dated by their "
            "capture; the source column tells them from live ones."
        )
        section.figures.append(_history(observations))
    return section


def _history(observations: list[TrendingObservation]) -> Figure:
    """Rank and stars of the repositories seen on the most days, over every day, live and archived."""
    days_seen: dict[str, set[str]] = defaultdict(set)
    for obs in observations:
        days_seen[obs.repo].add(obs.day)
    repos = sorted(days_seen, key=lambda r: (-len(days_seen[r]), r))[:6]
    days = sorted(set().union(*(days_seen[r] for r in repos))) if repos else []
    return _multiples(
        observations,
        repos,
        days,
        "trending-history",
        f"Rank and stars by day of the {len(repos)} repositories seen on the most days, live and archived",
    )
