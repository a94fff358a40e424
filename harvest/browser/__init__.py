"""A browser for rendered pages.

Finding and installing Chromium, and the guard that keeps its traffic to public addresses.
"""
