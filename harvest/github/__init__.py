"""GitHub REST API support: query slicing, shared rate limits, per-token conditional requests.

The package holds the query slicer (:mod:`~harvest.github.query`) and the search planner with
its memo (:mod:`~harvest.github.planner`), a search's run state (:mod:`~harvest.github.runs`)
and the reading of its pages' answers (:mod:`~harvest.github.searches`), a rate-limit budget
shared across processes (:mod:`~harvest.github.budget`, read from the answers by
:mod:`~harvest.github.ratelimit`, waited for by :mod:`~harvest.github.grants`), per-token
validators, the downloader middleware that applies them, and README documents
(:mod:`~harvest.github.readme`).

The token is read from the ``GITHUB_TOKEN`` environment variable only. Everything stored or
logged refers to it through :func:`token_digest`, never the token itself.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: The only place a token comes from.
TOKEN_ENV = "GITHUB_TOKEN"
#: Digest used for requests sent without a token (GitHub's limits then apply per IP).
ANONYMOUS = "anonymous"


def github_token() -> str | None:
    """The token from the environment; blank counts as none."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    return token or None


def token_digest(token: str | None) -> str:
    """A stable, non-reversible name for a token, safe for state files, logs and meta."""
    if not token:
        return ANONYMOUS
    return "t-" + hashlib.sha256(b"harvest/github-token\x00" + token.encode("utf-8")).hexdigest()[:24]


def state_dir(settings: BaseSettings) -> Path:
    """Folder of the GitHub state shared by every harvest process on this data folder."""
    configured = settings.get("HARVEST_GITHUB_STATE_DIR")
    if configured:
        return Path(configured)
    return Path(settings.get("HARVEST_DATA_DIR")) / "state" / "_github"
