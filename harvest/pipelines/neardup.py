"""NearDupPipeline: documents that nearly repeat a stored one are flagged (or dropped).

Exact duplicates are the dedup pipeline's (content hashes); this one catches the same text with
another sidebar or footer, a mirrored page, a post republished with a line added. Each
document's MinHash signature (:mod:`harvest.parsers.neardup`) is looked up in the persisted
LSH index (:mod:`harvest.state.neardup`, shared by every spider) and among this crawl's
documents not committed yet (with a Redis crawl state, the index is in that Redis, shared by
every machine). ``HARVEST_NEAR_DUP``:

- ``flag`` (default): stored, with ``near_duplicate_of`` = the URL of the earlier document;
- ``drop``: not stored;
- ``off``: no signatures at all.

Either way the stat ``harvest/dedup/near_duplicate`` counts them. Only documents stored as
originals enter the index, so a chain of copies points at the first one.

Exactly-once: a document enters the index once its JSON line was written (``item_scraped``),
and the index commits just before the crawl state, after the output files were fsynced, with
the offset of ``document.jsonl`` it covers. On open, lines past that offset (written by a run
killed before its index commit) are indexed from their Markdown files.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured

from harvest.exceptions import NotApplicable, StateError
from harvest.identity import canonical_url
from harvest.items import DocumentItem
from harvest.parsers.neardup import Signatures, from_bytes, signature, similarity
from harvest.plumbing.capabilities import capabilities
from harvest.state.crawl import CrawlState
from harvest.state.neardup import IndexedDoc, NearDupIndex, NearMatch, RedisNearDupIndex, state_root
from harvest.state.partition import Partition
from harvest.util.jsonlines import replay_lines

if TYPE_CHECKING:
    from collections.abc import Mapping

    import numpy as np
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

MODES = ("flag", "drop", "off")
DOCUMENT_FILE = "document.jsonl"


def markdown_body(text: str) -> str:
    """The body of a Markdown file written by the output pipeline (front matter removed)."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end >= 0:
            return text[end + 5 :]
    return text


class NearDupPipeline:
    """Flags or drops near-duplicate documents (see the module docstring)."""

    def __init__(
        self,
        root: Path,
        spider_dir: Path,
        spider: str,
        *,
        mode: str = "flag",
        threshold: float = 0.9,
        state_url: str = "",
        state: CrawlState | None = None,
        stats: StatsCollector | None = None,
        partition: Partition | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"HARVEST_NEAR_DUP must be one of {', '.join(MODES)}, not {mode!r}")
        self.root = root
        self.spider_dir = spider_dir
        self.spider = spider
        # A worker of a partitioned crawl writes its own document file and keeps its own place
        # in the index's progress (harvest.state.partition); one process: document.jsonl, the spider.
        part = partition or Partition()
        self.document_file = part.output_file(DOCUMENT_FILE.removesuffix(".jsonl"))
        self.progress_key = part.state_name(spider)
        self.mode = mode
        self.threshold = threshold
        self.state_url = state_url
        self.state = state
        self.stats = stats
        self.index: NearDupIndex | RedisNearDupIndex | None = None
        #: Passed this pipeline, not written yet: id(item) -> doc.
        self._inflight: dict[int, IndexedDoc] = {}
        #: Written, waiting for the next commit.
        self._written: list[IndexedDoc] = []
        #: Their signatures, in the same order, as one matrix.
        self._written_sigs = Signatures()
        self._hooked = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Mode from ``HARVEST_NEAR_DUP``, index beside the crawl state."""
        settings = crawler.settings
        mode = (settings.get("HARVEST_NEAR_DUP") or "off").strip().lower()
        if mode == "off":
            raise NotConfigured  # HARVEST_NEAR_DUP is off (bare: a message is logged at WARNING)
        if not capabilities(crawler.spider).writes_text:
            # Nothing to compare when no text comes; not worth opening the index for.
            raise NotApplicable("this run yields no text (blogs with extraction off)")
        assert crawler.spidercls is not None
        data_dir = Path(settings.get("HARVEST_DATA_DIR"))
        pipeline = cls(
            state_root(settings.get("HARVEST_STATE_URL") or "", data_dir),
            data_dir / crawler.spidercls.name,
            crawler.spidercls.name,
            mode=mode,
            threshold=settings.getfloat("HARVEST_NEAR_DUP_THRESHOLD"),
            state_url=settings.get("HARVEST_STATE_URL") or "",
            state=CrawlState.from_crawler(crawler),
            stats=crawler.stats,
            partition=Partition.from_settings(settings),
        )
        crawler.signals.connect(pipeline.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(pipeline.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(pipeline.item_dropped, signal=signals.item_error)
        return pipeline

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None and count:
            self.stats.inc_value(key, count)

    def open_spider(self) -> None:
        """Open the index and index what the last run wrote after its last index commit."""
        if urlsplit(self.state_url).scheme in {"redis", "rediss"}:
            self.index = RedisNearDupIndex(self.state_url, threshold=self.threshold)
        else:
            self.index = NearDupIndex.open(self.root, threshold=self.threshold)
        self.catch_up()

    def catch_up(self) -> int:
        """Index the complete lines of the document file past the committed offset."""
        assert self.index is not None
        path = self.spider_dir / self.document_file
        start = self.index.offset(self.progress_key)
        if not path.exists() or path.stat().st_size <= start:
            return 0
        docs: list[IndexedDoc] = []

        def index(record: Mapping[str, Any]) -> None:
            doc = self._doc_from_record(record)
            if doc is not None:
                docs.append(doc)

        _, pos = replay_lines(path, start, index)
        added = self.index.add(docs, spider=self.progress_key, offset=pos)
        if added:
            logger.info("Near-duplicate index: %d documents written by an earlier run indexed", added)
        return added

    def _doc_from_record(self, record: Mapping[str, Any]) -> IndexedDoc | None:
        if record.get("near_duplicate_of") or record.get("text_withheld") or not record.get("path"):
            return None
        try:
            text = markdown_body(Path(str(record["path"])).read_text(encoding="utf-8"))
        except OSError:
            return None
        sig = signature(text)
        if sig is None:
            return None
        return IndexedDoc(
            self.spider,
            canonical_url(str(record.get("url") or "")),
            str(record.get("content_hash") or ""),
            sig,
        )

    def _local_match(self, sig: np.ndarray, url: str) -> NearMatch | None:
        """The first document written since the last commit, or in flight, similar to ``sig``."""
        for pos, score in self._written_sigs.similar(sig, self.threshold):
            doc = self._written[pos]
            if doc.url != url:
                return NearMatch(doc.url, doc.spider, score)
        for doc in self._inflight.values():
            if doc.url != url and similarity(sig, doc.signature) >= self.threshold:
                return NearMatch(doc.url, doc.spider, similarity(sig, doc.signature))
        return None

    def process_item(self, item: Any) -> Any:
        """Flag or drop a near-duplicate document; remember an original for the index."""
        if not isinstance(item, DocumentItem) or not item.content:
            return item
        if not self._hooked and self.state is not None:
            # Registered on the first item, after the output pipeline's own hook: the index
            # commits once the lines it covers are fsynced.
            self.state.add_pre_commit(self.commit)
            self._hooked = True
        assert self.index is not None
        # The extraction worker's signature of this very text when it made one (blogs, pool).
        sig = from_bytes(item.minhash) if item.minhash else signature(item.content)
        if sig is None:
            return item
        url = canonical_url(item.url)
        try:
            match = self._local_match(sig, url) or self.index.find(sig, exclude_url=url)
        except StateError as exc:
            if self.state is None:
                raise
            if not self.state.shared_store_failed(exc):
                # The index has its own connection (Redis) or file: failing here while the crawl
                # state works would drop the item and count its request done, losing the page.
                # Stopped as if killed here instead: nothing more commits, the next run fetches it.
                # (The crawl state's Redis failing stops the crawl through its coordinator.)
                logger.error("The near-duplicate index failed; stopping the crawl: %s", exc)
                self.state.abandon("state_error")
            raise DropItem(f"not stored: {exc}", log_level="DEBUG") from exc
        if match is None:
            self._inflight[id(item)] = IndexedDoc(self.spider, url, item.content_hash, sig)
            return item
        self._inc("harvest/dedup/near_duplicate")
        if self.mode == "drop":
            raise DropItem(
                f"near-duplicate ({match.similarity:.2f}) of {match.url}: {item.url}", log_level="DEBUG"
            )
        item.near_duplicate_of = match.url
        logger.debug("%s is a near-duplicate (%.2f) of %s", item.url, match.similarity, match.url)
        return item

    def item_scraped(self, item: Any, **_: Any) -> None:
        """The item was written: its signature goes into the next index commit."""
        doc = self._inflight.pop(id(item), None)
        if doc is not None:
            self._written.append(doc)
            self._written_sigs.append(doc.signature)

    def item_dropped(self, item: Any, **_: Any) -> None:
        """A later pipeline dropped the item: not indexed."""
        self._inflight.pop(id(item), None)

    def commit(self) -> dict[str, int]:
        """Pre-commit hook: index the written documents, with the offset their lines reach."""
        if self.index is None:
            return {}
        offset = None
        if self.state is not None:
            offset = self.state.batch.offsets.get(self.document_file)
        if self._written or offset is not None:
            self.index.add(self._written, spider=self.progress_key, offset=offset)
            self._written = []
            self._written_sigs.clear()
        return {}

    def close_spider(self) -> None:
        """Commit (outputs, then index, then state) and close the index."""
        if self.state is not None:
            if self._hooked:
                self.state.commit_safely()
            self.state.remove_pre_commit(self.commit)
        if self.index is not None:
            # An abandoned crawl (full disk, lost lease) committed nothing more: its last lines
            # are replayed into the index from the committed offset by the next run.
            if self._written and (self.state is None or self.state.abandoned is None):
                self.index.add(self._written)
            self._written = []
            self._written_sigs.clear()
            self.index.close()
            self.index = None
