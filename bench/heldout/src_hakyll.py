"""The ``hakyll`` held-out site: Hakyll 4.15.1.1 (Debian 12), the blog ``hakyll-init`` starts.

    python bench/heldout/write_sources.py hakyll

Hakyll is a Haskell library: a site is a program, ``site.hs``, compiled with GHC (``ghc --make
site.hs``) and run as ``./site build`` (written to ``_site/``). ``hakyll-init`` (Debian's
``libghc-hakyll-dev`` ships it, with its template under ``/usr/share/hakyll/example``) writes the
documented starter: ``site.hs`` (``posts/*`` through ``pandocCompiler`` into
``templates/post.html`` and ``templates/default.html``, ``archive.html`` made by ``create``, the
``index.html`` listing every post, ``about.rst`` and ``contact.markdown``, ``relativizeUrls``),
``templates/`` (``default.html``: the site's name, a nav bar, ``<h1>$title$</h1>`` over the body;
``post.html``: "Posted on $date$ by $author$"; ``post-list.html``; ``archive.html``),
``css/default.css``, four Latin example posts and a logo.

``src/`` is that starter as the blog's author keeps it: the example posts replaced by the corpus'
(``posts/YYYY-MM-DD-slug.md``: the date in the file name, which Hakyll's ``dateField`` reads;
front matter ``title``, ``author``, ``tags`` (comma-separated, ``getTags``) and ``category``),
``about.rst`` the corpus' About page and ``contact.markdown`` a line of the site's own (both
kept from the starter's names and rule), ``index.html`` and the templates after the starter's.
``site.hs`` is the starter's with what Hakyll's tutorials and API documentation add to a blog:
tags (``buildTags``, ``tagsRules``: ``tags/<tag>.html``, ``tagsField`` under each post), the
same for the posts' ``category`` field (``buildTagsWith (getTagsByField "category")``:
``categories/<category>.html``, linked under each post by the template from the field), a tag cloud page (``renderTagCloud``: ``tags.html``) and the
Atom feed of "Snapshots and feeds" (``saveSnapshot "content"``, ``renderAtom``: ``atom.xml``,
the ten newest posts in full, linked from every page's ``<head>``). Code is pandoc's
(``pandocCompiler``, pandoc 2.17.1.1 with skylighting 0.12.3.1: ``<div class="sourceCode"
id="cb1"><pre class="sourceCode python"><code class="sourceCode python">``).

Hakyll has no drafts (the draft is not written), no sitemap and no pagination in the starter or
the tutorials (``Hakyll.Web.Paginate`` exists; the starter's index lists every post): none here.
``build.sh`` runs ``hakyll-init`` (the starter's ``css/default.css`` and cabal file), takes its
example posts, pages and logo out, copies ``src/`` over it, compiles and builds.
"""

from __future__ import annotations

import json

from corpus import ABOUT, POSTS
from write_sources import _fresh, _write

HOST = "https://hakyll.heldout.example"
SITENAME = "Small Lessons"
AUTHOR = "Ana Lima"

SITE_HS = (
    """--------------------------------------------------------------------------------
{-# LANGUAGE OverloadedStrings #-}
import           Data.Monoid (mappend)
import           Hakyll


--------------------------------------------------------------------------------
main :: IO ()
main = hakyll $ do
    match "images/*" $ do
        route   idRoute
        compile copyFileCompiler

    match "css/*" $ do
        route   idRoute
        compile compressCssCompiler

    match (fromList ["about.rst", "contact.markdown"]) $ do
        route   $ setExtension "html"
        compile $ pandocCompiler
            >>= loadAndApplyTemplate "templates/default.html" defaultContext
            >>= relativizeUrls

    -- Tags and categories: one page each, listing their posts.
    tags <- buildTags "posts/*" (fromCapture "tags/*.html")
    categories <- buildTagsWith (getTagsByField "category") "posts/*"
        (fromCapture "categories/*.html")

    tagsRules tags $ \\tag pattern -> do
        let title = "Posts tagged \\"" ++ tag ++ "\\""
        route idRoute
        compile $ do
            posts <- recentFirst =<< loadAll pattern
            let ctx = constField "title" title
                      `mappend` listField "posts" postCtx (return posts)
                      `mappend` defaultContext

            makeItem ""
                >>= loadAndApplyTemplate "templates/tag.html" ctx
                >>= loadAndApplyTemplate "templates/default.html" ctx
                >>= relativizeUrls

    tagsRules categories $ \\category pattern -> do
        let title = "Posts in category \\"" ++ category ++ "\\""
        route idRoute
        compile $ do
            posts <- recentFirst =<< loadAll pattern
            let ctx = constField "title" title
                      `mappend` listField "posts" postCtx (return posts)
                      `mappend` defaultContext

            makeItem ""
                >>= loadAndApplyTemplate "templates/tag.html" ctx
                >>= loadAndApplyTemplate "templates/default.html" ctx
                >>= relativizeUrls

    match "posts/*" $ do
        route $ setExtension "html"
        compile $ pandocCompiler
            >>= loadAndApplyTemplate "templates/post.html"    (postCtxWith tags)
            >>= saveSnapshot "content"
            >>= loadAndApplyTemplate "templates/default.html" (postCtxWith tags)
            >>= relativizeUrls

    create ["archive.html"] $ do
        route idRoute
        compile $ do
            posts <- recentFirst =<< loadAll "posts/*"
            let archiveCtx =
                    listField "posts" postCtx (return posts) `mappend`
                    constField "title" "Archives"            `mappend`
                    defaultContext

            makeItem ""
                >>= loadAndApplyTemplate "templates/archive.html" archiveCtx
                >>= loadAndApplyTemplate "templates/default.html" archiveCtx
                >>= relativizeUrls

    create ["tags.html"] $ do
        route idRoute
        compile $ do
            let tagsCtx =
                    constField "title" "Tags"                   `mappend`
                    field "cloud" (\\_ -> renderTagCloud 80 200 tags) `mappend`
                    defaultContext

            makeItem ""
                >>= loadAndApplyTemplate "templates/tags.html" tagsCtx
                >>= loadAndApplyTemplate "templates/default.html" tagsCtx
                >>= relativizeUrls

    create ["atom.xml"] $ do
        route idRoute
        compile $ do
            let feedCtx = postCtx `mappend` bodyField "description"
            posts <- fmap (take 10) . recentFirst =<<
                loadAllSnapshots "posts/*" "content"
            renderAtom feedConfiguration feedCtx posts


    match "index.html" $ do
        route idRoute
        compile $ do
            posts <- recentFirst =<< loadAll "posts/*"
            let indexCtx =
                    listField "posts" postCtx (return posts) `mappend`
                    defaultContext

            getResourceBody
                >>= applyAsTemplate indexCtx
                >>= loadAndApplyTemplate "templates/default.html" indexCtx
                >>= relativizeUrls

    match "templates/*" $ compile templateBodyCompiler


--------------------------------------------------------------------------------
postCtx :: Context String
postCtx =
    dateField "date" "%B %e, %Y" `mappend`
    defaultContext


postCtxWith :: Tags -> Context String
postCtxWith tags =
    tagsField "tags" tags `mappend`

    postCtx


--------------------------------------------------------------------------------
feedConfiguration :: FeedConfiguration
feedConfiguration = FeedConfiguration
    { feedTitle       = "@SITE@"
    , feedDescription = "Short programming lessons, written down as I learn them."
    , feedAuthorName  = "@AUTHOR@"
    , feedAuthorEmail = "ana@hakyll.heldout.example"
    , feedRoot        = "@HOST@"
    }
""".replace("@SITE@", SITENAME)
    .replace("@AUTHOR@", AUTHOR)
    .replace("@HOST@", HOST)
)

DEFAULT_HTML = """<!doctype html>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <meta http-equiv="x-ua-compatible" content="ie=edge">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>%(site)s - $title$</title>
        <link rel="stylesheet" href="/css/default.css" />
        <link rel="alternate" type="application/atom+xml" title="%(site)s" href="/atom.xml" />
    </head>
    <body>
        <header>
            <div class="logo">
                <a href="/">%(site)s</a>
            </div>
            <nav>
                <a href="/">Home</a>
                <a href="/about.html">About</a>
                <a href="/contact.html">Contact</a>
                <a href="/archive.html">Archive</a>
                <a href="/tags.html">Tags</a>
            </nav>
        </header>

        <main role="main">
            <h1>$title$</h1>
            $body$
        </main>

        <footer>
            Site proudly generated by
            <a href="http://jaspervdj.be/hakyll">Hakyll</a>
        </footer>
    </body>
</html>
""" % {"site": SITENAME}

POST_HTML = """<article>
    <section class="header">
        Posted on $date$
        $if(author)$
            by $author$
        $endif$
    </section>
    <section>
        $body$
    </section>
    <section class="footer">
        $if(category)$
            Category: <a href="/categories/$category$.html">$category$</a><br>
        $endif$
        $if(tags)$
            Tags: $tags$
        $endif$
    </section>
</article>
"""

POST_LIST_HTML = """<ul>
    $for(posts)$
        <li>
            <a href="$url$">$title$</a> - $date$
        </li>
    $endfor$
</ul>
"""

ARCHIVE_HTML = """Here you can find all my previous posts:
$partial("templates/post-list.html")$
"""

TAG_HTML = """$partial("templates/post-list.html")$
<p>…or you can find every post in the <a href="/archive.html">archives</a>.</p>
"""

TAGS_HTML = """<p>Every tag of the blog, larger where it has more posts:</p>
<p class="tag-cloud">$cloud$</p>
"""

INDEX_HTML = """---
title: Home
---

<h2>Welcome</h2>

<p>Welcome to Small Lessons, a notebook of short programming lessons!</p>

<p>I've reproduced a list of recent posts here for your reading pleasure:</p>

<h2>Posts</h2>
$partial("templates/post-list.html")$

<p>…or you can find more in the <a href="/archive.html">archives</a>.</p>
"""

CONTACT = """---
title: Contact
---

Write to ana@hakyll.heldout.example; I answer within a week.
"""


def hakyll() -> None:
    src = _fresh("hakyll")
    for p in POSTS:
        if p.draft:
            continue  # Hakyll has no drafts: an unpublished post is not in posts/
        front = (
            f"---\ntitle: {json.dumps(p.title, ensure_ascii=False)}\nauthor: {AUTHOR}\n"
            f"tags: {', '.join(p.tags)}\ncategory: {p.category}\n---\n\n"
        )
        _write(src / "posts" / f"{p.date}-{p.slug}.md", front + p.body)
    _write(src / "about.rst", f"---\ntitle: {ABOUT.title}\n---\n\n{ABOUT.body}")
    _write(src / "contact.markdown", CONTACT)
    _write(src / "index.html", INDEX_HTML)
    _write(src / "site.hs", SITE_HS)
    for name, text in (
        ("default.html", DEFAULT_HTML),
        ("post.html", POST_HTML),
        ("post-list.html", POST_LIST_HTML),
        ("archive.html", ARCHIVE_HTML),
        ("tag.html", TAG_HTML),
        ("tags.html", TAGS_HTML),
    ):
        _write(src / "templates" / name, text)
