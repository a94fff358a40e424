"""HarvestSpider: turns a validated YAML config plus ``-a`` arguments into spider attributes."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import scrapy

from harvest.config import SpiderConfig, config_path, load_config, parse_bool
from harvest.exceptions import ConfigError

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Arguments every harvest spider accepts, handled here or by shared components.
COMMON_ARGUMENTS = frozenset({"reset", "_job"})


class HarvestSpider(scrapy.Spider):
    """Base of every harvest spider.

    Subclasses set ``name``, ``config_model`` and ``arguments`` (the ``-a`` names they accept),
    and implement ``apply_arguments`` to fold those into the config for one run.
    """

    config_model: ClassVar[type[SpiderConfig]] = SpiderConfig
    #: ``-a`` argument names this spider accepts, besides COMMON_ARGUMENTS.
    arguments: ClassVar[frozenset[str]] = frozenset()
    config: SpiderConfig
    #: ``-a reset=1``: start from a clean crawl state (see HARVEST_DEDUP_RESET).
    reset: bool = False
    #: Whether this run yields documents with text (pipelines that only read text, such as
    #: language detection, do not apply otherwise and load nothing).
    writes_text: bool = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.spider_arguments: dict[str, str] = {k: str(v) for k, v in kwargs.items()}
        super().__init__(*args, **kwargs)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Build the spider and its config; a bad config raises ConfigError before any request."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.config = cls.resolve_config(crawler.settings, spider.spider_arguments)
        spider.reset = parse_bool(spider.spider_arguments.get("reset", "0"), "-a reset")
        return spider

    @classmethod
    def resolve_config(cls, settings: BaseSettings, arguments: dict[str, str]) -> SpiderConfig:
        """Load ``<HARVEST_CONFIG_DIR>/<name>.yaml`` and apply the ``-a`` arguments to it."""
        unknown = sorted(set(arguments) - cls.arguments - COMMON_ARGUMENTS)
        if unknown:
            allowed = ", ".join(sorted(cls.arguments | {"reset"})) or "(none)"
            raise ConfigError(
                f"spider arguments of {cls.name!r}",
                [(f"-a {k}", f"unknown argument; this spider accepts: {allowed}") for k in unknown],
            )
        if "reset" in arguments:
            try:
                parse_bool(arguments["reset"], "reset")
            except ValueError as exc:
                raise ConfigError(f"spider arguments of {cls.name!r}", [("-a reset", str(exc))]) from None
        config_dir = settings.get("HARVEST_CONFIG_DIR")
        config = load_config(cls.config_model, config_dir, cls.name)
        try:
            return cls.apply_arguments(config, arguments)
        except ConfigError as exc:
            path = config_path(config_dir, cls.name)
            if arguments or path.exists() or not Path(config_dir).is_dir():
                raise
            # The defaults alone have nothing to crawl: name the file the user has to write.
            raise ConfigError(
                path, [("", "file not found, and the defaults alone cannot run:"), *exc.problems]
            ) from None

    @classmethod
    def apply_arguments(cls, config: SpiderConfig, arguments: dict[str, str]) -> SpiderConfig:
        """Return ``config`` with this run's ``-a`` arguments folded in (override per spider)."""
        return config

    @classmethod
    def cpu_bound(cls, settings: BaseSettings, config: SpiderConfig) -> bool:
        """Whether this run's speed is its own process's CPU, so more processes make it faster.

        Such a crawl runs as one worker per core by default (``HARVEST_CRAWL_WORKERS=0``,
        :func:`harvest.state.partition.machine_workers`). Not the GitHub spiders (override per
        spider): they wait on GitHub's rate limits, which more processes share, not raise.
        """
        return False

    def handed_in(self, request: Any) -> None:
        """``request`` was handed to this worker by another (a partitioned crawl, harvest.crawl.handoff).

        A spider that remembers what it requested (blogs) notes it, so it does not build the
        same request again when one of its own pages links there: the duplicate filter would
        only drop it, after Scrapy had scheduled it.
        """

    def retry_gave_up(self, request: Any) -> bool:
        """Whether RetryMiddleware gave up on ``request``.

        It logged that ("Gave up retrying <url>") already, so an errback only counts the
        failure: one line per failure.
        """
        meta = getattr(request, "meta", None) or {}
        max_retries = meta.get("max_retry_times")
        if max_retries is None:
            max_retries = self.settings.getint("RETRY_TIMES")
        return self.settings.getbool("RETRY_ENABLED") and 0 < max_retries <= meta.get("retry_times", 0)

    @property
    def data_dir(self) -> Path:
        """This spider's output folder: ``HARVEST_DATA_DIR/<name>``."""
        return Path(self.settings.get("HARVEST_DATA_DIR")) / self.name
