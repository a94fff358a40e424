"""Unit tests of :class:`harvest.crawl.handoff.HandoffSpool`: spools between two workers, and their end."""

from __future__ import annotations

import base64
import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest

from harvest.crawl.handoff import Handed, HandoffSpool, WorkerStatus
from harvest.state.partition import Partition


def _spool(folder: Path, index: int, run: str = "r1") -> HandoffSpool:
    spool = HandoffSpool(folder, Partition(index, 2), run=run)
    spool.open()
    return spool


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "state" / "blogs.handoff"


@pytest.fixture
def pair(folder: Path) -> Iterator[tuple[HandoffSpool, HandoffSpool]]:
    """Worker 0 and worker 1 of run r1, their spools opened (and closed after the test)."""
    w0, w1 = _spool(folder, 0), _spool(folder, 1)
    yield w0, w1
    w0.close()
    w1.close()


def _blob(i: int) -> bytes:
    """A request as the frontier hands it: a pickled dict (binary, with newlines inside)."""
    return pickle.dumps({"url": f"https://example.com/{i}", "meta": {"depth": i}, "body": b"\n\x00\n"})


def _unmarked(*blobs: bytes) -> list[Handed]:
    """What ``read`` gives for requests sent without a fingerprint."""
    return [Handed(None, blob) for blob in blobs]


# --- sending and reading -----------------------------------------------------------------------


def test_open_creates_the_folder(folder: Path) -> None:
    assert not folder.exists()
    _spool(folder, 0)
    assert folder.is_dir()


def test_a_request_sent_by_worker_0_is_read_by_worker_1(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    assert w1.read(0, 0) == ([], 0)  # nothing sent yet (no spool file)
    w0.send(1, _blob(1))
    assert w0.sync() == {}
    blobs, offset = w1.read(0, 0)
    assert blobs == _unmarked(_blob(1))
    assert offset == w0.path(0, 1).stat().st_size == w1.size(0, 1)
    assert w1.read(0, offset) == ([], offset)  # nothing more

    w0.send(1, _blob(2))
    w0.send(1, _blob(3))
    blobs, end = w1.read(0, offset)
    assert blobs == _unmarked(_blob(2), _blob(3))
    assert end == w1.size(0, 1)


def test_spools_are_one_per_sender_and_receiver(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    w0.send(1, _blob(1))
    w1.send(0, _blob(2))
    w0.close()
    w1.close()
    assert w0.path(0, 1).name == "0-1.spool"
    assert w0.path(1, 0).name == "1-0.spool"
    assert w1.read(0, 0)[0] == _unmarked(_blob(1))
    assert w0.read(1, 0)[0] == _unmarked(_blob(2))
    # A worker reads only what was sent to it.
    assert w0.size(0, 0) == w1.size(1, 1) == 0


def test_the_spool_is_one_base64_line_per_request(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, _ = pair
    w0.send(1, _blob(1))
    w0.send(1, _blob(2))
    w0.close()
    lines = w0.path(0, 1).read_bytes().split(b"\n")
    assert lines[-1] == b""
    assert [base64.b64decode(line) for line in lines[:-1]] == [_blob(1), _blob(2)]


def test_a_fingerprint_travels_in_front_of_its_request(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    # The receiver skips a request its duplicate filter holds by this prefix, unpickling nothing.
    w0, w1 = pair
    fingerprint = bytes(range(20))
    w0.send(1, _blob(1), fingerprint)
    w0.send(1, _blob(2))  # dont_filter: no fingerprint, never skipped
    w0.close()
    first = w0.path(0, 1).read_bytes().split(b"\n")[0]
    assert first == fingerprint.hex().encode() + b" " + base64.b64encode(_blob(1))
    assert w1.read(0, 0)[0] == [Handed(fingerprint, _blob(1)), Handed(None, _blob(2))]


@pytest.mark.parametrize("garbled", [b"zz" + b"0" * 38 + b" AAAA", b"not base64!"])
def test_a_garbled_line_is_read_as_an_empty_request(
    pair: tuple[HandoffSpool, HandoffSpool], garbled: bytes
) -> None:
    # The receiver counts it unreadable and reads on; raising here stopped its poll for good.
    w0, w1 = pair
    w0.send(1, _blob(1))
    w0.close()
    with w0.path(0, 1).open("ab") as fh:
        fh.write(garbled + b"\n")
    w0.send(1, _blob(2))
    w0.close()
    assert w1.read(0, 0)[0] == [*_unmarked(_blob(1)), Handed(None, b""), *_unmarked(_blob(2))]


def test_read_stops_at_the_last_whole_line_within_its_limit(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    for i in range(3):
        w0.send(1, _blob(i))
    first_line = len(base64.b64encode(_blob(0))) + 1
    blobs, offset = w1.read(0, 0, limit=first_line + 5)
    assert blobs == _unmarked(_blob(0))
    assert offset == first_line
    blobs, end = w1.read(0, offset)
    assert blobs == _unmarked(_blob(1), _blob(2))
    assert end == w1.size(0, 1)


def test_a_request_longer_than_the_read_limit_is_read_whole(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    # A request whose line is longer than one read must not stall the spool (and the crawl's end).
    w0, w1 = pair
    big = pickle.dumps({"url": "https://example.com/big", "body": bytes(range(256)) * 4096})
    w0.send(1, big)
    w0.send(1, _blob(1))
    blobs, offset = w1.read(0, 0, limit=64 * 1024)
    assert blobs in (_unmarked(big), _unmarked(big, _blob(1)))
    blobs += w1.read(0, offset)[0] if len(blobs) == 1 else []
    assert blobs == _unmarked(big, _blob(1))


def test_a_partial_last_line_is_not_read_until_completed(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    w0.send(1, _blob(1))
    w0.close()
    path = w0.path(0, 1)
    whole = path.stat().st_size
    line = base64.b64encode(_blob(2))
    with path.open("ab") as fh:
        fh.write(line[:10])
    assert w1.read(0, 0) == (_unmarked(_blob(1)), whole)
    assert w1.read(0, whole) == ([], whole)
    with path.open("ab") as fh:
        fh.write(line[10:])  # the whole line, still without its newline
    assert w1.read(0, whole) == ([], whole)
    with path.open("ab") as fh:
        fh.write(b"\n")
    assert w1.read(0, whole) == (_unmarked(_blob(2)), path.stat().st_size)


def test_open_of_the_sender_cuts_a_torn_last_line(folder: Path) -> None:
    killed = _spool(folder, 0, run="r0")
    killed.send(1, _blob(1))
    killed.sync()
    path = killed.path(0, 1)
    whole = path.stat().st_size
    with path.open("ab") as fh:
        fh.write(base64.b64encode(_blob(2))[:17])  # the run is killed mid-write
    killed.close()
    assert path.stat().st_size > whole

    sender = _spool(folder, 0, run="r1")  # the worker started again
    assert path.stat().st_size == whole
    sender.send(1, _blob(3))
    sender.close()

    receiver = _spool(folder, 1, run="r1")
    blobs, end = receiver.read(0, 0)
    assert blobs == _unmarked(_blob(1), _blob(3))
    assert end == path.stat().st_size


def test_open_of_the_sender_cuts_a_spool_holding_only_a_torn_line(folder: Path) -> None:
    folder.mkdir(parents=True)
    path = folder / "0-1.spool"
    path.write_bytes(base64.b64encode(_blob(1))[:9])
    sender = _spool(folder, 0)
    assert path.stat().st_size == 0
    sender.send(1, _blob(2))
    sender.close()
    assert _spool(folder, 1).read(0, 0) == (_unmarked(_blob(2)), path.stat().st_size)


def test_open_of_the_receiver_leaves_the_senders_spool_alone(folder: Path) -> None:
    sender = _spool(folder, 0)
    sender.send(1, _blob(1))
    sender.close()
    path = sender.path(0, 1)
    with path.open("ab") as fh:
        fh.write(b"c2VuZGVy")  # worker 0 is writing this line right now
    size = path.stat().st_size
    receiver = _spool(folder, 1)
    assert path.stat().st_size == size  # only the sender cuts its own spools
    assert receiver.read(0, 0)[0] == _unmarked(_blob(1))


def test_open_keeps_whole_lines(folder: Path) -> None:
    sender = _spool(folder, 0)
    sender.send(1, _blob(1))
    sender.close()
    size = sender.path(0, 1).stat().st_size
    _spool(folder, 0)
    assert sender.path(0, 1).stat().st_size == size


# --- status ------------------------------------------------------------------------------------


def test_write_status_and_statuses(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    assert w0.statuses() == {}
    w0.write_status(False, {1: 0})
    w1.write_status(True, {0: 120})
    expected = {0: WorkerStatus("r1", False, {1: 0}), 1: WorkerStatus("r1", True, {0: 120})}
    assert w0.statuses() == expected
    assert w1.statuses() == expected
    w0.write_status(True, {1: 64})  # replaced, not appended
    assert w1.statuses()[0] == WorkerStatus("r1", True, {1: 64})
    assert sorted(p.name for p in w0.folder.iterdir()) == ["status-0.json", "status-1.json"]
    assert json.loads((w0.folder / "status-0.json").read_text(encoding="utf-8")) == {
        "run": "r1",
        "idle": True,
        "consumed": {"1": 64},
    }


def test_statuses_ignore_another_run(folder: Path) -> None:
    w0 = _spool(folder, 0, run="r1")
    old = _spool(folder, 1, run="r0")
    old.write_status(True, {0: 10})
    w0.write_status(True, {1: 0})
    assert w0.statuses() == {0: WorkerStatus("r1", True, {1: 0})}
    assert old.statuses() == {1: WorkerStatus("r0", True, {0: 10})}
    # This run's worker 1 starts and says so: it replaces the old run's status.
    _spool(folder, 1, run="r1").write_status(False, {0: 0})
    assert set(w0.statuses()) == {0, 1}
    assert old.statuses() == {}


@pytest.mark.parametrize("text", ["{not json", "[1]", "2"])
def test_statuses_skip_an_unreadable_status_file(pair: tuple[HandoffSpool, HandoffSpool], text: str) -> None:
    w0, w1 = pair
    w0.write_status(True, {1: 0})
    (w1.folder / "status-1.json").write_text(text, encoding="utf-8")
    assert w0.statuses() == {0: WorkerStatus("r1", True, {1: 0})}


# --- all_done ----------------------------------------------------------------------------------


def test_all_done_waits_for_every_worker_of_the_run(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    assert not w0.all_done()  # no worker has said anything
    w0.write_status(True, {1: 0})
    assert not w0.all_done()  # worker 1 has not started
    w1.write_status(False, {0: 0})
    assert not w0.all_done()  # worker 1 is busy
    assert not w1.all_done()
    w1.write_status(True, {0: 0})
    assert w0.all_done()
    assert w1.all_done()
    w0.write_status(False, {1: 0})  # worker 0 got busy again
    assert not w0.all_done()
    assert not w1.all_done()


def test_all_done_waits_for_every_spool_to_be_read(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    w0.send(1, _blob(1))
    w0.sync()
    w0.write_status(True, {1: 0})
    w1.write_status(True, {0: 0})
    assert not w0.all_done()  # a request in transit: both idle, a spool longer than read
    assert not w1.all_done()

    blobs, offset = w1.read(0, 0)
    assert blobs == _unmarked(_blob(1))
    w1.write_status(False, {0: offset})  # busy before its offsets move
    assert not w0.all_done()
    w1.write_status(True, {0: offset})
    assert w0.all_done()
    assert w1.all_done()

    w1.send(0, _blob(2))  # worker 1 found a link for worker 0
    w1.sync()
    assert not w0.all_done()
    blobs, back = w0.read(1, 0)
    assert blobs == _unmarked(_blob(2))
    w0.write_status(True, {1: back})
    assert w0.all_done()
    assert w1.all_done()


def test_all_done_counts_a_partial_line_as_unread(pair: tuple[HandoffSpool, HandoffSpool]) -> None:
    w0, w1 = pair
    w0.send(1, _blob(1))
    w0.close()
    offset = w1.read(0, 0)[1]
    with w0.path(0, 1).open("ab") as fh:
        fh.write(b"aGFsZg==")  # being written: no newline yet
    w0.write_status(True, {1: 0})
    w1.write_status(True, {0: offset})
    assert not w0.all_done()
    assert not w1.all_done()


def test_all_done_ignores_another_runs_statuses(folder: Path) -> None:
    w0 = _spool(folder, 0, run="r2")
    _spool(folder, 1, run="r1").write_status(True, {0: 0})
    w0.write_status(True, {1: 0})
    assert not w0.all_done()
    _spool(folder, 1, run="r2").write_status(True, {0: 0})
    assert w0.all_done()
