"""The worker's side of the pool: ``multiprocessing.connection`` messages in and out, the same
frames the pool writes and reads over its asyncio pipes; errors are answered, not raised."""

from __future__ import annotations

import asyncio
import os
import pickle
import threading
from multiprocessing import Pipe
from multiprocessing.connection import Connection

import pytest

from harvest.extraction import pool, worker
from harvest.extraction.result import Extracted
from harvest.fingerprints import content_hash
from harvest.parsers.article import extract_article
from tests import shared_fixture

OCTO = ("blogs", "octopress-1up4developers-github-io", "site")
BASE = "http://1up4dev.org/"


def test_worker_protocol_round_trip() -> None:
    """serve() answers every request in order and stops at end of input."""
    url = BASE + "2014/04/alguns-truques-com-o-repl-do-clojure/"
    html = shared_fixture(
        *OCTO, "2014", "04", "alguns-truques-com-o-repl-do-clojure", "index.html"
    ).read_text(encoding="utf-8")
    requests_out, requests_in = Pipe(duplex=False)  # (reader, writer)
    answers_out, answers_in = Pipe(duplex=False)
    for job in [(html, url), ("", "https://example.org/empty")]:
        requests_in.send_bytes(pickle.dumps(job))
    requests_in.close()  # end of input
    worker.serve(requests_out, answers_in)
    answers_in.close()
    answers = []
    while True:
        try:
            answers.append(pickle.loads(answers_out.recv_bytes()))
        except EOFError:
            break
    assert answers[1] == ("ok", None)
    status, fields = answers[0]
    assert status == "ok"
    extracted = Extracted.from_fields(fields)
    assert extracted.article == extract_article(html, url)
    assert extracted.content_hash == content_hash(extracted.article.markdown)
    assert not extracted.language_detected  # not asked for (--language)
    assert len(answers) == 2


def test_a_failing_page_is_answered_as_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(html: str, url: str) -> None:
        raise ValueError("bad page")

    monkeypatch.setattr(worker, "extract_article", boom)
    answer = pickle.loads(worker.answer(pickle.dumps(("<html></html>", "https://example.org/"))))
    assert answer == ("error", "ValueError: bad page")


def sent_by_connection(data: bytes) -> bytes:
    """The bytes ``Connection.send_bytes(data)`` writes."""
    read_fd, write_fd = os.pipe()

    def send() -> None:
        with Connection(write_fd, readable=False) as sender:
            sender.send_bytes(data)

    thread = threading.Thread(target=send)
    thread.start()
    with os.fdopen(read_fd, "rb") as fh:
        raw = fh.read()
    thread.join()
    return raw


async def read_frames(raw: bytes) -> list[bytes]:
    """The messages the pool reads from ``raw``."""
    stream = asyncio.StreamReader()
    stream.feed_data(raw)
    stream.feed_eof()
    frames = []
    while True:
        try:
            frames.append(await pool.read_frame(stream))
        except asyncio.IncompleteReadError:
            return frames


@pytest.mark.parametrize("size", [0, 5, 16384, 16385, 200_000])
def test_frames_are_multiprocessing_connection_messages(size: int) -> None:
    data = os.urandom(size)
    raw = sent_by_connection(data)
    assert pool.frame(data) == raw  # what the pool writes, the worker's Connection reads
    assert asyncio.run(read_frames(raw + raw)) == [data, data]  # and the other way round


def test_long_frames_past_two_gib_use_connections_long_header(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 2 GiB a Connection writes -1 and an 8-byte length; both sides understand it."""
    monkeypatch.setattr(pool, "_SHORT_MAX", 3)
    framed = pool.frame(b"abcd")
    assert framed[:4] == (-1).to_bytes(4, "big", signed=True)
    read_fd, write_fd = os.pipe()
    os.write(write_fd, framed)
    os.close(write_fd)
    reader = Connection(read_fd, writable=False)
    assert reader.recv_bytes() == b"abcd"
    reader.close()

    assert asyncio.run(read_frames(framed)) == [b"abcd"]
