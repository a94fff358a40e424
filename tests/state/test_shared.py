"""Shared SQLite files: many processes creating one at the same moment all get it open."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from harvest.state.shared import open_shared_db

_SCHEMA = "CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY);"


def _open(
    path: str, barrier: multiprocessing.synchronize.Barrier, results: multiprocessing.Queue[str]
) -> None:
    barrier.wait(30)
    try:
        db = open_shared_db(path, _SCHEMA, "test file", busy_timeout=30)
        db.execute("INSERT OR IGNORE INTO t VALUES ('x')")
        db.close()
        results.put("ok")
    except Exception as exc:  # reported to the test, which names it
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_creating_one_file_at_once_all_open_it(tmp_path: Path) -> None:
    # Fleet spiders start together and each opens state/_shared/*.sqlite: switching a brand-new
    # file to WAL could answer "database is locked" at once, closing a spider with state_error.
    ctx = multiprocessing.get_context("fork")
    processes = 6
    for attempt in range(8):
        path = str(tmp_path / f"shared-{attempt}.sqlite")
        barrier = ctx.Barrier(processes)
        results: multiprocessing.Queue[str] = ctx.Queue()
        procs = [ctx.Process(target=_open, args=(path, barrier, results)) for _ in range(processes)]
        for proc in procs:
            proc.start()
        outcomes = [results.get(timeout=60) for _ in procs]
        for proc in procs:
            proc.join(60)
        assert outcomes == ["ok"] * processes, f"attempt {attempt}: {outcomes}"
