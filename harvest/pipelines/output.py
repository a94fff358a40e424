"""OutputPipeline: JSON Lines per item type, and one Markdown file per document.

Layout under ``HARVEST_DATA_DIR/<spider>/``: ``<type>.jsonl`` (one JSON object per line,
appended and flushed as items pass) and, for documents, the ``.md`` file named by the item's
``path`` with a YAML front matter. The Markdown file is written to a temporary name and renamed,
so a reader never sees half a document.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import yaml
from itemadapter import ItemAdapter

from harvest.items import DocumentItem

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from typing_extensions import Self

logger = logging.getLogger(__name__)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temp file and rename: never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def render_markdown(front_matter: dict[str, Any], body: str) -> str:
    """A Markdown document with a YAML front matter block."""
    head = yaml.safe_dump(front_matter, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{head}---\n\n{body.rstrip()}\n"


def resolve_document_path(spider_dir: Path, relpath: str) -> Path:
    """``spider_dir/relpath``, refusing anything that would land outside ``spider_dir``."""
    rel = Path(relpath)
    if rel.is_absolute() or ".." in rel.parts or "\x00" in relpath:
        raise ValueError(f"document path {relpath!r} must be relative and stay inside {spider_dir}")
    base = spider_dir.resolve()
    target = (base / rel).resolve()
    if base not in target.parents:
        raise ValueError(f"document path {relpath!r} escapes {spider_dir}")
    return target


class OutputPipeline:
    """Writes every item that reaches it; enabled in ITEM_PIPELINES after the dedup pipeline."""

    def __init__(self, data_dir: str | Path, spider_name: str) -> None:
        self.data_dir = Path(data_dir)
        self.spider_dir = self.data_dir / spider_name
        self._files: dict[str, IO[str]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from ``HARVEST_DATA_DIR`` and the crawler's spider name."""
        assert crawler.spidercls is not None
        return cls(crawler.settings.get("HARVEST_DATA_DIR"), crawler.spidercls.name)

    def open_spider(self) -> None:
        """Create the spider's output folder."""
        self.spider_dir.mkdir(parents=True, exist_ok=True)

    def close_spider(self) -> None:
        """Flush and close every JSON Lines file."""
        for fh in self._files.values():
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
        self._files.clear()

    def _jsonl(self, item_type: str) -> IO[str]:
        fh = self._files.get(item_type)
        if fh is None:
            fh = open(self.spider_dir / f"{item_type}.jsonl", "a", encoding="utf-8")  # noqa: SIM115
            self._files[item_type] = fh
        return fh

    def process_item(self, item: Any) -> Any:
        """Write the document's Markdown file (if any), then its JSON line."""
        if isinstance(item, DocumentItem):
            target = resolve_document_path(self.spider_dir, item.path)
            atomic_write_text(target, render_markdown(item.front_matter(), item.content))
            item.path = str(self.spider_dir / Path(item.path))
        record = ItemAdapter(item).asdict()
        record.pop("content", None)
        fh = self._jsonl(str(record.get("type") or "item"))
        fh.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")
        fh.flush()
        return item
