"""WarcPipeline: the responses items were made from, archived as WARC, exactly once across kill -9.

With ``HARVEST_WARC_ENABLED``, for every item that passed dedup and carries a capture
(:mod:`harvest.middlewares.warc`), the request and response records of its response are
appended (once per response, however many items it gave) to
``HARVEST_DATA_DIR/<spider>/warc/<spider>-<utc>-<n>.warc.gz``: gzip per record, headers as
received, ``WARC-Payload-Digest`` and ``WARC-Block-Digest`` (sha1, warcio). The item gets
``warc_file`` (relative to the data folder) and ``warc_record_id`` (the response record's id).
A file is closed and the next one started once it reaches ``HARVEST_WARC_MAX_SIZE``.

Exactly-once, with the crawl state: a record is written whole (one ``write`` of the gzip
member, cut back on failure) right before its item's JSON line; at each commit point the WARC
file is fsynced first, and its byte offset is committed with the batch (``warc/<file>``). On
open, the records past the committed offset are kept only up to the last one an item line
names (lines past their own committed offset are kept by the output pipeline): a record whose
item line was never written, or a record cut by the kill, is truncated. The item's request is
fetched again and its record written then, so no record is written twice and each names an item.
The response of a document whose text was withheld (its site opted out of AI use,
``HARVEST_RESPECT_OPTOUT``) is archived without its body (``WARC-Truncated: unspecified``).
No credential is archived: request records hold ``***`` for ``Authorization``, ``Cookie`` and
``Proxy-Authorization`` and name what was masked in ``WARC-Harvest-Redacted``
(:mod:`harvest.middlewares.warc`).
"""

from __future__ import annotations

import io
import json
import logging
import os
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from harvest.middlewares.warc import ITEM_ATTR, WarcCapture
from harvest.state.crawl import CrawlState
from harvest.util.files import fsync_path

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector
    from typing_extensions import Self

logger = logging.getLogger(__name__)

WARC_DIR = "warc"
SOFTWARE = "harvest (Scrapy; warcio)"


def read_record_ids(path: Path, start: int = 0) -> list[tuple[str, str, int]]:
    """(record type, record id, end offset) of each whole record of a WARC file from ``start``."""
    from warcio.archiveiterator import ArchiveIterator  # warcio loads only when WARC is on

    found: list[tuple[str, str, int]] = []
    with path.open("rb") as fh:
        fh.seek(start)
        iterator = ArchiveIterator(fh)
        try:
            for record in iterator:
                record.content_stream().read()
                offset = iterator.get_record_offset()  # absolute: warcio starts from tell()
                length = iterator.get_record_length()
                if offset + length > path.stat().st_size:
                    break
                found.append(
                    (record.rec_type, record.rec_headers.get_header("WARC-Record-ID"), offset + length)
                )
        except Exception:  # noqa: BLE001 - a record cut by a kill ends the readable part
            pass
    return found


class WarcPipeline:
    """Writes WARC records of the items' responses (see the module docstring)."""

    def __init__(
        self,
        data_dir: str | Path,
        spider_name: str,
        *,
        max_size: int = 1 << 30,
        state: CrawlState | None = None,
        stats: StatsCollector | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.spider = spider_name
        self.spider_dir = self.data_dir / spider_name
        self.folder = self.spider_dir / WARC_DIR
        self.max_size = max_size
        self.state = state
        self.stats = stats
        self._fh: IO[bytes] | None = None
        self._path: Path | None = None
        self._unsynced = False
        self._new_dir_entry = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Enabled by ``HARVEST_WARC_ENABLED``; files rotated at ``HARVEST_WARC_MAX_SIZE``."""
        settings = crawler.settings
        if not settings.getbool("HARVEST_WARC_ENABLED"):
            raise NotConfigured  # HARVEST_WARC_ENABLED is off (bare: a message is logged at WARNING)
        assert crawler.spidercls is not None
        return cls(
            settings.get("HARVEST_DATA_DIR"),
            crawler.spidercls.name,
            max_size=settings.getint("HARVEST_WARC_MAX_SIZE"),
            state=CrawlState.from_crawler(crawler),
            stats=crawler.stats,
        )

    def _key(self, path: Path) -> str:
        return f"{WARC_DIR}/{path.name}"

    def open_spider(self) -> None:
        """Reconcile the WARC files with the committed state; register the pre-commit fsync."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.state is not None:
            store = self.state.open()
            self.reconcile(store.output_offsets())
            # Registered before the output pipeline's hook: records are durable before the
            # lines that name them.
            self.state.add_pre_commit(self.sync)

    def _referenced(self, committed: dict[str, int]) -> set[str]:
        ids: set[str] = set()
        for path in self.spider_dir.glob("*.jsonl"):
            with path.open("rb") as fh:
                fh.seek(committed.get(path.name, 0))
                for line in fh:
                    if not line.endswith(b"\n") or b"warc_record_id" not in line:
                        continue
                    try:
                        record_id = json.loads(line).get("warc_record_id")
                    except ValueError:
                        continue
                    if record_id:
                        ids.add(record_id)
        return ids

    def reconcile(self, committed: dict[str, int]) -> None:
        """Cut what a killed run wrote past the commit and no item line names (see the module docstring)."""
        referenced: set[str] | None = None
        for path in sorted(self.folder.glob("*.warc.gz")):
            start = committed.get(self._key(path), 0)
            size = path.stat().st_size
            if size > start:
                if referenced is None:
                    referenced = self._referenced(committed)
                keep = start
                for rec_type, record_id, end in read_record_ids(path, start):
                    if rec_type == "response" and record_id in referenced:
                        keep = end
                if keep < size:
                    with path.open("r+b") as fh:
                        fh.truncate(keep)
                        os.fsync(fh.fileno())
                    logger.info(
                        "Cut %d bytes of WARC records past the last commit from %s (their "
                        "pages are fetched again)",
                        size - keep,
                        path,
                    )
                    if self.stats is not None:
                        self.stats.inc_value("harvest/warc/truncated_bytes", size - keep)
                size = keep
            if self.state is not None:
                self.state.batch.offsets[self._key(path)] = size

    def _file(self, incoming: int) -> IO[bytes]:
        if (
            self._fh is not None
            and self._path is not None
            and os.fstat(self._fh.fileno()).st_size + incoming > self.max_size
        ):
            if os.fstat(self._fh.fileno()).st_size > 0:
                # The closed file's final length commits with the next batch (the hook reports
                # only the current file).
                offsets = self.sync()
                if self.state is not None:
                    self.state.batch.offsets.update(offsets)
                self._fh.close()
                self._fh = None
        if self._fh is None:
            existing = sorted(self.folder.glob(f"{self.spider}-*.warc.gz"))
            last = existing[-1] if existing else None
            if last is not None and last.stat().st_size + incoming <= self.max_size:
                self._path = last
            else:
                number = len(existing)
                stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
                self._path = self.folder / f"{self.spider}-{stamp}-{number:05d}.warc.gz"
                self._new_dir_entry = True
            self._fh = open(self._path, "ab", buffering=0)  # noqa: SIM115 - closed in close_spider
        return self._fh

    def _records(self, capture: WarcCapture) -> tuple[bytes, str]:
        from warcio.statusandheaders import StatusAndHeaders  # see read_record_ids
        from warcio.warcwriter import WARCWriter

        buffer = io.BytesIO()
        writer = WARCWriter(buffer, gzip=True)
        extra = {"WARC-IP-Address": capture.ip_address} if capture.ip_address else {}
        if capture.rendered:
            extra["WARC-Harvest-Rendered"] = "true"
        body = capture.body
        if capture.withheld:
            # The site opted out of AI use: headers only, the payload marked as cut.
            extra["WARC-Truncated"] = "unspecified"
            extra["WARC-Harvest-Withheld"] = "opt-out"
            body = b""
        if capture.redacted_response:
            extra["WARC-Harvest-Redacted"] = ", ".join(capture.redacted_response)
        http_headers = StatusAndHeaders(
            f"{capture.status}", capture.response_headers, protocol=capture.protocol, is_http_request=False
        )
        response = writer.create_warc_record(
            capture.url,
            "response",
            payload=io.BytesIO(body),
            http_headers=http_headers,
            warc_headers_dict=extra,
        )
        record_id = response.rec_headers.get_header("WARC-Record-ID")
        path = capture.url.split("://", 1)[-1].partition("/")[2]
        request_headers = StatusAndHeaders(
            f"{capture.method} /{path} HTTP/1.1", capture.request_headers, is_http_request=True
        )
        request = writer.create_warc_record(
            capture.url,
            "request",
            payload=io.BytesIO(capture.request_body),
            http_headers=request_headers,
            warc_headers_dict={
                "WARC-Concurrent-To": record_id,
                # Credentials are never archived (harvest.middlewares.warc): say what was masked.
                **(
                    {"WARC-Harvest-Redacted": ", ".join(capture.redacted_request)}
                    if capture.redacted_request
                    else {}
                ),
            },
        )
        writer.write_record(request)
        writer.write_record(response)
        return buffer.getvalue(), record_id

    def process_item(self, item: Any) -> Any:
        """Archive the item's response (once) and name the record on the item."""
        capture: WarcCapture | None = getattr(item, ITEM_ATTR, None)
        if capture is None:
            return item
        if capture.written is None:
            capture.withheld = bool(getattr(item, "text_withheld", False))
            data, record_id = self._records(capture)
            fh = self._file(len(data))
            fd = fh.fileno()
            start = os.fstat(fd).st_size
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            except OSError:
                os.ftruncate(fd, start)
                raise
            self._unsynced = True
            assert self._path is not None
            capture.written = (str(self._path.relative_to(self.data_dir)), record_id)
            capture.body = b""  # archived: the capture need not hold the page any longer
            if self.stats is not None:
                self.stats.inc_value("harvest/warc/records", 2)
                self.stats.inc_value("harvest/warc/bytes", len(data))
        item.warc_file, item.warc_record_id = capture.written
        delattr(item, ITEM_ATTR)
        return item

    def sync(self) -> dict[str, int]:
        """Pre-commit hook: fsync the current file; its offset goes into the commit."""
        if self._fh is None or self._path is None:
            return {}
        if self._unsynced:
            os.fsync(self._fh.fileno())
            self._unsynced = False
        if self._new_dir_entry:
            fsync_path(self.folder)
            self._new_dir_entry = False
        return {self._key(self._path): os.fstat(self._fh.fileno()).st_size}

    def close_spider(self) -> None:
        """Fsync and close (the output pipeline's final commit records the offset)."""
        if self.state is None:
            self.sync()
        if self.state is not None:
            if self._fh is not None:
                self.state.commit_safely()
            self.state.remove_pre_commit(self.sync)
        if self._fh is not None:
            self._fh.close()
            self._fh = None
