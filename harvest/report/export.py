"""Export the committed outputs as a dataset: Parquet or JSON Lines parts plus a dataset card.

``scrapy export <spider|all> --format parquet|jsonl --output DIR [--since DATE]`` (see
:mod:`harvest.commands.export`) writes ``DIR/<type>/part-NNNNN.<ext>`` with a fixed schema per
item type (:func:`schema_for`: the fields of :mod:`harvest.items`; documents drop the local
``path`` and ``content`` and get ``text``, their Markdown body, and every row gets ``spider``),
and ``DIR/README.md``, the dataset card.

Only committed lines are read (up to the byte offset the crawl state committed, so a crawl may
be running); ``DIR/.harvest-export.json`` remembers how far each file was exported and the
running counts of the card, so a second export writes only the new rows, as new parts.

Every row reaches a folder once, whatever the filters of its exports: a ``--since`` export
records the byte ranges it read with the date it filtered from (``filtered``), and a later export
that reaches further back (an earlier ``--since``, or none) writes the rows those ranges left out
before it reads on. A failed export (a full disk) removes its temporary files and the parts it
wrote and keeps the folder's state as it was; a killed one leaves them to the next export, which
removes them first (:class:`harvest.report.writefolder.WriteFolder`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import tempfile
import time
import types
import typing
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from harvest import items as item_types
from harvest.exceptions import StateError
from harvest.parsers.rights import Rights
from harvest.pipelines.neardup import markdown_body
from harvest.report.writefolder import TEMP_PREFIX, WriteFolder, writing
from harvest.state import open_store
from harvest.state.partition import state_names
from harvest.util.files import atomic_write_text
from harvest.util.jsonlines import replay_lines

logger = logging.getLogger(__name__)

FORMATS = ("parquet", "jsonl")
STATE_FILE = ".harvest-export.json"
#: What a killed export leaves: temporary parts, card and state (and those of versions before
#: the temporary files had the common prefix).
STALE_FILES = (f"{TEMP_PREFIX}*", f"*/{TEMP_PREFIX}*", "*/.part-*.tmp", f"{STATE_FILE}.tmp")
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


#: A byte range of a file read by a ``--since`` export: (start, end, the date it filtered from).
Filtered = tuple[int, int, str]


@dataclass
class ExportState:
    """What earlier exports into a folder did: offsets, next part numbers, the card's counts.

    ``offsets``: how far each file was read. ``filtered``: the ranges below that offset whose rows
    dated before a ``--since`` were left out (rows without a date are never left out); the rest
    of the file below the offset was written whole.
    """

    format: str = "parquet"
    offsets: dict[str, int] = field(default_factory=dict)
    filtered: dict[str, list[Filtered]] = field(default_factory=dict)
    parts: dict[str, int] = field(default_factory=dict)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    dates: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Path) -> ExportState:
        """Read ``.harvest-export.json`` (a fresh state when absent)."""
        path = folder / STATE_FILE
        if not path.exists():
            return cls()
        try:
            state = cls(**json.loads(path.read_text(encoding="utf-8")))
            state.filtered = {
                k: [(int(a), int(b), str(c)) for a, b, c in ranges] for k, ranges in state.filtered.items()
            }
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path} is not an export state harvest wrote ({exc})") from None
        return state

    def save(self, folder: Path) -> None:
        """Write it atomically."""
        path = folder / STATE_FILE
        with writing(path):
            atomic_write_text(path, json.dumps(dataclasses.asdict(self), indent=1, sort_keys=True))

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


def _rows(path: Path, start: int, end: int, keep: Callable[[str], bool]) -> tuple[list[dict[str, Any]], int]:
    """The rows of ``path`` between two offsets whose date (``""`` when none) ``keep`` accepts."""
    rows: list[dict[str, Any]] = []

    def add(record: dict[str, Any]) -> None:
        if keep(_stamp(record)):
            rows.append(record)

    _, pos = replay_lines(path, start, add, end=end)
    return rows, pos


def _since_keeps(since: str | None) -> Callable[[str], bool]:
    """What a ``--since`` export writes: rows dated since, and rows without a date."""
    return lambda stamp: not (since and stamp and stamp < since)


def _left_out(since: str | None, before: str) -> Callable[[str], bool]:
    """Rows an export filtered from ``before`` left out that one ``since`` writes."""
    return lambda stamp: bool(stamp) and stamp < before and not (since and stamp < since)


def _read_file(
    path: Path, start: int, end: int, ranges: list[Filtered], since: str | None
) -> tuple[list[dict[str, Any]], int, list[Filtered]]:
    """The rows of one file this export writes, the offset it read to, the ranges still filtered.

    First the rows that earlier filtered exports left out and this one wants (an unfiltered export
    or an earlier ``--since``), then the rows past ``start``, the file's offset.
    """
    rows: list[dict[str, Any]] = []
    still: list[Filtered] = []
    for low, high, before in ranges:
        if since and since >= before:  # this export wants none of the rows left out there
            still.append((low, high, before))
            continue
        rows += _rows(path, low, high, _left_out(since, before))[0]
        if since:
            still.append((low, high, since))
    pos = start
    if end > start:
        tail, pos = _rows(path, start, end, _since_keeps(since))
        rows += tail
        if since and pos > start:
            still.append((start, pos, since))
    merged: list[Filtered] = []
    for low, high, before in sorted(still):
        if merged and merged[-1][1] == low and merged[-1][2] == before:
            merged[-1] = (merged[-1][0], high, before)
        else:
            merged.append((low, high, before))
    return rows, pos, merged


def _document_row(record: dict[str, Any]) -> dict[str, Any]:
    text = ""
    if record.get("path") and not record.get("text_withheld"):
        try:
            text = markdown_body(Path(str(record["path"])).read_text(encoding="utf-8")).strip() + "\n"
        except OSError:
            logger.warning("Markdown file of %s is missing: %s", record.get("url"), record.get("path"))
    return {**record, "text": text}


def _collect_rows(
    data: Path, spiders: list[str], state: ExportState, state_url: str, since: str | None
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int], dict[str, list[Filtered]]]:
    """The rows of each item type this export writes, and each file's new offset and filtered ranges."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    new_offsets: dict[str, int] = {}
    new_filtered: dict[str, list[Filtered]] = {}
    for spider in spiders:
        committed = committed_offsets(data, spider, state_url)
        for path in sorted((data / spider).glob("*.jsonl")):
            key = f"{spider}/{path.name}"
            start = state.offsets.get(key, 0)
            end = committed.get(path.name, 0) if committed is not None else path.stat().st_size
            rows, pos, ranges = _read_file(path, start, end, state.filtered.get(key, []), since)
            new_offsets[key] = pos
            new_filtered[key] = ranges
            for record in rows:
                item_type = str(record.get("type") or path.stem)
                if item_type not in _ITEM_CLASSES:
                    continue
                record["spider"] = spider
                if item_type == "document":
                    record = _document_row(record)
                by_type.setdefault(item_type, []).append(record)
    return by_type, new_offsets, new_filtered


def _write_part(folder: Path, item_type: str, number: int, fmt: str, rows: list[dict[str, Any]]) -> Path:
    """Write ``rows`` as part ``number`` of an item type's folder (atomically) and return its path.

    On a failure (a full disk) the temporary file is removed and :class:`WriteError` names the part.
    """
    path = folder / f"part-{number:05d}.{fmt}"
    schema = schema_for(item_type)
    names = set(schema.names)
    clean = [{k: v for k, v in r.items() if k in names} for r in rows]
    with writing(path):
        folder.mkdir(exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=f".{fmt}", dir=folder)
        tmp = Path(name)
        try:
            with os.fdopen(fd, "wb") as fh:
                if fmt == "parquet":
                    pq.write_table(
                        pa.Table.from_pylist(clean, schema=schema),
                        fh,
                        row_group_size=ROW_GROUP_ROWS.get(item_type, DEFAULT_ROW_GROUP_ROWS),
                        compression="zstd",
                    )
                else:
                    for row in clean:
                        line = json.dumps({n: row.get(n) for n in schema.names}, ensure_ascii=False)
                        fh.write(line.encode("utf-8") + b"\n")
                fh.flush()
                os.fsync(fh.fileno())  # the state about to say it is written must not outlive it
            tmp.replace(path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return path


def _remove_orphan_parts(out: Path, state: ExportState) -> None:
    """Remove parts past the state's numbers: written by an export killed before it saved its state.

    Their rows are not in the state's offsets, so this export writes them again.
    """
    orphans = [
        part
        for folder in out.iterdir()
        if folder.is_dir() and folder.name in _ITEM_CLASSES
        for part in folder.glob("part-*")
        if part.suffix[1:] in FORMATS
        and part.stem[5:].isdigit()
        and int(part.stem[5:]) >= state.parts.get(folder.name, 0)
    ]
    for part in orphans:
        part.unlink()
    if orphans:
        logger.info("Removed %d parts an interrupted export did not record in %s", len(orphans), out)


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
    """Export ``target`` (a spider name or ``all``) from ``data_dir`` into ``output``.

    Raises ValueError for bad arguments, :class:`~harvest.report.writefolder.FolderBusy` when another
    export writes into ``output``, :class:`~harvest.report.writefolder.WriteError` when a file cannot be
    written (nothing of this export is kept then, unless only the card failed: see the message).
    """
    started = time.monotonic()
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    data = Path(data_dir)
    out = Path(output)
    if target != "all" and not (data / target).is_dir():
        raise ValueError(f"no output of spider {target!r} under {data}")
    with WriteFolder(out, STALE_FILES, wait=False):
        state = ExportState.load(out)
        if state.offsets and state.format != fmt:
            raise ValueError(f"{out} holds a {state.format} export; export {fmt} into another folder")
        _remove_orphan_parts(out, state)
        state.format = fmt
        spiders = spiders_in(data) if target == "all" else [target]
        by_type, new_offsets, new_filtered = _collect_rows(data, spiders, state, state_url, since)
        files: list[Path] = []
        written: Counter[str] = Counter()
        try:
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
            state.filtered.update(new_filtered)
            state.filtered = {k: v for k, v in state.filtered.items() if v}
            state.save(out)
        except BaseException:
            for part in files:  # the state does not count them: a later export writes their rows
                part.unlink(missing_ok=True)
            raise
        # After the state: a card that failed is rewritten, whole, by the next export.
        card = write_card(out, state, spiders, settings or {})
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
    with writing(path):
        atomic_write_text(path, "\n".join(header) + "\n" + body)
    return path
