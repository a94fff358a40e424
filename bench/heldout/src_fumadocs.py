"""Fumadocs (fumadocs-core, fumadocs-ui, fumadocs-mdx) on Next.js: the held-out ``fumadocs`` sources.

The layout of create-fumadocs-app's static template (``+next+fuma-docs-mdx+static``, written out
here: the scaffolder copies it from its package and installs on its own): Next's App Router with
``output: 'export'``, the landing page and other pages in the ``app/(home)`` route group under
``HomeLayout``, the docs under ``app/docs`` (``DocsLayout``: sidebar, ``DocsPage``: table of
contents and prev/next footer), content in ``content/docs`` (a Fumadocs MDX collection, the
template's Macro API in ``lib/source.ts``), ``meta.json`` files for the sidebar's order, the
static search index route, the ``llms.txt`` routes, Tailwind CSS 4 with Fumadocs' preset.

Changed from the template: no ``next/font/google`` (it downloads Inter at build time), no Open
Graph image route (``app/og``: PNGs drawn by takumi-js; the pages still name their
``og:image``, absolute on the site's ``metadataBase``), the site's own names, an "About" link
in the layouts' ``links``. Pages are ``content/docs/<section>/<slug>.mdx`` (front matter ``title`` and
``description``, the body's own ``# title`` left to ``DocsTitle``), the install page with
Fumadocs' ``Tabs`` and ``Callout``, the About page an ``app/(home)/about/page.tsx``. The template
has no sitemap and no feed: none is written.
"""

from __future__ import annotations

import html
import json

from corpus import ABOUT, DOC_SECTIONS, Post, published
from write_sources import INSTALL_TITLE, _description, _fresh, _write

HOST = "https://fumadocs.heldout.example"

#: The install page, as Fumadocs' docs write tabs (``fumadocs-ui/components/tabs``), a callout
#: (``Callout``, one of the default MDX components) and a code block title.
INSTALL = f"""---
title: {INSTALL_TITLE}
description: The tool ships for Python and Node.js; pick one.
---

import {{ Tab, Tabs }} from 'fumadocs-ui/components/tabs';

The tool ships for Python and Node.js; pick one.

<Tabs items={{['pip', 'npm']}}>
  <Tab value="pip">

```bash
pip install lessons-cli
```

  </Tab>
  <Tab value="npm">

```bash
npm install --global lessons-cli
```

  </Tab>
</Tabs>

<Callout type="warn" title="Python 3.10 or later">
  Older versions lack `zoneinfo`; the tool refuses to start on them.
</Callout>

The configuration lives in `~/.config/lessons/config.toml`:

```toml title="config.toml"
[output]
color = true
```

Check the installation:

```bash
lessons --version
```
"""

DOCS_INDEX = """---
title: Small Lessons
description: Short programming lessons.
---

Short programming lessons, from generators to regular expressions. Start with the guide.

<Cards>
  <Card title="Guide" href="/docs/guide/install" />
  <Card title="Reference" href="/docs/reference/quick-note-release" />
  <Card title="Appendix" href="/docs/appendix/medir-rendimiento-api" />
</Cards>
"""

FILES: dict[str, str] = {
    "next.config.mjs": """import { createMDX } from 'fumadocs-mdx/next';

const withMDX = createMDX();

/** @type {import('next').NextConfig} */
const config = {
  output: 'export',
  reactStrictMode: true,
};

export default withMDX(config);
""",
    "postcss.config.mjs": """const config = {
  plugins: {
    '@tailwindcss/postcss': {},
  },
};

export default config;
""",
    "app/global.css": """@import 'tailwindcss';
@import 'fumadocs-ui/css/neutral.css';
@import 'fumadocs-ui/css/preset.css';

html {
  scrollbar-gutter: stable;
}

html > body[data-scroll-locked] {
  margin-right: 0px !important;
  --removed-body-scroll-bar-size: 0px !important;
}
""",
    # The template's root layout without next/font/google (Inter, downloaded at build time).
    "app/layout.tsx": """import type { Metadata } from 'next';
import { Provider } from '@/components/provider';
import './global.css';

export const metadata: Metadata = {
  metadataBase: new URL('%(host)s'),
  title: { default: 'Small Lessons', template: '%%s | Small Lessons' },
  description: 'Short programming lessons.',
};

export default function Layout({ children }: LayoutProps<'/'>) {
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="flex flex-col min-h-screen">
        <Provider>{children}</Provider>
      </body>
    </html>
  );
}
""",
    "app/(home)/layout.tsx": """import { HomeLayout } from 'fumadocs-ui/layouts/home';
import { baseOptions } from '@/lib/layout.shared';

export default function Layout({ children }: LayoutProps<'/'>) {
  return <HomeLayout {...baseOptions()}>{children}</HomeLayout>;
}
""",
    "app/(home)/page.tsx": """import Link from 'next/link';

export default function HomePage() {
  return (
    <div className="flex flex-col justify-center text-center flex-1">
      <h1 className="text-2xl font-bold mb-4">Small Lessons</h1>
      <p>
        Short programming lessons. Open{' '}
        <Link href="/docs" className="font-medium underline">
          the docs
        </Link>{' '}
        and start with the guide.
      </p>
    </div>
  );
}
""",
    "app/api/search/route.ts": """import { source } from '@/lib/source';
import { createFromSource } from 'fumadocs-core/search/server';

export const revalidate = false;

export const { staticGET: GET } = createFromSource(source, {
  // https://docs.orama.com/docs/orama-js/supported-languages
  language: 'english',
});
""",
    "app/docs/layout.tsx": """import { source } from '@/lib/source';
import { DocsLayout } from 'fumadocs-ui/layouts/docs';
import { baseOptions } from '@/lib/layout.shared';

export default function Layout({ children }: LayoutProps<'/docs'>) {
  return (
    <DocsLayout tree={source.getPageTree()} {...baseOptions()}>
      {children}
    </DocsLayout>
  );
}
""",
    # The template's docs page; its Open Graph image's route (app/og) is left out: the
    # og:image URL stays in the page, and 404s as the other sites' images do.
    "app/docs/[[...slug]]/page.tsx": """import { source } from '@/lib/source';
import {
  DocsBody,
  DocsDescription,
  DocsPage,
  DocsTitle,
  MarkdownCopyButton,
  ViewOptionsPopover,
} from 'fumadocs-ui/layouts/docs/page';
import { notFound } from 'next/navigation';
import { getMDXComponents } from '@/components/mdx';
import type { Metadata } from 'next';
import { createRelativeLink } from 'fumadocs-ui/mdx';
import { getPageImageUrl, getPageMarkdownUrl, gitConfig } from '@/lib/shared';

export default async function Page(props: PageProps<'/docs/[[...slug]]'>) {
  const params = await props.params;
  const page = source.getPage(params.slug);
  if (!page) notFound();

  const MDX = page.data.body;
  const markdownUrl = getPageMarkdownUrl(page).url;

  return (
    <DocsPage toc={page.data.toc} full={page.data.full}>
      <DocsTitle>{page.data.title}</DocsTitle>
      <DocsDescription className="mb-0">{page.data.description}</DocsDescription>
      <div className="flex flex-row gap-2 items-center border-b pb-6">
        <MarkdownCopyButton markdownUrl={markdownUrl} />
        <ViewOptionsPopover
          markdownUrl={markdownUrl}
          githubUrl={`https://github.com/${gitConfig.user}/${gitConfig.repo}/blob/${gitConfig.branch}/content/docs/${page.path}`}
        />
      </div>
      <DocsBody>
        <MDX
          components={getMDXComponents({
            // this allows you to link to other pages with relative file paths
            a: createRelativeLink(source, page),
          })}
        />
      </DocsBody>
    </DocsPage>
  );
}

export async function generateStaticParams() {
  return source.generateParams();
}

export async function generateMetadata(props: PageProps<'/docs/[[...slug]]'>): Promise<Metadata> {
  const params = await props.params;
  const page = source.getPage(params.slug);
  if (!page) notFound();

  return {
    title: page.data.title,
    description: page.data.description,
    openGraph: {
      images: getPageImageUrl(page).url,
    },
  };
}
""",
    "app/llms-full.txt/route.ts": """import { docsLlms } from '@/lib/source';

export const revalidate = false;

export async function GET() {
  return new Response(await docsLlms.full());
}
""",
    "app/llms.mdx/docs/[[...slug]]/route.ts": """import { docsLlms, source } from '@/lib/source';
import { getPageMarkdownUrl } from '@/lib/shared';
import { notFound } from 'next/navigation';

export const revalidate = false;

export async function GET(_req: Request, { params }: RouteContext<'/llms.mdx/docs/[[...slug]]'>) {
  const { slug } = await params;
  // remove the appended "content.md"
  const page = source.getPage(slug?.slice(0, -1));
  if (!page) notFound();

  return new Response(await docsLlms.page(page), {
    headers: {
      'Content-Type': 'text/markdown',
    },
  });
}

export function generateStaticParams() {
  return source.getPages().map((page) => ({
    slug: getPageMarkdownUrl(page).segments,
  }));
}
""",
    "app/llms.txt/route.ts": """import { docsLlms } from '@/lib/source';

export const revalidate = false;

export async function GET() {
  return new Response(await docsLlms.index());
}
""",
    "components/mdx.tsx": """import defaultMdxComponents from 'fumadocs-ui/mdx';
import type { MDXComponents } from 'mdx/types';

export function getMDXComponents(components?: MDXComponents) {
  return {
    ...defaultMdxComponents,
    ...components,
  } satisfies MDXComponents;
}

export const useMDXComponents = getMDXComponents;

declare global {
  type MDXProvidedComponents = ReturnType<typeof getMDXComponents>;
}
""",
    "components/provider.tsx": """'use client';
import SearchDialog from '@/components/search';
import { RootProvider } from 'fumadocs-ui/provider/next';
import { type ReactNode } from 'react';

export function Provider({ children }: { children: ReactNode }) {
  return <RootProvider search={{ SearchDialog }}>{children}</RootProvider>;
}
""",
    "components/search.tsx": """'use client';
import {
  SearchDialog,
  SearchDialogClose,
  SearchDialogContent,
  SearchDialogHeader,
  SearchDialogIcon,
  SearchDialogInput,
  SearchDialogList,
  SearchDialogOverlay,
  type SharedProps,
} from 'fumadocs-ui/components/dialog/search';
import { useDocsSearch } from 'fumadocs-core/search/client';
import { staticClient } from 'fumadocs-core/search/client/orama-static';
import { useI18n } from 'fumadocs-ui/contexts/i18n';

export default function DefaultSearchDialog(props: SharedProps) {
  const { locale } = useI18n(); // (optional) for i18n
  const { search, setSearch, query } = useDocsSearch({
    client: staticClient({
      locale,
    }),
  });

  return (
    <SearchDialog search={search} onSearchChange={setSearch} isLoading={query.isLoading} {...props}>
      <SearchDialogOverlay />
      <SearchDialogContent>
        <SearchDialogHeader>
          <SearchDialogIcon />
          <SearchDialogInput />
          <SearchDialogClose />
        </SearchDialogHeader>
        <SearchDialogList items={query.data !== 'empty' ? query.data : null} />
      </SearchDialogContent>
    </SearchDialog>
  );
}
""",
    "lib/layout.shared.tsx": """import type { BaseLayoutProps } from 'fumadocs-ui/layouts/shared';
import { appName, gitConfig } from './shared';

export function baseOptions(): BaseLayoutProps {
  return {
    nav: {
      // JSX supported
      title: appName,
    },
    links: [{ text: 'About', url: '/about' }],
    githubUrl: `https://github.com/${gitConfig.user}/${gitConfig.repo}`,
  };
}
""",
    "lib/shared.ts": """import { createGetUrl } from 'fumadocs-core/source';

export const appName = 'Small Lessons';
export const docsRoute = '/docs';
export const docsImageRoute = '/og/docs';
export const docsContentRoute = '/llms.mdx/docs';

export const gitConfig = {
  user: 'example',
  repo: 'small-lessons',
  branch: 'main',
};

const getContentUrl = createGetUrl(docsContentRoute);

export function getPageMarkdownUrl(page: { slugs: string[]; locale?: string }) {
  const segments = [...page.slugs, 'content.md'];

  return { segments, url: getContentUrl(segments, page.locale) };
}

const getImageUrl = createGetUrl(docsImageRoute);

export function getPageImageUrl(page: { slugs: string[]; locale?: string }) {
  const segments = [...page.slugs, 'image.png'];

  return { segments, url: getImageUrl(segments, page.locale) };
}
""",
    "lib/source.ts": """import { llms, loader } from 'fumadocs-core/source';
import { docsContentRoute, docsRoute } from './shared';
import { defineDocs } from 'fumadocs-mdx/macro';
import { metaSchema, pageSchema } from 'fumadocs-core/source/schema';

const docs = defineDocs({
  dir: 'content/docs',
  docs: {
    schema: pageSchema,
    postprocess: {
      includeProcessedMarkdown: true,
    },
  },
  meta: {
    schema: metaSchema,
  },
});

// See https://fumadocs.dev/docs/headless/source-api for more info
export const source = loader({
  baseUrl: docsRoute,
  source: docs.toFumadocsSource(),
  plugins: [],
});

export const docsLlms = llms(source, {
  renderPage: async (page) => `# ${page.data.title} (${page.url})

${await page.data.getText('processed')}`,
});
""",
    "tsconfig.json": json.dumps(
        {
            "compilerOptions": {
                "target": "ESNext",
                "lib": ["dom", "dom.iterable", "esnext"],
                "allowJs": True,
                "skipLibCheck": True,
                "strict": True,
                "forceConsistentCasingInFileNames": True,
                "noEmit": True,
                "esModuleInterop": True,
                "module": "esnext",
                "moduleResolution": "bundler",
                "resolveJsonModule": True,
                "isolatedModules": True,
                "jsx": "react-jsx",
                "incremental": True,
                "paths": {"@/*": ["./*"]},
                "plugins": [{"name": "next"}],
            },
            "include": [
                "next-env.d.ts",
                "**/*.ts",
                "**/*.tsx",
                ".next/types/**/*.ts",
                ".next/dev/types/**/*.ts",
            ],
            "exclude": ["node_modules"],
        },
        indent=2,
    )
    + "\n",
}

#: The packages of the template's package.json (create-fumadocs-app's versions replaced by the
#: ones build.sh installs; its unused ``cn`` and ``serve`` left out).
DEPENDENCIES = ("fumadocs-core", "fumadocs-mdx", "fumadocs-ui", "lucide-react", "next", "react", "react-dom")
DEV_DEPENDENCIES = (
    "@tailwindcss/postcss",
    "@types/mdx",
    "@types/node",
    "@types/react",
    "@types/react-dom",
    "postcss",
    "tailwindcss",
    "typescript",
)


def _about_page() -> str:
    """The About page in the ``(home)`` route group, a TSX page (the template's "other pages")."""
    paragraphs = [" ".join(par.split("\n")) for par in ABOUT.body.strip().split("\n\n")]
    body = "\n".join(f"        <p>{html.escape(par, quote=False)}</p>" for par in paragraphs)
    return f"""import type {{ Metadata }} from 'next';

export const metadata: Metadata = {{
  title: '{ABOUT.title}',
  description: 'What this site is.',
}};

export default function AboutPage() {{
  return (
    <main className="container max-w-3xl py-12">
      <article className="prose">
        <h1>{ABOUT.title}</h1>
{body}
      </article>
    </main>
  );
}}
"""


def _page(p: Post) -> str:
    return (
        f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\n"
        f"description: {json.dumps(_description(p), ensure_ascii=False)}\n---\n\n{p.body}"
    )


def fumadocs() -> None:
    """The template's files, one MDX page per post in three sections, the install page, About."""
    src = _fresh("fumadocs")
    for name, text in FILES.items():
        _write(src / name, text % {"host": HOST} if name == "app/layout.tsx" else text)
    _write(src / "app" / "(home)" / "about" / "page.tsx", _about_page())
    docs = src / "content" / "docs"
    by_section: dict[str, list[Post]] = {}
    for p in published():
        section = DOC_SECTIONS[p.slug]
        by_section.setdefault(section, []).append(p)
        _write(docs / section / f"{p.slug}.mdx", _page(p))
    _write(docs / "guide" / "install.mdx", INSTALL)
    _write(docs / "index.mdx", DOCS_INDEX)
    sections = ("guide", "reference", "appendix")
    _write(docs / "meta.json", json.dumps({"pages": ["index", *sections]}, indent=2) + "\n")
    for section in sections:
        pages = (["install"] if section == "guide" else []) + [p.slug for p in by_section[section]]
        _write(
            docs / section / "meta.json",
            json.dumps({"title": section.title(), "pages": pages}, indent=2) + "\n",
        )
    _write(
        src / "package.json",
        json.dumps(
            {
                "name": "heldout-fumadocs",
                "version": "0.0.1",
                "private": True,
                "scripts": {"build": "next build", "dev": "next dev"},
                "dependencies": {d: "*" for d in DEPENDENCIES},
                "devDependencies": {d: "*" for d in DEV_DEPENDENCIES},
            },
            indent=1,
        )
        + "\n",
    )
