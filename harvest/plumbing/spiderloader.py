"""A spider loader that imports only the spider a crawl runs.

Scrapy's ``SpiderLoader`` imports every module of ``SPIDER_MODULES`` when a crawl process starts,
so ``scrapy crawl blogs`` also imported the GitHub spiders and their planner, parsers and
validators (memory and start-up of each process: BENCHMARKS.md, "Figures behind comments").
harvest's spiders live in a module named after them (``harvest/spiders/blogs.py`` holds
``blogs``): :meth:`load` imports ``<module>.<name>`` for each of ``SPIDER_MODULES`` and returns the
spider found there. Anything
else (a spider in a module of another name, :meth:`list`, :meth:`find_by_request`) loads every
module as Scrapy does, so nothing a user names is missed.
"""

from __future__ import annotations

import difflib
import importlib
from typing import TYPE_CHECKING

from scrapy.spiderloader import SpiderLoader as ScrapySpiderLoader
from scrapy.utils.spider import iter_spider_classes

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.settings import BaseSettings


class SpiderLoader(ScrapySpiderLoader):
    """Scrapy's loader, importing a spider's own module first (see the module docstring)."""

    def __init__(self, settings: BaseSettings) -> None:
        self._all_loaded = False
        super().__init__(settings)

    def _load_all_spiders(self) -> None:
        # Deferred: Scrapy calls this from __init__ in every process, crawl or not.
        pass

    def _ensure_all(self) -> None:
        if not self._all_loaded:
            self._all_loaded = True
            super()._load_all_spiders()

    def load(self, spider_name: str) -> type[Spider]:
        """The spider class named ``spider_name``; KeyError when no module holds it."""
        if spider_name in self._spiders:
            return self._spiders[spider_name]
        if spider_name.isidentifier():
            for package in self.spider_modules:
                try:
                    module = importlib.import_module(f"{package}.{spider_name}")
                except ModuleNotFoundError as exc:
                    if exc.name != f"{package}.{spider_name}":
                        raise  # the spider's module exists and failed to import: say so
                    continue
                for spcls in iter_spider_classes(module):
                    if spcls.name == spider_name:
                        self._spiders[spider_name] = spcls
                        return spcls
        self._ensure_all()
        return super().load(spider_name)

    def find_by_request(self, request: Request) -> list[str]:
        """Every spider that handles ``request`` (loads every spider module)."""
        self._ensure_all()
        return super().find_by_request(request)

    def list(self) -> list[str]:
        """Every spider of the project (loads every spider module)."""
        self._ensure_all()
        return super().list()


def unknown_spider(name: str, names: list[str]) -> str:
    """One line for a spider name the project does not have: the spiders, and the likely one."""
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"no spider named {name!r} (spiders: {', '.join(sorted(names))}){hint}"
