"""Small SQLite files shared by every process of one data folder (rate budgets, site pace).

The GitHub rate budget (:mod:`harvest.github.budget`), the per-site pace (:mod:`harvest.state.pace`) and
the near-duplicate index (:mod:`harvest.state.neardup`) keep their tables in one SQLite file each,
written by every process of a data folder: WAL mode (readers never wait for the writer), ``BEGIN
IMMEDIATE`` transactions of a few statements (processes serialize on the file lock for
microseconds), and grants of processes that died purged by pid. This module holds that plumbing
once.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from harvest.exceptions import StateError

_CHECKPOINT_PAGES = 100
_WAL_LIMIT = 1024 * 1024
T = TypeVar("T")


def retry_locked(action: Callable[[], T], busy_timeout: float) -> T:
    """``action()``, tried again until ``busy_timeout`` passes while SQLite answers "locked".

    Two processes creating a database at once (workers that start together): switching a new
    database to WAL can answer "database is locked" at once, without SQLite's busy wait.
    """
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            return action()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def open_shared_db(
    path: str | Path, schema: str, what: str, *, busy_timeout: float = 30.0
) -> sqlite3.Connection:
    """Open (creating it and its folder) a shared SQLite file in WAL mode, with ``schema``.

    Transactions are the caller's (:func:`immediate`); ``what`` names the file in errors.
    """
    path = Path(path)

    def connect() -> sqlite3.Connection:
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: transactions are BEGIN IMMEDIATE, issued by immediate().
        db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            # These files take many tiny commits: checkpoint every ~400 KB of WAL (not SQLite's
            # 4 MB) and give the space back, so a nearly full disk is not filled by small rows.
            db.execute(f"PRAGMA wal_autocheckpoint = {_CHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit = {_WAL_LIMIT}")
            db.executescript(schema)
        except BaseException:
            db.close()
            raise
        return db

    try:
        return retry_locked(connect, busy_timeout)
    except sqlite3.Error as exc:
        raise StateError(str(path), f"cannot open the {what}: {exc}") from exc


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        # SQLite has already rolled back after some errors (a full disk on COMMIT).
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def pid_alive(pid: int) -> bool:
    """Whether a process of this machine with this pid exists (grants of dead ones are purged)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
