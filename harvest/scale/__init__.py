"""Scale-out: many processes of one spider, on one or many machines, sharing a crawl in Redis.

Turned on by ``HARVEST_STATE_URL=redis://host:port/db`` alone. :class:`~harvest.scale.addon.
RedisScaleAddon` (in ``ADDONS``) then swaps in scrapy-redis's scheduler and duplicate filter
(thin subclasses in :mod:`harvest.scale.scheduler`, which fit them to Scrapy 2.14+ and to the
crawl state) and enables :class:`~harvest.scale.coordinator.RedisCoordinator`, which keeps
the workers alive in a registry, gives a dead worker's requests to the others, and closes each
worker once the shared frontier is drained. The state itself (seen items, content hashes,
validators, output offsets) is :class:`harvest.state.redis.RedisStateStore`.
"""
