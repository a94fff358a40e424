"""A real data folder for the report's section tests: ``scrapy crawl`` rounds against the demo sites.

The demo's GitHub (harvest.demo) serves Trending pages from its sample world. Three ``scrapy
crawl trending`` rounds run on three days (``HARVEST_NOW``), and between them every repository's
stars grow by an amount the test chooses and keeps (:data:`STARS`): what the report says a
repository gained in a window is derivable from those amounts. A ``scrapy crawl github_search``
round runs two queries, one that the demo's search answers and one that matches nothing.

Each ``scrapy crawl`` leaves its round record under ``logs/<spider>/``, the way a user without the
fleet has one: the crawl health section reads those.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from harvest.demo import DemoSites, write_demo_config
from harvest.demo.content import Repo
from tests import scrapy_crawl

#: The rounds' clocks: the first is outside the week that ends on the last, inside its 30 days.
DAYS = ("2026-12-01T06:00:00Z", "2026-12-08T06:00:00Z", "2026-12-09T07:00:00Z")
#: Stars a repository has on each round's day, from the demo's count on the first. Both growths
#: keep the order of the counts (no repository overtakes another), so each Trending page lists
#: the same repositories every day; the second growth differs per repository.
STARS: tuple[Callable[[int], int], ...] = (
    lambda s: s,
    lambda s: s + s // 10,
    lambda s: s + s // 10 + s // 4,
)
FOUND = "topic:web-scraping"
NOTHING = "topic:no-such-topic-anywhere"


@dataclass(frozen=True)
class DemoRounds:
    """The data folder, and the demo's star counts on the first day (by ``owner/name``)."""

    data: Path
    first_stars: dict[str, int]

    def stars_on(self, repo: str, day_index: int) -> int:
        """Stars the demo served for ``repo`` in round ``day_index``."""
        return STARS[day_index](self.first_stars[repo])


def _grow(sites: DemoSites, grow: Callable[[int], int], first: dict[str, int]) -> None:
    repos: list[Repo] = [dataclasses.replace(r, stars=grow(first[r.full_name])) for r in sites.world.repos]
    sites.world.repos[:] = repos
    sites.repos.update({r.full_name: r for r in repos})


@pytest.fixture(scope="session")
def demo_rounds(tmp_path_factory: pytest.TempPathFactory) -> DemoRounds:
    root = tmp_path_factory.mktemp("demo-rounds")
    data, config = root / "data", root / "config"
    sites = DemoSites().start()
    try:
        write_demo_config(config, sites)
        search = {"queries": [{"query": FOUND, "readmes": False}, {"query": NOTHING, "readmes": False}]}
        (config / "github_search.yaml").write_text(yaml.safe_dump(search), encoding="utf-8")
        first = {r.full_name: r.stars for r in sites.world.repos}
        settings = {
            **sites.settings(),
            "HARVEST_CONFIG_DIR": str(config),
            "HARVEST_DATA_DIR": str(data),
            "AUTOTHROTTLE_ENABLED": "False",
        }
        for now, grow in zip(DAYS, STARS, strict=True):
            _grow(sites, grow, first)
            result = scrapy_crawl("trending", settings=settings, env={"HARVEST_NOW": now}, timeout=180)
            assert result.returncode == 0, result.stderr[-3000:]
        result = scrapy_crawl("github_search", settings=settings, env={"HARVEST_NOW": DAYS[-1]}, timeout=180)
        assert result.returncode == 0, result.stderr[-3000:]
    finally:
        sites.stop()
    return DemoRounds(data, first)
