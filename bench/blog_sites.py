"""The blogs spider on the development set of real generated sites: one table row per site.

    python bench/blog_sites.py [--sites FOLDER ...] [--jobs 2] [--details]
    python bench/blog_sites.py --heldout [--sites GENERATOR ...] [--details]

Each site of ``shared/fixtures/blogs`` (Octopress, Jekyll minima, Jekyll archives, Eleventy,
Zola, Docusaurus, Hugo) is served on 127.0.0.1 (its own hosts mapped to that server, its foreign
loopback links to a canary server), crawled with ``scrapy crawl blogs`` and its defaults, and
compared with its ``oracle.json`` (tests/devsites.py): posts found, titles right, dates right,
fenced code blocks kept, listing pages stored, other pages stored, pages fetched, and requests
that reached the canary (must be 0). ``--details`` lists what was missed or wrong.
``--heldout`` runs the held-out set instead (tests/fixtures/heldout: Pelican, Hexo, Nikola,
ablog, MkDocs Material, Sphinx with Furo, VitePress, VuePress with vuepress-theme-hope, Sphinx
with the Read the Docs theme, Lektor, Astro Starlight, an Astro blog, MkDocs with its
readthedocs theme, Sphinx with the PyData theme, a Docusaurus blog, Jupyter Book, Hexo NexT,
Eleventy's base blog, Jekyll and Hugo as Debian packages them, Nextra, Gatsby's blog starter,
Zensical, WordPress, Rspress, VuePress with vuepress-theme-reco, Hexo Butterfly, Ghost, HonKit,
ikiwiki, Hexo Fluid, Texinfo, Fumadocs and MediaWiki; built by bench/heldout/build.sh).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import SHARED_FIXTURES  # noqa: E402
from tests.devsites import BY_FOLDER, HELDOUT, HELDOUT_FIXTURES, Crawled, crawl_site, markdown_table  # noqa: E402


def _details(crawled: Crawled) -> None:
    s = crawled.score
    print(f"\n## {s.site}: exit {crawled.returncode}")
    for label, values in (
        ("missing", s.missing),
        ("wrong titles (path, oracle, stored)", s.wrong_titles),
        ("wrong dates (path, stored, oracle)", s.wrong_dates),
        ("code short (path, kept, oracle)", s.code_short),
        ("code languages lost (path, source, stored)", s.langs_lost),
        ("more code blocks than the source (path, stored, source)", s.code_extra),
        ("navigation stored in the body", s.chrome),
        ("listings stored", s.listings),
    ):
        if values:
            print(f"- {label}: {len(values)}")
            for value in values[:40]:
                print(f"    {value}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", nargs="*", help="folders (default: every site of the set)")
    parser.add_argument("--heldout", action="store_true", help="the held-out generators instead")
    parser.add_argument("--jobs", type=int, default=2, help="sites crawled at once (default 2)")
    parser.add_argument("--details", action="store_true", help="list what was missed or wrong")
    parser.add_argument(
        "--extraction", default="pool", choices=["pool", "inline"], help="HARVEST_BLOGS_EXTRACTION"
    )
    options = parser.parse_args()
    sites = {s.folder: s for s in HELDOUT} if options.heldout else BY_FOLDER
    fixtures = HELDOUT_FIXTURES if options.heldout else SHARED_FIXTURES / "blogs"
    chosen = options.sites or list(sites)
    unknown = [f for f in chosen if f not in sites]
    if unknown:
        parser.error(f"unknown site(s) {unknown}; choose from {sorted(sites)}")
    with tempfile.TemporaryDirectory(prefix="bench-blog-sites-") as tmp:

        def run(folder: str) -> Crawled:
            return crawl_site(
                sites[folder],
                fixtures,
                Path(tmp) / folder,
                settings={"HARVEST_BLOGS_EXTRACTION": options.extraction},
            )

        with ThreadPoolExecutor(max_workers=options.jobs) as pool:
            results = list(pool.map(run, chosen))
    print(markdown_table([c.score.row() for c in results]))
    if options.details:
        for crawled in results:
            _details(crawled)
    return 0 if all(c.returncode == 0 for c in results) else 1


if __name__ == "__main__":
    sys.exit(main())
