"""Tests of plumbing."""
