"""RedisScaleAddon: ``HARVEST_STATE_URL=redis://...`` alone switches a crawl to the shared mode.

Listed in ``ADDONS`` (harvest/settings.py), it does nothing for the embedded store. For a Redis
URL it sets, before the engine starts:

- ``SCHEDULER``: :class:`harvest.scale.scheduler.RedisScheduler` (scrapy-redis's scheduler),
  in place of the embedded ``harvest.crawl.frontier.FrontierScheduler``;
- ``DUPEFILTER_CLASS``: :class:`harvest.scale.scheduler.RedisDupeFilter` (scrapy-redis's);
- ``SCHEDULER_PERSIST = True`` and ``REDIS_URL`` (for any other scrapy-redis component);
- the :class:`harvest.scale.coordinator.RedisCoordinator` extension.

A ``SCHEDULER`` or ``DUPEFILTER_CLASS`` the user chose explicitly is an error with Redis: the
shared crawl cannot work with another scheduler, so the crawl stops before it starts.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.utils.python import global_object_name

from harvest.exceptions import ConfigError
from harvest.state import is_redis_url

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

SCHEDULER = "harvest.scale.scheduler.RedisScheduler"
DUPEFILTER = "harvest.scale.scheduler.RedisDupeFilter"
#: What the project uses without Redis; replaced silently, anything else is refused.
_EMBEDDED = {
    "SCHEDULER": {"harvest.crawl.frontier.FrontierScheduler", "scrapy.core.scheduler.Scheduler", SCHEDULER},
    "DUPEFILTER_CLASS": {
        "scrapy.dupefilters.RFPDupeFilter",
        "harvest.state.dupefilter.SeenDupeFilter",
        DUPEFILTER,
    },
}


class RedisScaleAddon:
    """Scrapy add-on (``ADDONS``); see the module docstring."""

    def update_settings(self, settings: BaseSettings) -> None:
        """Switch scheduler, duplicate filter and coordinator on when the state URL is Redis."""
        url = settings.get("HARVEST_STATE_URL")
        if not is_redis_url(url):
            return
        if not settings.getbool("HARVEST_STATE_ENABLED"):
            raise ConfigError(
                "HARVEST_STATE_ENABLED",
                "must be on when HARVEST_STATE_URL is a Redis URL "
                "(the shared crawl lives in the crawl state)",
            )
        for name, ours in (("SCHEDULER", SCHEDULER), ("DUPEFILTER_CLASS", DUPEFILTER)):
            current = settings.get(name)
            current_path = current if isinstance(current, str) else global_object_name(current)
            if current_path not in _EMBEDDED[name]:
                raise ConfigError(
                    name,
                    f"{current_path} cannot share a crawl through Redis; "
                    f"leave {name} unset with HARVEST_STATE_URL=redis://...",
                )
            # Same priority as the value replaced (the project's), so -s still wins over both.
            settings.set(name, ours, priority=settings.getpriority(name) or "addon")
        settings.set("SCHEDULER_PERSIST", True, priority="addon")
        settings.set("REDIS_URL", url, priority="addon")
        # Imported here: redis and scrapy-redis load only for a crawl that uses them.
        from harvest.scale.coordinator import RedisCoordinator

        settings.set_in_component_priority_dict("EXTENSIONS", RedisCoordinator, 0)
