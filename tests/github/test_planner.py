"""SlicePlanner and SearchMemo on their own: when a search is cut, where, and what a page keeps."""

from __future__ import annotations

import json
from datetime import date, timedelta
from itertools import pairwise
from typing import Any

import pytest

from harvest.github.planner import SearchMemo, SlicePlan, SlicePlanner
from harvest.github.query import Slice, parse_query
from harvest.github.validators import PageValidators
from harvest.parsers.github_api import SearchPage

FLOOR, TOMORROW = date(2007, 10, 1), date(2026, 1, 2)
API = "https://api.github.com/search/repositories"


def planner(cap: int = 1000) -> SlicePlanner:
    return SlicePlanner(result_cap=cap, created_floor=FLOOR, today=lambda: TOMORROW)


def page(total: int, n: int = 100, *, incomplete: bool = False, start: date = date(2020, 1, 1)) -> SearchPage:
    items = [
        {"id": i, "created_at": f"{start + timedelta(days=i)}T10:00:00Z", "stargazers_count": i}
        for i in range(n)
    ]
    return SearchPage(total_count=total, incomplete_results=incomplete, items=items)


def links(last_page: int | None) -> dict[str, str]:
    if last_page is None:
        return {}
    return {"next": f"{API}?q=x&page=2", "last": f"{API}?q=x&page={last_page}"}


def never() -> SearchMemo | None:
    raise AssertionError("the stored plan is looked up only for a search over the cap")


# --- SearchMemo ------------------------------------------------------------------------------------


def test_memo_round_trips_through_the_stored_form() -> None:
    parts = (Slice(created_hi=date(2019, 12, 31)), Slice(created_lo=date(2020, 1, 1), stars_lo=5))
    memo = SearchMemo(total=2500, count=100, next_url=f"{API}?page=2", cap=1000, parts=parts)
    stored = json.loads(json.dumps(memo.to_dict()))  # as the validator store keeps it
    assert SearchMemo.from_dict(stored) == memo


def test_memo_keeps_the_keys_older_versions_wrote_and_read() -> None:
    memo = SearchMemo(total=7, count=7, next_url=None)
    assert memo.to_dict() == {"total": 7, "n": 7, "next": None}  # no cap or parts: left out
    sliced = SearchMemo(total=2500, count=100, next_url="u", cap=1000, parts=(Slice(stars_lo=3),))
    assert sliced.to_dict() == {
        "total": 2500, "n": 100, "next": "u", "cap": 1000,
        "parts": [{"created_lo": None, "created_hi": None, "stars_lo": 3, "stars_hi": None}],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        # Exactly what the spider stored before the memo had a type.
        (
            {
                "total": 2500,
                "n": 100,
                "next": "https://x/2",
                "cap": 1000,
                "parts": [
                    {"created_lo": None, "created_hi": "2019-12-31", "stars_lo": None, "stars_hi": None},
                    {"created_lo": "2020-01-01", "created_hi": None, "stars_lo": None, "stars_hi": None},
                ],
            },
            SearchMemo(
                2500,
                100,
                "https://x/2",
                1000,
                (Slice(created_hi=date(2019, 12, 31)), Slice(created_lo=date(2020, 1, 1))),
            ),
        ),
        ({"total": 40, "n": 40, "next": None}, SearchMemo(total=40, count=40)),  # a later page
        ({"n": 3}, SearchMemo(count=3)),  # fewer keys: defaults
        ({}, SearchMemo()),  # a validator stored without a memo
        (None, SearchMemo()),
        # Unreadable: unknown, so the page is fetched in full rather than walked wrongly.
        ({"total": "many", "n": 1}, SearchMemo()),
        ({"total": 5, "parts": [{"created_lo": "yesterday"}]}, SearchMemo()),
        ({"total": 5, "parts": ["x"]}, SearchMemo()),
    ],
)
def test_memo_reads_every_stored_shape(stored: dict[str, Any] | None, expected: SearchMemo) -> None:
    assert SearchMemo.from_dict(stored) == expected


# --- SlicePlanner ----------------------------------------------------------------------------------


def test_a_search_under_the_cap_is_walked_whole() -> None:
    sq = parse_query("topic:x")
    plan = planner().plan(sq, sq.root, page(900), links(10), max_results=None, remembered=never)
    assert plan == SlicePlan(1000)


def test_no_slices_when_no_more_than_the_cap_is_wanted() -> None:
    sq = parse_query("topic:x")
    plan = planner().plan(sq, sq.root, page(5000), links(10), max_results=1000, remembered=never)
    assert plan == SlicePlan(1000)


def test_a_search_over_the_cap_is_cut_at_the_sample_quantiles() -> None:
    sq = parse_query("topic:x")
    plan = planner().plan(sq, sq.root, page(2500), links(10), max_results=None, remembered=lambda: None)
    assert plan.cap == 1000 and not plan.reused and plan.unreachable == 0
    assert 4 <= len(plan.parts) <= 5  # 2500 results at 80% of the cap per part
    # The parts tile the whole range, open at both ends, without gaps or overlaps.
    assert plan.parts[0].created_lo is None and plan.parts[-1].created_hi is None
    for before, after in pairwise(plan.parts):
        assert before.created_hi is not None and after.created_lo == before.created_hi + timedelta(days=1)
    # Cuts sit among the sampled dates (2020 on), not evenly over 2007..2026.
    assert all(p.created_lo is None or p.created_lo >= date(2020, 1, 1) for p in plan.parts)


def test_the_plan_of_the_last_run_is_reused() -> None:
    sq = parse_query("topic:x")
    stored = (Slice(created_hi=date(2015, 1, 1)), Slice(created_lo=date(2015, 1, 2)))
    plan = planner().plan(
        sq, sq.root, page(2500), links(10), max_results=None,
        remembered=lambda: SearchMemo(total=2400, parts=stored),
    )  # fmt: skip
    assert plan == SlicePlan(1000, parts=stored, reused=True)
    # A stored memo without parts (the search was under the cap then): a new cut.
    fresh = planner().plan(
        sq, sq.root, page(2500), links(10), max_results=None, remembered=lambda: SearchMemo(total=900)
    )
    assert fresh.parts and not fresh.reused


def test_a_day_and_star_count_over_the_cap_is_unreachable() -> None:
    sq = parse_query("topic:x created:2021-05-04 stars:7")
    part = sq.root
    plan = planner().plan(sq, part, page(1300), links(10), max_results=None, remembered=lambda: None)
    assert plan == SlicePlan(1000, unreachable=300)


def test_a_lower_cap_is_learnt_from_the_last_page_link() -> None:
    p = planner()
    sq = parse_query("topic:x")
    # 50 per page, last page 2: the server serves 100 of this search, not 1000.
    plan = p.plan(sq, sq.root, page(400, n=50), links(2), max_results=None, remembered=lambda: None)
    assert plan.cap == 100 and p.result_cap == 100 and plan.parts
    # Learnt for the rest of the run.
    assert p.plan(sq, sq.root, page(90, n=50), links(2), max_results=None, remembered=never).cap == 100


def test_only_a_complete_page_teaches_the_cap() -> None:
    p = planner()
    sq = parse_query("topic:x")
    plan = p.plan(sq, sq.root, page(400, n=50, incomplete=True), links(2), max_results=None, remembered=never)
    assert plan == SlicePlan(1000) and p.result_cap == 1000


def test_reachable_without_links() -> None:
    p = planner()
    assert p.reachable(total=30, served=30, links={}) == 30  # one page: everything, cap untouched
    assert p.result_cap == 1000
    assert p.reachable(total=500, served=40, links={}) == 40  # one page holding less than total
    assert p.result_cap == 40
    assert planner().reachable(total=5000, served=100, links={"next": f"{API}?page=2"}) == 1000  # no last


def test_recut_after_a_lower_cap_is_named() -> None:
    p = planner()
    sq = parse_query("topic:x created:2020-01-01..2020-12-31")
    parts = p.recut(sq, sq.root, total=500, cap=100)
    assert p.result_cap == 100 and len(parts) >= 5
    assert parts[0].created_lo == date(2020, 1, 1) and parts[-1].created_hi == date(2020, 12, 31)
    one_day = parse_query("topic:x created:2020-01-01 stars:3")
    assert p.recut(one_day, one_day.root, total=500, cap=100) == ()


# --- PageValidators: a page's validator is stored only after its items -----------------------------


def test_a_validator_waits_for_every_item(tmp_path: Any) -> None:
    pages = PageValidators(tmp_path / "v.sqlite", "github_search", "t-a")
    memo = SearchMemo(total=2, count=2)
    a, b = object(), object()
    pages.store_after(f"{API}?p=1", '"e1"', None, memo, [a, b])
    pages.item_done(a, ok=True)
    assert pages.remembered(f"{API}?p=1") is None  # one item still in the pipelines
    pages.item_done(b, ok=True)
    assert pages.remembered(f"{API}?p=1") == memo
    c = object()
    pages.store_after(f"{API}?p=2", '"e2"', None, memo, [c])
    pages.item_done(c, ok=False)  # failed: the page must come again in full
    assert pages.remembered(f"{API}?p=2") is None
    pages.store_after(f"{API}?p=3", '"e3"', None, memo, [])  # nothing to wait for
    pages.store_after(f"{API}?p=4", None, None, memo, [])  # nothing to validate with
    assert pages.remembered(f"{API}?p=3") == memo and pages.remembered(f"{API}?p=4") is None
    pages.close()
