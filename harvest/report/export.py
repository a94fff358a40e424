"""Export the committed outputs as a dataset: Parquet or JSON Lines parts plus a dataset card.

``scrapy export <spider|all> --format parquet|jsonl --output DIR [--since DATE]`` (see
:mod:`harvest.commands.export`) writes ``DIR/<type>/part-NNNNN.<ext>`` with a fixed schema per
item type (:func:`schema_for`: the fields of :mod:`harvest.items`; documents drop the local
``path`` and ``content`` and get ``text``, their Markdown body, and every row gets ``spider``),
and ``DIR/README.md``, the dataset card.

Only committed lines are read (up to the byte offset the crawl state committed, so a crawl may
be running); ``DIR/.harvest-export.json`` remembers how far each file was exported and the
running counts of the card, so a second export writes only the new rows, as new parts.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
import types
import typing
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from harvest import items as item_types
from harvest.exceptions import StateError
from harvest.parsers.rights import Rights
from harvest.pipelines.neardup import markdown_body
from harvest.state import open_store
from harvest.state.partition import state_names
from harvest.util.jsonlines import replay_lines

logger = logging.getLogger(__name__)

FORMATS = ("parquet", "jsonl")
STATE_FILE = ".harvest-export.json"
#: Rows per Parquet row group: documents carry whole texts, so smaller groups stream better.
ROW_GROUP_ROWS = {"document": 1_000, "page": 200}
DEFAULT_ROW_GROUP_ROWS = 10_000
#: Folders of the data directory that are not spiders' outputs.
NOT_SPIDERS = frozenset({"state", "logs", "fleet", "report"})
#: Settings named on the card: they decide what the data holds.
CARD_SETTINGS = (
    "USER_AGENT",
    "ROBOTSTXT_OBEY",
    "HARVEST_RESPECT_OPTOUT",
    "HARVEST_NEAR_DUP",
    "HARVEST_NEAR_DUP_THRESHOLD",
    "HARVEST_LANGUAGE_DETECT",
    "HARVEST_WARC_ENABLED",
    "HARVEST_DEDUP_CROSS_SPIDER",
)
_ITEM_CLASSES = {
    cls.type: cls
    for cls in (
        item_types.TrendingRepoItem,
        item_types.TrendingDeveloperItem,
        item_types.RepoItem,
        item_types.DocumentItem,
        item_types.PageItem,
    )
}
_RIGHTS_TYPE = pa.struct(
    [
        ("robots_txt", pa.string()),
        ("robots", pa.list_(pa.string())),
        ("tdm_reservation", pa.bool_()),
        ("tdm_policy", pa.string()),
        ("tdm_source", pa.string()),
        ("license_url", pa.string()),
        ("opted_out", pa.bool_()),
    ]
)
_DATE_FIELDS = ("fetched_at", "observed_at")


def _arrow_type(hint: Any) -> pa.DataType:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) and len(args) == 1:
        return _arrow_type(args[0])
    if origin is list:
        return pa.list_(_arrow_type(args[0]))
    if hint is Rights:
        return _RIGHTS_TYPE
    return {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_()}[hint]


def schema_for(item_type: str) -> pa.Schema:
    """The fixed Parquet schema of an item type (documented in the card)."""
    cls = _ITEM_CLASSES[item_type]
    hints = typing.get_type_hints(cls, vars(item_types))
    columns = [("spider", pa.string())]
    for f in dataclasses.fields(cls):
        if f.metadata.get("transient") or (item_type == "document" and f.name in {"content", "path"}):
            continue
        columns.append((f.name, _arrow_type(hints[f.name])))
    if item_type == "document":
        columns.append(("text", pa.large_string()))
    return pa.schema(columns)


def committed_offsets(data_dir: Path, spider: str, state_url: str = "") -> dict[str, int] | None:
    """Committed byte offsets of a spider's output files (None: no crawl state to ask).

    A partitioned crawl (``HARVEST_CRAWL_WORKERS``) commits each worker's files in that worker's
    state: their offsets are merged (file names differ by worker, so none is overwritten).
    """
    if state_url:
        names = [spider]
    else:
        try:
            names = [n for n in state_names(data_dir, spider) if (data_dir / "state" / n).exists()]
        except ValueError as exc:
            logger.info("No committed offsets for %s (%s): exporting complete lines only", spider, exc)
            return None
        if not names:
            return None
    merged: dict[str, int] = {}
    for name in names:
        try:
            store = open_store(state_url, name, data_dir, readonly=True)
        except StateError as exc:
            logger.info("No committed offsets for %s (%s): exporting complete lines only", name, exc)
            return None
        try:
            merged.update(store.output_offsets())
        finally:
            store.close()
    return merged


@dataclass
class ExportState:
    """What earlier exports into a folder did: offsets, next part numbers, the card's counts."""

    format: str = "parquet"
    offsets: dict[str, int] = field(default_factory=dict)
    parts: dict[str, int] = field(default_factory=dict)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    dates: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Path) -> ExportState:
        """Read ``.harvest-export.json`` (a fresh state when absent)."""
        path = folder / STATE_FILE
        if not path.exists():
            return cls()
        return cls(**json.loads(path.read_text(encoding="utf-8")))

    def save(self, folder: Path) -> None:
        """Write it atomically."""
        tmp = folder / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(dataclasses.asdict(self), indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(folder / STATE_FILE)

    def count(self, group: str, key: str | None, n: int = 1) -> None:
        """Add to one count of the card."""
        bucket = self.counts.setdefault(group, {})
        name = key if key is not None else "(none)"
        bucket[name] = bucket.get(name, 0) + n


@dataclass
class ExportResult:
    """What one export wrote."""

    rows: Counter[str]
    files: list[Path]
    card: Path
    seconds: float


def spiders_in(data_dir: Path) -> list[str]:
    """Spiders with output under the data folder."""
    return sorted(
        p.name
        for p in data_dir.iterdir()
        if p.is_dir() and p.name not in NOT_SPIDERS and any(p.glob("*.jsonl"))
    )


def _stamp(record: dict[str, Any]) -> str:
    """When a row was observed or fetched ("" when it says neither)."""
    return next((str(record[k]) for k in _DATE_FIELDS if record.get(k)), "")


def _rows(path: Path, start: int, end: int, since: str | None) -> tuple[list[dict[str, Any]], int]:
    rows: list[dict[str, Any]] = []

    def keep(record: dict[str, Any]) -> None:
        stamp = _stamp(record)
        if not (since and stamp and stamp < since):
            rows.append(record)

    _, pos = replay_lines(path, start, keep, end=end)
    return rows, pos


def _document_row(record: dict[str, Any]) -> dict[str, Any]:
    text = ""
    if record.get("path") and not record.get("text_withheld"):
        try:
            text = markdown_body(Path(str(record["path"])).read_text(encoding="utf-8")).strip() + "\n"
        except OSError:
            logger.warning("Markdown file of %s is missing: %s", record.get("url"), record.get("path"))
    return {**record, "text": text}


def _collect_rows(
    data: Path, spiders: list[str], offsets: dict[str, int], state_url: str, since: str | None
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int]]:
    """The new rows of each item type past ``offsets``, and the offsets they end at."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    new_offsets: dict[str, int] = {}
    for spider in spiders:
        committed = committed_offsets(data, spider, state_url)
        for path in sorted((data / spider).glob("*.jsonl")):
            key = f"{spider}/{path.name}"
            start = offsets.get(key, 0)
            end = committed.get(path.name, 0) if committed is not None else path.stat().st_size
            if end <= start:
                continue
            rows, pos = _rows(path, start, end, since)
            new_offsets[key] = pos
            for record in rows:
                item_type = str(record.get("type") or path.stem)
                if item_type not in _ITEM_CLASSES:
                    continue
                record["spider"] = spider
                if item_type == "document":
                    record = _document_row(record)
                by_type.setdefault(item_type, []).append(record)
    return by_type, new_offsets


def _write_part(folder: Path, item_type: str, number: int, fmt: str, rows: list[dict[str, Any]]) -> Path:
    """Write ``rows`` as part ``number`` of an item type's folder (atomically) and return its path."""
    folder.mkdir(exist_ok=True)
    path = folder / f"part-{number:05d}.{fmt}"
    tmp = folder / f".{path.name}.tmp"
    schema = schema_for(item_type)
    names = set(schema.names)
    clean = [{k: v for k, v in r.items() if k in names} for r in rows]
    if fmt == "parquet":
        table = pa.Table.from_pylist(clean, schema=schema)
        pq.write_table(
            table,
            tmp,
            row_group_size=ROW_GROUP_ROWS.get(item_type, DEFAULT_ROW_GROUP_ROWS),
            compression="zstd",
        )
    else:
        with tmp.open("w", encoding="utf-8") as fh:
            for row in clean:
                fh.write(json.dumps({n: row.get(n) for n in schema.names}, ensure_ascii=False) + "\n")
    tmp.replace(path)
    return path


def export(
    data_dir: str | Path,
    target: str,
    output: str | Path,
    *,
    fmt: str = "parquet",
    since: str | None = None,
    state_url: str = "",
    settings: dict[str, Any] | None = None,
) -> ExportResult:
    """Export ``target`` (a spider name or ``all``) from ``data_dir`` into ``output``."""
    started = time.monotonic()
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    data = Path(data_dir)
    out = Path(output)
    out.mkdir(parents=True, exist_ok=True)
    state = ExportState.load(out)
    if state.offsets and state.format != fmt:
        raise ValueError(f"{out} holds a {state.format} export; export {fmt} into another folder")
    state.format = fmt
    spiders = spiders_in(data) if target == "all" else [target]
    if target != "all" and not (data / target).is_dir():
        raise ValueError(f"no output of spider {target!r} under {data}")
    by_type, new_offsets = _collect_rows(data, spiders, state.offsets, state_url, since)
    files: list[Path] = []
    written: Counter[str] = Counter()
    for item_type, rows in sorted(by_type.items()):
        if not rows:
            continue
        number = state.parts.get(item_type, 0)
        files.append(_write_part(out / item_type, item_type, number, fmt, rows))
        state.parts[item_type] = number + 1
        written[item_type] += len(rows)
        for row in rows:
            _count(state, item_type, row)
    state.offsets.update(new_offsets)
    card = write_card(out, state, spiders, settings or {})
    state.save(out)
    return ExportResult(written, files, card, time.monotonic() - started)


def _count(state: ExportState, item_type: str, row: dict[str, Any]) -> None:
    state.count("type", item_type)
    state.count("spider", row.get("spider"))
    stamp = _stamp(row)
    if stamp:
        state.dates["first"] = min(state.dates.get("first", stamp), stamp)
        state.dates["last"] = max(state.dates.get("last", stamp), stamp)
    if item_type != "document":
        return
    state.count("site", row.get("site") or row.get("repo") and "github" or None)
    state.count("language", row.get("language"))
    state.count("source", row.get("source"))
    if row.get("near_duplicate_of"):
        state.count("flags", "near_duplicate")
    if row.get("text_withheld"):
        state.count("flags", "text_withheld")
    rights = row.get("rights") or {}
    if rights.get("license_url"):
        state.count("license", rights["license_url"])


def _table(counts: dict[str, int], head: str, limit: int = 30) -> str:
    if not counts:
        return "(none)\n"
    lines = [f"| {head} | rows |", "|---|---:|"]
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]:
        lines.append(f"| {key} | {n:,} |")
    if len(counts) > limit:
        lines.append(f"| ... {len(counts) - limit} more | |")
    return "\n".join(lines) + "\n"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("harvest")
    except PackageNotFoundError:
        return "unknown"


def write_card(out: Path, state: ExportState, spiders: list[str], settings: dict[str, Any]) -> Path:
    """Write ``README.md``: the dataset card (YAML header that ``datasets`` reads, then prose)."""
    types_present = sorted(state.counts.get("type", {}))
    ext = state.format
    header = ["---", "configs:"]
    for item_type in types_present:
        header += [f"- config_name: {item_type}", f'  data_files: "{item_type}/*.{ext}"']
    header.append("---")
    flags = state.counts.get("flags", {})
    schema_docs = []
    for item_type in types_present:
        schema_docs.append(f"### `{item_type}`\n\n| column | type |\n|---|---|")
        schema_docs += [f"| `{f.name}` | `{f.type}` |" for f in schema_for(item_type)]
        schema_docs.append("")
    setting_lines = [f"- `{name}` = `{settings[name]}`" for name in CARD_SETTINGS if name in settings]
    body = f"""
# harvest dataset

Collected by [harvest](https://github.com/harvest-crawler/harvest) {_version()} (Scrapy) from the
outputs of the spiders {", ".join(f"`{s}`" for s in spiders) or "(none)"}: GitHub Trending and search
observations, READMEs, and the articles of the blogs and documentation sites configured there.
Only what the crawls had committed was exported; `.harvest-export.json` records how far, so the
next `scrapy export` adds only new rows as new `part-NNNNN.{ext}` files.

- Rows: {sum(state.counts.get("type", {}).values()):,}
- Observed or fetched from {state.dates.get("first", "-")} to {state.dates.get("last", "-")} (UTC)
- Near-duplicate documents (kept; `near_duplicate_of` names the earlier one):
  {flags.get("near_duplicate", 0):,}
- Documents whose site opted out of AI use (TDMRep reservation or `noai`; metadata and `rights`
  kept, `text` empty, `text_withheld` true): {flags.get("text_withheld", 0):,}

## Rows per type

{_table(state.counts.get("type", {}), "type")}
## Documents per site

{_table(state.counts.get("site", {}), "site")}
## Documents per language (detected from the text, ISO 639-1)

{_table(state.counts.get("language", {}), "language")}
## Licences the pages named (rel="license")

{_table(state.counts.get("license", {}), "licence")}
## Settings of the crawls

{chr(10).join(setting_lines) or "(not recorded)"}

## Licence

The texts, pages and metadata belong to their authors and sites; this dataset only collects them.
No licence is granted by harvest: check each site's terms and each document's `rights`
(robots.txt, robots directives, TDMRep reservation and policy, `license_url`) before any use,
and honour opt-outs.

## Schema

Times are ISO 8601 UTC strings. Documents: `text` is the Markdown body, `rights` the opt-out and
licence signals, `language` detected (`language_score` its probability) beside
`language_declared` (the page's own `lang`).

{chr(10).join(schema_docs)}
"""
    path = out / "README.md"
    path.write_text("\n".join(header) + "\n" + body, encoding="utf-8")
    return path
