"""Next.js 16 (App Router), a blog written as its ``blog-starter`` example lays one out: sources,
build, mirror.

    python bench/heldout/write_sources.py nextjs        # writes tests/fixtures/heldout/nextjs/src
    python bench/heldout/src_nextjs.py SRC OUT SERVED   # build.sh's nextjs branch

Next.js' ``blog-starter`` example (``create-next-app --example blog-starter``, a repository folder,
not an npm package) keeps its posts as Markdown files with front matter in ``_posts/`` (title,
excerpt, date as an ISO string, author), reads them with ``gray-matter`` (``lib/api.ts``), renders
them with ``remark`` and ``remark-html`` (``lib/markdownToHtml.ts``) and shows them through the App
Router: ``app/layout.tsx`` (the site's header and footer), ``app/page.tsx`` (the posts, newest first,
the newest as the "hero" post, the rest under "More Stories"), ``app/posts/[slug]/page.tsx`` (its
``generateStaticParams`` and ``generateMetadata``). The sources here are that layout written out
for this set (CC0), plain CSS in place of the example's Tailwind, with what Next.js' own docs add
to such a blog: ``remark-gfm`` (the corpus' tables; GitHub's fenced code keeps ``language-…``),
tag and category pages (``app/tags/page.tsx``, ``app/tags/[tag]/page.tsx``, the same under
``app/categories/``), an About page (``app/about/page.tsx``), ``app/sitemap.ts``,
``app/robots.ts`` and an RSS route handler (``app/rss.xml/route.ts``, static). The post's body is
an async server component (it reads the post's file with ``fs/promises`` and renders it) inside a
React ``<Suspense>`` boundary, the App Router's streaming pattern; the post route is
``force-dynamic`` (rendered on each request, so the shell goes out first and the body follows in
a ``<div hidden id="S:0">`` with React's ``$RC`` script: a prerendered page would hold it inline);
``dynamicParams = false``: only the generated posts and tags exist (the draft, ``draft: true``,
is filtered out by ``lib/api.ts``).

The build (:func:`build`): ``next build`` in a copy of the sources inside the npm folder (Turbopack
resolves no ``node_modules`` outside the project's root), then ``next start -H 127.0.0.1`` on a free
port, mirrored with ``wget --mirror --adjust-extension`` (``/posts/<slug>`` saved as
``posts/<slug>.html``, served at both) from ``/``, ``robots.txt``, ``sitemap.xml``, ``rss.xml`` and
every page the sitemap lists; no scripts, images or fonts. The origin is checked absent (the pages
name the site's host through ``metadataBase``, nothing else). No ``served.json``: every saved
file's name gives its type (a stale one is removed).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ABOUT, POSTS, Post  # noqa: E402

HOST = "https://nextjs.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"
NPMGEN = Path(os.environ.get("NPMGEN_NEXTJS", "/tmp/npmgen-nextjs"))

VERSIONS = {
    "next": "16.5.0",
    "react": "19.3.1",
    "react-dom": "19.3.1",
    "gray-matter": "4.0.3",
    "remark": "15.0.1",
    "remark-gfm": "4.0.1",
    "remark-html": "16.0.1",
}
DEV_VERSIONS = {
    "typescript": "5.9.3",
    "@types/node": "26.6.11",
    "@types/react": "19.3.3",
    "@types/react-dom": "19.3.0",
}

FILES: dict[str, str] = {
    "next.config.ts": """import type { NextConfig } from "next";

const nextConfig: NextConfig = {};

export default nextConfig;
""",
    "tsconfig.json": """{
  "compilerOptions": {
    "target": "ES2017",
    "lib": ["dom", "dom.iterable", "esnext"],
    "allowJs": true,
    "skipLibCheck": true,
    "strict": true,
    "noEmit": true,
    "esModuleInterop": true,
    "module": "esnext",
    "moduleResolution": "bundler",
    "resolveJsonModule": true,
    "isolatedModules": true,
    "jsx": "react-jsx",
    "incremental": true,
    "plugins": [{ "name": "next" }],
    "paths": { "@/*": ["./src/*"] }
  },
  "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts"],
  "exclude": ["node_modules"]
}
""",
    "src/lib/constants.ts": """export const SITE_NAME = "Small Lessons";
export const SITE_DESCRIPTION = "Short programming lessons, one at a time.";
export const SITE_URL = "https://nextjs.heldout.example";
export const AUTHOR = "Ana Lima";
""",
    "src/interfaces/post.ts": """export type Author = {
  name: string;
};

export type Post = {
  slug: string;
  title: string;
  date: string;
  excerpt: string;
  author: Author;
  category: string;
  tags: string[];
  draft?: boolean;
  content: string;
};
""",
    "src/lib/api.ts": """import { Post } from "@/interfaces/post";
import fs from "fs";
import matter from "gray-matter";
import { join } from "path";

const postsDirectory = join(process.cwd(), "_posts");

export function getPostSlugs() {
  return fs.readdirSync(postsDirectory).filter((file) => file.endsWith(".md"));
}

export function getPostBySlug(slug: string) {
  const realSlug = slug.replace(/\\.md$/, "");
  const fullPath = join(postsDirectory, `${realSlug}.md`);
  if (!fs.existsSync(fullPath)) {
    return null;
  }
  const fileContents = fs.readFileSync(fullPath, "utf8");
  const { data, content } = matter(fileContents);

  return { ...data, slug: realSlug, content } as Post;
}

export function getAllPosts(): Post[] {
  const slugs = getPostSlugs();
  const posts = slugs
    .map((slug) => getPostBySlug(slug))
    .filter((post): post is Post => post !== null && !post.draft)
    // sort posts by date in descending order
    .sort((post1, post2) => (post1.date > post2.date ? -1 : 1));
  return posts;
}

export function getAllCategories(): Map<string, Post[]> {
  const categories = new Map<string, Post[]>();
  for (const post of getAllPosts()) {
    categories.set(post.category, [...(categories.get(post.category) ?? []), post]);
  }
  return categories;
}

export function getAllTags(): Map<string, Post[]> {
  const tags = new Map<string, Post[]>();
  for (const post of getAllPosts()) {
    for (const tag of post.tags ?? []) {
      tags.set(tag, [...(tags.get(tag) ?? []), post]);
    }
  }
  return tags;
}
""",
    "src/lib/markdownToHtml.ts": """import { remark } from "remark";
import gfm from "remark-gfm";
import html from "remark-html";

export default async function markdownToHtml(markdown: string) {
  const result = await remark().use(gfm).use(html).process(markdown);
  return result.toString();
}
""",
    "src/app/_components/container.tsx": """type Props = {
  children?: React.ReactNode;
};

const Container = ({ children }: Props) => {
  return <div className="container">{children}</div>;
};

export default Container;
""",
    "src/app/_components/header.tsx": """import Link from "next/link";
import { SITE_NAME } from "@/lib/constants";

const Header = () => {
  return (
    <header className="site-header">
      <div className="container">
        <Link href="/" className="site-title">
          {SITE_NAME}
        </Link>
        <nav aria-label="Main">
          <ul>
            <li>
              <Link href="/">Blog</Link>
            </li>
            <li>
              <Link href="/categories">Categories</Link>
            </li>
            <li>
              <Link href="/tags">Tags</Link>
            </li>
            <li>
              <Link href="/about">About</Link>
            </li>
            <li>
              <a href="/rss.xml">RSS</a>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
};

export default Header;
""",
    "src/app/_components/footer.tsx": """import Container from "@/app/_components/container";
import { AUTHOR, SITE_NAME } from "@/lib/constants";

export function Footer() {
  return (
    <footer className="site-footer">
      <Container>
        <p>
          {SITE_NAME}: short programming lessons by {AUTHOR}. Built with{" "}
          <a href="https://nextjs.org/">Next.js</a>.
        </p>
        <p>
          <a href="/rss.xml">RSS feed</a> · <a href="/sitemap.xml">Sitemap</a>
        </p>
      </Container>
    </footer>
  );
}

export default Footer;
""",
    "src/app/_components/date-formatter.tsx": """type Props = {
  dateString: string;
};

const DateFormatter = ({ dateString }: Props) => {
  const date = new Date(dateString);
  const text = date.toLocaleDateString("en-US", {
    timeZone: "UTC",
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  return <time dateTime={dateString}>{text}</time>;
};

export default DateFormatter;
""",
    "src/app/_components/avatar.tsx": """type Props = {
  name: string;
};

const Avatar = ({ name }: Props) => {
  return (
    <div className="avatar">
      <span className="avatar-name">{name}</span>
    </div>
  );
};

export default Avatar;
""",
    "src/app/_components/tag-list.tsx": """import Link from "next/link";

type Props = {
  tags: string[];
};

export function TagList({ tags }: Props) {
  if (!tags.length) {
    return null;
  }
  return (
    <ul className="tag-list">
      {tags.map((tag) => (
        <li key={tag}>
          <Link href={`/tags/${encodeURIComponent(tag)}`}>#{tag}</Link>
        </li>
      ))}
    </ul>
  );
}
""",
    "src/app/_components/hero-post.tsx": """import Avatar from "@/app/_components/avatar";
import DateFormatter from "@/app/_components/date-formatter";
import { type Author } from "@/interfaces/post";
import Link from "next/link";

type Props = {
  title: string;
  date: string;
  excerpt: string;
  author: Author;
  slug: string;
};

export function HeroPost({ title, date, excerpt, author, slug }: Props) {
  return (
    <section className="hero-post">
      <h3>
        <Link href={`/posts/${slug}`}>{title}</Link>
      </h3>
      <div className="post-date">
        <DateFormatter dateString={date} />
      </div>
      <p className="excerpt">{excerpt}</p>
      <Avatar name={author.name} />
    </section>
  );
}
""",
    "src/app/_components/post-preview.tsx": """import { type Author } from "@/interfaces/post";
import Link from "next/link";
import Avatar from "./avatar";
import DateFormatter from "./date-formatter";

type Props = {
  title: string;
  date: string;
  excerpt: string;
  author: Author;
  slug: string;
};

export function PostPreview({ title, date, excerpt, author, slug }: Props) {
  return (
    <div className="post-preview">
      <h3>
        <Link href={`/posts/${slug}`}>{title}</Link>
      </h3>
      <div className="post-date">
        <DateFormatter dateString={date} />
      </div>
      <p className="excerpt">{excerpt}</p>
      <Avatar name={author.name} />
    </div>
  );
}
""",
    "src/app/_components/more-stories.tsx": """import { Post } from "@/interfaces/post";
import { PostPreview } from "./post-preview";

type Props = {
  posts: Post[];
  heading?: string;
};

export function MoreStories({ posts, heading = "More Stories" }: Props) {
  return (
    <section className="more-stories">
      <h2>{heading}</h2>
      <div className="post-grid">
        {posts.map((post) => (
          <PostPreview
            key={post.slug}
            title={post.title}
            date={post.date}
            author={post.author}
            slug={post.slug}
            excerpt={post.excerpt}
          />
        ))}
      </div>
    </section>
  );
}
""",
    "src/app/_components/post-title.tsx": """import { ReactNode } from "react";

type Props = {
  children?: ReactNode;
};

export function PostTitle({ children }: Props) {
  return <h1 className="post-title">{children}</h1>;
}
""",
    "src/app/_components/post-header.tsx": """import Avatar from "./avatar";
import DateFormatter from "./date-formatter";
import { PostTitle } from "@/app/_components/post-title";
import { type Author } from "@/interfaces/post";

type Props = {
  title: string;
  date: string;
  author: Author;
};

export function PostHeader({ title, date, author }: Props) {
  return (
    <>
      <PostTitle>{title}</PostTitle>
      <div className="post-meta">
        <Avatar name={author.name} />
        <div className="post-date">
          <DateFormatter dateString={date} />
        </div>
      </div>
    </>
  );
}
""",
    "src/app/_components/post-body.tsx": """import { readFile } from "fs/promises";
import { join } from "path";
import matter from "gray-matter";
import markdownToHtml from "@/lib/markdownToHtml";

type Props = {
  slug: string;
};

// An async server component: it reads the post's Markdown and renders it while the page's
// shell is already on its way; the <Suspense> boundary around it streams it in.
export async function PostBody({ slug }: Props) {
  const file = await readFile(join(process.cwd(), "_posts", `${slug}.md`), "utf8");
  const html = await markdownToHtml(matter(file).content);
  return (
    <div className="post-body">
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
""",
    "src/app/globals.css": """body {
  margin: 0;
  font-family: system-ui, sans-serif;
  line-height: 1.6;
  color: #1f2328;
}
.container {
  max-width: 48rem;
  margin: 0 auto;
  padding: 0 1.25rem;
}
.site-header {
  border-bottom: 1px solid #e5e7eb;
  padding: 1rem 0;
}
.site-header .container {
  display: flex;
  justify-content: space-between;
  align-items: center;
}
.site-title {
  font-weight: 700;
  font-size: 1.25rem;
  text-decoration: none;
  color: inherit;
}
.site-header nav ul,
.tag-list {
  display: flex;
  gap: 1rem;
  list-style: none;
  margin: 0;
  padding: 0;
}
.site-footer {
  border-top: 1px solid #e5e7eb;
  margin-top: 4rem;
  padding: 2rem 0;
  font-size: 0.875rem;
  color: #57606a;
}
.post-date,
.avatar-name {
  color: #57606a;
  font-size: 0.875rem;
}
.markdown pre {
  background: #f6f8fa;
  padding: 1rem;
  overflow-x: auto;
}
.markdown table {
  border-collapse: collapse;
}
.markdown th,
.markdown td {
  border: 1px solid #d0d7de;
  padding: 0.25rem 0.5rem;
}
""",
    "src/app/layout.tsx": """import type { Metadata } from "next";
import Footer from "@/app/_components/footer";
import Header from "@/app/_components/header";
import { SITE_DESCRIPTION, SITE_NAME, SITE_URL } from "@/lib/constants";

import "./globals.css";

export const metadata: Metadata = {
  metadataBase: new URL(SITE_URL),
  title: {
    default: SITE_NAME,
    template: `%s | ${SITE_NAME}`,
  },
  description: SITE_DESCRIPTION,
  alternates: {
    types: {
      "application/rss+xml": "/rss.xml",
    },
  },
};

export default function RootLayout({
  children,
}: Readonly<{
  children: React.ReactNode;
}>) {
  return (
    <html lang="en">
      <body>
        <Header />
        <main className="container">{children}</main>
        <Footer />
      </body>
    </html>
  );
}
""",
    "src/app/page.tsx": """import Container from "@/app/_components/container";
import { HeroPost } from "@/app/_components/hero-post";
import { MoreStories } from "@/app/_components/more-stories";
import { getAllPosts } from "@/lib/api";
import { SITE_DESCRIPTION, SITE_NAME } from "@/lib/constants";

export default function Index() {
  const allPosts = getAllPosts();

  const heroPost = allPosts[0];

  const morePosts = allPosts.slice(1);

  return (
    <Container>
      <section className="intro">
        <h1>{SITE_NAME}</h1>
        <p>{SITE_DESCRIPTION}</p>
      </section>
      <HeroPost
        title={heroPost.title}
        date={heroPost.date}
        author={heroPost.author}
        slug={heroPost.slug}
        excerpt={heroPost.excerpt}
      />
      {morePosts.length > 0 && <MoreStories posts={morePosts} />}
    </Container>
  );
}
""",
    "src/app/posts/[slug]/page.tsx": """import { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { getAllPosts, getPostBySlug } from "@/lib/api";
import Container from "@/app/_components/container";
import { PostBody } from "@/app/_components/post-body";
import { PostHeader } from "@/app/_components/post-header";
import { TagList } from "@/app/_components/tag-list";

export const dynamicParams = false;
// Rendered on each request: the header goes out at once, the body streams in behind Suspense.
export const dynamic = "force-dynamic";

export default async function Post(props: Params) {
  const params = await props.params;
  const post = getPostBySlug(params.slug);

  if (!post || post.draft) {
    return notFound();
  }

  return (
    <Container>
      <article className="post">
        <PostHeader title={post.title} date={post.date} author={post.author} />
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <PostBody slug={post.slug} />
        </Suspense>
        <p className="post-category">
          Filed under <Link href={`/categories/${post.category}`}>{post.category}</Link>
        </p>
        <TagList tags={post.tags ?? []} />
      </article>
    </Container>
  );
}

type Params = {
  params: Promise<{
    slug: string;
  }>;
};

export async function generateMetadata(props: Params): Promise<Metadata> {
  const params = await props.params;
  const post = getPostBySlug(params.slug);

  if (!post || post.draft) {
    return notFound();
  }

  return {
    title: post.title,
    description: post.excerpt,
    authors: [{ name: post.author.name }],
    alternates: {
      canonical: `/posts/${post.slug}`,
    },
    openGraph: {
      title: post.title,
      description: post.excerpt,
      type: "article",
      publishedTime: post.date,
      authors: [post.author.name],
      tags: post.tags,
    },
  };
}

export async function generateStaticParams() {
  const posts = getAllPosts();

  return posts.map((post) => ({
    slug: post.slug,
  }));
}
""",
    "src/app/tags/page.tsx": """import { Metadata } from "next";
import Link from "next/link";
import Container from "@/app/_components/container";
import { getAllTags } from "@/lib/api";

export const metadata: Metadata = {
  title: "Tags",
};

export default function Tags() {
  const tags = [...getAllTags().entries()].sort(([a], [b]) => a.localeCompare(b));
  return (
    <Container>
      <h1>Tags</h1>
      <ul className="tags">
        {tags.map(([tag, posts]) => (
          <li key={tag}>
            <Link href={`/tags/${encodeURIComponent(tag)}`}>{tag}</Link> ({posts.length})
          </li>
        ))}
      </ul>
    </Container>
  );
}
""",
    "src/app/tags/[tag]/page.tsx": """import { Metadata } from "next";
import { notFound } from "next/navigation";
import Container from "@/app/_components/container";
import { MoreStories } from "@/app/_components/more-stories";
import { getAllTags } from "@/lib/api";

export const dynamicParams = false;

type Params = {
  params: Promise<{
    tag: string;
  }>;
};

export async function generateMetadata(props: Params): Promise<Metadata> {
  const { tag } = await props.params;
  return { title: `Posts tagged “${decodeURIComponent(tag)}”` };
}

export default async function TagPage(props: Params) {
  const { tag } = await props.params;
  const name = decodeURIComponent(tag);
  const posts = getAllTags().get(name);
  if (!posts) {
    return notFound();
  }
  return (
    <Container>
      <h1>Posts tagged “{name}”</h1>
      <MoreStories posts={posts} heading={`${posts.length} posts`} />
    </Container>
  );
}

export async function generateStaticParams() {
  return [...getAllTags().keys()].map((tag) => ({ tag }));
}
""",
    "src/app/categories/page.tsx": """import { Metadata } from "next";
import Link from "next/link";
import Container from "@/app/_components/container";
import { getAllCategories } from "@/lib/api";

export const metadata: Metadata = {
  title: "Categories",
};

export default function Categories() {
  const categories = [...getAllCategories().entries()].sort(([a], [b]) => a.localeCompare(b));
  return (
    <Container>
      <h1>Categories</h1>
      <ul className="categories">
        {categories.map(([category, posts]) => (
          <li key={category}>
            <Link href={`/categories/${category}`}>{category}</Link> ({posts.length})
          </li>
        ))}
      </ul>
    </Container>
  );
}
""",
    "src/app/categories/[category]/page.tsx": """import { Metadata } from "next";
import { notFound } from "next/navigation";
import Container from "@/app/_components/container";
import { MoreStories } from "@/app/_components/more-stories";
import { getAllCategories } from "@/lib/api";

export const dynamicParams = false;

type Params = {
  params: Promise<{
    category: string;
  }>;
};

export async function generateMetadata(props: Params): Promise<Metadata> {
  const { category } = await props.params;
  return { title: `Category: ${category}` };
}

export default async function CategoryPage(props: Params) {
  const { category } = await props.params;
  const posts = getAllCategories().get(category);
  if (!posts) {
    return notFound();
  }
  return (
    <Container>
      <h1>Category: {category}</h1>
      <MoreStories posts={posts} heading={`${posts.length} posts`} />
    </Container>
  );
}

export async function generateStaticParams() {
  return [...getAllCategories().keys()].map((category) => ({ category }));
}
""",
    "src/app/sitemap.ts": """import type { MetadataRoute } from "next";
import { getAllCategories, getAllPosts, getAllTags } from "@/lib/api";
import { SITE_URL } from "@/lib/constants";

export default function sitemap(): MetadataRoute.Sitemap {
  const posts = getAllPosts().map((post) => ({
    url: `${SITE_URL}/posts/${post.slug}`,
    lastModified: post.date,
  }));
  const tags = [...getAllTags().keys()].map((tag) => ({
    url: `${SITE_URL}/tags/${encodeURIComponent(tag)}`,
  }));
  const categories = [...getAllCategories().keys()].map((category) => ({
    url: `${SITE_URL}/categories/${category}`,
  }));
  return [
    { url: SITE_URL, lastModified: getAllPosts()[0].date },
    { url: `${SITE_URL}/about` },
    { url: `${SITE_URL}/categories` },
    { url: `${SITE_URL}/tags` },
    ...posts,
    ...categories,
    ...tags,
  ];
}
""",
    "src/app/robots.ts": """import type { MetadataRoute } from "next";
import { SITE_URL } from "@/lib/constants";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: { userAgent: "*", allow: "/" },
    sitemap: `${SITE_URL}/sitemap.xml`,
  };
}
""",
    "src/app/rss.xml/route.ts": """import { getAllPosts } from "@/lib/api";
import { SITE_DESCRIPTION, SITE_NAME, SITE_URL } from "@/lib/constants";

export const dynamic = "force-static";

function escape(text: string) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

export async function GET() {
  const items = getAllPosts()
    .map(
      (post) => `    <item>
      <title>${escape(post.title)}</title>
      <link>${SITE_URL}/posts/${post.slug}</link>
      <guid>${SITE_URL}/posts/${post.slug}</guid>
      <pubDate>${new Date(post.date).toUTCString()}</pubDate>
      <description>${escape(post.excerpt)}</description>
    </item>`,
    )
    .join("\\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>${SITE_NAME}</title>
    <link>${SITE_URL}</link>
    <description>${SITE_DESCRIPTION}</description>
${items}
  </channel>
</rss>
`;
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8" },
  });
}
""",
}


def _description(p: Post) -> str:
    from write_sources import _description as first_sentence

    return first_sentence(p)


def _front(p: Post) -> str:
    lines = [
        "---",
        f"title: {json.dumps(p.title, ensure_ascii=False)}",
        f"excerpt: {json.dumps(_description(p), ensure_ascii=False)}",
        f'date: "{p.date}T09:30:00.000Z"',
        "author:",
        f"  name: {AUTHOR}",
        f"category: {p.category}",
        "tags: [" + ", ".join(json.dumps(t, ensure_ascii=False) for t in p.tags) + "]",
    ]
    if p.draft:
        lines.append("draft: true")
    return "\n".join(lines) + "\n---\n\n"


def _about_page() -> str:
    paras = [para.replace("\n", " ") for para in ABOUT.body.strip().split("\n\n")]
    body = "\n".join(f"        <p>{json.dumps(para, ensure_ascii=False)[1:-1]}</p>" for para in paras)
    return (
        'import { Metadata } from "next";\n'
        'import Container from "@/app/_components/container";\n\n'
        "export const metadata: Metadata = {\n"
        f'  title: "{ABOUT.title}",\n'
        "};\n\n"
        "export default function About() {\n"
        "  return (\n"
        "    <Container>\n"
        '      <article className="page">\n'
        f"        <h1>{ABOUT.title}</h1>\n"
        f"{body}\n"
        "      </article>\n"
        "    </Container>\n"
        "  );\n"
        "}\n"
    )


def nextjs() -> None:
    """tests/fixtures/heldout/nextjs/src: the blog-starter layout, the posts in ``_posts/``."""
    from write_sources import _fresh, _write

    src = _fresh("nextjs")
    for p in POSTS:
        _write(src / "_posts" / f"{p.slug}.md", _front(p) + p.body)
    for rel, text in FILES.items():
        _write(src / rel, text)
    _write(src / "src" / "app" / "about" / "page.tsx", _about_page())
    package = {
        "name": "heldout-nextjs",
        "private": True,
        "scripts": {"dev": "next dev", "build": "next build", "start": "next start"},
        "dependencies": VERSIONS,
        "devDependencies": DEV_VERSIONS,
    }
    _write(src / "package.json", json.dumps(package, indent=2) + "\n")


# --- the build --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: Nothing but text: no scripts, images, fonts, nor Next's image optimizer. POSIX regex.
REJECT = r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot)(\?.*)?$|/_next/image"


def mirror(origin: str, dest: Path) -> None:
    with urllib.request.urlopen(f"{origin}/sitemap.xml", timeout=30) as answer:
        sitemap = answer.read().decode("utf-8")
    starts = [f"{origin}/", f"{origin}/robots.txt", f"{origin}/sitemap.xml", f"{origin}/rss.xml"]
    starts += [loc.replace(HOST, origin) for loc in re.findall(r"<loc>([^<]+)</loc>", sitemap)]
    subprocess.run(
        [
            "wget",
            "--mirror",
            "--adjust-extension",
            "--no-host-directories",
            "--no-cookies",
            "--quiet",
            "--restrict-file-names=nocontrol",
            "--reject-regex",
            REJECT,
            "--directory-prefix",
            str(dest),
            *dict.fromkeys(starts),
        ],
        check=False,  # 8: some answer was a 404
    )


def check_origin(origin: str, dest: Path) -> None:
    port = origin.rsplit(":", 1)[1]
    mark = re.compile(rb"(127\.0\.0\.1|localhost)(:|%3A)" + port.encode() + rb"\b")
    left = [str(f) for f in dest.rglob("*") if f.is_file() and mark.search(f.read_bytes())]
    if left:
        raise SystemExit(f"src_nextjs: loopback origin left in {left[:5]}")


def build(src: Path, out: Path, served: Path) -> int:
    work = Path(tempfile.mkdtemp(prefix="build.", dir=NPMGEN))
    shutil.copytree(src, work, dirs_exist_ok=True)
    env = {**os.environ, "NEXT_TELEMETRY_DISABLED": "1", "TZ": "UTC"}
    next_bin = str(NPMGEN / "node_modules" / ".bin" / "next")
    subprocess.run([next_bin, "build"], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    log = work / "next.out"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [next_bin, "start", "-H", "127.0.0.1", "-p", str(port)],
            cwd=work,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
        )
    dest = work / "mirror"
    try:
        for _ in range(120):
            try:
                with urllib.request.urlopen(f"{origin}/robots.txt", timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        mirror(origin, dest)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    check_origin(origin, dest)
    if served.exists():
        served.unlink()
    shutil.copytree(dest, out, dirs_exist_ok=True)
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4:
        sys.exit(build(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
