"""The ``sveltekit`` held-out site: a SvelteKit 2 blog on mdsvex, prerendered by adapter-static.

    python bench/heldout/write_sources.py sveltekit

SvelteKit is an application framework, not a blog generator: a blog is the routes its author
writes. ``src/`` holds the project as SvelteKit's docs describe one (``package.json``,
``svelte.config.js``, ``vite.config.js``, ``src/app.html``: what ``npx sv create --template
minimal`` writes, by hand) and the blog as the SvelteKit and mdsvex docs show it:

- ``svelte.config.js``: ``extensions: ['.svelte', '.md']`` and ``preprocess: [mdsvex()]`` (mdsvex's
  setup for SvelteKit: every ``.md`` file is a Svelte component, its front matter exported as
  ``metadata``), ``adapter-static`` (every page prerendered to ``<route>.html``; SvelteKit's
  default ``trailingSlash: 'never'`` links ``/blog/<slug>`` and writes ``blog/<slug>.html``),
  ``prerender.origin`` the site's host (the feed's and sitemap's URLs).
- ``src/posts/<slug>.md``: one file a post, front matter ``title``, ``date`` (a quoted
  ``YYYY-MM-DD``: YAML would make it a Date), ``description`` (its first sentence), ``tags``,
  ``category``; the draft has ``draft: true`` and is filtered out by ``src/lib/posts.js`` (the
  ``import.meta.glob`` of ``/src/posts/*.md``, eager, newest first), so nothing links it and the
  prerenderer, which follows links from ``/``, never renders it.
- ``src/routes/+layout.js``: ``export const prerender = true``; ``+layout.svelte``: the header
  (the site's name, a nav: Home, Tags, Categories, About, RSS) and the footer.
- ``src/routes/+page.svelte`` (+ ``+page.js``): every post, newest first: title link, ``<time>``,
  description. No pagination (SvelteKit has none of its own).
- ``src/routes/blog/[slug]/+page.js`` imports ``src/posts/<slug>.md`` (the component and its
  ``metadata``); ``+page.svelte`` writes ``<svelte:head>`` (``<title>``, description, Open Graph
  ``article`` tags with ``article:published_time``), ``<article>``: ``<h1>``, the date in
  ``<time datetime>`` with its category, the mdsvex component, the tags.
- ``src/routes/tags/`` (every tag with its count) and ``tags/[tag]/`` (its posts), the same for
  categories; ``src/routes/about/+page.md``: About as an mdsvex page (a route written in
  Markdown).
- ``src/routes/rss.xml/+server.js`` and ``sitemap.xml/+server.js``: prerendered endpoints, as
  SvelteKit's SEO docs write a sitemap.

mdsvex's default highlighter is Prism at build time (``<pre class="language-…">`` holding
``<code class="language-…">``); mdsvex escapes the braces of code so Svelte leaves them alone.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _description, _fresh, _write, _yaml_list

HOST = "https://sveltekit.heldout.example"

#: The versions build.sh installs (bench/heldout/build.sh's header): the project's own pins.
PACKAGE = {
    "name": "small-lessons",
    "version": "0.0.1",
    "private": True,
    "type": "module",
    "scripts": {"dev": "vite dev", "build": "vite build", "preview": "vite preview"},
    "devDependencies": {
        "@sveltejs/adapter-static": "3.0.11",
        "@sveltejs/kit": "2.70.4",
        "@sveltejs/vite-plugin-svelte": "7.3.3",
        "mdsvex": "0.12.8",
        "rehype-slug": "6.0.0",
        "svelte": "5.60.1",
        "vite": "8.4.1",
    },
}

FILES: dict[str, str] = {
    "svelte.config.js": f"""import adapter from '@sveltejs/adapter-static';
import {{ mdsvex }} from 'mdsvex';
import rehypeSlug from 'rehype-slug';

/** @type {{import('@sveltejs/kit').Config}} */
const config = {{
\textensions: ['.svelte', '.md'],
\tpreprocess: [mdsvex({{ extensions: ['.md'], rehypePlugins: [rehypeSlug] }})],
\tkit: {{
\t\tadapter: adapter(),
\t\tprerender: {{
\t\t\torigin: '{HOST}',
\t\t\tentries: ['*', '/sitemap.xml']
\t\t}}
\t}}
}};

export default config;
""",
    "vite.config.js": """import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
\tplugins: [sveltekit()]
});
""",
    "src/app.html": """<!doctype html>
<html lang="en">
\t<head>
\t\t<meta charset="utf-8" />
\t\t<meta name="viewport" content="width=device-width, initial-scale=1" />
\t\t<link rel="alternate" type="application/rss+xml" title="Small Lessons" href="/rss.xml" />
\t\t%sveltekit.head%
\t</head>
\t<body data-sveltekit-preload-data="hover">
\t\t<div style="display: contents">%sveltekit.body%</div>
\t</body>
</html>
""",
    "src/lib/posts.js": """// Every post's metadata (mdsvex exports the front matter), newest first; drafts left out.
const modules = import.meta.glob('/src/posts/*.md', { eager: true });

export const posts = Object.entries(modules)
\t.map(([path, module]) => ({
\t\tslug: path.split('/').pop().replace(/\\.md$/, ''),
\t\t...module.metadata
\t}))
\t.filter((post) => !post.draft)
\t.sort((a, b) => (a.date < b.date ? 1 : -1));

export const tags = [...new Set(posts.flatMap((post) => post.tags ?? []))].sort();

export const categories = [...new Set(posts.map((post) => post.category))].sort();
""",
    "src/lib/date.js": """export function formatDate(date) {
\treturn new Date(date).toLocaleDateString('en-US', {
\t\tyear: 'numeric',
\t\tmonth: 'long',
\t\tday: 'numeric',
\t\ttimeZone: 'UTC'
\t});
}
""",
    "src/lib/PostList.svelte": """<script>
\timport { formatDate } from '$lib/date';

\tlet { posts } = $props();
</script>

<ul class="posts">
\t{#each posts as post (post.slug)}
\t\t<li>
\t\t\t<h2><a href="/blog/{post.slug}">{post.title}</a></h2>
\t\t\t<time datetime={post.date}>{formatDate(post.date)}</time>
\t\t\t<p>{post.description}</p>
\t\t</li>
\t{/each}
</ul>
""",
    "src/routes/+layout.js": """export const prerender = true;
""",
    "src/routes/+layout.svelte": """<script>
\tlet { children } = $props();
</script>

<header>
\t<a class="site-title" href="/">Small Lessons</a>
\t<nav>
\t\t<a href="/">Home</a>
\t\t<a href="/tags">Tags</a>
\t\t<a href="/categories">Categories</a>
\t\t<a href="/about">About</a>
\t\t<a href="/rss.xml">RSS</a>
\t</nav>
</header>

<main>
\t{@render children()}
</main>

<footer>
\t<p>&copy; 2024 Ana Lima. Built with SvelteKit.</p>
</footer>

<style>
\theader,
\tmain,
\tfooter {
\t\tmax-width: 46rem;
\t\tmargin: 0 auto;
\t\tpadding: 1rem;
\t}
\theader {
\t\tdisplay: flex;
\t\tjustify-content: space-between;
\t}
\tnav a {
\t\tmargin-left: 1rem;
\t}
\t.site-title {
\t\tfont-weight: bold;
\t}
\tfooter {
\t\tcolor: #666;
\t\tfont-size: 0.9rem;
\t}
</style>
""",
    "src/routes/+page.js": """import { posts } from '$lib/posts';

export function load() {
\treturn { posts };
}
""",
    "src/routes/+page.svelte": """<script>
\timport PostList from '$lib/PostList.svelte';

\tlet { data } = $props();
</script>

<svelte:head>
\t<title>Small Lessons</title>
\t<meta name="description" content="Short programming lessons." />
</svelte:head>

<h1>Small Lessons</h1>
<PostList posts={data.posts} />
""",
    "src/routes/blog/[slug]/+page.js": """import { error } from '@sveltejs/kit';

export async function load({ params }) {
\ttry {
\t\tconst post = await import(`../../../posts/${params.slug}.md`);
\t\tif (post.metadata.draft) throw new Error('draft');
\t\treturn { content: post.default, meta: post.metadata };
\t} catch {
\t\terror(404, `Could not find ${params.slug}`);
\t}
}
""",
    "src/routes/blog/[slug]/+page.svelte": """<script>
\timport { formatDate } from '$lib/date';

\tlet { data } = $props();
</script>

<svelte:head>
\t<title>{data.meta.title} - Small Lessons</title>
\t<meta name="description" content={data.meta.description} />
\t<meta property="og:type" content="article" />
\t<meta property="og:title" content={data.meta.title} />
\t<meta property="article:published_time" content={data.meta.date} />
</svelte:head>

<article>
\t<header>
\t\t<h1>{data.meta.title}</h1>
\t\t<p class="meta">
\t\t\tPublished <time datetime={data.meta.date}>{formatDate(data.meta.date)}</time>
\t\t\tin <a href="/categories/{data.meta.category}">{data.meta.category}</a>
\t\t</p>
\t</header>

\t<div class="content">
\t\t<data.content />
\t</div>

\t<footer>
\t\t<ul class="tags">
\t\t\t{#each data.meta.tags as tag (tag)}
\t\t\t\t<li><a href="/tags/{tag}">#{tag}</a></li>
\t\t\t{/each}
\t\t</ul>
\t</footer>
</article>
""",
    "src/routes/tags/+page.js": """import { posts, tags } from '$lib/posts';

export function load() {
\treturn {
\t\ttags: tags.map((tag) => ({
\t\t\tname: tag,
\t\t\tcount: posts.filter((post) => post.tags?.includes(tag)).length
\t\t}))
\t};
}
""",
    "src/routes/tags/+page.svelte": """<script>
\tlet { data } = $props();
</script>

<svelte:head>
\t<title>Tags - Small Lessons</title>
</svelte:head>

<h1>Tags</h1>
<ul class="tags">
\t{#each data.tags as tag (tag.name)}
\t\t<li><a href="/tags/{tag.name}">#{tag.name}</a> ({tag.count})</li>
\t{/each}
</ul>
""",
    "src/routes/tags/[tag]/+page.js": """import { error } from '@sveltejs/kit';
import { posts } from '$lib/posts';

export function load({ params }) {
\tconst tagged = posts.filter((post) => post.tags?.includes(params.tag));
\tif (!tagged.length) error(404, `No posts tagged ${params.tag}`);
\treturn { tag: params.tag, posts: tagged };
}
""",
    "src/routes/tags/[tag]/+page.svelte": """<script>
\timport PostList from '$lib/PostList.svelte';

\tlet { data } = $props();
</script>

<svelte:head>
\t<title>Posts tagged #{data.tag} - Small Lessons</title>
</svelte:head>

<h1>Posts tagged #{data.tag}</h1>
<PostList posts={data.posts} />
""",
    "src/routes/categories/+page.js": """import { categories, posts } from '$lib/posts';

export function load() {
\treturn {
\t\tcategories: categories.map((category) => ({
\t\t\tname: category,
\t\t\tcount: posts.filter((post) => post.category === category).length
\t\t}))
\t};
}
""",
    "src/routes/categories/+page.svelte": """<script>
\tlet { data } = $props();
</script>

<svelte:head>
\t<title>Categories - Small Lessons</title>
</svelte:head>

<h1>Categories</h1>
<ul class="categories">
\t{#each data.categories as category (category.name)}
\t\t<li><a href="/categories/{category.name}">{category.name}</a> ({category.count})</li>
\t{/each}
</ul>
""",
    "src/routes/categories/[category]/+page.js": """import { error } from '@sveltejs/kit';
import { posts } from '$lib/posts';

export function load({ params }) {
\tconst filed = posts.filter((post) => post.category === params.category);
\tif (!filed.length) error(404, `No posts in ${params.category}`);
\treturn { category: params.category, posts: filed };
}
""",
    "src/routes/categories/[category]/+page.svelte": """<script>
\timport PostList from '$lib/PostList.svelte';

\tlet { data } = $props();
</script>

<svelte:head>
\t<title>Category: {data.category} - Small Lessons</title>
</svelte:head>

<h1>Category: {data.category}</h1>
<PostList posts={data.posts} />
""",
    "src/routes/rss.xml/+server.js": """import { posts } from '$lib/posts';

export const prerender = true;

const escape = (text) =>
\ttext.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function GET({ url }) {
\tconst items = posts
\t\t.map(
\t\t\t(post) => `
\t\t<item>
\t\t\t<title>${escape(post.title)}</title>
\t\t\t<link>${url.origin}/blog/${post.slug}</link>
\t\t\t<guid>${url.origin}/blog/${post.slug}</guid>
\t\t\t<pubDate>${new Date(post.date).toUTCString()}</pubDate>
\t\t\t<description>${escape(post.description)}</description>
\t\t</item>`
\t\t)
\t\t.join('');
\tconst body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
\t<channel>
\t\t<title>Small Lessons</title>
\t\t<link>${url.origin}/</link>
\t\t<description>Short programming lessons.</description>${items}
\t</channel>
</rss>
`;
\treturn new Response(body, { headers: { 'Content-Type': 'application/xml' } });
}
""",
    "src/routes/sitemap.xml/+server.js": """import { categories, posts, tags } from '$lib/posts';

export const prerender = true;

export function GET({ url }) {
\tconst pages = [
\t\t'',
\t\t'/about',
\t\t'/tags',
\t\t'/categories',
\t\t...posts.map((post) => `/blog/${post.slug}`),
\t\t...tags.map((tag) => `/tags/${encodeURIComponent(tag)}`),
\t\t...categories.map((category) => `/categories/${category}`)
\t];
\tconst body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages
\t\t.map((page) => `\\n\\t<url><loc>${url.origin}${page}</loc></url>`)
\t\t.join('')}
</urlset>
`;
\treturn new Response(body, { headers: { 'Content-Type': 'application/xml' } });
}
""",
}


def _front(meta: dict[str, str]) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in meta.items()) + "---\n\n"


def sveltekit() -> None:
    src = _fresh("sveltekit")
    _write(src / "package.json", json.dumps(PACKAGE, indent="\t") + "\n")
    for rel, text in FILES.items():
        _write(src / rel, text)
    for p in POSTS:
        meta = {
            "title": json.dumps(p.title, ensure_ascii=False),
            "date": json.dumps(p.date),
            "description": json.dumps(_description(p), ensure_ascii=False),
            "tags": _yaml_list(p.tags),
            "category": p.category,
        }
        if p.draft:
            meta["draft"] = "true"
        _write(src / "src" / "posts" / f"{p.slug}.md", _front(meta) + p.body)
    about = (
        _front({"title": json.dumps(ABOUT.title)})
        + f"<svelte:head>\n\t<title>{ABOUT.title} - Small Lessons</title>\n</svelte:head>\n\n"
        + f"# {ABOUT.title}\n\n"
        + ABOUT.body
    )
    _write(src / "src" / "routes" / "about" / "+page.md", about)
