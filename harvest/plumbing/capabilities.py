"""What a spider declares to the components that serve it: typed, once, with defaults.

Components sit below the spiders and cannot import :class:`harvest.spiders.base.HarvestSpider`;
they are also built for plain ``scrapy.Spider`` classes (component tests, a user's own spider).
:class:`SpiderCapabilities` declares every attribute and hook a component reads from its spider,
with what a spider that does not declare it gets; ``HarvestSpider`` inherits it and each spider
overrides what it has. A component asks :func:`capabilities` (an instance) or
:func:`class_capabilities` (a class, before the spider exists), never ``getattr`` with a default.
A plain spider that declares one of these names itself (a user's spider, a test's) is read the
same way: what it declares, else the default declared here.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, cast

if TYPE_CHECKING:
    from collections.abc import Mapping

    from scrapy.settings import BaseSettings


class SpiderCapabilities:
    """The spider-side contract of harvest's components, with the defaults of a plain spider."""

    #: GithubApiMiddleware applies to this spider's API requests (token, shared budget, ETags).
    uses_github_api: ClassVar[bool] = False
    #: ArchiveMiddleware applies: the web archive's limits pace this spider's archive requests.
    uses_archive: ClassVar[bool] = False
    #: SiblingDedupPipeline applies: an item these spiders stored already is not stored again
    #: (trending <-> trending_history: one observation per identity, live or archived).
    shares_items_with: ClassVar[tuple[str, ...]] = ()
    #: SiteRightsMiddleware applies: sites' opt-out signals are recorded per document.
    collects_rights: ClassVar[bool] = False
    #: Whether this run yields documents with text (pipelines that only read text, such as
    #: language detection, do not apply otherwise and load nothing).
    writes_text: bool = True
    #: Whether this run's documents come with their language detected (by extraction workers):
    #: language detection then loads its model (~0.6 s of CPU, tens of MB) only for one that does
    #: not, instead of before the crawl.
    detects_language: bool = False
    #: ``-a reset=1``: start from a clean crawl state (see HARVEST_DEDUP_RESET).
    reset: bool = False
    #: Hosts the user configured on private addresses: the private-address guard lets them through.
    allowed_private_hosts: frozenset[str] | set[str] = frozenset()
    #: Per-site page and depth limits of the safety middleware, by site name.
    site_limits: Mapping[str, Any] = MappingProxyType({})
    #: The private-address proxy of a browser the spider renders with (the safety middleware
    #: starts and stops it: :class:`harvest.middlewares.safety.BrowserProxy`).
    browser_guard: Any = None

    def site_pace(self, url: str) -> tuple[str, float | None, int | None] | None:
        """(site, download_delay, concurrency) of the site ``url`` is in; None: pace by host."""
        return None

    def handed_in(self, request: Any) -> None:
        """``request`` was handed to this worker by another (a partitioned crawl).

        A spider that remembers what it requested (blogs) notes it, so it does not build the
        same request again when one of its own pages links there: the duplicate filter would
        only drop it, after Scrapy had scheduled it.
        """

    @classmethod
    def resolve_config(cls, settings: BaseSettings, arguments: dict[str, str]) -> Any:
        """This run's validated config (its YAML and ``-a`` arguments); None: no config."""
        return None

    @classmethod
    def cpu_bound(cls, settings: BaseSettings, config: Any) -> bool:
        """Whether this run's speed is its own process's CPU, so more processes make it faster."""
        return False


_PLAIN = SpiderCapabilities()


class _Declared:
    """What a plain spider (or its class) declares of :class:`SpiderCapabilities`, defaults else."""

    __slots__ = ("_declared_by", "_defaults")

    def __init__(self, declared_by: object, defaults: object) -> None:
        self._declared_by = declared_by
        self._defaults = defaults

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or not hasattr(SpiderCapabilities, name):
            raise AttributeError(name)
        return getattr(self._declared_by, name, getattr(self._defaults, name))


def capabilities(spider: object) -> SpiderCapabilities:
    """``spider``'s declared capabilities (a plain spider's: what it declares, else the defaults)."""
    if isinstance(spider, SpiderCapabilities):
        return spider
    return cast(SpiderCapabilities, _Declared(spider, _PLAIN))


def class_capabilities(spidercls: object) -> type[SpiderCapabilities]:
    """The capabilities ``spidercls`` declares, before the spider exists (defaults as above)."""
    if isinstance(spidercls, type) and issubclass(spidercls, SpiderCapabilities):
        return spidercls
    return cast("type[SpiderCapabilities]", _Declared(spidercls, SpiderCapabilities))
