"""The Trending section on real rounds: stars gained per window, from what the demo served.

Three ``scrapy crawl trending`` rounds (tests/report/conftest.py) on 2026-12-01, -08 and -09, the
demo's stars grown between them by amounts the test keeps: the week to the 9th holds the last two
rounds, the 30 days all three, so each repository's gain in each window is known in advance.
"""

from __future__ import annotations

from collections import defaultdict

from harvest.report.days import window_start
from harvest.report.records import TrendingObservation, load_dataset
from harvest.report.trending import TOP_RISERS, risers, trending_section
from tests.report.conftest import DAYS, DemoRounds

LATEST = DAYS[-1][:10]


def _observations(rounds: DemoRounds) -> list[TrendingObservation]:
    observations = load_dataset(rounds.data).trending
    assert {o.day for o in observations} == {d[:10] for d in DAYS}
    return observations


def test_a_windows_risers_gained_what_the_stars_grew_within_it(demo_rounds: DemoRounds) -> None:
    observations = _observations(demo_rounds)
    served = {o.repo for o in observations}
    week = risers(observations, window_start(LATEST, 7), "weekly")
    month = risers(observations, window_start(LATEST, 30), "monthly")
    # Every repository was on the pages every day (the growth keeps the order of the counts).
    assert {r.repo for r in week} == {r.repo for r in month} == served
    for riser in week:
        assert riser.days == 2  # the first round, eight days before the last, is not in the week
        assert riser.gained == demo_rounds.stars_on(riser.repo, 2) - demo_rounds.stars_on(riser.repo, 1)
        assert riser.stars == demo_rounds.stars_on(riser.repo, 2)
    for riser in month:
        assert riser.days == 3
        assert riser.gained == demo_rounds.stars_on(riser.repo, 2) - demo_rounds.stars_on(riser.repo, 0)
    for found in (week, month):
        gains = [r.gained for r in found]
        assert gains == sorted(gains, reverse=True) and gains[0] > gains[-1]


def test_one_day_in_a_window_reads_the_stars_github_reported_for_its_period(demo_rounds: DemoRounds) -> None:
    first_day = [o for o in _observations(demo_rounds) if o.day == DAYS[0][:10]]
    reported: dict[tuple[str, str], int] = defaultdict(int)
    for o in first_day:
        assert o.period_stars is not None
        reported[(o.repo, o.since)] = max(reported[(o.repo, o.since)], o.period_stars)
    for riser in risers(first_day, DAYS[0][:10], "weekly"):
        assert riser.days == 1 and riser.gained == reported[(riser.repo, "weekly")]
    # A period that was not collected (monthly): the most any collected period reported.
    for riser in risers(first_day, DAYS[0][:10], "monthly"):
        assert riser.gained == max(reported[(riser.repo, p)] for p in ("daily", "weekly"))
    assert any(reported[(r, "weekly")] != reported[(r, "daily")] for r, _ in reported)


def test_the_section_shows_the_week_and_the_month_ending_on_the_latest_day(demo_rounds: DemoRounds) -> None:
    dataset = load_dataset(demo_rounds.data)
    section = trending_section(dataset.trending, dataset.developers)
    facts = {f.key: f.value for f in section.facts}
    assert facts["trending_observations"] == len(dataset.trending)
    assert facts["trending_repositories"] == len({o.repo for o in dataset.trending})
    assert facts["trending_days"] == len(DAYS)
    assert f"from {DAYS[0][:10]} to {LATEST}" in section.intro
    figures = {f.id: f for f in section.figures}
    for fid, before in (("trending-week", 1), ("trending-month", 0)):
        figure = figures[fid]
        assert f"to {LATEST}" in figure.title
        gained = figure.table.columns.index("stars gained")
        rows = figure.table.rows
        assert 0 < len(rows) <= TOP_RISERS
        for row in rows:
            repo = str(row[0])
            assert row[gained] == demo_rounds.stars_on(repo, 2) - demo_rounds.stars_on(repo, before)
    # The developers' pages were read too: each recurring developer's days are the rounds' days.
    developers = figures["trending-developers"].table
    days_seen = developers.columns.index("days on Trending")
    assert developers.rows and all(row[days_seen] == len(DAYS) for row in developers.rows)
