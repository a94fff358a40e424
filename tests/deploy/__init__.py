"""Deployment tests: harvest built and uploaded with scrapyd-deploy, run by a real scrapyd."""
