"""Article extraction in worker processes, fed from the crawl's event loop.

:class:`ExtractionPool` (``harvest.extraction.pool``) spawns ``python -m
harvest.extraction.worker`` processes, feeds them pages with a bound on pages in flight,
replaces a worker after ``max_tasks_per_child`` pages or when it dies (:class:`WorkerCrashed`;
its pages are then extracted inline) and stops them on close. The worker's main loop
(``harvest.extraction.worker``) runs the pure parser :func:`harvest.parsers.article.extract_article`.
"""

from harvest.extraction.pool import ExtractionPool, WorkerCrashed

__all__ = ["ExtractionPool", "WorkerCrashed"]
