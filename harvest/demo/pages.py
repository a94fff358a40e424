"""The demo sites' pages, written by harvest for harvest: HTML, JSON, Atom and sitemap text.

The trending pages follow the markup github.com uses today (an ``article.Box-row`` per
repository, the name in ``h2.h3 > a.Link[href=/owner/repo]``, stars and forks links, "Built by"
avatars and "N stars today"), so the real ``trending`` parser reads them as it reads GitHub.
The API answers have the fields and headers of GitHub's REST API that the spiders use.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from html import escape
from typing import Any
from urllib.parse import quote

from harvest.demo.content import Developer, Post, Repo, World

logger = logging.getLogger(__name__)

_PERIOD_WORDS = {"daily": "today", "weekly": "this week", "monthly": "this month"}
_LANGUAGE_COLORS = {
    "Python": "#3572A5",
    "Rust": "#dea584",
    "Go": "#00ADD8",
    "TypeScript": "#3178c6",
    "C++": "#f34b7d",
}
#: Repositories per trending page (GitHub shows up to 25, often fewer).
TRENDING_ROWS = 12
#: Developers per trending developers page.
DEVELOPER_ROWS = 8


def _page(title: str, body: str, canonical: str | None = None) -> str:
    link = f'<link rel="canonical" href="{escape(canonical)}">' if canonical else ""
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"{link}</head>\n<body>\n{body}\n</body></html>\n"
    )


def _period_stars(repo: Repo, since: str) -> int:
    factor = {"daily": 1, "weekly": 5, "monthly": 17}[since]
    return max(1, repo.stars // 40) * factor


def trending_repos_html(world: World, language: str | None, since: str) -> str:
    """``/trending[/<language>]?since=<since>`` in today's markup."""
    rows = []
    for repo in world.by_language(language)[:TRENDING_ROWS]:
        owner, name = escape(repo.owner), escape(repo.name)
        lang = ""
        if repo.language:
            lang = (
                f'<span class="tmp-mr-3 d-inline-block ml-0 tmp-ml-0">'
                f'<span class="repo-language-color" style="background-color: '
                f'{_LANGUAGE_COLORS.get(repo.language, "#ccc")}"></span>\n'
                f'  <span itemprop="programmingLanguage">{escape(repo.language)}</span></span>'
            )
        avatars = "\n".join(
            f'    <a class="d-inline-block" data-hovercard-type="user" href="/{escape(u)}">'
            f'<img class="avatar mb-1 avatar-user" src="/avatars/{escape(u)}.png" width="20" height="20" '
            f'alt="@{escape(u)}" /></a>'
            for u in repo.built_by
        )
        rows.append(f"""<article class="Box-row">
  <div class="float-right d-flex">
    <a href="/login?return_to=%2F{owner}%2F{name}" class="btn-sm btn">Star</a></div>
  <h2 class="h3 lh-condensed">
    <a href="/{owner}/{name}" data-view-component="true" class="Link">
      <span data-view-component="true" class="text-normal">
        {owner} /
</span>
      {name}</a>  </h2>
  <p class="col-9 color-fg-muted my-1 tmp-pr-4">
    {escape(repo.description)}
  </p>
  <div class="f6 color-fg-muted mt-2">
    {lang}
    <a href="/{owner}/{name}/stargazers" class="tmp-mr-3 Link Link--muted d-inline-block">
      <svg aria-label="star" role="img" class="octicon octicon-star"></svg>
      {repo.stars:,}</a>
    <a href="/{owner}/{name}/forks" class="tmp-mr-3 Link Link--muted d-inline-block">
      <svg aria-label="fork" role="img" class="octicon octicon-repo-forked"></svg>
      {repo.forks:,}</a>
    <span class="tmp-mr-3 d-inline-block">
      Built by
{avatars}
    </span>
    <span class="d-inline-block float-sm-right">
      <svg aria-hidden="true" class="octicon octicon-star"></svg>
      {_period_stars(repo, since):,} stars {_PERIOD_WORDS[since]}
    </span>
  </div>
</article>""")
    body = (
        '<div class="application-main"><main><div class="Box">\n'
        '<div class="Box-header"><h1>Trending</h1></div>\n<div>\n'
        + "\n".join(rows)
        + "\n</div></div></main></div>"
    )
    return _page(f"Trending  repositories on GitHub {_PERIOD_WORDS[since]} · GitHub", body)


def trending_developers_html(world: World, language: str | None, since: str) -> str:
    """``/trending/developers[/<language>]?since=<since>`` in today's markup."""
    # Developers whose popular repository is in this language come first, then the others.
    devs: list[Developer] = sorted(
        world.developers,
        key=lambda d: (
            language is not None and (d.popular_repo.language or "").lower() != language,
            -d.popular_repo.stars,
        ),
    )[:DEVELOPER_ROWS]
    rows = []
    for rank, dev in enumerate(devs, start=1):
        user, repo = escape(dev.username), dev.popular_repo
        rows.append(f"""<article class="Box-row d-flex" id="pa-{user}">
  <a href="#pa-{user}" class="color-fg-muted f6" style="width: 16px;">
    {rank}
  </a>
  <div class="mx-3"><a href="/{user}">
    <img class="rounded avatar-user" src="/avatars/{user}.png" width="48" height="48"
         alt="@{user}" /></a></div>
  <div class="d-sm-flex flex-auto">
    <div class="col-sm-8 d-md-flex">
      <div class="col-md-6">
        <h1 class="h3 lh-condensed"><a href="/{user}">
            {escape(dev.name)}
</a></h1>
        <p class="f4 text-normal mb-1"><a href="/{user}" class="Link--secondary">
              {user}
</a></p>
      </div>
      <div class="col-md-6">
        <div class="mt-2 mb-3 my-md-0">
          <article>
            <div class="f6 color-fg-muted text-uppercase mb-1">Popular repo</div>
            <h1 class="h4 lh-condensed">
              <a href="/{escape(repo.owner)}/{escape(repo.name)}" class="css-truncate css-truncate-target">
                <svg aria-hidden="true" class="octicon octicon-repo color-fg-muted mr-1"></svg>
                {escape(repo.name)}
              </a>
            </h1>
            <div class="f6 color-fg-muted mt-1">{escape(repo.description)}</div>
          </article>
        </div>
      </div>
    </div>
  </div>
</article>""")
    body = (
        '<div class="application-main"><main><div class="Box">\n<div>\n'
        + "\n".join(rows)
        + "\n</div></div></main></div>"
    )
    return _page(f"Trending  developers on GitHub {_PERIOD_WORDS[since]} · GitHub", body)


def repo_json(repo: Repo, api: str, web: str) -> dict[str, Any]:
    """One repository as the search API returns it (the fields harvest reads, and a few more)."""
    return {
        "id": int(hashlib.sha256(repo.full_name.encode()).hexdigest()[:8], 16),
        "name": repo.name,
        "full_name": repo.full_name,
        "owner": {"login": repo.owner, "type": "Organization", "url": f"{api}/users/{repo.owner}"},
        "private": False,
        "html_url": f"{web}/{repo.full_name}",
        "description": repo.description,
        "fork": False,
        "url": f"{api}/repos/{repo.full_name}",
        "created_at": repo.created_at,
        "updated_at": repo.pushed_at,
        "pushed_at": repo.pushed_at,
        "stargazers_count": repo.stars,
        "watchers_count": repo.stars,
        "language": repo.language,
        "forks_count": repo.forks,
        "open_issues_count": repo.open_issues,
        "default_branch": "main",
        "archived": False,
        "topics": list(repo.topics),
        "visibility": "public",
        "score": 1.0,
    }


def readme_json(repo: Repo, api: str, raw: str, web: str) -> dict[str, Any]:
    """``GET /repos/{owner}/{repo}/readme``: the README, base64 in lines of 60 as GitHub sends it."""
    data = base64.b64encode(repo.readme.encode("utf-8")).decode("ascii")
    content = "\n".join(data[i : i + 60] for i in range(0, len(data), 60)) + "\n"
    sha = hashlib.sha1(repo.readme.encode("utf-8")).hexdigest()  # noqa: S324 - a git-like blob id
    return {
        "name": "README.md",
        "path": "README.md",
        "sha": sha,
        "size": len(repo.readme.encode("utf-8")),
        "url": f"{api}/repos/{repo.full_name}/contents/README.md?ref=main",
        "html_url": f"{web}/{repo.full_name}/blob/main/README.md",
        "download_url": f"{raw}/{repo.full_name}/main/README.md",
        "type": "file",
        "content": content,
        "encoding": "base64",
    }


def blog_post_html(post: Post, base: str) -> str:
    """One article page, with the metadata blogs usually carry."""
    paragraphs = "\n".join(f"<p>{escape(p)}</p>" for p in post.paragraphs[:2])
    more = "\n".join(f"<p>{escape(p)}</p>" for p in post.paragraphs[2:])
    code = "\n".join(
        f'<pre><code class="language-{lang}">{escape(src)}</code></pre>' for lang, src in post.code
    )
    tags = " ".join(f'<a href="/tags/{quote(t)}/" rel="tag">{escape(t)}</a>' for t in post.tags)
    date = post.published.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    head_meta = (
        f'<meta name="author" content="{escape(post.author)}">'
        f'<meta property="og:title" content="{escape(post.title)}">'
        f'<meta property="article:published_time" content="{date}">'
    )
    body = f"""<header><a href="/">Crawl Notes</a> · <a href="/blog/">All posts</a> ·
  <a href="/atom.xml">Feed</a></header>
<main>
<article class="post">
  <h1 class="entry-title">{escape(post.title)}</h1>
  <p class="meta">By <span class="author">{escape(post.author)}</span> on
    <time datetime="{date}">{post.published:%B %d, %Y}</time></p>
  {paragraphs}
  <h2>In practice</h2>
  {code}
  {more}
  <ul><li>Fetch less.</li><li>Remember more.</li><li>Fail loudly.</li></ul>
  <p class="tags">Tags: {tags}</p>
</article>
</main>
<footer><p>© 2026 Crawl Notes, a sample blog served by harvest --demo.</p></footer>"""
    html = _page(f"{post.title} | Crawl Notes", body, canonical=f"{base}{post.path}")
    return html.replace("</title>", "</title>" + head_meta, 1)


def blog_index_html(posts: list[Post], title: str, intro: str) -> str:
    """A listing page (home, /blog/, a tag page): links only, never stored as an article."""
    items = "\n".join(
        f'<li><a href="{p.path}">{escape(p.title)}</a> <time datetime="{p.published:%Y-%m-%d}">'
        f"{p.published:%Y-%m-%d}</time></li>"
        for p in posts
    )
    body = (
        f'<header><a href="/">Crawl Notes</a> · <a href="/blog/">All posts</a></header>\n'
        f'<main><h1>{escape(title)}</h1><p>{escape(intro)}</p>\n<ul class="posts">\n{items}\n</ul></main>'
    )
    html = _page(f"{title} | Crawl Notes", body)
    return html.replace(
        "</title>", '</title><link rel="alternate" type="application/atom+xml" href="/atom.xml">', 1
    )


def atom_feed(posts: list[Post], base: str) -> str:
    """The blog's Atom feed (newest first)."""
    entries = []
    for p in sorted(posts, key=lambda p: p.published, reverse=True):
        when = p.published.strftime("%Y-%m-%dT%H:%M:%SZ")
        entries.append(
            f'  <entry>\n    <title>{escape(p.title)}</title>\n    <link href="{base}{p.path}"/>\n'
            f"    <id>{base}{p.path}</id>\n    <updated>{when}</updated>\n    <published>{when}</published>\n"
            f"    <author><name>{escape(p.author)}</name></author>\n"
            f"    <summary>{escape(p.paragraphs[0])}</summary>\n  </entry>"
        )
    updated = max(p.published for p in posts).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f'  <title>Crawl Notes</title>\n  <link href="{base}/atom.xml" rel="self"/>\n'
        f'  <link href="{base}/"/>\n  <updated>{updated}</updated>\n  <id>{base}/</id>\n'
        + "\n".join(entries)
        + "\n</feed>\n"
    )


def sitemap(posts: list[Post], base: str) -> str:
    """The blog's sitemap: home, the listing and every post."""
    urls = [f"{base}/", f"{base}/blog/"] + [f"{base}{p.path}" for p in posts]
    body = "\n".join(f"  <url><loc>{u}</loc></url>" for u in urls)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{body}\n</urlset>\n'
    )


def dumps(data: Any) -> str:
    """JSON as GitHub's API sends it (indented)."""
    return json.dumps(data, indent=2)
