"""When each site last finished a round: the per-site ``refresh_interval`` of the blogs spider.

A site is crawled again only once its ``refresh_interval`` has passed since the last round that
crawled it and ended ``finished``. Those times are one small JSON object per crawl state,
``{"<site>": <unix time>, ...}`` in ``site_rounds.json`` next to the state database
(:func:`rounds_path`), read when a round starts and rewritten whole when it finishes. A file
that cannot be read makes every site due: the cost is one extra round, never a skipped site.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

logger = logging.getLogger(__name__)

#: The file's name in the crawl state's folder (``HARVEST_DATA_DIR/state/<state name>/``).
ROUNDS_FILE = "site_rounds.json"

#: Writes a whole file so that no reader sees half of it (temp file, fsync, rename).
AtomicWrite = Callable[[Path, str], object]


def rounds_path(data_dir: str | Path, state_name: str) -> Path:
    """The rounds file of the crawl state named ``state_name`` under ``data_dir``.

    ``state_name`` is the spider's name for a crawl in one process, which is where the file has
    always been; a partitioned crawl can pass its worker's state name instead.
    """
    return Path(data_dir) / "state" / state_name / ROUNDS_FILE


@dataclass
class SiteRounds:
    """The end times of the last finished round of each site, as stored in ``path``."""

    path: Path
    #: Site name -> unix time its last finished round ended.
    finished: dict[str, float] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> SiteRounds:
        """The rounds stored in ``path``; none when it is missing or unreadable (logged)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            finished = {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}
        except FileNotFoundError:
            return cls(path)
        except (OSError, ValueError, TypeError):
            logger.warning("Ignoring unreadable %s; every site is crawled this round", path)
            return cls(path)
        return cls(path, finished)

    def last(self, site: str) -> float | None:
        """When ``site`` last finished a round; None when it never did (as far as recorded)."""
        return self.finished.get(site)

    def record(self, sites: Iterable[str], when: float) -> None:
        """Note that each of ``sites`` finished a round at ``when``."""
        self.finished.update(dict.fromkeys(sites, when))

    def save(self, write: AtomicWrite) -> bool:
        """Store the rounds in ``path`` with ``write``; False (logged) when that fails.

        ``write`` is :func:`harvest.util.files.atomic_write_text`, handed in by the caller:
        the state package sits below the pipelines and may not import them.
        """
        try:
            write(self.path, json.dumps(self.finished, indent=1, sort_keys=True))
        except OSError:
            logger.warning("Could not record the round times in %s", self.path, exc_info=True)
            return False
        return True
