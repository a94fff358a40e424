"""The sample world of ``--demo``: repositories, developers and blog posts, made up and deterministic.

Everything here is generated from word lists with a fixed seed, so every demo run serves the
same sites and a newcomer can compare runs. Nothing is copied from real pages.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

logger = logging.getLogger(__name__)

_SEED = 20261202
#: Repositories in the sample world (search pages hold 100, so this gives several pages).
REPO_COUNT = 240
#: Posts on the sample blog.
POST_COUNT = 14

_OWNERS = [
    "ada-lab",
    "bytefield",
    "cobalt-dev",
    "driftwood",
    "emberhq",
    "fjordsoft",
    "granite-io",
    "harbor-ai",
    "inkwell",
    "juniper-labs",
    "kestrel",
    "lumen-team",
    "mossy",
    "nimbus-org",
    "orchid-data",
    "pebble-js",
]
_STEMS = [
    "crawl",
    "spider",
    "fetch",
    "harvest",
    "parse",
    "index",
    "scrape",
    "queue",
    "graph",
    "vector",
    "stream",
    "cache",
    "shard",
    "ledger",
    "signal",
    "forge",
    "pilot",
    "relay",
    "sieve",
    "atlas",
]
_SUFFIXES = ["kit", "lite", "core", "flow", "hub", "rs", "py", "db", "x", "ly", "ops", "bench"]
_LANGUAGES = ["Python", "Rust", "Go", "TypeScript", "C++", None]
_TOPICS = ["web-scraping", "crawler", "data-pipeline", "search", "machine-learning", "cli", "database"]
_WHAT = [
    "A polite web crawler that",
    "Fast incremental indexer that",
    "Tiny library that",
    "Command-line tool that",
    "Async framework that",
    "Self-hosted service that",
]
_DOES = [
    "keeps its state across restarts",
    "turns HTML into clean Markdown",
    "deduplicates by content hash",
    "respects robots.txt and rate limits",
    "streams results as JSON Lines",
    "scales out over Redis",
]
_FIRST = ["Ana", "Bo", "Chen", "Dara", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Jules", "Kai", "Lena"]
_LAST = ["Okafor", "Lindqvist", "Tanaka", "Moreau", "Silva", "Novak", "Haddad", "Kowalski", "Reyes"]

_POST_TOPICS = [
    ("Why your crawler should remember what it saw", "state"),
    ("Conditional requests: ETags in practice", "http"),
    ("Politeness is a feature: AutoThrottle explained", "http"),
    ("From HTML to Markdown without losing the code", "extraction"),
    ("Sitemaps, feeds and the cheapest way to discover pages", "discovery"),
    ("Surviving kill -9: exactly-once output", "state"),
    ("Rate limits you can read: x-ratelimit headers", "http"),
    ("A process per spider: why reactors do not restart", "architecture"),
    ("Measuring a crawler: pages per second is not enough", "performance"),
    ("Calendar traps and other infinite spaces", "safety"),
    ("Parsing dates the way readers write them", "extraction"),
    ("When a site changes its layout overnight", "operations"),
    ("Backoff with jitter, and when to give up", "operations"),
    ("Small fixtures, real pages: testing scrapers", "testing"),
]
_PARAGRAPHS = [
    "Most crawls are not one-off jobs. They run every day, and the second run is where naive "
    "designs fall apart: either they fetch everything again, or they remember so much that a "
    "crash wipes out the memory.",
    "The trick is to separate what changes from what does not. Listing pages change all the "
    "time and must be fetched every round; articles rarely change and can be revisited with a "
    "conditional request that costs the server almost nothing.",
    "Write the output first and commit the state after. If the process dies in between, the "
    "next run sees the item on disk, reconciles, and moves on without a duplicate.",
    "Measure before you optimise. On a two-core machine a single Python crawler saturates one "
    "core long before the network is the limit, so the second core is the cheapest speed-up.",
    "Every limit deserves a message that names it. A crawl that stops silently is worse than "
    "one that fails loudly, because nobody notices the gap until the data is needed.",
    "Treat the server's headers as the contract. Retry-After, x-ratelimit-reset and ETag say "
    "exactly what the server wants; guessing its limits instead is how crawlers get banned.",
]
_CODE = [
    (
        "python",
        "def fetch(url: str) -> str:\n    response = session.get(url, timeout=30)\n"
        "    response.raise_for_status()\n    return response.text\n",
    ),
    ("bash", "python run_all.py --once --spiders blogs\njq -r .title data/blogs/document.jsonl\n"),
    ("yaml", "sites:\n  - name: example\n    start_urls: [https://example.org/blog/]\n"),
]


@dataclass(frozen=True)
class Repo:
    """One sample repository."""

    owner: str
    name: str
    description: str
    language: str | None
    stars: int
    forks: int
    open_issues: int
    topics: tuple[str, ...]
    created_at: str
    pushed_at: str
    built_by: tuple[str, ...]
    readme: str

    @property
    def full_name(self) -> str:
        """``owner/name``."""
        return f"{self.owner}/{self.name}"


@dataclass(frozen=True)
class Developer:
    """One sample developer on the trending developers page."""

    username: str
    name: str
    popular_repo: Repo


@dataclass(frozen=True)
class Post:
    """One sample blog post."""

    slug: str
    title: str
    author: str
    published: datetime
    tags: tuple[str, ...]
    paragraphs: tuple[str, ...]
    code: tuple[tuple[str, str], ...]

    @property
    def path(self) -> str:
        """The post's dated permalink, as blogs usually have."""
        return f"/{self.published:%Y/%m}/{self.slug}/"


@dataclass
class World:
    """All the sample data the demo sites serve."""

    repos: list[Repo] = field(default_factory=list)
    developers: list[Developer] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)

    def by_language(self, language: str | None) -> list[Repo]:
        """Repositories of one language (None: all), most stars first."""
        picked = [r for r in self.repos if language is None or (r.language or "").lower() == language]
        return sorted(picked, key=lambda r: -r.stars)


def _readme(rng: random.Random, owner: str, name: str, description: str, language: str | None) -> str:
    lang = (language or "text").lower()
    para = rng.sample(_PARAGRAPHS, 2)
    return (
        f"# {name}\n\n{description}\n\n## Install\n\n```bash\npip install {name}\n```\n\n"
        f"## Why\n\n{para[0]}\n\n{para[1]}\n\n## Usage\n\n```{lang}\n# {owner}/{name}\nrun()\n```\n\n"
        f"## License\n\nMIT\n"
    )


def build_world() -> World:
    """The demo's sample world (the same on every call)."""
    rng = random.Random(_SEED)
    world = World()
    base = datetime(2026, 12, 1, tzinfo=timezone.utc)
    names: set[str] = set()
    users = [f"{f.lower()}{rng.randint(1, 99)}" for f in _FIRST]
    while len(world.repos) < REPO_COUNT:
        owner = rng.choice(_OWNERS)
        name = f"{rng.choice(_STEMS)}{rng.choice(['', '-'])}{rng.choice(_SUFFIXES)}"
        if f"{owner}/{name}" in names:
            continue
        names.add(f"{owner}/{name}")
        language = rng.choice(_LANGUAGES)
        description = f"{rng.choice(_WHAT)} {rng.choice(_DOES)}."
        created = base - timedelta(days=rng.randint(30, 3000))
        world.repos.append(
            Repo(
                owner=owner,
                name=name,
                description=description,
                language=language,
                stars=int(rng.paretovariate(1.2) * 300),
                forks=rng.randint(0, 900),
                open_issues=rng.randint(0, 120),
                topics=tuple(sorted(rng.sample(_TOPICS, rng.randint(1, 3)))),
                created_at=created.strftime("%Y-%m-%dT%H:%M:%SZ"),
                pushed_at=(base - timedelta(hours=rng.randint(1, 2000))).strftime("%Y-%m-%dT%H:%M:%SZ"),
                built_by=tuple(rng.sample(users, rng.randint(1, 4))),
                readme=_readme(rng, owner, name, description, language),
            )
        )
    top = world.by_language(None)
    for i, first in enumerate(_FIRST):
        world.developers.append(Developer(users[i], f"{first} {rng.choice(_LAST)}", top[i * 3]))
    for i, (title, tag) in enumerate(_POST_TOPICS[:POST_COUNT]):
        slug = "-".join(w.strip(":,").lower() for w in title.split()[:6])
        world.posts.append(
            Post(
                slug=slug,
                title=title,
                author=f"{rng.choice(_FIRST)} {rng.choice(_LAST)}",
                published=base - timedelta(days=9 * (POST_COUNT - i), hours=rng.randint(0, 23)),
                tags=(tag, rng.choice(["crawling", "python", "notes"])),
                paragraphs=tuple(rng.sample(_PARAGRAPHS, 4)),
                code=(rng.choice(_CODE),),
            )
        )
    return world
