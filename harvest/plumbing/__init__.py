"""Scrapy plumbing that slims Scrapy.

Spider loader, log formatter, stats collector, lean middlewares, GC tuning, closing a crawl.
"""
