"""``scrapy describe <spider>``: a spider's ``-a`` arguments, types, defaults, one line each.

Generated from the spider's arguments model (:func:`harvest.config.args.argument_help`), so the
help cannot drift from what ``scrapy crawl`` accepts; the README's lists are tested against the
same source. ``scrapy crawl -h`` lists the arguments of every spider the same way.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.spiderloader import get_spider_loader

from harvest.config.args import SpiderArgs, argument_help
from harvest.plumbing.spiderloader import unknown_spider

if TYPE_CHECKING:
    import argparse

    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


def describe_spider(settings: BaseSettings, name: str) -> str:
    """The help of spider ``name``: what it is, then its arguments (KeyError for an unknown one)."""
    spidercls = get_spider_loader(settings).load(name)
    model: type[SpiderArgs] = getattr(spidercls, "args_model", SpiderArgs)
    doc = (spidercls.__doc__ or "").strip().splitlines()
    what = doc[0].split(" (see ")[0].rstrip(".") if doc else ""
    lines = [f"{name}: {what}" if what else name, "", "Arguments (scrapy crawl " + name + " -a NAME=VALUE):"]
    lines += [row.line() for row in argument_help(model)]
    return "\n".join(lines)


def describe_all(settings: BaseSettings) -> str:
    """Every spider's arguments, for ``scrapy crawl -h``."""
    loader = get_spider_loader(settings)
    return "\n\n".join(describe_spider(settings, name) for name in sorted(loader.list()))


class Command(ScrapyCommand):
    """Print a spider's arguments with their types, defaults and what each does."""

    requires_project = True
    requires_crawler_process = False
    default_settings = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        """One spider name (none: every spider)."""
        return "[spider]"

    def short_desc(self) -> str:
        """One line for ``scrapy -h``."""
        return "List a spider's -a arguments: types, defaults, one line each"

    def long_desc(self) -> str:
        """The help text of ``scrapy describe -h``."""
        return (
            "Print the -a arguments a spider accepts (scrapy crawl SPIDER -a NAME=VALUE), with the "
            "value each takes, its default and what it does; without a spider, every spider's. "
            "Exit codes: 0 printed, 2 an unknown spider (named, with the spiders and a 'did you mean')."
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Print the arguments of the spider named (of every spider without one)."""
        assert self.settings is not None
        if len(args) > 1:
            raise UsageError("name one spider (or none for all)")
        if not args:
            print(describe_all(self.settings))
            return
        try:
            print(describe_spider(self.settings, args[0]))
        except KeyError:
            names = get_spider_loader(self.settings).list()
            raise UsageError(unknown_spider(args[0], names), print_help=False) from None
