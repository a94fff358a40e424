"""Tests of util."""
