"""Small SQLite files shared by every process of one data folder (rate budgets, site pace).

The GitHub rate budget (:mod:`harvest.github.budget`), the per-site pace (:mod:`harvest.pace`) and
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harvest.exceptions import StateError

_CHECKPOINT_PAGES = 100
_WAL_LIMIT = 1024 * 1024


def open_shared_db(
    path: str | Path, schema: str, what: str, *, busy_timeout: float = 30.0
) -> sqlite3.Connection:
    """Open (creating it and its folder) a shared SQLite file in WAL mode, with ``schema``.

    Transactions are the caller's (:func:`immediate`); ``what`` names the file in errors.
    """
    path = Path(path)
    deadline = time.monotonic() + busy_timeout
    while True:
        db: sqlite3.Connection | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: transactions are BEGIN IMMEDIATE, issued by immediate().
            db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            # These files take many tiny commits: checkpoint every ~400 KB of WAL (not SQLite's
            # 4 MB) and give the space back, so a nearly full disk is not filled by small rows.
            db.execute(f"PRAGMA wal_autocheckpoint = {_CHECKPOINT_PAGES}")
            db.execute(f"PRAGMA journal_size_limit = {_WAL_LIMIT}")
            db.executescript(schema)
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            # Two processes creating the file at once: switching a new database to WAL can
            # answer "locked" at once, without SQLite's busy wait. Try again until the timeout.
            locked = isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)
            if locked and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise StateError(str(path), f"cannot open the {what}: {exc}") from exc
        return db


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
