"""Bad input wherever a user types: exit code 2, a message naming the file/key/flag, nothing done.

Every case runs the real command (``scrapy crawl <spider>`` or ``python run_all.py --once``) as
a subprocess, with the spiders' endpoints and sites on a loopback server of its own that
counts requests. Each must exit with 2, name what is wrong, show no traceback, send no request
and leave the data folder absent. Cases already covered elsewhere are not repeated here:
``-a since``/``url``/``site``/``render``/``max_results``/``sort`` and unknown blogs arguments
(tests/spiders/), flag parsing (tests/runner/test_policy.py), ``--processes 100`` and a bad
fleet YAML key for the test spiders (tests/runner/test_fleet.py).

The cases run four at a time (module fixture) since each is a Python start-up; every case is
still its own test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import PROJECT_ROOT
from tests.servers import LoopbackServer

pytestmark = pytest.mark.timeout(300)

TOKEN = "ghp_BadInputTestToken0000000000000000"

#: A valid config per spider; ``{url}`` is the case's loopback server.
GOOD = {
    "trending": "languages: [python]\n",
    "github_search": "queries:\n  - query: 'topic:web-scraping'\n",
    "blogs": "sites:\n  - name: one\n    start_urls: ['{url}/']\n",
}
#: (YAML, words the error must contain) per spider for a value of the wrong type.
WRONG_TYPE = {
    "trending": ("languages: [python]\nreadmes: [yes]\n", "  readmes: "),
    "github_search": ("queries:\n  query: 'topic:web-scraping'\n", "  queries: "),
    "blogs": (
        "sites:\n  - name: one\n    start_urls: ['{url}/']\n    max_pages: lots\n",
        "  sites[0].max_pages: ",
    ),
}


@dataclass(frozen=True)
class Case:
    id: str
    spider: str
    #: "crawl" (scrapy crawl) or "fleet" (run_all.py --once).
    command: str = "crawl"
    #: The spider's YAML; None: no file.
    yaml: str | None = None
    args: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    #: Words the error output must contain; "{config}" is the YAML file's path.
    words: tuple[str, ...] = ()


def yaml_cases() -> list[Case]:
    cases = []
    for command in ("crawl", "fleet"):
        for spider, good in GOOD.items():
            bad_type, type_words = WRONG_TYPE[spider]
            variants: list[tuple[str, str | None, tuple[str, str]]] = [
                ("syntax", good + "refresh_interval: [1d\n", ("{config}", "YAML syntax error at line")),
                (
                    "unknown-key",
                    good + "refresh_intervall: 1d\n",
                    ("{config}", "refresh_intervall: unknown key"),
                ),
                ("wrong-type", bad_type, ("{config}", type_words)),
                ("empty", "  \n\n", ("{config}", "the file is empty")),
            ]
            if spider != "trending":  # trending runs on its defaults without a file
                variants.append(("missing", None, ("{config}", "file not found")))
            for name, text, words in variants:
                cases.append(Case(f"{command}-{spider}-yaml-{name}", spider, command, text, words=words))
    return cases


def other_cases() -> list[Case]:
    t, g, b = "trending", "github_search", "blogs"
    return [
        # spider arguments (scrapy crawl -a)
        Case("arg-developers-maybe", t, args=("developers=maybe",), words=("-a developers", "'maybe'")),
        Case("arg-language-path", t, args=("language=c/../x",), words=("-a language", "c/../x")),
        Case("arg-unknown-trending", t, args=("colour=blue",), words=("-a colour: unknown argument",)),
        Case("arg-order-sideways", g, args=("order=sideways",), words=("-a order",)),
        Case("arg-readmes-perhaps", g, args=("readmes=perhaps",), words=("-a readmes", "'perhaps'")),
        Case("arg-reset-perhaps", g, args=("reset=perhaps",), words=("-a reset", "'perhaps'")),
        Case(
            "arg-max-pages-abc", b, args=("max_pages=abc",), words=("-a max_pages: expected a whole number",)
        ),
        Case("arg-source-wiki", b, args=("source=wiki",), words=("-a source",)),
        # settings (-s)
        Case(
            "set-commit-items-abc",
            t,
            settings=("HARVEST_STATE_COMMIT_ITEMS=abc",),
            words=("HARVEST_STATE_COMMIT_ITEMS: expected a whole number, got 'abc'",),
        ),
        Case(
            "set-crawl-workers-negative",
            b,
            settings=("HARVEST_CRAWL_WORKERS=-1",),
            words=("HARVEST_CRAWL_WORKERS: ", "-1"),
        ),
        Case(
            "fleet-crawl-workers-two",
            b,
            "fleet",
            settings=("HARVEST_CRAWL_WORKERS=two",),
            words=("HARVEST_CRAWL_WORKERS: expected a whole number, got 'two'",),
        ),
        Case(
            "set-state-url-ftp",
            b,
            settings=("HARVEST_STATE_URL=ftp://x",),
            words=("HARVEST_STATE_URL: unknown scheme 'ftp'",),
        ),
        Case(
            "set-bool-maybe",
            b,
            settings=("HARVEST_DEDUP_CROSS_SPIDER=maybe",),
            words=("HARVEST_DEDUP_CROSS_SPIDER: expected true or false",),
        ),
        Case(
            "set-float-soon",
            g,
            settings=("HARVEST_GITHUB_BACKOFF_BASE=soon",),
            words=("HARVEST_GITHUB_BACKOFF_BASE: expected a number",),
        ),
        Case(
            "set-scrapy-int",
            b,
            settings=("CONCURRENT_REQUESTS=many",),
            words=("CONCURRENT_REQUESTS: expected a number",),
        ),
        Case(
            "set-negative-gc-threshold",
            b,
            settings=("HARVEST_GC_THRESHOLD=-5",),
            words=("HARVEST_GC_THRESHOLD: expected 0 or more, got '-5'",),
        ),
        Case(
            "set-extraction-word",
            b,
            settings=("HARVEST_BLOGS_EXTRACTION=fast",),
            words=("HARVEST_BLOGS_EXTRACTION: expected one of pool, inline, off, got 'fast'",),
        ),
        Case(
            "set-misspelt",
            t,
            settings=("HARVEST_STATE_COMIT_ITEMS=5",),
            words=("HARVEST_STATE_COMIT_ITEMS: unknown setting",),
        ),
        Case(
            "set-endpoint-not-url",
            g,
            settings=("GITHUB_API_URL=api.github.com",),
            words=("GITHUB_API_URL: expected an absolute http(s) URL",),
        ),
        Case(
            "fleet-set-commit-items-fraction",
            t,
            "fleet",
            settings=("HARVEST_STATE_COMMIT_ITEMS=2.5",),
            words=("HARVEST_STATE_COMMIT_ITEMS: expected a whole number",),
        ),
        Case(
            "fleet-set-state-url-ftp",
            b,
            "fleet",
            settings=("HARVEST_STATE_URL=ftp://x",),
            words=("HARVEST_STATE_URL: unknown scheme 'ftp'",),
        ),
        # environment
        Case("env-token-newline", g, env={"GITHUB_TOKEN": TOKEN + "\nghp_second"}, words=("GITHUB_TOKEN",)),
        Case(
            "fleet-env-token-space",
            t,
            "fleet",
            env={"GITHUB_TOKEN": "ghp_first " + TOKEN},
            words=("GITHUB_TOKEN", "whitespace"),
        ),
        # run_all.py flags
        Case("fleet-duration-zero", b, "fleet", flags=("--duration", "0"), words=("argument --duration",)),
        Case(
            "fleet-processes-negative",
            b,
            "fleet",
            flags=("--processes", "-1"),
            words=("argument --processes", "at least 1"),
        ),
        Case(
            "fleet-max-data-size-zero",
            b,
            "fleet",
            flags=("--max-data-size", "0"),
            words=("argument --max-data-size",),
        ),
        Case(
            "fleet-replicas-not-a-number",
            b,
            "fleet",
            flags=("--replicas", "blogs=x"),
            words=("argument --replicas",),
        ),
        Case(
            "fleet-replicas-other-spider",
            b,
            "fleet",
            flags=("--replicas", "trending=2"),
            words=("argument --replicas", "'trending' is not one of the spiders"),
        ),
        Case(
            "fleet-unknown-spider",
            b,
            "fleet",
            flags=("--spiders", "blogs,nope"),
            words=("argument --spiders", "no spider named 'nope'"),
        ),
    ]


def with_good_yaml(case: Case) -> Case:
    if case.yaml is not None or "-yaml-" in case.id:
        return case
    return Case(**{**case.__dict__, "yaml": GOOD[case.spider]})


CASES = [with_good_yaml(c) for c in (*yaml_cases(), *other_cases())]


@dataclass
class Outcome:
    returncode: int
    output: str
    requests: int
    data_files: list[str] | None
    config: Path


def run_case(case: Case, root: Path) -> Outcome:
    folder = root / case.id
    config, data = folder / "config", folder / "data"
    config.mkdir(parents=True)
    server = LoopbackServer().start()
    try:
        if case.yaml is not None:
            (config / f"{case.spider}.yaml").write_text(case.yaml.replace("{url}", server.base_url))
        settings = {
            "HARVEST_CONFIG_DIR": str(config),
            "GITHUB_WEB_URL": server.base_url,
            "GITHUB_RAW_URL": server.base_url,
            "GITHUB_API_URL": server.base_url,
        }
        if case.command == "crawl":
            cmd = [sys.executable, "-m", "scrapy", "crawl", case.spider, "-s", f"HARVEST_DATA_DIR={data}"]
            for arg in case.args:
                cmd += ["-a", arg]
        else:
            cmd = [
                sys.executable,
                "run_all.py",
                "--once",
                "--no-live",
                "--data-dir",
                str(data),
                "--spiders",
                case.spider,
                *case.flags,
            ]
        for key, value in settings.items():
            cmd += ["-s", f"{key}={value}"]
        for setting in case.settings:
            cmd += ["-s", setting]
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_TOKEN"}
        env.update(case.env)
        result = subprocess.run(cmd, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120, env=env)
        files = sorted(str(p.relative_to(data)) for p in data.rglob("*")) if data.exists() else None
        return Outcome(
            result.returncode,
            result.stdout + result.stderr,
            len(server.requests),
            files,
            config / f"{case.spider}.yaml",
        )
    finally:
        server.stop()


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    root = tmp_path_factory.mktemp("bad-input")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {case.id: pool.submit(run_case, case, root) for case in CASES}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_exits_2_naming_it_before_any_request(case: Case, outcomes: dict[str, Any]) -> None:
    out: Outcome = outcomes[case.id]
    tail = out.output[-2500:]
    assert out.returncode == 2, tail
    for words in case.words:
        assert words.replace("{config}", str(out.config)) in out.output, tail
    assert "Traceback" not in out.output, tail
    assert out.requests == 0, f"{out.requests} requests were sent before the error"
    assert not out.data_files, f"written before the error: {out.data_files}"
    assert TOKEN not in out.output
