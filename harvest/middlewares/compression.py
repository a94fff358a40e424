"""Scrapy's HttpCompressionMiddleware, for servers whose ``Content-Encoding`` is not true.

Some servers (and caches in front of them) announce ``Content-Encoding: gzip`` on a body they
never compressed. Scrapy then fails the page (``BadGzipFile: Not a gzipped file (b'<h')``),
though the body is right there. This middleware decodes exactly as Scrapy's does, with the same
``DOWNLOAD_MAXSIZE`` / ``DOWNLOAD_WARNSIZE`` protection, but first checks that the body is in
the announced encoding:

- ``gzip`` / ``x-gzip``: the gzip magic bytes ``1f 8b``;
- ``deflate``: a valid zlib header (``CMF``/``FLG`` check), else a raw deflate stream that
  ends exactly where the body ends (what some servers send as ``deflate``);
- ``zstd``: the frame magic ``28 b5 2f fd`` (or a skippable frame's);
- ``br``: brotli has no magic, so a body the decoder rejects at once is taken as not encoded.

A body that is not in its announced encoding is used as it is: the stat
``harvest/compression/mislabelled`` counts such responses, and one INFO line per host says so
(the user cannot act on it, and a site that does it does it on every page).

A body that IS in the announced encoding but ends before its stream does (a truncated gzip,
zlib or zstd stream, a brotli stream cut after its first bytes) is a failure, never half a page
stored as if whole: it is retried like RetryMiddleware retries (``RETRY_TIMES``, ``dont_retry``,
``max_retry_times``, "Gave up retrying ..." logged once), counted in
``harvest/compression/truncated``, and the request's errback receives :class:`TruncatedBody`.
Scrapy's own decoders keep whatever a truncated stream gave; CRC errors and junk after a
complete gzip member are still forgiven as Scrapy forgives them.

Installed in place of Scrapy's at the same order (590) in ``harvest/settings.py``.
"""

from __future__ import annotations

import logging
import struct
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from gzip import GzipFile
from io import BytesIO
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware as _ScrapyHttpCompression
from scrapy.downloadermiddlewares.retry import get_retry_request
from scrapy.utils._compression import _CHUNK_SIZE, _check_max_size

try:
    import brotli
except ImportError:  # pragma: no cover - Scrapy installs one of the two
    import brotlicffi as brotli

if sys.version_info >= (3, 14):  # pragma: no cover
    from compression import zstd
else:
    from backports import zstd

from harvest.exceptions import NotApplicable

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request, Response
    from typing_extensions import Self

logger = logging.getLogger(__name__)

_STATS = "harvest/compression"
_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: Skippable zstd frames: magic 0x184D2A50-0x184D2A5F, little-endian.
_ZSTD_SKIPPABLE_TAIL = b"\x2a\x4d\x18"


class TruncatedBody(ValueError):
    """A body in its announced encoding whose compressed stream ends early."""

    def __init__(self, encoding: str, size: int) -> None:
        super().__init__(f"{encoding} body truncated: its stream ends early ({size} B received)")
        self.encoding = encoding
        self.size = size


class _NotEncoded(Exception):
    """The body is not in the announced encoding (raised by the decoders below)."""


def _collect(chunks: Iterable[bytes], max_size: int) -> bytes:
    """Join decoded chunks, failing as soon as they pass ``max_size`` (Scrapy's ``_check_max_size``)."""
    output = BytesIO()
    size = 0
    for chunk in chunks:
        size += len(chunk)
        _check_max_size(size, max_size)
        output.write(chunk)
    return output.getvalue()


def _read_chunks(
    read: Callable[[int], bytes],
    encoding: str,
    data: bytes,
    forgive: tuple[type[BaseException], ...] = (),
) -> Iterator[bytes]:
    """Read a decompressing file to its end; a stream that ends early raises TruncatedBody.

    An error of ``forgive`` after some output ends the body there; before any, it is raised.
    """
    decoded = False
    while True:
        try:
            chunk = read(_CHUNK_SIZE)
        except EOFError:
            # "Compressed file ended before the end-of-stream marker was reached".
            raise TruncatedBody(encoding, len(data)) from None
        except forgive:
            if decoded:
                return
            raise
        if not chunk:
            return
        decoded = True
        yield chunk


def _gunzip(data: bytes, max_size: int) -> bytes:
    """Scrapy's ``gunzip`` (every member, CRC errors forgiven), except a truncated stream fails."""
    if not data.startswith(_GZIP_MAGIC):
        raise _NotEncoded
    f = GzipFile(fileobj=BytesIO(data))
    # CRC mismatch or junk after a complete member: Scrapy keeps what was decoded.
    return _collect(_read_chunks(f.read1, "gzip", data, forgive=(OSError, struct.error)), max_size)


def _zlib_header(data: bytes) -> bool:
    """RFC 1950: compression method 8, window <= 32 KiB, header checksum a multiple of 31."""
    if len(data) < 2:
        return False
    cmf, flg = data[0], data[1]
    return cmf & 0x0F == 8 and cmf >> 4 <= 7 and ((cmf << 8) | flg) % 31 == 0


def _inflate_chunks(decompressor: zlib._Decompress, data: bytes) -> Iterator[bytes]:
    yield decompressor.decompress(data, _CHUNK_SIZE)
    while decompressor.unconsumed_tail and not decompressor.eof:
        yield decompressor.decompress(decompressor.unconsumed_tail, _CHUNK_SIZE)


def _inflate_stream(decompressor: zlib._Decompress, data: bytes, max_size: int) -> bytes:
    """Scrapy's ``_inflate`` loop (chunked, size-checked) on a given decompressor."""
    return _collect(_inflate_chunks(decompressor, data), max_size)


def _inflate(data: bytes, max_size: int) -> bytes:
    """Zlib-wrapped deflate, else raw deflate (some servers send that), else not encoded."""
    if _zlib_header(data):
        decompressor = zlib.decompressobj()
        try:
            body = _inflate_stream(decompressor, data, max_size)
        except zlib.error:
            pass  # 1 plain body in 31 starting with a byte like "x" or "H" passes the check
        else:
            if not decompressor.eof:
                raise TruncatedBody("deflate", len(data))
            return body
    decompressor = zlib.decompressobj(wbits=-15)
    try:
        body = _inflate_stream(decompressor, data, max_size)
    except zlib.error:
        raise _NotEncoded from None
    # Raw deflate has no header: plain text often decodes for a while (or even ends a block).
    # Only a stream that ends exactly with the body is taken as one.
    if not decompressor.eof or decompressor.unused_data:
        raise _NotEncoded
    return body


def _brotli_chunks(decompressor: brotli.Decompressor, first: bytes) -> Iterator[bytes]:
    yield first
    while not decompressor.is_finished():
        chunk = decompressor.process(b"", output_buffer_limit=_CHUNK_SIZE)
        if not chunk:
            return
        yield chunk


def _unbrotli(data: bytes, max_size: int) -> bytes:
    """Scrapy's ``_unbrotli``; a body the decoder rejects, or takes nothing from, is not brotli."""
    decompressor = brotli.Decompressor()
    try:
        first = decompressor.process(data, output_buffer_limit=_CHUNK_SIZE)
    except brotli.error:
        raise _NotEncoded from None
    body = _collect(_brotli_chunks(decompressor, first), max_size)
    if not decompressor.is_finished():
        if not body:
            # No magic to go by: a short plain body ("hello") can look like a stream's start.
            raise _NotEncoded
        raise TruncatedBody("br", len(data))
    return body


def _unzstd(data: bytes, max_size: int) -> bytes:
    """Scrapy's ``_unzstd``, except a truncated frame fails instead of giving what it has."""
    skippable = len(data) >= 4 and 0x50 <= data[0] <= 0x5F and data[1:4] == _ZSTD_SKIPPABLE_TAIL
    if not (data.startswith(_ZSTD_MAGIC) or skippable):
        raise _NotEncoded
    reader = zstd.ZstdFile(BytesIO(data))
    return _collect(_read_chunks(reader.read, "zstd", data), max_size)


_DECODERS: dict[bytes, Callable[[bytes, int], bytes]] = {
    b"gzip": _gunzip,
    b"x-gzip": _gunzip,
    b"deflate": _inflate,
    b"br": _unbrotli,
    b"zstd": _unzstd,
}


class HttpCompressionMiddleware(_ScrapyHttpCompression):
    """Scrapy's middleware; bodies not in their announced encoding are used as they are."""

    def __init__(self, *, crawler: Crawler) -> None:
        # Scrapy's reads DOWNLOAD_MAXSIZE / DOWNLOAD_WARNSIZE (and per-request meta) itself.
        super().__init__(crawler=crawler)
        self.crawler = crawler
        self._stats = crawler.stats
        self.retry_enabled = crawler.settings.getbool("RETRY_ENABLED")
        #: Hosts already logged as mislabelling (one INFO line each).
        self._logged_hosts: set[str] = set()
        #: Encodings of the response being decoded that its body does not have.
        self._ignored: list[bytes] = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        """Off with ``COMPRESSION_ENABLED``, like Scrapy's."""
        if not crawler.settings.getbool("COMPRESSION_ENABLED"):
            raise NotApplicable("COMPRESSION_ENABLED is off")
        return cls(crawler=crawler)

    def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        """Decode as Scrapy does; keep mislabelled bodies, retry truncated ones."""
        self._ignored = []
        try:
            result = super().process_response(request, response)
        except TruncatedBody as exc:
            return self._truncated(request, exc)
        if self._ignored:
            self._mislabelled(response, self._ignored)
        return result

    def _decode(self, body: bytes, encoding: bytes, max_size: int) -> bytes:  # type: ignore[override]
        """One layer of decoding (called by Scrapy's ``process_response``)."""
        decoder = _DECODERS.get(encoding)
        if decoder is None or not body:  # an empty body (304, 204) has nothing to decode
            return body
        try:
            return decoder(body, max_size)
        except _NotEncoded:
            self._ignored.append(encoding)
            return body

    def _mislabelled(self, response: Response, encodings: list[bytes]) -> None:
        self._stats.inc_value(f"{_STATS}/mislabelled")
        host = urlsplit(response.url).netloc
        if host in self._logged_hosts:
            return
        self._logged_hosts.add(host)
        logger.info(
            "%s is labelled Content-Encoding: %s but is not encoded: used as it is "
            "(said once per host; counted in %s/mislabelled)",
            response.url,
            ", ".join(e.decode("latin-1") for e in encodings),
            _STATS,
        )

    def _truncated(self, request: Request, exc: TruncatedBody) -> Request:
        self._stats.inc_value(f"{_STATS}/truncated")
        spider = self.crawler.spider
        if self.retry_enabled and not request.meta.get("dont_retry") and spider is not None:
            retry = get_retry_request(request, spider=spider, reason=exc)
            if retry is not None:
                return retry
        raise exc
