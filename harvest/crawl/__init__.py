"""One crawl of one spider.

Building it, pre-flight checks, the frontier scheduler, hand-off between workers, the worker
supervisor and the policy that sizes it.
"""
