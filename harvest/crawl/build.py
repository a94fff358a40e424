"""One way to build a crawl, whoever starts it.

``scrapy crawl`` (:mod:`harvest.commands.crawl`, which scrapyd jobs run too), a fleet child
(:mod:`harvest.runner.child`) and the tests (``tests.get_crawler``) all get their crawler from
:func:`build_crawler`, so no entry point can lose a component. No entry point adds components
by merging dicts at a settings priority: every component harvest has is listed once in
``harvest/settings.py`` and decides in ``from_crawler`` whether it applies (the GitHub API
middleware for spiders that declare ``uses_github_api``; the fleet's extension and reachability
middleware when a fleet channel is attached; Redis scale-out when the state URL is a Redis one).

What differs between entry points is only data: settings at ``cmdline`` priority (``-s``, the
fleet's ``--data-dir``), spider arguments, and for the fleet the channel it attaches first.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from harvest.crawl.checks import check_settings
from harvest.plumbing.capabilities import class_capabilities

if TYPE_CHECKING:
    from collections.abc import Mapping

    from scrapy.crawler import Crawler, CrawlerRunnerBase
    from scrapy.settings import Settings
    from scrapy.spiders import Spider

    from harvest.config import SpiderConfig

logger = logging.getLogger(__name__)


def project_settings(overrides: Mapping[str, Any] | None = None) -> Settings:
    """The project's settings with ``overrides`` at ``cmdline`` priority, as ``scrapy crawl -s``."""
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    settings.setdict(dict(overrides or {}), priority="cmdline")
    return settings


def build_crawler(
    runner: CrawlerRunnerBase,
    spider: str | type[Spider],
    arguments: Mapping[str, Any] | None = None,
    *,
    validate: bool = True,
) -> Crawler:
    """Create the crawler of ``spider`` in ``runner`` and check its settings and config.

    Raises :class:`harvest.exceptions.ConfigError` (naming the file or setting and the key) for
    bad settings, a bad YAML config or bad spider ``arguments``: before the reactor starts and
    before anything is written. ``validate=False`` is for component tests that build a crawler
    of a bare ``scrapy.Spider``.
    """
    crawler = runner.create_crawler(spider)
    if validate:
        validate_crawl(crawler.spidercls, crawler.settings, arguments)
    return crawler


def validate_crawl(
    spidercls: type[Spider], settings: Settings, arguments: Mapping[str, Any] | None
) -> SpiderConfig | None:
    """Check the settings (with the spider's own applied), its YAML config and its ``arguments``.

    Returns the config for this run (None for a spider without one). Raises
    :class:`harvest.exceptions.ConfigError` naming the file or setting and the key.
    """
    check_settings(settings)
    arguments = {k: str(v) for k, v in (arguments or {}).items()}
    config: SpiderConfig | None = class_capabilities(spidercls).resolve_config(settings, arguments)
    return config
