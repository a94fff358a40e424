"""The Search section on a real ``scrapy crawl github_search`` round: a query that found nothing is named.

The round (tests/report/conftest.py) runs two queries against the demo's GitHub: one every
repository with the topic answers, one that matches nothing. The section must count both, list
the empty one by name with the day it ran, and say so even when no query found anything.
"""

from __future__ import annotations

from harvest.demo.content import build_world
from harvest.report.health import load_health
from harvest.report.records import load_dataset
from harvest.report.search import empty_queries, search_section
from tests.report.conftest import FOUND, NOTHING, DemoRounds


def _topic(query: str) -> str:
    return query.removeprefix("topic:")


def test_a_query_with_no_result_is_listed_by_name(demo_rounds: DemoRounds) -> None:
    results = load_dataset(demo_rounds.data).search
    rounds = load_health(demo_rounds.data).rounds
    empty = empty_queries(rounds)
    (search_round,) = [r for r in rounds if r.spider == "github_search"]
    assert empty == {NOTHING: search_round.started[:10]}
    section = search_section(results, empty)
    facts = {f.key: f.value for f in section.facts}
    expected = {r.full_name for r in build_world().repos if _topic(FOUND) in r.topics}
    assert {r.repo for r in results} == expected
    assert facts["search_repositories"] == len(expected) and facts["search_results"] == len(results)
    assert facts["search_queries"] == 2 and facts["search_queries_empty"] == 1
    per_query = next(f for f in section.figures if f.id == "search-per-query")
    rows = {(str(q), str(d)): n for q, d, n in per_query.table.rows}
    assert rows[(NOTHING, search_round.started[:10])] == 0
    assert rows[(FOUND, results[0].day)] == len(expected)
    assert f"1 query returned no result: {NOTHING}." in per_query.note


def test_with_no_result_at_all_the_section_says_which_queries_ran_empty(demo_rounds: DemoRounds) -> None:
    section = search_section([], empty_queries(load_health(demo_rounds.data).rounds))
    assert not section.figures and NOTHING in section.empty and "1 query returned no result" in section.empty
    # Without a round saying so, the section says the spider wrote nothing.
    assert "has not written any" in search_section([], {}).empty


def test_a_query_that_found_results_is_not_called_empty(demo_rounds: DemoRounds) -> None:
    results = load_dataset(demo_rounds.data).search
    # FOUND ran empty on an earlier day and found results later: not empty.
    section = search_section(results, {FOUND: "2026-11-01", NOTHING: "2026-12-01"})
    facts = {f.key: f.value for f in section.facts}
    assert facts["search_queries_empty"] == 1 and facts["search_queries"] == 2
    per_query = next(f for f in section.figures if f.id == "search-per-query")
    assert FOUND not in per_query.note and NOTHING in per_query.note
