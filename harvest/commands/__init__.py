"""harvest's Scrapy commands (COMMANDS_MODULE): a stricter ``crawl``."""
