"""Scrapy extensions and middlewares that are not tied to one spider."""
