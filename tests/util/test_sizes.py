"""The data folder's size for ``--max-data-size``: every byte of its own files, nothing else's."""

from __future__ import annotations

import os
from pathlib import Path

from harvest.util.sizes import SizeMonitor, folder_size, is_data_folder
from tests import wait_for


def _write(path: Path, size: int) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    return size


def test_every_file_counts_once_and_links_are_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "data"
    total = _write(root / "a.jsonl", 1_000) + _write(root / "deep" / "er" / "b.md", 2_345)
    outside = _write(tmp_path / "elsewhere" / "big.bin", 100_000)
    (root / "link-to-file").symlink_to(tmp_path / "elsewhere" / "big.bin")
    (root / "link-to-folder").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert outside and folder_size(root) == total
    assert folder_size(tmp_path / "missing") == 0


def test_a_nested_data_folder_is_left_out_of_its_parents_own_size(tmp_path: Path) -> None:
    root = tmp_path / "data"
    own = _write(root / "trending" / "trending_repo.jsonl", 4_000) + _write(root / "state" / "x.sqlite", 500)
    demo = root / "demo"
    nested = _write(demo / "state" / "y.sqlite", 7_000) + _write(demo / "logs" / "blogs" / "1.log", 300)
    assert is_data_folder(demo) and not is_data_folder(root / "trending")
    assert folder_size(root) == own + nested
    assert folder_size(root, own_only=True) == own
    # A folder with state only (no logs, no fleet) is no data folder of its own: it counts.
    partial = _write(root / "backup" / "state" / "z.sqlite", 50)
    assert folder_size(root, own_only=True) == own + partial


def test_the_monitor_measures_now_when_a_walk_is_quick_and_stops(tmp_path: Path) -> None:
    root = tmp_path / "data"
    first = _write(root / "a", 10_000)
    monitor = SizeMonitor(root, interval=3600)
    monitor.start()
    try:
        wait_for(lambda: monitor.size is not None, "the first measurement")
        assert monitor.size == first
        more = _write(root / "b", 5_000)
        # A small folder is walked again when shown: the figure is the size now.
        assert monitor.current() == first + more
    finally:
        monitor.stop()
        monitor.join(timeout=60)
    assert not monitor.is_alive()
    os.remove(root / "a")
    assert monitor.measure() == more
