"""A repository item from one object of GitHub's search (or ``/repos/...``) answers.

Here rather than in :mod:`harvest.parsers.github_api`: parsers return plain data and know no
item types (items sit above parsers, because items carry the parsers' rights signals).
"""

from __future__ import annotations

from typing import Any

from harvest.items import RepoItem
from harvest.parsers.github_api import as_int, as_str


def repo_item(raw: dict[str, Any], *, query: str, observed_at: str) -> RepoItem | None:
    """A RepoItem from one search (or ``/repos/...``) object; None when it names no repository."""
    full_name = as_str(raw.get("full_name"))
    if full_name is None:
        owner: dict[str, Any] = raw["owner"] if isinstance(raw.get("owner"), dict) else {}
        login, name = as_str(owner.get("login")), as_str(raw.get("name"))
        full_name = f"{login}/{name}" if login and name else None
    if full_name is None:
        return None
    topics = raw.get("topics")
    return RepoItem(
        repo=full_name,
        url=as_str(raw.get("html_url")) or f"https://github.com/{full_name}",
        description=as_str(raw.get("description")),
        language=as_str(raw.get("language")),
        topics=[t for t in topics if isinstance(t, str)] if isinstance(topics, list) else [],
        stars=as_int(raw.get("stargazers_count", raw.get("watchers_count"))),
        forks=as_int(raw.get("forks_count", raw.get("forks"))),
        open_issues=as_int(raw.get("open_issues_count", raw.get("open_issues"))),
        created_at=as_str(raw.get("created_at")),
        pushed_at=as_str(raw.get("pushed_at")),
        # ``master_branch`` is the 2013-2014 name of the same field.
        default_branch=as_str(raw.get("default_branch")) or as_str(raw.get("master_branch")),
        archived=bool(raw.get("archived", False)),
        fork=bool(raw.get("fork", False)),
        query=query,
        observed_at=observed_at,
    )
