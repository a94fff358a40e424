"""Sites whose pages show no text without JavaScript: counted, and said once at the end.

A single-page app's shell (Docsify, a React or Vue app) fetched as HTML holds a mount point
and scripts, no text (``harvest.parsers.pagekind``: ``needs_script``). Extracting it would store
nothing or the site's chrome; it is not stored. A site that stored nothing and fetched such
pages gets one WARNING at the crawl's end, naming the fix (``render: true``): the user acts on
it, and a site where one page of many is an app (a search page) stays quiet.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)


@dataclass
class ScriptShells:
    """Per site: pages that need a script to show their text, the first of them, documents stored."""

    shells: Counter[str] = field(default_factory=Counter)
    first: dict[str, str] = field(default_factory=dict)
    stored: Counter[str] = field(default_factory=Counter)

    def shell(self, site: str, url: str) -> None:
        """``url`` of ``site`` shows no text without its scripts."""
        self.shells[site] += 1
        self.first.setdefault(site, url)
        logger.info("%s shows no text without JavaScript: not stored (the site is not rendered)", url)

    def document(self, site: str) -> None:
        """A document of ``site`` was stored."""
        self.stored[site] += 1

    def report(self) -> None:
        """One WARNING per site that stored nothing while some of its pages needed a script."""
        for site, count in sorted(self.shells.items()):
            if self.stored[site]:
                continue
            logger.warning(
                "Site %s stored nothing: %d of its pages show no text without JavaScript (%s); set "
                "render: true for it in the blogs YAML (or -a render=true) to fetch them through a browser",
                site,
                count,
                self.first[site],
            )
