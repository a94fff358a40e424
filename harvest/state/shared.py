"""Small SQLite files shared by every process of one data folder (rate budgets, site pace).

The GitHub rate budget (:mod:`harvest.github.budget`) and the per-site pace
(:mod:`harvest.pace`) keep their tables in one SQLite file each, written by every process of a
data folder: WAL mode (readers never wait for the writer), ``BEGIN IMMEDIATE`` transactions of
a few statements (processes serialize on the file lock for microseconds), and grants of
processes that died purged by pid. This module holds that plumbing once.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harvest.exceptions import StateError


def open_shared_db(path: str | Path, schema: str, what: str) -> sqlite3.Connection:
    """Open (creating it and its folder) a shared SQLite file in WAL mode, with ``schema``.

    Transactions are the caller's (:func:`immediate`); ``what`` names the file in errors.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: transactions are BEGIN IMMEDIATE, issued by immediate().
        db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(schema)
    except sqlite3.Error as exc:
        raise StateError(str(path), f"cannot open the {what}: {exc}") from exc
    return db


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def pid_alive(pid: int) -> bool:
    """Whether a process of this machine with this pid exists (grants of dead ones are purged)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
