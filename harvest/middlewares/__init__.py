"""Downloader and spider middlewares shared by every harvest spider, one module per concern.

For example :mod:`harvest.middlewares.revisit` (skip fresh documents, conditional revisits,
304 handling). The frontier spider middleware lives with its scheduler in :mod:`harvest.crawl.frontier`.
"""
