"""Nuxt Content 3 on Nuxt 4, a blog: the held-out ``nuxt-content`` sources.

A Nuxt project written by hand as the Nuxt Content docs lay one out (``nuxi init`` would download
a template from GitHub): ``package.json``, ``nuxt.config.ts`` (the ``@nuxt/content`` module, its
Shiki highlighting with the corpus' languages, Node's built-in ``node:sqlite`` as the build's
database, ``experimental.sqliteConnector: 'native'``: no native module to compile),
``content.config.ts`` (a ``blog`` collection of ``page`` type, ``blog/*.md``, whose schema adds
``date``, ``tags`` and ``author`` to the page type's ``title`` and ``description``; a ``pages``
collection for About), ``content/blog/<slug>.md`` (front matter ``title``, ``description``, the
body's first sentence, ``date``, ``tags``, ``author``; the draft left out: Nuxt Content has no
drafts) and ``content/about.md``; the app in ``app/``: ``app.vue`` (``<NuxtLayout>``),
``layouts/default.vue`` (header with the site's name and nav: Home, Tags, About, RSS; footer),
``pages/index.vue`` (every post, newest first: title, date in ``<time>``, description),
``pages/blog/[...slug].vue`` (``<h1>`` title, author and date in ``<time>``, tags,
``<ContentRenderer>``; ``useSeoMeta`` with the article's published time, a canonical link),
``pages/tags/index.vue`` (every tag, with its count), ``pages/tags/[tag].vue`` (the tag's posts)
and ``pages/about.vue`` (the ``pages`` collection's About). Two server routes the docs' recipes
describe, prerendered: ``/rss.xml`` (RSS 2.0) and ``/sitemap.xml``, both from
``queryCollection(event, 'blog')``. ``nuxt generate`` prerenders ``/`` and every route found by
following links.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS, Post
from make_oracle import code_languages
from write_sources import _description, _fresh, _write, _yaml_list

HOST = "https://nuxt-content.heldout.example"
AUTHOR = "Ana Lima"


def _langs() -> list[str]:
    """Every fence language of the corpus (Shiki bundles only the languages named in the config)."""
    return sorted({lang for p in POSTS for lang in code_languages(p.body) if lang})


NUXT_CONFIG = """// https://nuxt.com/docs/api/configuration/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  modules: ['@nuxt/content'],
  app: {
    head: {
      htmlAttrs: { lang: 'en' },
      titleTemplate: '%%s - Small Lessons',
      link: [
        { rel: 'alternate', type: 'application/rss+xml', title: 'Small Lessons', href: '/rss.xml' },
      ],
    },
  },
  css: ['~/assets/main.css'],
  runtimeConfig: {
    public: {
      siteUrl: '%(host)s',
    },
  },
  content: {
    build: {
      markdown: {
        highlight: {
          theme: 'github-light',
          langs: %(langs)s,
        },
      },
    },
    experimental: {
      // Node's built-in SQLite (node:sqlite): no better-sqlite3 to compile.
      sqliteConnector: 'native',
    },
  },
  nitro: {
    prerender: {
      crawlLinks: true,
      routes: ['/', '/rss.xml', '/sitemap.xml'],
    },
  },
})
"""

CONTENT_CONFIG = """import { defineCollection, defineContentConfig, z } from '@nuxt/content'

export default defineContentConfig({
  collections: {
    blog: defineCollection({
      type: 'page',
      source: 'blog/*.md',
      schema: z.object({
        title: z.string(),
        description: z.string(),
        date: z.date(),
        tags: z.array(z.string()),
        author: z.string(),
      }),
    }),
    pages: defineCollection({
      type: 'page',
      source: 'about.md',
    }),
  },
})
"""

APP_VUE = """<template>
  <NuxtLayout>
    <NuxtPage />
  </NuxtLayout>
</template>
"""

LAYOUT = """<template>
  <div class="site">
    <header class="site-header">
      <NuxtLink to="/" class="site-title">Small Lessons</NuxtLink>
      <nav>
        <ul>
          <li><NuxtLink to="/">Home</NuxtLink></li>
          <li><NuxtLink to="/tags">Tags</NuxtLink></li>
          <li><NuxtLink to="/about">About</NuxtLink></li>
          <li><a href="/rss.xml">RSS</a></li>
        </ul>
      </nav>
    </header>
    <main>
      <slot />
    </main>
    <footer class="site-footer">
      <p>&copy; 2024 Ana Lima. Built with Nuxt Content.</p>
    </footer>
  </div>
</template>
"""

DATE_UTILS = """// Dates are stored as ISO strings (the schema's z.date()): shown in UTC.
export function isoDate(value: string | Date): string {
  return new Date(value).toISOString().slice(0, 10)
}

export function formatDate(value: string | Date): string {
  return new Date(value).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  })
}
"""

INDEX_PAGE = """<script setup lang="ts">
const { data: posts } = await useAsyncData('blog-index', () =>
  queryCollection('blog')
    .order('date', 'DESC')
    .select('path', 'title', 'description', 'date', 'tags')
    .all(),
)

useSeoMeta({
  title: 'Home',
  description: 'Short programming lessons.',
})
</script>

<template>
  <section>
    <h1>Latest posts</h1>
    <ul class="post-list">
      <li v-for="post in posts" :key="post.path">
        <h2><NuxtLink :to="post.path">{{ post.title }}</NuxtLink></h2>
        <time :datetime="isoDate(post.date)">{{ formatDate(post.date) }}</time>
        <p>{{ post.description }}</p>
      </li>
    </ul>
  </section>
</template>
"""

POST_PAGE = """<script setup lang="ts">
const route = useRoute()
const config = useRuntimeConfig()

const { data: post } = await useAsyncData(route.path, () =>
  queryCollection('blog').path(route.path).first(),
)

if (!post.value) {
  throw createError({ statusCode: 404, statusMessage: 'Post not found', fatal: true })
}

useSeoMeta({
  title: post.value.title,
  description: post.value.description,
  ogTitle: post.value.title,
  ogDescription: post.value.description,
  ogType: 'article',
  articlePublishedTime: isoDate(post.value.date),
  articleAuthor: [post.value.author],
  articleTag: post.value.tags,
})

useHead({
  link: [{ rel: 'canonical', href: config.public.siteUrl + post.value.path }],
})
</script>

<template>
  <article v-if="post" class="post">
    <header>
      <h1>{{ post.title }}</h1>
      <p class="post-meta">
        By {{ post.author }} on
        <time :datetime="isoDate(post.date)">{{ formatDate(post.date) }}</time>
      </p>
      <ul class="post-tags">
        <li v-for="tag in post.tags" :key="tag">
          <NuxtLink :to="`/tags/${tag}`">#{{ tag }}</NuxtLink>
        </li>
      </ul>
    </header>
    <ContentRenderer :value="post" />
  </article>
</template>
"""

TAGS_INDEX = """<script setup lang="ts">
const { data: posts } = await useAsyncData('tags-index', () =>
  queryCollection('blog').select('tags').all(),
)

const tags = computed(() => {
  const counts = new Map<string, number>()
  for (const post of posts.value ?? []) {
    for (const tag of post.tags) {
      counts.set(tag, (counts.get(tag) ?? 0) + 1)
    }
  }
  return [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]))
})

useSeoMeta({ title: 'Tags' })
</script>

<template>
  <section>
    <h1>Tags</h1>
    <ul class="tag-list">
      <li v-for="[tag, count] in tags" :key="tag">
        <NuxtLink :to="`/tags/${tag}`">#{{ tag }}</NuxtLink> ({{ count }})
      </li>
    </ul>
  </section>
</template>
"""

TAG_PAGE = """<script setup lang="ts">
const route = useRoute()
const tag = String(route.params.tag)

const { data: posts } = await useAsyncData(`tag-${tag}`, () =>
  queryCollection('blog')
    .order('date', 'DESC')
    .select('path', 'title', 'description', 'date', 'tags')
    .all(),
)

const tagged = computed(() => (posts.value ?? []).filter((post) => post.tags.includes(tag)))

useSeoMeta({ title: `Posts tagged ${tag}` })
</script>

<template>
  <section>
    <h1>Posts tagged #{{ tag }}</h1>
    <ul class="post-list">
      <li v-for="post in tagged" :key="post.path">
        <h2><NuxtLink :to="post.path">{{ post.title }}</NuxtLink></h2>
        <time :datetime="isoDate(post.date)">{{ formatDate(post.date) }}</time>
        <p>{{ post.description }}</p>
      </li>
    </ul>
    <p><NuxtLink to="/tags">All tags</NuxtLink></p>
  </section>
</template>
"""

ABOUT_PAGE = """<script setup lang="ts">
const { data: page } = await useAsyncData('about', () => queryCollection('pages').path('/about').first())

useSeoMeta({
  title: page.value?.title,
  description: page.value?.description,
})
</script>

<template>
  <article v-if="page" class="page">
    <h1>{{ page.title }}</h1>
    <ContentRenderer :value="page" />
  </article>
</template>
"""

#: The RSS feed, a server route (Nuxt Content's server-side ``queryCollection(event, …)``),
#: prerendered to ``rss.xml``.
RSS_ROUTE = """import { queryCollection } from '@nuxt/content/server'

const escape = (text: string) =>
  text
    .replace(/[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')

export default defineEventHandler(async (event) => {
  const site = useRuntimeConfig(event).public.siteUrl
  const posts = await queryCollection(event, 'blog').order('date', 'DESC').all()
  const items = posts
    .map(
      (post) => `    <item>
      <title>${escape(post.title)}</title>
      <link>${site}${post.path}</link>
      <guid>${site}${post.path}</guid>
      <pubDate>${new Date(post.date).toUTCString()}</pubDate>
      <description>${escape(post.description)}</description>
    </item>`,
    )
    .join('\\n')
  setHeader(event, 'content-type', 'application/rss+xml; charset=utf-8')
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Small Lessons</title>
    <link>${site}/</link>
    <description>Short programming lessons.</description>
${items}
  </channel>
</rss>
`
})
"""

SITEMAP_ROUTE = """import { queryCollection } from '@nuxt/content/server'

export default defineEventHandler(async (event) => {
  const site = useRuntimeConfig(event).public.siteUrl
  const posts = await queryCollection(event, 'blog').order('date', 'DESC').all()
  const urls = ['/', '/tags', '/about', ...posts.map((post) => post.path)]
  setHeader(event, 'content-type', 'application/xml; charset=utf-8')
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((path) => `  <url><loc>${site}${path}</loc></url>`).join('\\n')}
</urlset>
`
})
"""

CSS = """body { font-family: system-ui, sans-serif; max-width: 46em; margin: 0 auto; padding: 0 1em; }
.site-header { display: flex; justify-content: space-between; align-items: center; }
.site-header nav ul, .post-tags { list-style: none; display: flex; gap: 1em; padding: 0; }
.post-list { list-style: none; padding: 0; }
.post-meta, time { color: #666; }
pre { padding: 1em; overflow-x: auto; background: #f6f8fa; }
.site-footer { border-top: 1px solid #ddd; margin-top: 3em; color: #666; }
"""


def _post(p: Post) -> str:
    return (
        f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
        f"description: {json.dumps(_description(p), ensure_ascii=False)}\n"
        f"date: {p.date}\ntags: {_yaml_list(p.tags)}\nauthor: {AUTHOR}\n---\n\n{p.body}"
    )


def nuxt_content() -> None:
    """A Nuxt 4 blog on Nuxt Content 3: config, the app's pages and layout, the posts, About."""
    src = _fresh("nuxt-content")
    for p in POSTS:
        if p.draft:
            continue  # Nuxt Content has no drafts: the draft is left out
        _write(src / "content" / "blog" / f"{p.slug}.md", _post(p))
    _write(
        src / "content" / "about.md",
        f"---\ntitle: {ABOUT.title}\ndescription: What this site is.\n---\n\n{ABOUT.body}",
    )
    _write(src / "nuxt.config.ts", NUXT_CONFIG % {"host": HOST, "langs": json.dumps(_langs())})
    _write(src / "content.config.ts", CONTENT_CONFIG)
    app = src / "app"
    _write(app / "app.vue", APP_VUE)
    _write(app / "layouts" / "default.vue", LAYOUT)
    _write(app / "utils" / "date.ts", DATE_UTILS)
    _write(app / "assets" / "main.css", CSS)
    _write(app / "pages" / "index.vue", INDEX_PAGE)
    _write(app / "pages" / "blog" / "[...slug].vue", POST_PAGE)
    _write(app / "pages" / "tags" / "index.vue", TAGS_INDEX)
    _write(app / "pages" / "tags" / "[tag].vue", TAG_PAGE)
    _write(app / "pages" / "about.vue", ABOUT_PAGE)
    _write(src / "server" / "routes" / "rss.xml.ts", RSS_ROUTE)
    _write(src / "server" / "routes" / "sitemap.xml.ts", SITEMAP_ROUTE)
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "small-lessons",
                "version": "0.0.1",
                "private": True,
                "type": "module",
                "scripts": {"dev": "nuxt dev", "build": "nuxt build", "generate": "nuxt generate"},
                "dependencies": {"@nuxt/content": "3.15.0", "nuxt": "4.4.8"},
            },
            indent=1,
        )
        + "\n",
    )
