"""replay_lines: complete lines only, up to ``end``, bad lines reported, checkpoints every N lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harvest.util.jsonlines import replay_lines


def _write(path: Path, *lines: bytes) -> list[int]:
    """Write ``lines``; return the offset after each."""
    path.write_bytes(b"".join(lines))
    ends, pos = [], 0
    for line in lines:
        pos += len(line)
        ends.append(pos)
    return ends


def test_feeds_objects_and_stops_at_a_partial_last_line(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    ends = _write(path, b'{"n": 1}\n', b"[1, 2]\n", b'{"n": 2}\n', b'{"n": 3')
    got: list[dict[str, Any]] = []
    assert replay_lines(path, 0, got.append) == (2, ends[2])
    assert got == [{"n": 1}, {"n": 2}]
    assert replay_lines(path, ends[0], got.append, end=ends[1]) == (0, ends[1])


def test_bad_lines_are_reported_with_their_end_offset(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    ends = _write(path, b'{"n": 1}\n', b"not json\n", b'{"n": 2}\n')
    bad: list[int] = []
    got: list[dict[str, Any]] = []
    assert replay_lines(path, 0, got.append, bad_line=bad.append) == (2, ends[2])
    assert bad == [ends[1]]
    assert replay_lines(path, 0, got.append) == (2, ends[2])  # without a callback: skipped quietly


def test_checkpoint_every_n_lines_fed(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    ends = _write(path, *(f'{{"n": {i}}}\n'.encode() for i in range(5)), b"garbage\n", b'{"n": 5}\n')
    checkpoints: list[int] = []
    count, pos = replay_lines(path, 0, lambda _: None, checkpoint=checkpoints.append, checkpoint_every=2)
    assert (count, pos) == (6, ends[-1])
    assert checkpoints == [ends[1], ends[3], ends[-1]]
