"""Pure extraction functions: page text in, plain rows out (no Scrapy, no I/O)."""
