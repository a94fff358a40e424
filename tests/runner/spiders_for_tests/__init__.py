"""Small spiders for the fleet's tests (loaded with -s SPIDER_MODULES=tests.runner.spiders_for_tests)."""
