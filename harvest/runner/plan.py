"""Which spiders the fleet runs, how many processes of each, and how often (from their YAML).

Every config is loaded and validated here, in the supervisor, before any process starts: a bad
``spiders_config/<spider>.yaml`` stops ``run_all.py`` with exit code 2 naming file and key,
exactly as ``scrapy crawl`` does, instead of a crash loop of children.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.spiderloader import get_spider_loader

from harvest.config import SpiderConfig
from harvest.plumbing.capabilities import class_capabilities

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


class PlanError(Exception):
    """A spider selection the fleet cannot run; names the flag (or file) to fix."""

    def __init__(self, flag: str, message: str) -> None:
        self.flag = flag
        self.message = message
        super().__init__(f"{flag}: {message}")


@dataclass(frozen=True)
class SpiderPlan:
    """One spider of the fleet."""

    name: str
    #: Seconds between the starts of two rounds; None: one round only.
    refresh_interval: float | None
    replicas: int = 1
    #: The replicas are the workers of one partitioned crawl over the embedded state
    #: (harvest.state.partition), not processes sharing a Redis state.
    partitioned: bool = False
    #: Its speed is its own process's CPU (HarvestSpider.cpu_bound): cores the fleet leaves free
    #: make it faster as workers of one partitioned crawl.
    cpu_bound: bool = False


def configured_spiders(config_dir: str | Path, known: list[str]) -> list[str]:
    """Spiders named by a YAML file in ``config_dir`` (others are warned about and skipped)."""
    base = Path(config_dir)
    if not base.is_dir():
        return []
    names: list[str] = []
    for path in sorted([*base.glob("*.yaml"), *base.glob("*.yml")]):
        if path.stem in names:
            continue
        if path.stem in known:
            names.append(path.stem)
        else:
            logger.warning(
                "Ignoring %s: there is no spider named %r (spiders: %s)", path, path.stem, ", ".join(known)
            )
    return names


def build_plan(
    settings: BaseSettings, requested: list[str] | None, replicas: dict[str, int]
) -> list[SpiderPlan]:
    """The fleet's spiders with their refresh intervals; raises PlanError or ConfigError."""
    loader = get_spider_loader(settings)
    known = sorted(loader.list())
    if requested:
        unknown = [n for n in requested if n not in known]
        if unknown:
            raise PlanError(
                "--spiders", f"no spider named {', '.join(map(repr, unknown))} (spiders: {', '.join(known)})"
            )
        names = list(dict.fromkeys(requested))
    else:
        config_dir = settings.get("HARVEST_CONFIG_DIR")
        if not Path(config_dir).is_dir():
            raise PlanError(
                "HARVEST_CONFIG_DIR",
                f"{Path(config_dir).resolve()} is not a folder: run from the project folder, pass "
                f"-s HARVEST_CONFIG_DIR=/path/to/spiders_config, or name spiders with --spiders",
            )
        names = configured_spiders(config_dir, known)
        if not names:
            if not known:
                raise PlanError("SPIDER_MODULES", "the project has no spiders")
            logger.info("No spider YAML in %s; running every spider with its defaults", config_dir)
            names = known
    for name in replicas:
        if name not in names:
            raise PlanError("--replicas", f"{name!r} is not one of the spiders to run ({', '.join(names)})")
    plan = []
    for name in names:
        spidercls = loader.load(name)
        declared = class_capabilities(spidercls)
        # resolve_config raises ConfigError naming the file and key: the caller exits with 2.
        config = declared.resolve_config(settings, {}) or SpiderConfig()
        spider_settings = settings.copy()
        spidercls.update_settings(spider_settings)
        plan.append(
            SpiderPlan(
                name,
                config.refresh_interval,
                replicas.get(name, 1),
                cpu_bound=declared.cpu_bound(spider_settings, config),
            )
        )
    return plan


def spread_cores(
    plan: list[SpiderPlan], cores: int, fixed: set[str], most: int | None = None
) -> dict[str, int]:
    """The processes of each spider when the fleet gives free cores to its CPU-bound spiders.

    Each spider takes one process (or its ``--replicas``, the names in ``fixed``); the cores
    left of ``cores`` are shared out among the CPU-bound spiders not in ``fixed``, earlier
    spiders first for a remainder, as workers of their crawl: at most ``most`` workers each.
    """
    wanted = {p.name: p.replicas for p in plan}
    takers = [p.name for p in plan if p.cpu_bound and p.name not in fixed]
    free = max(0, cores - sum(wanted.values()))
    if not takers or not free:
        return wanted
    share, extra = divmod(free, len(takers))
    for i, name in enumerate(takers):
        wanted[name] += share + (1 if i < extra else 0)
        if most is not None:
            wanted[name] = max(1, min(wanted[name], most))
    return wanted
