"""CSV feed exports (``-o``/``-O out.csv``) with every field of every item type, in fixed columns.

Scrapy's CSV exporter takes its columns from the first item: a trending crawl whose first item
was a repository dropped the developers' ``username``, ``name`` and ``popular_repo`` (with a
WARNING), and one ``language`` column mixed a repository's programming language ("C++") with a
document's detected text language ("en"). :class:`TypedCsvItemExporter` writes one fixed column
set whatever comes first: ``type`` (which item type the row is), then every field of every item
type in :data:`ITEM_CLASSES` order, each once; a field two types share means the same thing in
both, except a document's language fields, written as ``text_language``,
``text_language_declared`` and ``text_language_score``. A row leaves the columns of other types
empty. Lists of strings are joined with ``,`` (as Scrapy does), other lists and objects are JSON.
``FEED_EXPORT_FIELDS`` (or a feed's ``fields``), when given, is used as Scrapy uses it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

from itemadapter import ItemAdapter
from scrapy.exporters import CsvItemExporter

from harvest.items import (
    ArchivedTrendingDeveloperItem,
    ArchivedTrendingRepoItem,
    DocumentItem,
    PageItem,
    RepoItem,
    TrendingDeveloperItem,
    TrendingRepoItem,
)

logger = logging.getLogger(__name__)

#: Item types in column order (an archived observation adds its ``archived`` column).
ITEM_CLASSES: tuple[type, ...] = (
    TrendingRepoItem,
    ArchivedTrendingRepoItem,
    TrendingDeveloperItem,
    ArchivedTrendingDeveloperItem,
    RepoItem,
    DocumentItem,
    PageItem,
)
#: Fields named differently in CSV, by item type: a document's language is its text's, a
#: repository's its code's; one column holding both misled.
RENAMED = {
    "document": {
        "language": "text_language",
        "language_declared": "text_language_declared",
        "language_score": "text_language_score",
    }
}


def _type_of(cls: type) -> str:
    return str(next(f.default for f in dataclasses.fields(cls) if f.name == "type"))


def csv_columns() -> list[str]:
    """The fixed columns of a CSV feed: ``type``, then each item type's fields (documented)."""
    columns = ["type"]
    for cls in ITEM_CLASSES:
        renamed = RENAMED.get(_type_of(cls), {})
        for f in dataclasses.fields(cls):
            if f.name == "type" or f.metadata.get("transient"):
                continue
            name = renamed.get(f.name, f.name)
            if name not in columns:
                columns.append(name)
    return columns


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


class TypedCsvItemExporter(CsvItemExporter):
    """Scrapy's CSV exporter with :func:`csv_columns` as its columns (see the module docstring)."""

    def __init__(self, file: Any, **kwargs: Any) -> None:
        super().__init__(file, **kwargs)
        self._own_columns = self.fields_to_export is None
        if self._own_columns:
            self._columns = csv_columns()

    def export_item(self, item: Any) -> None:
        """Write ``item`` as a row of the fixed columns (the header first)."""
        if not self._own_columns:
            super().export_item(item)
            return
        if self._headers_not_written:
            self._headers_not_written = False
            if self.include_headers_line:
                self.csv_writer.writerow(self._columns)
        adapter = ItemAdapter(item)
        row: dict[str, Any] = {str(k): v for k, v in adapter.items()}
        renamed = RENAMED.get(str(row.get("type")), {})
        values = {renamed.get(k, k): v for k, v in row.items()}
        unknown = [k for k in values if k not in self._columns and k != "minhash"]
        if unknown:  # an item type not in ITEM_CLASSES: said, not silently dropped
            logger.error("CSV feed: fields %s of a %s have no column", sorted(unknown), type(item).__name__)
        self.csv_writer.writerow([_cell(values.get(name)) for name in self._columns])
