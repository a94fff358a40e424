"""``scrapy crawl blogs`` on the development set: real sites of seven generators, against their oracles.

Each site of shared/fixtures/blogs (Octopress, Jekyll minima, Jekyll with year and month archives,
Eleventy, Zola, Docusaurus, Hugo) is served on 127.0.0.1, its hosts mapped to that server and its
links to other loopback services (``localhost:3000``, ``localhost:4000``) pointed at a canary
server the test started (tests/devsites.py). Each is crawled as a new user would, with nothing
but its start page in the YAML, and what was stored is compared with the site's ``oracle.json``
(the generator's own source posts): every post stored, titles and dates right, code blocks kept,
listing pages (archives, tags, categories, authors, pagination, sections) not stored, and no
request to the canary.

The crawls run two at a time in one module-scoped fixture (~1.5 min on two cores), each test
asserts one site. Two sites (Jekyll minima, Zola) were kept out of the tuning of the page
classifier and markup repairs (tests/devsites.py ``held_out``).
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import shared_fixture
from tests.devsites import SITES, Crawled, DevSite, crawl_site

#: Targets (issue 33): share of the oracle's posts stored, titles, dates, code blocks kept.
FOUND = 1.0
TITLES = 0.98
DATES = 0.98
CODE = 0.98
#: Listing pages stored, at most, as a share of the site's posts.
LISTINGS = 0.02


@pytest.fixture(scope="module")
def devset(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Crawled]]:
    """Every site crawled once (two at a time), by folder."""
    fixtures = shared_fixture("blogs")
    work = tmp_path_factory.mktemp("devset")

    def run(site: DevSite) -> tuple[str, Crawled]:
        shared_fixture("blogs", site.folder, "site")
        return site.folder, crawl_site(site, fixtures, work / site.folder, timeout=500)

    with ThreadPoolExecutor(max_workers=2) as pool:
        yield dict(pool.map(run, SITES))


def _report(crawled: Crawled) -> str:
    s = crawled.score
    return (
        f"{s.row()}\nmissing {s.missing[:10]}\nwrong titles {s.wrong_titles[:5]}\n"
        f"wrong dates {s.wrong_dates[:5]}\ncode short {s.code_short[:5]}\nlistings {s.listings[:10]}\n"
        + crawled.stderr[-2000:]
    )


@pytest.mark.parametrize("site", SITES, ids=[s.folder for s in SITES])
def test_site_against_its_oracle(devset: dict[str, Crawled], site: DevSite) -> None:
    crawled = devset[site.folder]
    s = crawled.score
    report = _report(crawled)
    assert crawled.returncode == 0, report
    assert "'finish_reason': 'finished'" in crawled.stderr, report
    # A normal run prints no WARNING.
    assert " WARNING" not in crawled.stderr, report
    assert s.posts > 0
    assert s.found >= FOUND * s.posts, report
    if s.code_oracle or s.dated or s.titles_right or s.wrong_titles:
        assert s.titles_right >= TITLES * s.posts, report
        assert s.dates_right + s.dates_as_declared >= DATES * s.dated, report
        assert s.code_kept >= CODE * s.code_oracle, report
    assert s.listings_stored <= LISTINGS * s.posts, report
    # Links to loopback services that are not the site (and redirects to them) were never followed.
    assert s.foreign_requests == 0, report
    # Listing pages were fetched (followed for discovery) and recognised by what they are.
    assert crawled.stats.get("harvest/blogs/listing_pages", 0) > 0, report


def test_held_out_sites_are_marked() -> None:
    """Two sites stay out of the tuning; the bench table and BENCHMARKS.md say which."""
    assert sorted(s.folder for s in SITES if s.held_out) == [
        "jekyll-minima-bzoennchen-pages",
        "zola-mawadda-ar",
    ]
    assert all(Path(s.folder).name == s.folder for s in SITES)
