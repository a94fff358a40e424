"""Tests of crawl."""
