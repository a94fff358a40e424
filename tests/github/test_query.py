"""Query limits and slicing: slices cover a search exactly once, and never break GitHub's rules."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from harvest.github.query import (
    Slice,
    count_operators,
    free_text_length,
    parse_query,
    parse_range,
    query_problems,
    split_slice,
    tokenize,
)
from tests.github_emulator import Limits, compile_query, generate_repos

FLOOR, TODAY = date(2007, 10, 1), date(2026, 1, 1)


def test_tokenize_keeps_phrases_and_quoted_qualifiers() -> None:
    q = 'web "headless browser" label:"good first issue" NOT java stars:>=10'
    assert tokenize(q) == [
        "web", '"headless browser"', 'label:"good first issue"', "NOT", "java", "stars:>=10"
    ]  # fmt: skip


def test_length_and_operators() -> None:
    assert count_operators("a OR b AND c NOT d") == 3
    assert count_operators('"a OR b" or c') == 0  # inside quotes, or lower case: text
    assert free_text_length("scrapy language:python stars:>10 OR crawler") == len("scrapy crawler")
    long_text = "x" * 257
    assert query_problems(long_text + " language:go", max_length=256, max_operators=5) == [
        "the query text is 257 characters long, over the limit of 256 (qualifiers and operators excluded)"
    ]
    assert query_problems("a OR b OR c OR d OR e OR f OR g", max_length=256, max_operators=5) == [
        "the query has 6 AND/OR/NOT operators, over the limit of 5"
    ]
    assert query_problems("x" * 300, max_length=0, max_operators=0) == []  # 0: unchecked
    assert query_problems("   ", max_length=256, max_operators=5) == ["the query is empty"]


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        (">=2020-01-01", "date", (date(2020, 1, 1), None)),
        (">2020-01-01", "date", (date(2020, 1, 2), None)),
        ("<2020-01-01", "date", (None, date(2019, 12, 31))),
        ("<=2020-01-01", "date", (None, date(2020, 1, 1))),
        ("2020-01-01..2020-02-01", "date", (date(2020, 1, 1), date(2020, 2, 1))),
        ("2020-01-01..*", "date", (date(2020, 1, 1), None)),
        ("*..2020-01-01", "date", (None, date(2020, 1, 1))),
        ("2020-01-01", "date", (date(2020, 1, 1), date(2020, 1, 1))),
        ("10..50", "int", (10, 50)),
        (">100", "int", (101, None)),
        ("<10", "int", (None, 9)),
        ("2020-01-01T10:00:00Z", "date", None),
        ("@today-1d", "date", None),
        ("lots", "int", None),
        ("1..lots", "int", None),
    ],
)
def test_parse_range(value: str, kind: str, expected: object) -> None:
    assert parse_range(value, kind) == expected


def test_parse_query_folds_created_and_stars_into_the_root_slice() -> None:
    sq = parse_query("topic:scraping created:>2019-12-31 stars:10..500 language:python")
    assert sq.base == "topic:scraping language:python"
    assert sq.root == Slice(date(2020, 1, 1), None, 10, 500)
    assert sq.created_sliceable and sq.stars_sliceable
    # The whole query keeps the user's text; a slice adds qualifiers to the rest.
    assert sq.text(None) == "topic:scraping created:>2019-12-31 stars:10..500 language:python"
    part = Slice(date(2020, 1, 1), date(2020, 6, 30), 10, 500)
    assert sq.text(part) == "topic:scraping language:python created:2020-01-01..2020-06-30 stars:10..500"


def test_unreadable_or_negated_qualifiers_stay_and_block_that_dimension() -> None:
    sq = parse_query("x created:>2020-01-01T00:00:00Z -stars:<5")
    assert sq.base == "x created:>2020-01-01T00:00:00Z -stars:<5"
    assert not sq.created_sliceable and not sq.stars_sliceable
    assert split_slice(sq, sq.root, total=5000, cap=1000, floor=FLOOR, today=TODAY) == []


def test_slice_rendering() -> None:
    assert Slice().qualifiers() == ""
    assert Slice(None, date(2015, 1, 1)).qualifiers() == "created:<=2015-01-01"
    assert Slice(date(2015, 1, 1), None, 5, None).qualifiers() == "created:>=2015-01-01 stars:>=5"
    one_day = Slice(date(2015, 1, 1), date(2015, 1, 1), 0, 0)
    assert one_day.qualifiers() == "created:2015-01-01..2015-01-01 stars:0..0"
    part = Slice(date(2015, 1, 1), None, 3, 9)
    assert Slice.from_meta(part.to_meta()) == part
    assert Slice.from_meta(None) == Slice()


def _covers_each_day_once(parts: list[Slice], lo: date, hi: date) -> None:
    day = lo
    while day <= hi:
        owners = [
            p for p in parts
            if (p.created_lo is None or p.created_lo <= day) and (p.created_hi is None or day <= p.created_hi)
        ]  # fmt: skip
        assert len(owners) == 1, (day, owners)
        day += timedelta(days=1)


def test_date_split_covers_the_range_once_and_keeps_open_ends() -> None:
    sq = parse_query("topic:x")
    parts = split_slice(sq, sq.root, total=3500, cap=1000, floor=FLOOR, today=TODAY)
    assert len(parts) == 5  # ceil(3500 / 800)
    assert parts[0].created_lo is None and parts[-1].created_hi is None  # nothing outside is lost
    _covers_each_day_once(parts, date(1990, 1, 1), date(2030, 1, 1))


def test_date_split_follows_the_sample_quantiles() -> None:
    rng = random.Random(7)
    # Most repositories are recent: an equal-span cut would overfill the last part.
    dates = [date(2025, 1, 1) - timedelta(days=int(rng.random() ** 3 * 5000)) for _ in range(3000)]
    sq = parse_query("topic:x")
    sample = dates[:100]
    parts = split_slice(sq, sq.root, total=3000, cap=1000, floor=FLOOR, today=TODAY, sample_dates=sample)
    _covers_each_day_once(parts, date(2000, 1, 1), date(2026, 1, 1))

    def inside(p: Slice, d: date) -> bool:
        return (p.created_lo is None or p.created_lo <= d) and (p.created_hi is None or d <= p.created_hi)

    counts = [sum(1 for d in dates if inside(p, d)) for p in parts]
    assert sum(counts) == 3000
    assert max(counts) <= 1000, counts
    equal = split_slice(sq, sq.root, total=3000, cap=1000, floor=FLOOR, today=TODAY)
    last = equal[-1].created_lo
    assert last is not None and sum(1 for d in dates if d >= last) > 1000  # why the sample matters


def test_one_day_is_cut_by_stars_then_gives_up() -> None:
    sq = parse_query("topic:x")
    day = Slice(date(2021, 5, 4), date(2021, 5, 4))
    stars = list(range(0, 400, 4))
    parts = split_slice(sq, day, total=2500, cap=1000, floor=FLOOR, today=TODAY, sample_stars=stars)
    assert all(p.created_lo == p.created_hi == date(2021, 5, 4) for p in parts)
    assert parts[0].stars_lo is None and parts[-1].stars_hi is None
    bounds = [(p.stars_lo or 0, p.stars_hi) for p in parts]
    for (_, hi), (lo, _) in zip(bounds, bounds[1:], strict=False):
        assert hi is not None and lo == hi + 1  # adjacent, no gap, no overlap
    single = Slice(date(2021, 5, 4), date(2021, 5, 4), 7, 7)
    assert split_slice(sq, single, total=2000, cap=1000, floor=FLOOR, today=TODAY) == []
    open_end = split_slice(sq, Slice(date(2021, 5, 4), date(2021, 5, 4), 10, None), total=1500, cap=1000,
                           floor=FLOOR, today=TODAY)  # fmt: skip
    assert open_end[0].stars_lo == 10 and open_end[-1].stars_hi is None and len(open_end) == 2


def test_slices_of_a_real_population_partition_its_results() -> None:
    """Every repository matching the query matches exactly one slice, down to stars cuts."""
    repos = generate_repos(1200, topic_count=1000, hot_days={date(2021, 5, 4): 300})
    limits = Limits()
    query = "topic:web-scraping created:2019-01-01..2023-12-31"
    sq = parse_query(query)
    wanted = {r.id for r in repos if compile_query(query, limits)(r)}
    todo, leaves, texts = [sq.root], [], []
    while todo:
        part = todo.pop()
        texts.append(sq.text(part))
        members = [r for r in repos if compile_query(sq.text(part), limits)(r)]
        if len(members) <= 100:
            leaves.append(members)
            continue
        sample = [r.created.date() for r in members[:100]]
        stars = [r.stars for r in members[:100]]
        sub = split_slice(sq, part, total=len(members), cap=100, floor=FLOOR, today=TODAY,
                          sample_dates=sample, sample_stars=stars)  # fmt: skip
        assert sub, part
        todo.extend(sub)
    got = [r.id for leaf in leaves for r in leaf]
    assert sorted(got) == sorted(wanted)  # each result once, none lost
    # Slicing adds qualifiers only: no operator, no free text (GitHub's limits stay met).
    assert len(texts) > 10
    assert all(count_operators(t) == 0 and free_text_length(t) == 0 for t in texts)
