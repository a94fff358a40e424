"""``scrapy report`` on a full disk and after a kill: one ERROR line, exit 1, nothing left behind.

The report's folder is a size-limited tmpfs the test mounts (as tests/faults/test_disk_full.py
does; root only, skipped with the reason otherwise), filled but for a few KB; the kill is
``strace`` injecting SIGKILL at the report's ``fsync`` (its page written, not yet renamed).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harvest.report.sample import write_sample
from tests import PROJECT_ROOT
from tests.report.test_export_once import fill, strace_kill

ERROR_RE = re.compile(r"\] (ERROR|CRITICAL): ")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sample") / "data"
    write_sample(folder, 300, days=3)
    return folder


def scrapy_report(
    data: Path, *args: str, strace: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "scrapy", "report", "-s", f"HARVEST_DATA_DIR={data}", *args]
    return subprocess.run(
        [*(strace or []), *cmd], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120
    )


def _temporary(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_a_full_disk_fails_the_report_cleanly_and_keeps_the_one_before(data: Path, small_disk: Path) -> None:
    out = small_disk / "report"
    first = scrapy_report(data, "--output", str(out))
    assert first.returncode == 0, first.stderr[-3000:]
    before = (out / "index.html").read_bytes()

    filler = fill(small_disk)
    # A report of other days: a different page, which does not fit.
    result = scrapy_report(data, "--output", str(out), "--since", "2000-01-01")
    assert result.returncode == 1, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-5000:]
    errors = [line for line in result.stderr.splitlines() if ERROR_RE.search(line)]
    assert len(errors) == 1, result.stderr[-3000:]
    assert f"Cannot write {out / 'index.html'}: no space left on device" in errors[0]
    assert "WARNING" not in result.stderr
    assert (out / "index.html").read_bytes() == before
    assert _temporary(out) == []

    filler.unlink()
    again = scrapy_report(data, "--output", str(out), "--since", "2000-01-01")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "items since 2000-01-01" in (out / "index.html").read_text(encoding="utf-8")


def test_a_killed_report_leaves_a_temporary_file_the_next_one_removes(data: Path) -> None:
    out = data / "report"  # the default folder
    killed = scrapy_report(data, strace=strace_kill("fsync:signal=KILL"))
    assert killed.returncode == 137 or killed.returncode < 0, killed.stderr[-3000:]
    assert not (out / "index.html").exists()
    left = _temporary(out)
    assert len(left) == 1 and left[0].startswith(".tmp-"), left  # what the issue found

    again = scrapy_report(data)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "WARNING" not in again.stderr
    assert _temporary(out) == []
    assert (out / "index.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
