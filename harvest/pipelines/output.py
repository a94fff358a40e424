"""OutputPipeline: JSON Lines per item type, one Markdown file per document, durable across kill -9.

Layout under ``HARVEST_DATA_DIR/<spider>/``: ``<type>.jsonl`` (one JSON object per line,
appended; ``<type>.w<k>.jsonl`` for worker ``k`` of a partitioned crawl) and, for documents,
the ``.md`` file named by the item's ``path`` with a YAML front
matter. A Markdown file is written to a temporary name, fsynced and renamed before its JSON
line is appended, so a reader never sees half a document and a line never names a missing file.

Durability, with the crawl state (:mod:`harvest.state.crawl`): each written line's keys go into
the state's batch at once; at every commit point the JSON Lines files (and the folders that got
new files) are fsynced, then the state commits the batch together with each file's byte offset.
On open, :meth:`OutputPipeline.reconcile` reads each file from its committed offset: a trailing
partial line (a write cut by a kill) is truncated, and the keys of the complete lines past the
offset (written, not yet committed) are committed, so the restarted crawl does not write them
again.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from contextlib import nullcontext
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

import orjson
import yaml
from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.utils.defer import deferred_from_coro

from harvest.fingerprints import content_hash
from harvest.items import DocumentItem
from harvest.plumbing.capabilities import class_capabilities
from harvest.scale.outputlock import OutputLock
from harvest.state import StateOrigin
from harvest.state.crawl import CrawlState, is_disk_full
from harvest.state.partition import Partition
from harvest.util.files import TEMP_PREFIX, append_line, atomic_write_text, fsync_path, truncate_partial_tail
from harvest.util.jsonlines import replay_lines
from harvest.util.redaction import scrub_bytes

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

#: Lines replayed per commit while reconciling, so rebuilding a large state stays bounded in memory.
_REPLAY_COMMIT_LINES = 10_000


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def render_markdown(front_matter: dict[str, Any], body: str) -> str:
    """A Markdown document with a YAML front matter block."""
    # libyaml's dumper when PyYAML has it (its wheels do): the same text, far cheaper than the
    # pure-Python one for the crawl process (BENCHMARKS.md, "Issue 18").
    head = yaml.dump(front_matter, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{head}---\n\n{body.rstrip()}\n"


def resolve_document_path(spider_dir: Path, relpath: str, folders: dict[str, Path] | None = None) -> Path:
    """``spider_dir/relpath``, refusing anything that would land outside ``spider_dir``.

    ``folders`` caches each folder's resolved path (the same few site folders hold every
    document; resolving them each time was a twentieth of the crawl process's CPU). The file
    name itself need not be resolved: the document is renamed onto it, which replaces a link
    there instead of following it.
    """
    rel = Path(relpath)
    if rel.is_absolute() or ".." in rel.parts or "\x00" in relpath or rel.name in {"", "."}:
        raise ValueError(f"document path {relpath!r} must be relative and stay inside {spider_dir}")
    key = str(rel.parent)
    folder = folders.get(key) if folders is not None else None
    if folder is None:
        base = spider_dir.resolve()
        folder = (base / rel.parent).resolve()
        if folder != base and base not in folder.parents:
            raise ValueError(f"document path {relpath!r} escapes {spider_dir}")
        if folders is not None:
            folders[key] = folder
    return folder / rel.name


class OutputPipeline:
    """Writes every item that reaches it; enabled in ITEM_PIPELINES after the dedup pipeline.

    With the crawl state on (``HARVEST_STATE_ENABLED``), output and state are committed together
    (see the module docstring); without it, lines are flushed as written and fsynced at close.
    """

    def __init__(
        self,
        data_dir: str | Path,
        spider_name: str,
        state: CrawlState | None = None,
        stats: StatsCollector | None = None,
        partition: Partition | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.spider_dir = self.data_dir / spider_name
        #: A worker of a partitioned crawl writes (and reconciles) its own files only.
        self.partition = partition or Partition()
        self.state = state
        self.stats = stats
        self._files: dict[str, IO[bytes]] = {}
        self._unsynced: set[str] = set()
        self._dirty_dirs: set[Path] = set()
        #: Document folders, resolved once (:func:`resolve_document_path`).
        self._folders: dict[str, Path] = {}
        #: Markdown files written since the last sync, not fsynced yet.
        self._unsynced_documents: set[Path] = set()
        #: Set by the first write that failed (a full disk): nothing more is written.
        self.write_error: OSError | None = None
        self.crawler: Crawler | None = None
        #: A worker of a shared (Redis) crawl: its lease check and write vs. a takeover.
        self._takeover: OutputLock | None = None
        #: The spider sends a credential (the GitHub token): a server may echo it into a field.
        self.sends_credentials = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Build from ``HARVEST_DATA_DIR``, the crawler's spider name and the crawl state."""
        assert crawler.spidercls is not None
        pipeline = cls(
            crawler.settings.get("HARVEST_DATA_DIR"),
            crawler.spidercls.name,
            CrawlState.from_crawler(crawler),
            crawler.stats,
            Partition.from_settings(crawler.settings),
        )
        pipeline.crawler = crawler
        pipeline.sends_credentials = class_capabilities(crawler.spidercls).uses_github_api
        return pipeline

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None and count:
            self.stats.inc_value(f"harvest/output/{key}", count)

    def open_spider(self) -> None:
        """Create the output folder, clean up after a killed run, reconcile with the state."""
        self.spider_dir.mkdir(parents=True, exist_ok=True)
        if self.state is not None:
            store = self.state.open()
            if getattr(store, "holds_lease", None) is not None:
                self._takeover = OutputLock(self.spider_dir)
        # The workers of a shared crawl write here too: a temporary file or a line without its
        # end is a killed writer's only while no write is in progress (each holds the lock).
        with self._takeover.alone() if self._takeover is not None else nullcontext():
            stale = [p for p in self.spider_dir.rglob(f"{TEMP_PREFIX}*") if p.is_file()]
            for path in stale:
                path.unlink()
            # Without a state nothing is replayed: the files are left as they are.
            owned = sorted(self.spider_dir.glob("*.jsonl")) if self.state is not None else []
            cut = {
                path.name: truncate_partial_tail(path) for path in owned if self.partition.writes(path.name)
            }
        if stale:
            logger.info(
                "Removed %d temporary files left by an interrupted run in %s", len(stale), self.spider_dir
            )
        if self.state is not None:
            self.reconcile(cut)
            self.state.add_pre_commit(self.sync)

    def reconcile(self, cuts: dict[str, int]) -> None:
        """Bring the state up to date with the JSON Lines files (see the module docstring).

        ``cuts``: per file, the bytes of a partly written last line :meth:`open_spider` cut.
        """
        assert self.state is not None
        store = self.state.open()
        committed = store.output_offsets()
        replayed = 0
        for path in sorted(self.spider_dir.glob("*.jsonl")):
            if not self.partition.writes(path.name):
                continue  # another worker's
            cut = cuts.get(path.name, 0)
            if cut:
                logger.warning(
                    "Truncated %d bytes of a partly written last line of %s (written "
                    "when the previous run was killed; that item is fetched again)",
                    cut,
                    path,
                )
                self._inc("truncated_bytes", cut)
            size = path.stat().st_size
            start = committed.get(path.name, 0)
            if store.origin is StateOrigin.RESET or start == size:
                self.state.batch.offsets[path.name] = size
                continue
            if start > size:
                logger.warning(
                    "%s is shorter (%d bytes) than its committed length (%d): it was "
                    "truncated or replaced outside harvest; not replaying it",
                    path,
                    size,
                    start,
                )
                self.state.batch.offsets[path.name] = size
                continue
            replayed += self._replay(path, start)
        self.state.commit()
        if replayed:
            logger.info(
                "Reconciled the crawl state with %d output lines written after its last commit (%s)",
                replayed,
                store.origin.value,
            )
            self._inc("reconciled_lines", replayed)

    def _replay(self, path: Path, start: int) -> int:
        """Put the keys of ``path``'s lines from ``start`` into the state; return how many.

        ``reconcile`` cut a partial last line first, so every line is complete and the offset
        reached is the file's size.
        """
        state = self.state
        assert state is not None

        def unreadable(end: int) -> None:
            logger.warning("Skipping an unreadable line in %s ending at byte %d", path, end)
            self._inc("bad_lines")

        def checkpoint(pos: int) -> None:
            state.batch.offsets[path.name] = pos
            state.commit()

        count, pos = replay_lines(
            path,
            start,
            state.add_record,
            bad_line=unreadable,
            checkpoint=checkpoint,
            checkpoint_every=_REPLAY_COMMIT_LINES,
        )
        state.batch.offsets[path.name] = pos
        return count

    def sync(self) -> dict[str, int]:
        """Flush and fsync the files written since the last sync (and new folder entries).

        Returns their byte offsets, which the crawl state commits with its batch.
        """
        offsets: dict[str, int] = {}
        for name in self._unsynced:
            fh = self._files[name]
            fh.flush()
            os.fsync(fh.fileno())
            offsets[name] = fh.tell()
        self._unsynced.clear()
        # A commit's documents fsynced together, before the state says they are stored: one by
        # one as written, each fsync stalled the crawl, and a batch costs less in all
        # (BENCHMARKS.md, "Figures behind comments").
        for path in self._unsynced_documents:
            fsync_path(path)
        self._unsynced_documents.clear()
        for folder in self._dirty_dirs:
            fsync_path(folder)
        self._dirty_dirs.clear()
        return offsets

    def close_spider(self) -> None:
        """Final commit (or fsync without state), then close every JSON Lines file."""
        if self.state is not None:
            self.state.commit_safely()
            self.state.remove_pre_commit(self.sync)
        else:
            self.sync()
        for fh in self._files.values():
            fh.close()
        self._files.clear()
        if self._takeover is not None:
            self._takeover.close()

    def _jsonl(self, name: str) -> IO[bytes]:
        fh = self._files.get(name)
        if fh is None:
            path = self.spider_dir / name
            if not path.exists():
                self._dirty_dirs.add(self.spider_dir)
            # Unbuffered: each line is one write the pipeline controls, so a write that fails
            # half-way (a full disk) can be cut back to the last whole line (see _write_line).
            fh = open(path, "ab", buffering=0)  # noqa: SIM115 - kept open, closed in close_spider
            self._files[name] = fh
        return fh

    def process_item(self, item: Any) -> Any:
        """Write the document's Markdown file (if any), then its JSON line.

        A write that fails (a full disk, a read-only or vanished folder) leaves no partial line
        behind, stops the crawl (reason ``disk_full`` or ``output_error``) and abandons the
        crawl state, as if the crawl was killed at that moment: the next run resumes from the
        last commit. Items that arrive while the crawl closes are dropped, not written.
        """
        if self.write_error is not None:
            raise DropItem(f"not written: the output failed earlier ({self.write_error})", log_level="DEBUG")
        if self._takeover is None:
            return self._write(item)
        # No takeover of this worker between its lease check and its write (harvest.scale.outputlock).
        with self._takeover.writing():
            return self._write(item)

    def _write(self, item: Any) -> Any:
        if self.state is not None and not self.state.holds_lease():
            # A worker of a shared (Redis) crawl given up by the others: they fetch its requests.
            raise DropItem("not written: this worker's lease on the crawl was taken", log_level="DEBUG")
        if isinstance(item, DocumentItem):
            if not item.content_hash:
                item.content_hash = content_hash(item.content)
            target = resolve_document_path(self.spider_dir, item.path, self._folders)
            try:
                atomic_write_text(target, render_markdown(item.front_matter(), item.content), durable=False)
            except OSError as exc:
                self._write_failed(exc, target)
            self._unsynced_documents.add(target)
            self._dirty_dirs.add(target.parent)
            item.path = str(self.spider_dir / Path(item.path))
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            # A shallow copy: ItemAdapter.asdict() deep-copies every field (a page's whole HTML
            # included), and the record is only serialized and read.
            record = {
                f.name: getattr(item, f.name)
                for f in dataclasses.fields(item)
                if not f.metadata.get("transient")
            }
        else:
            record = ItemAdapter(item).asdict()
        record.pop("content", None)
        name = self.partition.output_file(str(record.get("type") or "item"))
        try:
            # orjson: far cheaper than json on a page line, a whole HTML page as one string
            # (BENCHMARKS.md, "Second round of CPU cuts").
            line = orjson.dumps(record, option=orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            # What orjson refuses (non-str keys, integers past 64 bits), json writes or explains.
            line = json.dumps(record, ensure_ascii=False, sort_keys=False).encode("utf-8") + b"\n"
        if self.sends_credentials:
            # Only a server that was sent the token can echo it (into a description, a topic...):
            # masked in every form, as in logs; other spiders' lines are not searched.
            line = scrub_bytes(line)
        try:
            # Written at once so readers see progress; fsynced at commit points.
            self._write_line(self._jsonl(name), line)
        except OSError as exc:
            self._write_failed(exc, self.spider_dir / name)
        self._unsynced.add(name)
        self._inc(f"written/{name}")  # the crawl's end summary: items per file
        if self.state is not None:
            self.state.record_output(record, item)
        return item

    def _write_line(self, fh: IO[bytes], line: bytes) -> None:
        """Append ``line`` whole, or take back what was written and raise (see append_line).

        The workers of a shared crawl on one machine append to the same files: a line cut short
        is blanked in place, not cut off with the lines they wrote after it.
        """
        append_line(fh.fileno(), line, Path(str(fh.name)), shared=self._takeover is not None)

    def _write_failed(self, exc: OSError, path: Path) -> NoReturn:
        """Log once, stop the crawl and abandon its state (see process_item); drop the item."""
        self.write_error = exc
        self._inc("write_failed")
        disk_full = is_disk_full(exc)
        reason = "disk_full" if disk_full else "output_error"
        logger.error(
            "Cannot write %s: %s. Stopping the crawl: what was written before is intact, "
            "and the next run resumes from the last commit%s.",
            path,
            exc,
            " once there is space again" if disk_full else "",
        )
        if self.state is not None:
            self.state.abandon(reason)
        elif self.crawler is not None and self.crawler.engine is not None:
            deferred_from_coro(self.crawler.engine.close_spider_async(reason=reason))
        raise DropItem(f"not written to {path}: {exc}", log_level="DEBUG") from exc
