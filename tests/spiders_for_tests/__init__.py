"""Spiders used only by tests (load with ``-s SPIDER_MODULES=tests.spiders_for_tests``)."""
