"""Security promises (docs/GUARANTEES.md), each checked through the real crawl where one can run.

- ``GITHUB_TOKEN`` is never written: not in any file under the data folder (outputs, Markdown,
  SQLite state and its WAL, logs), not in any log line, even at DEBUG and when requests fail.
- File names made from URLs and repository names stay inside the data folder: ``..``, absolute
  paths, NUL, overlong names, names differing only in case.
- The private-address guard holds for redirects: an allowed site redirecting to another loopback
  address, to 10/8 or to the cloud metadata address, or to a public-looking name that resolves
  to a private address, is refused before any connection.
- YAML configs are loaded safely: a ``!!python/object`` tag is refused (exit 2), nothing runs.
"""

from __future__ import annotations

import base64
import json
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from harvest.items import DocumentItem
from harvest.pipelines.output import OutputPipeline
from harvest.util.paths import safe_join, safe_name
from tests import read_jsonl, scrapy_crawl, shared_fixture, skip_or_fail
from tests.github_emulator import Limits, github_emulator
from tests.servers import LoggedRequest, Reply, loopback_server

TOKEN = "ghp_S3cretTokenThatMustNeverBeWritten42"


def _every_file(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def _leaks(root: Path, *texts: str) -> list[str]:
    """Files under ``root`` and texts that contain the token (raw, or base64 as in Basic auth)."""
    needles = [TOKEN.encode(), base64.b64encode(TOKEN.encode()), TOKEN.encode("utf-16-le")]
    leaks = [str(p) for p in _every_file(root) if any(n in p.read_bytes() for n in needles)]
    leaks += [f"text #{i}" for i, text in enumerate(texts) if TOKEN in text]
    return leaks


def _crawl_github_search(base_url: str, data_dir: Path, config_dir: Path) -> subprocess.CompletedProcess[str]:
    return scrapy_crawl(
        "github_search",
        settings={
            "GITHUB_API_URL": base_url,
            "HARVEST_DATA_DIR": data_dir,
            "HARVEST_CONFIG_DIR": config_dir,
            "HARVEST_GITHUB_RESET_MARGIN": 0.2,
            "HARVEST_GITHUB_BACKOFF_BASE": 0.5,
            "LOG_LEVEL": "DEBUG",
            "CLOSESPIDER_TIMEOUT": 60,
        },
        env={"GITHUB_TOKEN": TOKEN},
        timeout=90,
    )


def test_the_token_is_never_written_or_logged(tmp_path: Path) -> None:
    shared_fixture("github-api")
    data_dir, config_dir = tmp_path / "data", tmp_path / "config"
    config_dir.mkdir()
    # A search that succeeds with READMEs, and one GitHub rejects (its error is logged).
    (config_dir / "github_search.yaml").write_text(
        yaml.safe_dump(
            {"queries": [{"query": "topic:web-scraping created:>=2025-10-01"}, {"query": "stars:>>>1"}]}
        ),
        encoding="utf-8",
    )
    (config_dir / "trending.yaml").write_text("developers: false\n", encoding="utf-8")
    logs: list[str] = []
    with github_emulator(tokens={TOKEN}, limits=Limits(search_limit=30, search_window=2.0)) as emulator:
        result = _crawl_github_search(emulator.base_url, data_dir, config_dir)
        logs += [result.stdout, result.stderr]
        assert result.returncode == 1, result.stderr[-3000:]  # a failed search: not a success
        assert "'finish_reason': 'query_failed'" in result.stderr
        assert read_jsonl(data_dir / "github_search" / "repo.jsonl")
        assert read_jsonl(data_dir / "github_search" / "document.jsonl")
        assert "Search 'stars:>>>1' failed" in result.stderr
        # Sent with every request all the same.
        assert all(
            r.headers.get("Authorization") == f"Bearer {TOKEN}"
            for r in emulator.requests
            if not r.path.startswith("/rate_limit")
        )
    with loopback_server() as server:
        daily = shared_fixture("trending", "host452b-trending-on-github", "trending_daily.html")
        server.add("/robots.txt", Reply(body="User-agent: *\nDisallow:\n", content_type="text/plain"))
        server.add_file("/trending", daily)
        seen: list[str] = []

        def readme(request: LoggedRequest) -> Reply:
            seen.append(request.headers.get("Authorization", ""))
            if "openhuman" in request.path:
                body = {"encoding": "base64", "content": base64.b64encode(b"# OpenHuman\n\nHi.\n").decode()}
                return Reply(body=json.dumps(body), content_type="application/json")
            if "agentmemory" in request.path:
                return Reply(500, '{"message": "Server Error"}', content_type="application/json")
            return Reply(404, '{"message": "Not Found"}', content_type="application/json")

        for repo in ("tinyhumansai/openhuman", "rohitg00/agentmemory", "mattpocock/skills"):
            server.add(f"/api/repos/{repo}/readme", readme)
        result = scrapy_crawl(
            "trending",
            settings={
                "GITHUB_WEB_URL": server.base_url,
                "GITHUB_RAW_URL": server.base_url,
                "GITHUB_API_URL": f"{server.base_url}/api",
                "HARVEST_DATA_DIR": data_dir,
                "HARVEST_CONFIG_DIR": config_dir,
                "AUTOTHROTTLE_ENABLED": False,
                "RETRY_TIMES": 1,
                "LOG_LEVEL": "DEBUG",
                "CLOSESPIDER_TIMEOUT": 60,
            },
            env={"GITHUB_TOKEN": TOKEN},
            timeout=90,
        )
        logs += [result.stdout, result.stderr]
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"Bearer {TOKEN}" in seen
    assert any("agentmemory" in line and "ERROR" in line for line in result.stderr.splitlines())
    # Outputs, Markdown, state (SQLite and WAL), budgets, validators: not a byte of it.
    files = _every_file(data_dir)
    assert any(p.suffix == ".sqlite" for p in files) and any(p.suffix == ".md" for p in files)
    assert _leaks(data_dir, *logs) == []


# --- file names -----------------------------------------------------------------------------------

HOSTILE_NAMES = [
    "..",
    ".",
    "../../../../etc/passwd",
    "/etc/passwd",
    "C:\\Windows\\system32",
    "a\x00b",
    "nul\x00/../x",
    "x" * 5000,
    "é" * 300,
    "Foo/Bar",
    "foo/bar",
    "FOO/BAR",
    "con",
    "-rf",
    ".hidden",
    "a/./b",
    "a//b",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_safe_name_is_one_harmless_component(name: str, tmp_path: Path) -> None:
    safe = safe_name(name, suffix=".md")
    assert "/" not in safe and "\\" not in safe and "\x00" not in safe
    assert safe not in {".", "..", ".md"} and not safe.startswith((".", "-"))
    assert len(safe.encode()) <= 255
    assert safe_join(tmp_path, "readmes", name).parent == (tmp_path / "readmes").resolve()


def test_names_differing_only_in_case_do_not_collide() -> None:
    names = {safe_name(n).lower() for n in ("Foo/Bar", "foo/bar", "FOO/BAR", "foo-bar")}
    assert len(names) == 4


def test_hostile_repository_names_through_the_output_pipeline(tmp_path: Path) -> None:
    """What trending and github_search do with a repository name, written by the real pipeline."""
    pipeline = OutputPipeline(tmp_path / "data", "github_search")
    pipeline.open_spider()
    for i, repo in enumerate(HOSTILE_NAMES):
        pipeline.process_item(
            DocumentItem(
                url=f"https://example.org/{i}",
                title=repo,
                path=f"readmes/{safe_name(repo, suffix='.md')}",
                content_hash="",
                fetched_at="2026-01-01T00:00:00Z",
                source="readme",
                repo=repo,
                content=f"README number {i}",
            )
        )
    # A path that escapes is refused, not written.
    for bad in ("../escaped.md", "/tmp/escaped.md", "readmes/../../escaped.md", "a\x00b.md"):
        with pytest.raises(ValueError):
            pipeline.process_item(
                DocumentItem(
                    url="u",
                    title=None,
                    path=bad,
                    content_hash="",
                    fetched_at="t",
                    source="readme",
                    content="x",
                )
            )
    pipeline.close_spider()
    written = [p for p in _every_file(tmp_path) if p.suffix == ".md"]
    assert len(written) == len(HOSTILE_NAMES)
    assert all(p.parent == tmp_path / "data" / "github_search" / "readmes" for p in written)
    assert len({p.name.lower() for p in written}) == len(HOSTILE_NAMES)
    assert not (tmp_path / "escaped.md").exists() and not Path("/tmp/escaped.md").exists()


def test_article_urls_cannot_steer_file_names(tmp_path: Path) -> None:
    """Through ``scrapy crawl blogs``: every Markdown file lands in the site's folder, one per page."""
    slugs = [
        "posts/..%2F..%2F..%2Fescaped",
        "posts/%2e%2e/%2e%2e/%2e%2e/escaped2",
        "posts/a%00b",
        "posts/" + "long-" * 400,
        "posts/Case",
        "posts/case",
        "posts/CASE",
        "posts/%C3%A9t%C3%A9",
        "posts/x?file=/etc/passwd",
        "posts/.hidden",
    ]
    with loopback_server() as server:
        links = "".join(f'<a href="/{s}">{i}</a>' for i, s in enumerate(slugs))
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))

        def article(request: LoggedRequest) -> Reply:
            text = f"A post served at {request.path}, with enough words to be an article. " * 6
            return Reply(
                body=f"<html><body><article><h1>{request.path[:40]}</h1><p>{text}</p></article></body></html>"
            )

        for slug in slugs:
            url_path = "/" + slug
            server.add(url_path, article)
            server.add(urlsplit(url_path).path, article)
        config = tmp_path / "config"
        config.mkdir()
        site = {
            "name": "../../evil site",
            "start_urls": [server.base_url + "/"],
            "article_patterns": ["/posts/"],
        }
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config,
                "HARVEST_DATA_DIR": tmp_path / "data",
                "AUTOTHROTTLE_ENABLED": False,
                "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            timeout=90,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    docs = read_jsonl(tmp_path / "data" / "blogs" / "document.jsonl")
    assert len(docs) >= len(slugs) - 1  # two spellings of ../ may name one page
    site_dir = (tmp_path / "data" / "blogs" / safe_name("../../evil site")).resolve()
    md = [p for p in _every_file(tmp_path) if p.suffix == ".md"]
    assert len(md) == len(docs)
    for doc in docs:
        path = Path(doc["path"]).resolve()
        assert path.parent == site_dir and path.exists(), doc["path"]
        assert len(path.name.encode()) <= 255
    assert len({p.name.lower() for p in md}) == len(md)  # case-insensitive file systems too
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config", "data"]
    # The crawl's own folders only: its output, its state and its round record (logs/blogs/).
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["blogs", "logs", "state"]
    assert sorted(p.name for p in (tmp_path / "data" / "logs").iterdir()) == ["blogs"]
    assert not [p for p in (tmp_path / "data" / "logs").rglob("*") if p.suffix == ".md"]


# --- the private-address guard and redirects ----------------------------------------------------


@pytest.fixture
def listener_127_0_0_2() -> Iterator[socket.socket]:
    """A TCP listener on 127.0.0.2 (another loopback address): any connection shows in accept()."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.2", 0))
    except OSError as exc:
        sock.close()
        skip_or_fail(f"cannot bind 127.0.0.2 here: {exc}")
    sock.listen(16)
    sock.setblocking(False)
    yield sock
    sock.close()


def _connections(sock: socket.socket) -> int:
    count = 0
    while True:
        try:
            conn, _ = sock.accept()
        except BlockingIOError:
            return count
        conn.close()
        count += 1


def test_redirects_to_private_addresses_are_refused(
    tmp_path: Path, listener_127_0_0_2: socket.socket
) -> None:
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # a service on this machine's loopback
    other.bind(("127.0.0.1", 0))
    other.listen(16)
    other.setblocking(False)
    port2 = listener_127_0_0_2.getsockname()[1]
    other_port = other.getsockname()[1]
    with loopback_server() as server:
        # The configured site is reached by a public-looking name (resolved by the test resolver).
        site_host = f"blog.example:{server.port}"
        targets = {
            "loopback2": f"http://127.0.0.2:{port2}/admin",
            "ten": "http://10.0.0.1/admin",
            "metadata": "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
            "metadata-name": "http://metadata.example/latest/meta-data/",
            "intranet-name": f"http://intranet.example:{other_port}/admin",
            "ipv6": f"http://[::1]:{server.port}/",
            "hex": f"http://0x7f000001:{server.port}/",
        }
        links = "".join(f'<a href="/go/{k}">{k}</a>' for k in targets) + '<a href="/posts/ok">ok</a>'
        server.add("/", Reply(body=f"<html><body>{links}</body></html>"))
        for key, target in targets.items():
            server.add(f"/go/{key}", Reply(302, headers={"Location": target}))
        server.add(
            "/posts/ok",
            Reply(
                body="<html><body><article><h1>Fine</h1><p>"
                + "An ordinary post on the configured site. " * 6
                + "</p></article></body></html>"
            ),
        )
        config = tmp_path / "config"
        config.mkdir()
        hosts = sorted({urlsplit(t).hostname or "" for t in targets.values()} | {"blog.example"})
        site = {"name": "site", "start_urls": [f"http://{site_host}/"], "allowed_domains": hosts}
        (config / "blogs.yaml").write_text(yaml.safe_dump({"sites": [site]}), encoding="utf-8")
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config,
                "HARVEST_DATA_DIR": tmp_path / "data",
                "AUTOTHROTTLE_ENABLED": False,
                "HARVEST_BLOGS_EXTRACT_WORKERS": 1,
                "DNS_RESOLVER": "tests.hosts_resolver.HostsResolver",
                "DOWNLOAD_TIMEOUT": 3,
                "CLOSESPIDER_TIMEOUT": 60,
            },
            env={
                "HARVEST_TEST_HOSTS": "blog.example=127.0.0.1,metadata.example=169.254.169.254,"
                "intranet.example=127.0.0.1"
            },
            timeout=90,
        )
        fetched = server.paths_requested()
    try:
        assert result.returncode == 0, result.stderr[-3000:]
        # The allowed site itself was crawled, every redirect was followed up to the guard...
        assert {f"/go/{k}" for k in targets} <= set(fetched)
        docs = read_jsonl(tmp_path / "data" / "blogs" / "document.jsonl")
        assert [urlsplit(d["url"]).path for d in docs] == ["/posts/ok"]
        # ... and nothing behind them was contacted.
        assert _connections(listener_127_0_0_2) == 0
        assert _connections(other) == 0
        assert not [p for p in fetched if p.startswith(("/latest", "/admin"))] and fetched.count("/") == 1
        stats = dict(re.findall(r"'(harvest/safety/[a-z_]+)': (\d+)", result.stderr))
        assert int(stats["harvest/safety/private_address"]) == len(targets)
        # No connection was even tried: the only download exceptions are the guard's refusals.
        exceptions = re.findall(r"'downloader/exception_type_count/([\w.]+)'", result.stderr)
        assert exceptions == ["scrapy.exceptions.IgnoreRequest"], exceptions
        # Each refusal logged once, naming the URL.
        refused = [line for line in result.stderr.splitlines() if "WARNING: Refused http" in line]
        for target in targets.values():
            assert len([line for line in refused if target in line]) == 1, (target, refused)
    finally:
        other.close()


# --- YAML -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [
        "sites: !!python/object/apply:os.system ['touch {marker}']\n",
        "sites:\n  - !!python/object:harvest.config.blogs.SiteConfig {{name: x}}\n",
        "!!python/name:os.system\n",
    ],
)
def test_yaml_tags_that_build_python_objects_are_refused(tmp_path: Path, payload: str) -> None:
    marker = tmp_path / "pwned"
    config = tmp_path / "config"
    config.mkdir()
    (config / "blogs.yaml").write_text(payload.format(marker=marker), encoding="utf-8")
    settings = {"HARVEST_CONFIG_DIR": config, "HARVEST_DATA_DIR": tmp_path / "data"}
    result = scrapy_crawl("blogs", settings=settings, timeout=60)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "blogs.yaml" in result.stderr and "python/" in result.stderr, result.stderr[-2000:]
    assert not marker.exists()
    assert not (tmp_path / "data").exists()
