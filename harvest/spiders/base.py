"""HarvestSpider: turns a validated YAML config plus ``-a`` arguments into spider attributes."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import scrapy
from pydantic import ValidationError

from harvest.config import SpiderConfig, config_path, load_config
from harvest.config.args import SpiderArgs, arguments_error, parse_args
from harvest.exceptions import ConfigError
from harvest.plumbing.capabilities import SpiderCapabilities

if TYPE_CHECKING:
    from collections.abc import Mapping

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from typing_extensions import Self

logger = logging.getLogger(__name__)


class HarvestSpider(scrapy.Spider, SpiderCapabilities):
    """Base of every harvest spider.

    Subclasses set ``name``, ``config_model`` and ``args_model`` (the ``-a`` arguments they
    accept, typed: :mod:`harvest.config.args`), and implement ``fold_args`` to fold those into
    the config for one run. Validation and its errors happen here only (:meth:`apply_arguments`).
    """

    config_model: ClassVar[type[SpiderConfig]] = SpiderConfig
    #: The ``-a`` arguments this spider accepts (every spider accepts ``reset``).
    args_model: ClassVar[type[SpiderArgs]] = SpiderArgs
    #: Config field -> the ``-a`` argument that sets it, so errors name what the user typed.
    argument_fields: ClassVar[dict[str, str]] = {}
    #: The config field a problem of the whole config is reported under (``-a <field>``).
    argument_default: ClassVar[str] = ""
    config: SpiderConfig

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.spider_arguments: dict[str, str] = {k: str(v) for k, v in kwargs.items()}
        super().__init__(*args, **kwargs)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        """Build the spider and its config; a bad config raises ConfigError before any request."""
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.config = cls.resolve_config(crawler.settings, spider.spider_arguments)
        spider.reset = parse_args(cls.name, cls.args_model, spider.spider_arguments).reset
        return spider

    @classmethod
    def resolve_config(cls, settings: BaseSettings, arguments: dict[str, str]) -> SpiderConfig:
        """Load ``<HARVEST_CONFIG_DIR>/<name>.yaml`` and apply the ``-a`` arguments to it."""
        args = parse_args(cls.name, cls.args_model, arguments)  # before the YAML: a typo first
        config_dir = settings.get("HARVEST_CONFIG_DIR")
        config = load_config(cls.config_model, config_dir, cls.name)
        try:
            return cls.apply_arguments(config, arguments, args)
        except ConfigError as exc:
            path = config_path(config_dir, cls.name)
            if arguments or path.exists() or not Path(config_dir).is_dir():
                raise
            # The defaults alone have nothing to crawl: name the file the user has to write.
            raise ConfigError(
                path, [("", "file not found, and the defaults alone cannot run:"), *exc.problems]
            ) from None

    @classmethod
    def apply_arguments(
        cls, config: SpiderConfig, arguments: Mapping[str, str], args: SpiderArgs | None = None
    ) -> SpiderConfig:
        """Return ``config`` with this run's ``-a`` arguments folded in; ConfigError names the bad one."""
        if args is None:
            args = parse_args(cls.name, cls.args_model, arguments)
        try:
            return cls.fold_args(config, args)
        except ValidationError as exc:
            raise arguments_error(
                cls.name, exc, model=cls.args_model, fields=cls.argument_fields, default=cls.argument_default
            ) from None

    @classmethod
    def fold_args(cls, config: SpiderConfig, args: Any) -> SpiderConfig:
        """``config`` for this run given ``args`` (an ``args_model``); override per spider.

        May raise pydantic's ValidationError (reported naming the argument) or ConfigError.
        """
        return config

    @classmethod
    def cpu_bound(cls, settings: BaseSettings, config: SpiderConfig) -> bool:
        """Whether this run's speed is its own process's CPU, so more processes make it faster.

        Such a crawl runs as one worker per core by default (``HARVEST_CRAWL_WORKERS=0``,
        :func:`harvest.state.partition.machine_workers`). Not the GitHub spiders (override per
        spider): they wait on GitHub's rate limits, which more processes share, not raise.
        """
        return False

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
