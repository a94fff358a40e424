"""What extracting a page returns: the article, and what an extraction worker derived from its text.

A worker computes, beside the article, what the crawl process would otherwise compute from the
same text per document: its language (with ``HARVEST_LANGUAGE_DETECT``) and its content hash.
Done there, neither is the crawl process's work, which the crawl's speed waits on (BENCHMARKS.md,
issue 34). Extracted inline (or when a worker died), only the article is set, and the pipelines
compute the rest as before.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from harvest.fingerprints import content_hash
from harvest.parsers.article import Article
from harvest.parsers.language import detect_language


@dataclass
class Extracted:
    """An article, with its language and content hash when a worker computed them."""

    article: Article
    #: Language detection ran on ``article.markdown``: ``language`` None then means too little text.
    language_detected: bool = False
    #: ISO 639-1 code (639-3 without one), as :func:`harvest.parsers.language.detect_language`.
    language: str | None = None
    language_score: float | None = None
    #: :func:`harvest.fingerprints.content_hash` of ``article.markdown``.
    content_hash: str | None = None

    @classmethod
    def derive(cls, article: Article, *, language: bool) -> Extracted:
        """``article`` with its content hash, and its language when ``language`` is set."""
        extracted = cls(article, content_hash=content_hash(article.markdown))
        if language:
            guess = detect_language(article.markdown)
            extracted.language_detected = True
            if guess is not None:
                extracted.language, extracted.language_score = guess.language, guess.score
        return extracted

    def to_fields(self) -> dict[str, Any]:
        """Plain values, what crosses the worker's pipe."""
        return asdict(self)

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Extracted:
        """Back from :meth:`to_fields`."""
        return cls(**{**fields, "article": Article(**fields["article"])})
