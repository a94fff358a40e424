"""A GitHub repository's README as a ``DocumentItem``, however it was fetched.

The trending spider fetches READMEs from the raw host (or the API with a token), github_search
from the API; both store them the same way: ``readmes/<safe name>.md``, titled by the README's
own heading (else the repository's name), under the repository's page as canonical URL.
"""

from __future__ import annotations

from harvest.fingerprints import content_hash, utc_now
from harvest.items import DocumentItem
from harvest.parsers.github_api import load_json, parse_readme
from harvest.parsers.readme import readme_title
from harvest.util.paths import safe_name
from harvest.util.redaction import scrub


def readme_document(repo: str, text: str, *, url: str, web_url: str) -> DocumentItem | None:
    """The README ``text`` of ``repo`` (``owner/name``), fetched from ``url``; None when blank.

    ``web_url`` is ``GITHUB_WEB_URL``, where the repository's page (the canonical URL) lives.
    """
    if not text.strip():
        return None
    # One line-ending convention in the stored Markdown (the content hash ignores it anyway).
    # The token in any encoding is masked: an API or proxy that echoes the request's credential
    # into the answer cannot make the dataset carry it (nothing else of the text is touched).
    text = scrub(text.replace("\r\n", "\n").replace("\r", "\n"), patterns=False)
    return DocumentItem(
        url=url,
        canonical_url=f"{web_url.rstrip('/')}/{repo}",
        repo=repo,
        title=readme_title(text) or repo,
        path=f"readmes/{safe_name(repo, suffix='.md')}",
        content_hash=content_hash(text),
        fetched_at=utc_now(),
        source="readme",
        content=text,
    )


def api_readme(body: bytes, response_url: str) -> tuple[str, str]:
    """(text, URL) of a ``GET /repos/{owner}/{repo}/readme`` answer; ValueError when unusable.

    The URL is the file's own (``download_url``, else its page), else ``response_url``.
    """
    readme = parse_readme(load_json(body))
    return readme.text, readme.download_url or readme.html_url or response_url
