"""Files and folders that cannot be what they are named: exit 2 and one line, before anything starts.

Each case runs the real command (``scrapy crawl blogs`` or ``python run_all.py --once``) as a
subprocess, the site on a loopback server of its own that counts requests: a config file that
is a FIFO (its plain read waited for a writer for ever), a YAML key given twice (the last one
won without a word), a data folder that cannot hold files (``/proc/...``: a chained traceback
and exit 1 once the crawl opened its state), a ``sqlite:///`` state folder that cannot either.
Each must exit with 2, say what is wrong in one line naming the file (and key, and both lines),
show no traceback, send no request and write nothing. A case that hangs fails on its timeout,
ten times a normal start's.

The cases run four at a time (module fixture), since each is a Python start-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import PROJECT_ROOT
from tests.servers import LoopbackServer

pytestmark = pytest.mark.timeout(300)

#: A normal start of either command takes 2-6 s here: a hang is caught well after that.
TIMEOUT = 60

GOOD = "sites:\n  - name: one\n    start_urls: ['{url}/']\n    max_pages: 3\n"
TWICE = GOOD + "    max_pages: 5\n"


@dataclass(frozen=True)
class Case:
    id: str
    #: "crawl" (scrapy crawl) or "fleet" (run_all.py --once --data-dir).
    command: str
    #: "file": blogs.yaml holds ``text``; "fifo": blogs.yaml is a FIFO.
    config: str = "file"
    text: str = GOOD
    #: The data folder, relative to the case's folder; an absolute one is used as it is.
    data_dir: str = "data"
    #: Make the data folder's parent a regular file (a path through a file).
    parent_is_file: bool = False
    #: Words the one error line must hold ("{config}": the YAML file, "{data}": the data folder).
    words: tuple[str, ...] = ()
    #: More ``-s`` settings of the run.
    settings: tuple[str, ...] = ()


def cases() -> list[Case]:
    out = []
    for command in ("crawl", "fleet"):
        out += [
            Case(
                f"{command}-duplicate-key",
                command,
                text=TWICE,
                words=("{config}", "sites[0].max_pages: given twice, at line 4 and at line 5"),
            ),
            Case(
                f"{command}-duplicate-top-key",
                command,
                text=GOOD + "refresh_interval: 1d\nrefresh_interval: 2d\n",
                words=("{config}", "refresh_interval: given twice, at line 5 and at line 6"),
            ),
            Case(
                f"{command}-config-fifo",
                command,
                config="fifo",
                words=("{config}", "not a regular file (a FIFO)"),
            ),
            Case(
                f"{command}-data-dir-proc",
                command,
                data_dir="/proc/harvest-test-data",
                words=("the data folder {data} (HARVEST_DATA_DIR) cannot hold files", "cannot create {data}"),
            ),
            Case(
                f"{command}-data-dir-under-a-file",
                command,
                data_dir="file/data",
                parent_is_file=True,
                words=("the data folder {data} (HARVEST_DATA_DIR) cannot hold files", "is not a folder"),
            ),
            Case(
                f"{command}-state-folder-proc",
                command,
                settings=("HARVEST_STATE_URL=sqlite:///proc/harvest-test-state",),
                words=(
                    "HARVEST_STATE_URL: the state folder /proc/harvest-test-state cannot hold files",
                    "cannot create /proc/harvest-test-state",
                ),
            ),
        ]
    return out


CASES = cases()


@dataclass
class Outcome:
    returncode: int
    output: str
    requests: int
    config: Path
    data: Path
    #: What the case's folder holds after the run besides its config.
    left: list[str]


def run_case(case: Case, root: Path) -> Outcome:
    folder = root / case.id
    config_dir = folder / "config"
    config_dir.mkdir(parents=True)
    config = config_dir / "blogs.yaml"
    data = Path(case.data_dir) if case.data_dir.startswith("/") else folder / case.data_dir
    if case.parent_is_file:
        data.parent.write_text("a file, not a folder\n")
    server = LoopbackServer().start()
    try:
        if case.config == "fifo":
            os.mkfifo(config)
        else:
            config.write_text(case.text.replace("{url}", server.base_url))
        settings = ["-s", f"HARVEST_CONFIG_DIR={config_dir}"]
        for setting in case.settings:
            settings += ["-s", setting]
        if case.command == "crawl":
            cmd = [
                sys.executable,
                "-m",
                "scrapy",
                "crawl",
                "blogs",
                "-s",
                f"HARVEST_DATA_DIR={data}",
                *settings,
            ]
        else:
            cmd = [sys.executable, "run_all.py", "--once", "--no-live", "--data-dir", str(data), *settings]
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
        try:
            result = subprocess.run(
                cmd, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=TIMEOUT, env=env
            )
        except subprocess.TimeoutExpired:  # the hang this guards against; the others still run
            return Outcome(-1, f"hung: no exit within {TIMEOUT} s", len(server.requests), config, data, [])
        left = sorted(
            str(p.relative_to(folder)) for p in folder.rglob("*") if config_dir not in (p, *p.parents)
        )
        return Outcome(
            result.returncode, result.stdout + result.stderr, len(server.requests), config, data, left
        )
    finally:
        server.stop()


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    root = tmp_path_factory.mktemp("bad-files")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {case.id: pool.submit(run_case, case, root) for case in CASES}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_bad_file_or_folder_exits_2_in_one_line_before_anything(
    case: Case, outcomes: dict[str, Outcome]
) -> None:
    out = outcomes[case.id]
    tail = out.output[-2500:]
    assert out.returncode == 2, tail
    assert "Traceback" not in out.output, tail
    errors = [line for line in out.output.splitlines() if "error:" in line or "ERROR" in line]
    assert len(errors) == 1, tail
    words = [w.replace("{config}", str(out.config)).replace("{data}", str(out.data)) for w in case.words]
    said = errors[0] + "\n" + out.output.split(errors[0], 1)[1]  # the line and what it lists under it
    for word in words:
        assert word in said, tail
    assert out.requests == 0, f"{out.requests} requests were sent before the error"
    expected = ["file"] if case.parent_is_file else []
    assert out.left == expected, f"written before the error: {out.left}"
