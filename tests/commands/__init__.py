"""Tests of commands."""
