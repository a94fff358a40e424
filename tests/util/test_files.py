"""Files a crash never leaves half of: the atomic replace (and its mode), the cut of a partial last line."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from harvest.util.files import TEMP_PREFIX, atomic_write_text, current_umask, truncate_partial_tail


@pytest.fixture
def umask() -> Iterator[None]:
    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_an_atomic_write_is_readable_as_the_umask_says(tmp_path: Path, umask: None, mask: int) -> None:
    os.umask(mask)
    assert current_umask() == mask
    path = tmp_path / "sub" / "index.html"
    atomic_write_text(path, "one")
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask  # 0644 under 022, as open() would give
    atomic_write_text(path, "two", durable=False)
    assert path.read_text(encoding="utf-8") == "two"
    assert [p.name for p in path.parent.iterdir()] == ["index.html"]


def test_a_write_that_fails_keeps_the_file_before_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    atomic_write_text(path, "before")
    with pytest.raises(UnicodeEncodeError):
        atomic_write_text(path, "half \udcff")  # not encodable: fails in the middle of the write
    assert path.read_text(encoding="utf-8") == "before"
    assert not list(tmp_path.glob(f"{TEMP_PREFIX}*"))


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        (b'{"a": 1}\n{"b": 2}\n{"c": 3', b'{"a": 1}\n{"b": 2}\n'),
        (b'{"a": 1}\n', b'{"a": 1}\n'),
        (b'{"no newline at all', b""),
        (b"", b""),
        # A partial line longer than the 64 KiB read from the end at a time.
        (b'{"a": 1}\n' + b"x" * 200_000, b'{"a": 1}\n'),
        (b"y" * 150_000 + b"\n" + b"x" * 70_000, b"y" * 150_000 + b"\n"),
    ],
)
def test_a_partial_last_line_is_cut_and_only_it(tmp_path: Path, content: bytes, kept: bytes) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(content)
    assert truncate_partial_tail(path) == len(content) - len(kept)
    assert path.read_bytes() == kept
