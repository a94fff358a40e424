"""The blogs spider on REAL documentation trees (Debian's -doc packages), scored against each tree.

    python bench/real_docs.py [--heldout] [--trees python,postgresql,...] [--details TREE]
                              [--json FILE] [--keep DIR]

Each tree is served on 127.0.0.1 (port 0) by ``tests.servers.serve_tree``, crawled with
``scrapy crawl blogs`` (a subprocess, ``source: docs``, ``max_pages`` 5000) from its start page,
and compared with an ORACLE read from the tree itself (never from harvest):

================ ===================== ====================================================================
tree             package               documents (the rest: listings, or neither)
================ ===================== ====================================================================
python           python3.11-doc        Sphinx: a page with a ``_sources/*.rst.txt`` whose source is more
                                       than titles, comments, targets and toctree/index/module directives;
                                       the others with a source, ``genindex*``, ``py-modindex``, ``search``
                                       are listings. Title: the source's first section title (inline
                                       markup reduced to its text). Languages: ``highlight-<lang>``
                                       (``default``, ``none``, ``text`` name none).
postgresql       postgresql-doc-15     DocBook XSL chunks: a page whose division holds text besides its
                                       title page and ``div.toc``; the book (``index.html``), the index
                                       (``bookindex.html``) and toc-only parts/chapters are listings.
                                       Title: the division's ``h1/h2/h3.title``; a refentry's ``<title>``.
git              git-doc               AsciiDoc man pages and articles, the DocBook user manual; the
                                       pages git's build writes as lists of the others
                                       (``howto-index.html``, ``technical/api-index.html``) are listings,
                                       ``everyday.html`` (a "moved to" note) neither. Title: ``<title>``
                                       (the source's document title; the ``<h1>`` adds "Manual Page").
rust-book        rust-doc              mdBook: the book's own folder (``html/book/*.html``, the old
                                       editions' folders left out); a chapter is an mdBook page with a
                                       ``<main>``; ``print.html`` (the whole book) and ``toc.html`` are
                                       listings, ``404.html`` and the rustdoc "old link" stubs
                                       (``noindex``) neither. Title: the first ``<h1>`` of ``<main>``,
                                       else its first heading. Languages: ``language-<x>``.
node             nodejs-doc            Node's generator: every module page; ``index.html`` and
                                       ``all.html`` (every module again) are listings. Title: the first
                                       heading of ``#apicontent``. Languages: ``language-<x>``.
sqlite           sqlite3-doc           SQLite's docsrc (Tcl): every page but the ones docsrc writes by
                                       name as lists of the others (``index``, ``docs``, ``doclist``,
                                       ``sitemap``, ``keyword_index``, ``lang``, ``chronology``, the
                                       ``doc_*_crossref`` tables, ``{c3ref,session}/*list``) or as a
                                       whole set on one page (``capi3ref``, ``session``, ``changes``,
                                       ``syntaxdiagrams``), and ``syntax/*`` (one SVG railroad diagram
                                       and its "Used by/References/See also" links): listings; the
                                       ``hp1.html`` honeypot, redirect stubs (``meta refresh``) and
                                       the copies ``fileformat2``, ``releaselog/current`` neither.
                                       No content container: the body after its site header (the
                                       first ``div.nosearch``), SVG text and ``div.fancy_toc`` not
                                       counted as words. Title: ``<title>`` (else the first
                                       ``h1``/``h2``). No languages.
doxygen          doxygen-doc           Doxygen: the manual's ``@page`` pages and the ``examples/*/html``
                                       outputs' class/file/namespace/group/source/example pages; the
                                       index pages Doxygen writes by name (``annotated``, ``classes``,
                                       ``files``, ``hierarchy``, ``functions*``, ``globals*``,
                                       ``pages``, ``*-members``, the ``bug``/``todo`` lists...) are
                                       listings, an example's empty main page neither. Content:
                                       ``div.contents``; code: ``pre`` and ``div.fragment``. Title:
                                       ``div.headertitle div.title`` without its ``div.ingroups``.
vim              vim-doc               vim2html: every help file (one ``<pre>`` each, vim's plain-text
                                       layout: no code block of its own; examples are bold lines);
                                       ``index.html`` (help.txt), ``usr_toc.html``, ``vimindex.html``
                                       (index.txt) and ``tags.html`` are listings. Title: the
                                       ``<h1>`` ("Vim documentation: <file>"). ``version5-9.html`` not
                                       served (0.5-2 MB each: the crawl took 10 minutes with them).
cmake            cmake-doc             Sphinx (CMake's theme, ``_sources`` shipped): a page with a source
                                       that says more than titles and directives (as python) and whose
                                       ``div[role=main]`` is under a third link text (headings and its
                                       ``.. contents::`` box aside); the other pages with a source are
                                       listings (``index`` of each reference: ``cmake-commands(7)``,
                                       ``cmake-variables(7)``..., the tutorial's and release notes'
                                       ``index``), so are ``genindex``/``search``; the old CPack module
                                       pages whose one sentence says "has moved here: <link>" neither.
                                       Title: the main ``<h1>`` (its ``¶`` left out): a module page's
                                       source is one ``cmake-module`` directive. Languages as python.
django           python-django-doc     Sphinx (Django's theme, no ``_sources``): the same link-share
                                       rule on the theme's content ``div.yui-g`` (the section ``index``
                                       pages, ``contents``, the hand-written home page of links, the
                                       class-based views' flattened index are listings), ``genindex``,
                                       ``py-modindex``, ``search`` and viewcode's ``_modules/index`` are
                                       listings, viewcode's other ``_modules/`` pages (a module's source,
                                       highlighted) neither. Title: the first ``<h1>`` of ``div.yui-g``.
                                       Languages as python. Only the release notes show a date (a line
                                       under the title).
debian-          debian-reference-en   DocBook XSL chunked by chapter (``*.en.html``, English only: the
reference                              language index ``index.html`` and the PDF/text left out): as
                                       postgresql, the book (``index.en.html``) the one listing. Title:
                                       the division's ``h1/h2.title`` (with its "Chapter 3." label).
apache           apache2-doc           The httpd manual's XSLT, English (``en/``, with the shared
                                       ``images/``, ``style/``): a page of ``#page-content``; the pages of
                                       the index templates (``<body id>`` ``index-page``,
                                       ``directive-index``, ``module-index``, ``override-index``),
                                       ``sitemap.html`` and each subfolder's ``index.html`` (its pages, a
                                       line or two each) are listings; a folder index linking none of its
                                       folder's pages, and a page of a preamble only (no section, no
                                       sidebar) under 100 words (a removed/deprecated page's note) neither.
                                       Title: the ``<h1>``. Languages: ``lang-<x>`` (prettify).
r-manuals        r-doc-html            makeinfo (``texi2any``), one page per manual (``--no-split``):
                                       every page whose ``<meta name="Generator">`` says so is a document
                                       (the whole manual); R's front page (``html/index.html``, its links
                                       to them) is a listing. Title: ``h1.settitle`` (``@settitle``).
                                       Words: ``<body>`` but the node headers, the contents and menus.
                                       Code: ``<pre>``s not blank (an ``@example``'s blank line is one).
gnu-std          gnu-standards         makeinfo as ``r-manuals``: ``standards.html`` alone (it links to
                                       no other page of the package).
gnu-maint        gnu-standards         makeinfo as ``r-manuals``: ``maintain.html`` alone (the same
                                       folder as ``gnu-std``, not linked from it).
bash-ref         bash-doc              makeinfo as ``r-manuals``: ``bashref.html`` alone (``bash.html``
                                       is man2html's ``bash(1)``, not texinfo).
autoconf         autoconf-doc          makeinfo as ``r-manuals``: ``autoconf.html`` (autoconf-doc's own
                                       folder holds only a link to gnu-standards' ``standards.html``).
erlang          erlang-doc             erl_docgen (OTP's own), all but Jinterface's javadoc
                                       (``lib/jinterface-*/doc/html/java/``): a page with
                                       ``otp_doc.css`` is a chapter or reference page, a document,
                                       unless its ``#content`` is a part's cover (``div.frontpage``:
                                       a User's Guide, Reference Manual, Release Notes; the left nav
                                       lists its pages), a listing; the lists OTP's build writes
                                       (``doc/index.html``, ``applications.html``, ``man_index.html``,
                                       ``lib/index.html``) are listings; xmerl's two hand-written
                                       tutorials (``xmerl_examples.html``, ``xmerl_xs_examples.html``,
                                       linked by name) documents (title: ``<title>``, content: the
                                       body); other pages without the stylesheet ("moved" stubs,
                                       ``nyi.html``, xmerl's example outputs, a benchmark table)
                                       neither, and so are stubs (one paragraph under 25 words, no
                                       list, table, code or function: "This module is moved to the
                                       ERTS application", "To be written."); the System
                                       Architecture guide's folder, which no page links to, is not
                                       served. Title: the first ``<h1>`` of ``#content``. Languages:
                                       ``example-<type>`` on the block's ``div`` (``none`` names none).
debian-handbook debian-handbook        Publican (DocBook XSL), English (``html/en-US``) only: a page
                                       whose division (``body > div.chapter``, ``.section``, ...)
                                       holds text besides its title page and ``div.toc``; the book
                                       (``index.html``) is a listing. Title: the title page's
                                       ``h1/h2.title``.
zsh             zsh-doc                texi2any, the manual split by chapter (the FAQ's Yodl pages,
                                       ``FAQ*.html``, which no page links to, not served): a chapter
                                       (``body > div.chapter``) is a document; the Top node
                                       (``index.html``, cover and menu), ``zsh_toc.html`` and the
                                       ``@printindex`` nodes (``table.index-*``) are listings; the
                                       per-node redirection files (``Refresh``) and ``zsh_abt.html``
                                       (the navigation buttons explained) neither. Title: the
                                       division's ``<h1>``.
mkdocs           mkdocs-doc            MkDocs (its ``mkdocs`` theme): a page with a ``div[role=main]``; a
                                       section's index, a bulleted list of links (one link an item) under
                                       a lead (the rest under 100 words, or no more than the list's), is
                                       a listing; ``404.html`` and the redirect stubs (``meta refresh``)
                                       neither. Title: the first ``<h1>`` of the main ``div``, its
                                       permalink left out (``<title>`` holds the nav's name). Languages:
                                       ``language-<x>`` (``text``, ``nohighlight`` name none).
scrapy           python-scrapy-doc     Sphinx, Read the Docs theme, no ``_sources``: the body
                                       (``div[itemprop=articleBody]``) read alone. ``genindex``,
                                       ``py-modindex``, ``search``, ``_modules/index.html`` and a body of
                                       toctrees and ``:doc:`` definition lists under a lead (the rest
                                       under 100 words, or no more than the entries') are listings;
                                       ``404.html``, viewcode's ``_modules/*``, "moved" notes (under
                                       20 words, an external link) and orphans no page links to (the
                                       docs' ``:orphan:`` README) neither. Words as shown (a span per
                                       token is no word apart). Title: the body's ``<h1>``,
                                       its permalink left out. Languages: ``highlight-<lang>``.
sphinx           sphinx-doc            Sphinx's own docs: read as Scrapy's (``div[role=main]``), and
                                       ``contents.html`` (the whole toctree, a page its configuration
                                       writes by name) and a page whose ``_sources`` text is only titles
                                       and directives (``rst_summary``) are listings.
cargo            cargo-doc             rustdoc: the package has no Cargo Book, only the API pages of
                                       crates Cargo builds with; ``syn`` is served (its pages and
                                       ``src/syn``). An item page (struct, enum, trait, fn, macro, type)
                                       is a document; a crate's or module's ``index.html`` too when its
                                       own docs (outside the item tables) reach 100 words, else a
                                       listing, as is ``all.html``; the ``src/`` source view,
                                       ``settings.html`` and the redirect stubs neither. Title: the
                                       ``<h1>`` (``Struct syn::Ident``). Languages: ``language-<x>``,
                                       else ``rust`` on the ``<pre>``.
boost            libboost1.74-doc      BoostBook (DocBook XSL), ``doc/html`` but ``boost/`` (its 3,150
                                       reference pages, one per C++ entity: links to them go unanswered):
                                       a chunk's division (``body > div.chapter``, ``.section``,
                                       ``.refentry``..., after the logo table and ``div.spirit-nav``)
                                       holding text besides its title page and ``div.toc`` is a
                                       document, unless its lists of one-link items outweigh the rest
                                       (AutoIndex's indexes, the BoostBook DTD's ``reference.html``);
                                       those, toc-only divisions, the book (``index.html``) and the
                                       parts (``libraries.html``, ``tools.html``) are listings. Title:
                                       the title page's ``h1/h2/h3.title`` (with its "Chapter 4."
                                       label); a refentry's ``span.refentrytitle`` ("Macro
                                       BOOST_RV_REF"). No languages.
glib             libglib2.0-doc        gtk-doc (DocBook XSL), the GLib book (``html/glib``; GIO's and
                                       GObject's books, which it does not link to, not served): a
                                       refentry (an API section, a tool's man page) or a chapter with
                                       text besides its ``div.toc``, and the annotation glossary, are
                                       documents; the book (``index.html``), the API index
                                       (``api-index-full.html``) and toc-only chapters are listings.
                                       Title: a refentry's ``span.refentrytitle``, else the title
                                       page's ``h1/h2.title``. Code: ``<pre>``s but the listing frame's
                                       line numbers (``td.listing_lines``, not words either). No
                                       languages.
flask            python-flask-doc      Sphinx, the Pallets theme, ``_sources`` shipped: read as Sphinx's
                                       own docs (``div[role=main]`` from the HTML, a page whose source
                                       is only titles and directives a listing), and a page whose text
                                       besides its title is under 20 words and links to another page
                                       ("Obsolete, see ... instead") neither. Title: the body's ``<h1>``,
                                       its permalink left out. Languages: ``highlight-<lang>``.
commons-lang     libcommons-lang3-     javadoc 17, by the ``<body class>`` it gives each page: a class
                 java-doc              page (``class-declaration-page``) and the help page are documents;
                                       a package page (``package-declaration-page``) is one when its own
                                       description (``section#package-description``) reaches 100 words,
                                       else a listing; the overview (``index.html``), the indexes, trees,
                                       "Uses of" pages, deprecated list, constants' and serialized forms'
                                       tables are listings; the source view (``src-html/``) and
                                       ``overview-summary.html`` (a redirect) neither. Content:
                                       ``<main>``. Title: its ``h1.title`` ("Class StringUtils"). No
                                       languages.
postfix          postfix-doc           Postfix's hand-written READMEs (an ``<h1>`` with the logo, the text in
                                       the body) and its manual pages (Postfix's man-to-HTML script: the
                                       body one ``<pre>``, the text as ``man`` lays it out, no code block
                                       of its own): documents; its two hand-written lists of the others
                                       (``index.html``, ``postfix-manuals.html``) are listings; a manual
                                       page whose ``<title>`` names another page (``defer.8.html`` is
                                       ``bounce(8)``, copied under each name) neither. Four pages no page
                                       links to not served. Title: the README's ``<h1>``, a manual page's
                                       ``<title>`` ("Postfix manual - access(5)"). Content: the body.
haproxy          haproxy-doc           haproxy-dconv: each page one of haproxy's text documents whole, a
                                       document (the Management Guide, which no page links to, not
                                       served). Content: the column (``#page-wrapper .col-lg-12``) without
                                       its header (``div.text-center``), the Summary (the text's own
                                       contents, ``div.row``), footer and keyword menus. Code: the
                                       examples (``pre.prettyprint``); ``pre.text`` (the text's prose as
                                       laid out) and ``prettyprint arguments`` ("Arguments :" lists) are
                                       not. Title: ``<title>`` (the ``<h1>`` is "HAProxy"). No languages.
gimp             gimp-help-en          DocBook XSL chunks as postgresql (a chapter's page holds its first
                                       section): the book, the parts, the key reference (a ``reference``:
                                       a toc of refentries) and the index are listings. Title: the
                                       division's ``h1/h2/h3.title``, a refentry's ``<title>``.
sqlalchemy       python-sqlalchemy-doc Sphinx, SQLAlchemy's theme (zzzeeksphinx), no ``_sources``: read as
                                       Scrapy's (``div[role=main]``; ``_modules/`` are viewcode's and the
                                       examples' source listings: neither, their ``index`` a listing); a
                                       body under 100 words besides headings whose every paragraph points
                                       to another page ("Moved!", "This section has moved to") neither; a
                                       body of lists of links to other pages (one link an item) under a
                                       lead, or a third of whose words are links (the hand-written front
                                       page), a listing. Title: the body's ``<h1>``. Languages:
                                       ``highlight-<lang>`` (``python+sql``, ``pycon+sql`` as written).
docutils         docutils-doc          Docutils' HTML writer (``rst2html``; the PEP writer for
                                       ``docs/peps``), each page beside its ``.txt`` source: a page whose
                                       ``div.document`` is text is a document; Docutils writes no index,
                                       and the one page a fifth of whose words are links to other pages
                                       of the tree (the overview ``docs/index.html``) is a listing;
                                       ``quickref.html`` (hand-written, no Docutils ``generator``) a
                                       document read whole (body, ``<h1>``). The pages no page links to
                                       (the test suite's ``math``, ``mwe-test``, ``manpage-URUE``, the
                                       included menu bars ``docs/header*.html``, three unlinked pages)
                                       not served. Title: ``h1.title`` (the document title; a ``title``
                                       directive's ``<title>`` not used), a PEP's ``<title>`` ("PEP 256
                                       - ..."). Code: ``pre`` but the docinfo's ``pre.address``; line
                                       blocks are no code. Languages: ``code <lang>`` (none used).
gnuplot          gnuplot-doc           LaTeX2HTML, one node per help topic (``nodeN.html``): the body
                                       without the navigation panels and the "Table of Child-Links". A
                                       node with text besides its heading is a document, unless that
                                       text is under 20 words and the node has child links (a listing,
                                       as are the top page ``index.html``, its copy under the job's name
                                       ``figures.html``, and the index, the panels' ``index`` button's
                                       target) or links to another node ("See image (p. [*])": a
                                       pointer, neither, as are an empty node and the "About this
                                       document ..." node). Title: the node's heading (its ``<title>``
                                       too). Code: ``<pre>``. No languages.
maint-guide      maint-guide           DocBook XSL chunked by chapter (``*.en.html``; the package ships
                                       English only): as postgresql, the book (``index.en.html``) the one
                                       listing. Title: the division's ``h2.title`` (with its "Chapter
                                       3." label).
qt5-core         qtbase5-doc-html      QDoc (Qt 5.15), Qt Core's folder (``qtcore/``): the module's index
                                       file (``qtcore.index``, shipped) names the node each page documents:
                                       a class, struct, namespace or header page and an overview
                                       ``\\page`` (examples and third-party attributions too) are
                                       documents; a ``\\group`` or the ``\\module`` page (``C++ Classes``)
                                       is a listing when its lead over QDoc's ``table.annotated`` (a
                                       class and its brief a row) is under 100 words or no longer than
                                       the table, else a document (``json.html``); the pages QDoc writes
                                       by name for each class: ``*-members.html`` ("List of All
                                       Members") listings, ``*-obsolete.html`` (the obsolete members'
                                       docs) documents. Content: ``div.mainContent`` without its
                                       sidebar (the contents box). Title: its ``h1.title`` ("QBuffer
                                       Class"). Languages: ``pre.cpp`` (``\\code``) is ``cpp``;
                                       ``pre.cpp.plain`` (``\\badcode``: licences, output) names none.
cppreference-c   cppreference-doc-     MediaWiki (cppreference's offline dump), the C reference only
                 en-html               (``en/c.html``, ``en/c/``, the wiki's ``common/``; the 3,870 C++
                                       pages left out): each wiki page (``wgPageName``, in its script)
                                       counted once: its own file (the dump's ``.1``/``.2`` suffix
                                       aside), else, when no page links to that (links go by the
                                       names editors wrote), the first linked copy the dump wrote
                                       under a redirect's name (``language/alignas`` shows
                                       ``_Alignas``); the other files neither; the portals
                                       (``div.mainpagediv`` boxes of links: the C front page, ``C
                                       language``) are listings; a page with a
                                       declaration box (``t-dcl-begin``: a function, type, macro) is a
                                       document; any other is a listing when its entries (``{{dsc}}``
                                       rows linking to another page, items led by a link or in a
                                       keyword's "Usage", sections named by a link, cells of links
                                       alone) lie under a lead (the References and See also sections
                                       aside), else a document (language pages, the overviews of
                                       ``io``, ``string/multibyte``...). Content: ``#mw-content-text``
                                       without the navigation bar (``div.t-navbar``). Title: the
                                       ``h1#firstHeading`` ("C keywords: static"). Languages: GeSHi's
                                       ``source-<lang>`` on the block's ``div`` (``text`` names none).
haddock-base     ghc-doc               Haddock, GHC's ``base-4.15.1.0``: a module page (``#content``) is
                                       a document, unless its interface is only re-exports (``module
                                       X`` entries, links to other module pages) under a description of
                                       under 100 words (``Foreign``, ``Foreign.C``...): a listing; or
                                       it has no description and an empty interface (``GHC.Constants``):
                                       neither; the module list (``index.html``) and the identifier
                                       indexes (``doc-index*.html``) are listings; the hyperlinked
                                       source (``src/``, one page a module, served: each entry's
                                       "Source" link) neither. Content: ``#content`` but the synopsis
                                       (the signatures again), the contents box and the "Source"/"#"
                                       links. Title: ``<title>`` (the module's name). No languages.
yard             yard-doc              YARD's own API docs (``yard doc``): a file page (``#filecontents``: the
                                       README as ``index.html``, the guides as ``file.*.html``) is a document;
                                       so is a class or module page (``#content``) documenting a constant,
                                       attribute or method (its source view, shown on a click, is code; the
                                       summary lists and the source's line numbers are not words), else one
                                       whose "Defined Under Namespace" children lie under a docstring of under
                                       100 words is a listing (``YARD::Handlers``), one with no docstring
                                       either neither (``TkError``); the lists YARD writes by name
                                       (``_index.html``, ``class_list``, ``method_list``, ``file_list``,
                                       ``tag_list``) are listings, ``frames.html`` (a redirecting script)
                                       neither. Title: ``<title>`` without " — YARD 0.9.28 Documentation"
                                       ("Class: Array", the ``<h1>``; a file page's "File: Getting Started
                                       Guide", its ``@title``). Languages: ``pre.code <lang>`` (``plain``
                                       names none). ``file.CHANGELOG`` dates each release in its heading.
rdoc-asciidoctor asciidoctor-doc       RDoc's darkfish, Asciidoctor's Ruby API, by ``<body class>``: a
                                       ``class``/``module`` page is a document when its ``<main>`` holds a
                                       description, a method or attribute (``div.method-detail``, its source
                                       shown on a click counted as code) or a constant with a value or text,
                                       else neither (its name alone: the core classes it reopens,
                                       ``Array``...; modules holding only modules, which the sidebar lists);
                                       ``table_of_contents.html`` and ``index.html`` (no main file given: one
                                       sentence over the sidebar's class index) are listings. Title: the
                                       ``<h1>`` ("class Asciidoctor::Block"). Languages: ``pre.ruby``.
gapdoc           gap-gapdoc            GAPDoc2HTML, the GAPDoc manual (``doc/``) and its example manual
                                       (``example/``, which ``doc/`` links to by GAP's path,
                                       ``../../../pkg/``: the root is ``/usr/share/gap``), plain flavour (the
                                       ``_mj.html`` MathJax twins not served; the ``3k+1/`` example, linked
                                       from no page, not served): a chapter, appendix or the references
                                       (``chapBib``) is a document, unless its text is under 20 words
                                       (neither: "This is an appendix."); ``chap0.html`` (title page and
                                       contents) and ``chapInd.html`` (the index) are listings,
                                       ``chooser.html`` (the style chooser) neither. Content: the body without
                                       the navigation bars, the chapter's ``div.ChapSects`` and the footer.
                                       Title: the chapter's ``<h3>`` with its number ("A The File 3k+1.xml").
                                       No languages. Links to GAP's own manuals (``doc/ref``) go unanswered.
adwaita          libadwaita-1-doc      gi-docgen (``section#main``): an API page (its ``<header>``'s ``h3``
                                       names the kind: class, interface, struct, enum, function, method,
                                       property, signal...) is a document, but the namespace's
                                       (``index.html``, kind "Namespace": tables of links and summaries), a
                                       listing, as is ``classes_hierarchy.html`` (written by name); a
                                       content page (a Markdown file, ``div.docblock`` under its ``h1``) a
                                       document unless it is one-link paragraphs or items under a lead
                                       (the Visual Index's screenshots): a listing. Title: an API page's
                                       ``<title>`` (``Adw.ActionRow:subtitle``), a content page's ``h1``.
                                       Code: ``<pre>`` (the C declaration, ``div.codehilite``). No
                                       languages.
racket-guide     racket-doc            Scribble, one section a page (``guide/`` and the shared style
                                       sheets and scripts of ``../``; links to the other manuals go
                                       unanswered): ``div.main`` without its navigation bars; a section is
                                       a document unless its text besides its table of ``a.toclink``
                                       entries (its subsections' pages) is a lead: a listing, as are the
                                       book (``index.html``: title, preface, contents) and the index
                                       (``doc-index.html``). Title: ``<title>`` (the heading, with its
                                       section number: ``2.3 Lists, Iteration, and Recursion``). Code:
                                       ``blockquote.SCodeFlow`` (racketblock, codeblock, examples; no
                                       ``<pre>``). No languages.
sdl2             libsdl2-doc           Doxygen as ``doxygen`` (``CREATE_SUBDIRS``): file, struct and union
                                       pages and the related pages (the READMEs, ``md_*``) are documents;
                                       the index pages by name (``annotated``, ``classes``, ``files``,
                                       ``pages``, ``globals*``, ``functions*``, ``dir_*``, ``deprecated``)
                                       listings; the source listings (``*_source.html``: a header's text,
                                       line-numbered, as viewcode's or rustdoc's ``src/``), the empty main
                                       page and the empty file pages of the Markdown files neither, and so
                                       are notes under 20 words linking elsewhere (``README-hg``,
                                       ``SDL_copying.h``'s "Go to the source code of this file.").
                                       Start: ``pages.html`` (the main page is empty; the menu is a
                                       script's). Title, code: as ``doxygen``. No languages.
================ ===================== ====================================================================

Code blocks: the outermost ``<pre>`` elements of the page's main content container
(``div[role=main]``/``div.body``, the DocBook division, ``#content``, ``<main>``, ``#apicontent``,
SQLite's body, Doxygen's ``div.contents`` with its ``div.fragment`` blocks, Django's ``div.yui-g``,
Apache's ``#page-content``, makeinfo's ``<body>``, erl_docgen's ``#content``, Publican's division,
texi2any's chapter, ``div[itemprop=articleBody]``, rustdoc's ``section#main-content``, BoostBook's
and gtk-doc's division, javadoc's ``<main>``, Docutils' ``div.document``, LaTeX2HTML's body, QDoc's
``div.mainContent``, MediaWiki's ``#mw-content-text``, Haddock's ``#content``,
gi-docgen's ``section#main``, Scribble's ``div.main`` with its ``blockquote.SCodeFlow`` blocks),
against the fenced blocks of the stored Markdown (read as CommonMark reads them: the fences a
Markdown example shows inside a longer fence are its code, no blocks of their own). Titles are
compared with whitespace, dashes and quotes made plain (Sphinx's smart quotes turn ``---`` into an em dash).

Every tree is small enough to crawl whole (Python 530 pages, PostgreSQL 1,169, git 242, the Rust
Book 185, Node 65, SQLite 766, Doxygen 359 with its examples' outputs, vim 147, CMake 1,936, Django
692, the Debian Reference 15, Apache's English manual 244, R's manuals 8, the GNU manuals one page
each, Erlang/OTP 992, the Debian Administrator's Handbook 127, zsh 179, MkDocs 23, Scrapy 126,
Sphinx 137, Boost 655 of 3,805, GLib 100, Flask 77, Commons Lang 730, Postfix 132, haproxy 2, the
GIMP manual 685, SQLAlchemy 224, Docutils 56 of 64, gnuplot 652, the New Maintainers' Guide 11,
Qt Core 684, cppreference's C reference 554 of 4,424, Haddock's base 514 with its ``src/`` pages;
held out: YARD 275, RDoc's Asciidoctor API 111, GAPDoc 22 of 52, libadwaita 1,020, the Racket
Guide 133, SDL2 469) but for what each row says is left out: the Rust docs but the Book, vim's
five largest release notes, Cargo's rustdoc but ``syn`` (592 of 671 pages; rustdoc links the crates'
roots from a script, so no page leads from one crate to the others), Boost's ``boost/`` reference
pages, cppreference's C++ pages. Qt Core's pages link to the other Qt modules' folders and
cppreference's "See also" rows to the C++ pages: those requests go unanswered (404). Doxygen's
examples are linked from the manual only in part: the rest are reached through its JavaScript menu
(``menudata.js``), which the spider does not read. Go's docs (``golang-1.19-doc``: the spec, the
memory model, the assembler guide) are no tree here: each file is a fragment Go's web server wraps
in its page template (the title only in a JSON comment, no ``<title>`` or ``<h1>``) and links by the
paths that server routes (``/ref/spec``), so served as files they have no title and link to one
another hardly at all. A file whose name has a space (CMake's ``generator/Unix Makefiles.html``) is
served under its percent-encoded path too. Absolute links to the trees' public hosts are left as
they are and are not followed (the spider keeps to the start page's host); the crawl runs with
``http_proxy``/``https_proxy`` set to a loopback canary server (``no_proxy`` 127.0.0.1), so a
request for any other host reaches that canary and nothing else: its count is the ``foreign``
column and must be 0.

Per tree: HTML pages served, documents (oracle), documents stored, documents missing (fetched or
never fetched), listing pages stored, other pages stored, titles right (``unnumbered``: right but
for a section number or label, ``Chapter 5.``, ``4.2.``, or an API page's kind and type parameters,
Javadoc's ``Class X<T>``, rustdoc's ``Struct syn::Expr``), documents given a date (``dated``: the
trees date none but PostgreSQL's and Django's release notes, R's manuals (their edition), SQLite's
release log and Scrapy's pages, whose theme's footer gives the build's date; SQLite's pages end with
"This page last modified on <date>"; haproxy's Configuration Manual shows its text's date under the
title, SQLAlchemy's header the release's date on every page, most Docutils pages their docinfo's
``Date`` field), documents whose Markdown has an odd
number of fence lines (``bad fences``: a block left open), documents keeping under 70% of the page's
words (``text <70%``), code blocks kept / expected, languages kept / expected, WARNING lines of the
crawl log (count, the first 5), pages fetched, requests that reached the canary (``foreign``), exit
code, wall time. The thirty-eight tuning trees take about fifteen minutes, the six held-out ones
(``--heldout``) about a minute.
``--details TREE`` lists every mismatch; ``--json FILE`` writes rows and mismatches; ``--keep DIR``
keeps each crawl's output folder (``DIR/<tree>/data/blogs/document.jsonl`` and the Markdown) for
reading.
"""

from __future__ import annotations

import argparse
import copy
import functools
import itertools
import json
import re
import shutil
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urljoin

import yaml
from lxml import etree as lxml_etree
from lxml import html as lxml_html
from lxml.html import HtmlElement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import read_jsonl, scrapy_crawl  # noqa: E402
from tests.devsites import markdown_table, norm_path  # noqa: E402
from tests.servers import URL_SAFE, loopback_server, serve_tree  # noqa: E402

DOC = "document"
LISTING = "listing"
NEITHER = "neither"
#: Sphinx highlight names that name no language.
NO_LANGUAGE = frozenset({"default", "none", "text", ""})
#: The same language under two names.
#: A fence line as tests/devsites.py counts them (at a line's start, in block quotes too).
_FENCE_LINE = re.compile(r"^(?:>[ \t]?)*(`{3,}|~{3,})(.*)$", re.M)


def open_fence(markdown: str) -> int:
    """Fence lines read as CommonMark reads them: an odd count when a block is left open.

    A block closes at a fence of its own character, as long, with no info string: a ``~~~``
    line inside a backtick block is its code (reStructuredText's underlines in Django's docs).
    """
    lines = 0
    opened: str | None = None
    for m in _FENCE_LINE.finditer(markdown):
        fence, info = m.group(1), m.group(2).strip()
        if opened is None:
            opened = fence
            lines += 1
        elif fence[0] == opened[0] and len(fence) >= len(opened) and not info:
            opened = None
            lines += 1
    return lines


def fenced_blocks(markdown: str) -> int:
    """Fenced code blocks as CommonMark reads them (:func:`open_fence`): a ```` ```` ```` block
    showing a Markdown example's own ```` ``` ```` fences is one block, not three; a block left
    open to the end is one too."""
    return (open_fence(markdown) + 1) // 2


_FENCE_INFO = re.compile(r"^(?:>[ \t]?)*(?:`{3,}|~{3,})[ \t]*([^\s`]*)", re.M)
LANG_ALIAS = {"python3": "python", "py": "python", "py3": "python", "pycon3": "pycon", "erl": "erlang"}


@dataclass
class Page:
    """What the tree says one HTML page is."""

    kind: str
    title: str = ""
    code: int = 0
    langs: list[str] = field(default_factory=list)
    #: Words of the main content container.
    words: int = 0


@dataclass
class Tree:
    name: str
    package: str
    root: Path
    start: str
    judge: Callable[[Path, str], Page]
    #: Files (relative, with a leading slash) served; default every file.
    serve: Callable[[str], bool] = lambda rel: True
    #: ``tuning``: trees the extraction's rules were looked at on; ``heldout``: trees kept out of
    #: that work, run with ``--heldout`` to check the rules on pages nobody tuned on.
    group: str = "tuning"


# --- reading pages -------------------------------------------------------------------------------


def _parse(file: Path) -> HtmlElement:
    return lxml_html.fromstring(file.read_bytes())


def _classes(el: HtmlElement) -> list[str]:
    return (el.get("class") or "").split()


def _outer_pres(container: HtmlElement | None) -> list[HtmlElement]:
    if container is None:
        return []
    return [pre for pre in container.iter("pre") if not any(a.tag == "pre" for a in pre.iterancestors())]


def _code_lang(pre: HtmlElement) -> str:
    """``language-<x>`` on the block or its <code> (first one)."""
    for el in [pre, *pre.iter("code")]:
        for token in _classes(el):
            if token.startswith("language-"):
                return token.removeprefix("language-").lower()
    return ""


def _text(el: HtmlElement | None) -> str:
    return " ".join((el.text_content() if el is not None else "").split())


_NUMBERING = re.compile(
    r"^(?:(?i:chapter|part|appendix)\s+)?(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z](?:\.\d+)*\.)\s+"
)


#: An API page's kind before its name (Javadoc's ``<h1>`` "Class ArrayUtils", "Interface
#: Diffable<T>"), and the type's parameters after it.
_KIND_LABEL = re.compile(
    r"^(?:Class|Interface|Enum|Annotation Type|Record|Package|Module"
    # rustdoc's
    r"|Crate|Struct|Trait|Function|Macro|Constant|Static|Type Definition|Union|Primitive Type"
    r"|Keyword|Attribute Macro|Derive Macro|Trait Alias)\s+(?=\S)"
)
_TYPE_PARAMETERS = re.compile(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>$")


def unnumbered(text: str) -> str:
    """A plain title without its section number or label (``Chapter 5.``, ``4.2.``, ``Part VI.``,
    an appendix's ``F.1.``), nor an API page's kind and type parameters (``Class X<T>``)."""
    return _TYPE_PARAMETERS.sub("", _KIND_LABEL.sub("", _NUMBERING.sub("", text)))


def _words(el: HtmlElement | None) -> int:
    """Words shown by ``el`` (scripts, styles and tables of contents left out)."""
    if el is None:
        return 0
    return sum(
        len(t.split())
        for t in el.xpath(
            ".//text()[not(ancestor::script) and not(ancestor::style)"
            " and not(ancestor::*[contains(concat(' ', @class, ' '), ' toc ')"
            " or contains(@class, 'toctree-wrapper')])]"
        )
    )


_MD_NOISE = re.compile(r"\]\([^)]*\)|^(?:```|~~~)\S*$|[#*_`>|\\-]+(?=\s)", re.M)


def markdown_words(body: str) -> int:
    """Words of a stored Markdown file's text: front matter, link targets and markup left out."""
    if body.startswith("---\n"):
        body = body[body.find("\n---\n", 4) + 5 :]
    return len(_MD_NOISE.sub(" ", body).split())


def plain(text: str | None) -> str:
    """A title made comparable: NFKC, dashes and quotes plain, whitespace squeezed."""
    text = unicodedata.normalize("NFKC", text or "")
    text = text.replace("---", "—").replace("--", "–")
    text = re.sub("[‐-―−]", "-", text)
    text = re.sub("[‘’‚‛]", "'", text)
    text = re.sub("[“”„‟]", '"', text)
    return " ".join(text.split())


# --- Sphinx --------------------------------------------------------------------------------------

_UNDERLINE = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_QUIET_DIRECTIVES = frozenset(
    {"toctree", "index", "module", "currentmodule", "highlight", "sectionauthor", "moduleauthor", "only"}
)


def _role(match: re.Match[str]) -> str:
    """A role as Sphinx shows it: its title if it has one, ``~`` the last name, ``()`` after a
    function, ``RFC``/``PEP`` before a number."""
    role, content = match.group(1).split(":")[-1], match.group(2)
    titled = re.match(r"^(.*?)\s*<[^>]*>$", content, re.S)
    if titled:
        return titled.group(1)
    content = content.lstrip("!")
    if content.startswith("~"):
        content = content[1:].rsplit(".", 1)[-1]
    if role in {"func", "meth"}:
        content += "()"
    elif role in {"rfc", "pep"}:
        content = f"{role.upper()} {content}"
    return content


def _rst_inline(text: str) -> str:
    text = re.sub(r":([\w:+-]+):`([^`]*)`", _role, text)
    text = re.sub(r"``([^`]*)``", r"\1", text)
    text = re.sub(r"`([^`]*)`_*", r"\1", text)
    text = re.sub(r"\*\*([^*]*)\*\*|\*([^*]*)\*", lambda m: m.group(1) or m.group(2), text)
    text = text.replace("\\ ", "").replace("\\", "")
    return re.sub(r"(?<![\w.])[~!](?=\w)", "", text)


def rst_summary(source: str) -> tuple[str, bool]:
    """The first section title of a reST source and whether it has more than titles,
    comments, targets and toctree/index/module directives."""
    lines = source.splitlines()
    title = ""
    content = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        after = lines[i + 2] if i + 2 < len(lines) else ""
        if _UNDERLINE.match(line) and nxt.strip() and _UNDERLINE.match(after) and after[0] == line[0]:
            title = title or _rst_inline(nxt.strip())  # overline, title, underline
            i += 3
            continue
        if not stripped or _UNDERLINE.match(line):
            i += 1
            continue
        if not line[:1].isspace() and _UNDERLINE.match(nxt) and len(nxt.strip()) >= len(stripped) - 1:
            title = title or _rst_inline(stripped)
            i += 2
            continue
        if stripped.startswith(".."):
            m = re.match(r"\.\.\s+([\w:-]+)::", stripped)
            name = m.group(1) if m else ""
            if m and name not in _QUIET_DIRECTIVES:
                content = True
            indent = len(line) - len(line.lstrip())
            i += 1
            if name == "only":
                continue  # its body is read like the rest
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                i += 1
            continue
        if re.match(r"^:[\w-]+:(\s.*)?$", stripped) and not title:
            i += 1  # file-wide metadata (:orphan:, :tocdepth:)
            continue
        content = True
        i += 1
    return title, content


def sphinx_page(root: Path, rel: str) -> Page:
    name = rel.lstrip("/")
    source = root / "_sources" / (name[: -len(".html")] + ".rst.txt")
    if not source.is_file():
        if re.match(r"(?:.*/)?(?:genindex(?:-\w+)?|py-modindex|search)\.html$", name):
            return Page(LISTING)
        return Page(NEITHER)
    title, content = rst_summary(source.read_text(encoding="utf-8", errors="replace"))
    if not content:
        return Page(LISTING, title)
    tree = _parse(root / name)
    main = next(
        iter(tree.xpath('//div[@role="main"] | //div[contains(concat(" ",@class," ")," body ")]')), None
    )
    pres = _outer_pres(main)
    return Page(DOC, title, len(pres), _highlight_langs(pres), _words(main))


# --- DocBook XSL ---------------------------------------------------------------------------------

_DIVISION_TEXT_SKIP = frozenset({"titlepage", "toc", "navheader", "navfooter", "refnamediv"})


def docbook_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    division = None
    for child in body if body is not None else []:
        if child.tag == "div" and not set(_classes(child)) & {"navheader", "navfooter"}:
            division = child
            break
    if division is None:
        return Page(NEITHER)
    kind = _classes(division)[0] if _classes(division) else ""
    if kind in {"book", "index", "set"}:
        return Page(LISTING)
    heads = division.xpath(
        './/*[self::h1 or self::h2 or self::h3][contains(concat(" ",@class," ")," title ")]'
    )
    title = _text(heads[0]) if heads and kind != "refentry" else _text(tree.find(".//title"))
    # Text of the division outside its title page and table of contents.
    own = "".join(
        _text(child)
        for child in division
        if not set(_classes(child)) & _DIVISION_TEXT_SKIP and child.tag not in {"h1", "h2", "h3"}
    )
    if not own.strip():
        return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(division)), words=_words(division))


# --- AsciiDoc (git) ------------------------------------------------------------------------------

GIT_LISTINGS = frozenset({"/howto-index.html", "/technical/api-index.html"})
GIT_NEITHER = frozenset({"/everyday.html"})


def git_page(root: Path, rel: str) -> Page:
    if rel in GIT_LISTINGS:
        return Page(LISTING)
    if rel in GIT_NEITHER:
        return Page(NEITHER)
    tree = _parse(root / rel.lstrip("/"))
    title = _text(tree.find(".//title"))
    content = next(iter(tree.xpath('//div[@id="content"] | //div[@class="book"]')), None)
    if content is None:
        return Page(NEITHER, title)
    return Page(DOC, title, len(_outer_pres(content)), words=_words(content))


# --- mdBook --------------------------------------------------------------------------------------


def mdbook_page(root: Path, rel: str) -> Page:
    file = root / rel.lstrip("/")
    raw = file.read_bytes()
    if rel in {"/print.html", "/toc.html"}:
        return Page(LISTING)
    if rel == "/404.html" or b"Book generated using mdBook" not in raw:
        return Page(NEITHER)
    tree = lxml_html.fromstring(raw)
    main = tree.find(".//main")
    if main is None:
        return Page(NEITHER)
    heads = main.xpath(".//h1") or main.xpath(".//*[self::h2 or self::h3 or self::h4]")
    pres = _outer_pres(main)
    langs = [lang for lang in (_code_lang(p) for p in pres) if lang]
    return Page(DOC, _text(heads[0]) if heads else "", len(pres), langs, _words(main))


# --- Node ----------------------------------------------------------------------------------------


def node_page(root: Path, rel: str) -> Page:
    if rel in {"/index.html", "/all.html"}:
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    content = tree.find('.//div[@id="apicontent"]')
    if content is None:
        return Page(NEITHER)
    heads = content.xpath(".//*[self::h1 or self::h2 or self::h3]")
    title = ""
    if heads:
        head = copy.deepcopy(heads[0])
        # The heading's anchors: its "#" mark, the source link, the legacy anchor.
        for mark in head.xpath('.//span[a[@class="mark"]] | .//a[@class="srclink" or @aria-hidden]'):
            mark.drop_tree()
        title = _text(head)
    pres = _outer_pres(content)
    langs = [lang for lang in (_code_lang(p) for p in pres) if lang]
    return Page(DOC, title, len(pres), langs, _words(content))


# --- SQLite's docsrc (Tcl) -----------------------------------------------------------------------

#: Pages docsrc writes by name as lists of the others: the document lists and indexes, the
#: cross-reference tables, the release chronology, the API's object/constant/function lists, and
#: the pages that put a whole set of pages on one (the C API, the session API, the release notes,
#: the syntax diagrams).
SQLITE_LISTINGS = frozenset(
    {
        "/index.html",
        "/docs.html",
        "/doclist.html",
        "/sitemap.html",
        "/keyword_index.html",
        "/chronology.html",
        "/lang.html",
        "/syntax.html",
        "/syntaxdiagrams.html",
        "/changes.html",
        "/capi3ref.html",
        "/session.html",
        *(f"/doc_{kind}_crossref.html" for kind in ("backlink", "keyword", "pagelink", "target")),
        *(f"/{api}/{kind}list.html" for api in ("c3ref", "session") for kind in ("func", "const", "obj")),
    }
)
#: The download page's honeypot (a "Javascript required" note) and the byte-for-byte copies
#: docsrc writes under a second name (the file format's old name, the latest release's notes).
SQLITE_NEITHER = frozenset({"/hp1.html", "/fileformat2.html", "/releaselog/current.html"})


def _pruned(el: HtmlElement, xpath: str) -> HtmlElement:
    """A copy of ``el`` without the elements ``xpath`` finds in it."""
    el = copy.deepcopy(el)
    for drop in el.xpath(xpath):
        drop.drop_tree()
    return el


def sqlite_page(root: Path, rel: str) -> Page:
    if rel in SQLITE_LISTINGS or rel.startswith("/syntax/"):
        return Page(LISTING)
    if rel in SQLITE_NEITHER:
        return Page(NEITHER)
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    if body is None or tree.xpath('//meta[translate(@http-equiv, "REFSH", "refsh")="refresh"]'):
        return Page(NEITHER)  # a renamed page's redirect stub
    # No content container: the body after the site header (its first ``div.nosearch``: logo,
    # menus, search form) and the scripts; the diagrams' SVG text and a page's own table of
    # contents (``div.fancy_toc``) are not words of the text.
    content = _pruned(body, "./div[@class='nosearch'][1] | .//script | .//style")
    title = _text(tree.find(".//title"))
    if title in {"", "No Title"}:  # the page sets none: its first heading
        title = _text(next(iter(content.xpath(".//*[self::h1 or self::h2]")), None))
    text = _pruned(content, ".//*[local-name()='svg'] | .//div[@class='fancy_toc']")
    return Page(DOC, title, len(_outer_pres(content)), words=_words(text))


# --- Doxygen -------------------------------------------------------------------------------------

#: Doxygen's index pages, written by name in every output: the class, file, namespace, module,
#: related-page and example lists, the hierarchy and the member indexes.
_DOXYGEN_LISTING = re.compile(
    r"(?:annotated|classes|files|hierarchy|inherits|modules|namespaces|pages|examples"
    r"|(?:functions|globals|namespacemembers)(?:_\w+)?|dir_\w+|.*-members"
    r"|bug|todo|test|deprecated)\.html$"
)


def doxygen_page(root: Path, rel: str) -> Page:
    name = rel.rsplit("/", 1)[-1]
    if _DOXYGEN_LISTING.fullmatch(name):
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    contents = next(iter(tree.xpath('//div[@class="contents"]')), None)
    if contents is None or not _text(contents):
        return Page(NEITHER)  # an example's empty main page
    heads = tree.xpath('//div[@class="headertitle"]/div[@class="title"]')
    # The title without the groups the page belongs to and the member labels.
    title = _text(_pruned(heads[0], './/div[@class="ingroups"] | .//span[@class="mlabels"]')) if heads else ""
    blocks = [
        el
        for el in contents.xpath('.//pre | .//div[contains(concat(" ",@class," ")," fragment ")]')
        if not any(a.tag == "pre" or "fragment" in _classes(a) for a in el.iterancestors())
    ]
    return Page(DOC, title, len(blocks), words=_words(contents))


# --- vim2html ------------------------------------------------------------------------------------

#: help.txt (written as ``index.html``), the user manual's table of contents, index.txt (the
#: index of every command, written as ``vimindex.html``), the tags file (``tags.html``: every
#: tag and the file it is in).
VIM_LISTINGS = frozenset({"/index.html", "/usr_toc.html", "/vimindex.html", "/tags.html"})
#: The release notes of Vim 5 to 9 (0.5 to 2 MB of <pre> each): harvest takes minutes on each.
_VIM_LEFT_OUT = re.compile(r"/version[5-9]\.html")


def vim_page(root: Path, rel: str) -> Page:
    if rel in VIM_LISTINGS:
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    text = tree.find(".//pre")
    if text is None:
        return Page(NEITHER)
    # The help file is one <pre> (vim's plain-text layout): no code block of its own.
    return Page(DOC, _text(tree.find(".//h1")), 0, words=_words(text))


# --- Sphinx (CMake) ------------------------------------------------------------------------------

#: Words of a Sphinx page's main container left out of its link share: headings and the page's
#: own ``.. contents::`` box (links to its own sections).
_NOT_SHARED = (
    "ancestor::h1 or ancestor::h2 or ancestor::h3 or ancestor::h4 or ancestor::h5 or ancestor::h6"
    " or ancestor::*[contains(concat(' ', @class, ' '), ' contents ')]"
)


def _link_share(main: HtmlElement) -> float:
    """The share of a Sphinx page's main words that are link text (toctree entries, lists of
    links to other pages); headings and the page's own contents box left out."""
    words = sum(len(t.split()) for t in main.xpath(f".//text()[not({_NOT_SHARED})]"))
    links = sum(len(t.split()) for t in main.xpath(f".//a//text()[not({_NOT_SHARED})]"))
    return links / words if words else 1.0


def _sphinx_heading(main: HtmlElement) -> str:
    """The first ``<h1>`` of the main container without its ``¶`` permalink."""
    heads = main.xpath(".//h1")
    if not heads:
        return ""
    head = copy.deepcopy(heads[0])
    for mark in head.xpath('.//a[contains(concat(" ",@class," ")," headerlink ")]'):
        mark.drop_tree()
    return _text(head)


def _highlight_langs(pres: list[HtmlElement]) -> list[str]:
    """Each block's ``highlight-<lang>`` (its nearest div naming one), less the names of none."""
    langs = []
    for pre in pres:
        lang = ""
        for anc in pre.iterancestors("div"):
            found = [c.removeprefix("highlight-") for c in _classes(anc) if c.startswith("highlight-")]
            if found:
                lang = found[0].lower()
                break
        if lang not in NO_LANGUAGE:
            langs.append(lang)
    return langs


def _sphinx_words(main: HtmlElement) -> int:
    """:func:`_words`, a code block's words counted in its text as shown: Pygments puts each
    token in a span of its own (``r.save()`` is five text nodes, one word)."""
    pres = _outer_pres(main)
    return (
        _words(main) - sum(_words(pre) for pre in pres) + sum(len(pre.text_content().split()) for pre in pres)
    )


def cmake_page(root: Path, rel: str) -> Page:
    name = rel.lstrip("/")
    source = root / "_sources" / (name[: -len(".html")] + ".rst.txt")
    if not source.is_file():
        if name in {"genindex.html", "search.html"}:
            return Page(LISTING)
        return Page(NEITHER)
    _, content = rst_summary(source.read_text(encoding="utf-8", errors="replace"))
    main = next(iter(_parse(root / name).xpath('//div[@role="main"]')), None)
    if main is None:
        return Page(NEITHER)
    title = _sphinx_heading(main)
    if _words(main) < 30 and re.search(r"\bhas moved here\b", _text(main)):
        return Page(NEITHER, title)  # "The documentation for ... has moved here: <link>."
    if not content or _link_share(main) >= 1 / 3:
        return Page(LISTING, title)
    pres = _outer_pres(main)
    return Page(DOC, title, len(pres), _highlight_langs(pres), _sphinx_words(main))


# --- Sphinx (Django) -----------------------------------------------------------------------------


def django_page(root: Path, rel: str) -> Page:
    name = rel.lstrip("/")
    if name in {"genindex.html", "py-modindex.html", "search.html", "_modules/index.html"}:
        return Page(LISTING)
    if name.startswith("_modules/"):
        return Page(NEITHER)  # viewcode: a module's source, highlighted
    main = next(iter(_parse(root / name).xpath('//div[contains(concat(" ",@class," ")," yui-g ")]')), None)
    if main is None:
        return Page(NEITHER)
    title = _sphinx_heading(main)
    if _link_share(main) >= 1 / 3:
        return Page(LISTING, title)
    pres = _outer_pres(main)
    return Page(DOC, title, len(pres), _highlight_langs(pres), _sphinx_words(main))


# --- DocBook XSL (Debian Reference) --------------------------------------------------------------


def debian_reference_page(root: Path, rel: str) -> Page:
    """One chunk per chapter (its sections inline): the book is the table of contents."""
    return docbook_page(root, rel)


# --- Apache httpd's XSLT -------------------------------------------------------------------------

#: The ``<body id>`` the manual's XSLT gives its index documents (``indexpage``,
#: ``directiveindex``/``quickreference``, ``moduleindex``, ``overrideindex``).
APACHE_INDEX_BODIES = frozenset({"index-page", "directive-index", "module-index", "override-index"})
#: What ``#page-content`` holds besides the page: language bars, the sidebar (the page's own
#: contents and "see also"), "top" arrows and heading permalinks.
_APACHE_CHROME = (
    './/div[@class="toplang" or @class="bottomlang" or @id="quickview" or @class="top"]'
    ' | .//a[@class="permalink"]'
)


def apache_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    if body is None or body.get("id") in APACHE_INDEX_BODIES or rel.endswith("/sitemap.html"):
        return Page(LISTING)
    content = next(iter(tree.xpath('//div[@id="page-content"]')), None)
    if content is None:
        return Page(NEITHER)
    parts = [child.get("id") or child.get("class") for child in content if isinstance(child.tag, str)]
    content = copy.deepcopy(content)
    for chrome in content.xpath(_APACHE_CHROME):
        chrome.drop_tree()
    heads = content.xpath(".//h1")
    title = _text(heads[0]) if heads else ""
    if rel.endswith("/index.html") and rel.count("/") > 2:
        # A folder's index.html: the folder's contents (its pages, each with a line or two); one
        # linking to none of them (the FAQ's "moved to the wiki" note) is neither.
        folder = rel[: -len("index.html")]
        local = [
            a
            for a in content.iter("a")
            if (target := urljoin(rel, (a.get("href") or "").split("#")[0])).startswith(folder)
            and target.endswith(".html")
            and target != rel
        ]
        return Page(LISTING if local else NEITHER, title)
    if parts == ["preamble"] and _words(content) < 100:
        # A page of no section, no sidebar and a few lines: the note a removed or deprecated
        # page leaves ("This document has been removed", "... merged into ...").
        return Page(NEITHER, title)
    pres = _outer_pres(content)
    langs = []
    for pre in pres:
        found = [c.removeprefix("lang-") for c in _classes(pre) if c.startswith("lang-")]
        if found and found[0]:
            langs.append(found[0].lower())
    return Page(DOC, title, len(pres), langs, _words(content))


# --- Texinfo (makeinfo) --------------------------------------------------------------------------

#: makeinfo's navigation and tables of contents: each node's "Next/Prev/Up" panel, the
#: contents, a node's menu, the copiable "¶" anchors.
_TEXINFO_CHROME = (
    './/div[@class="header" or @class="contents" or @class="shortcontents"]'
    ' | .//ul[@class="section-toc"] | .//table[@class="menu"] | .//a[@class="copiable-anchor"]'
)


def texinfo_page(root: Path, rel: str) -> Page:
    """A manual made by makeinfo (``texi2any``) as one page (``--no-split``): the whole manual is a
    document."""
    tree = _parse(root / rel.lstrip("/"))
    generator = tree.xpath('//meta[translate(@name, "GENRATO", "genrato")="generator"]/@content')
    body = tree.find("body")
    if body is None or not any(g in {"makeinfo", "texi2any"} for g in generator):
        return Page(NEITHER)
    heads = body.xpath('.//h1[@class="settitle"]')
    title = _text(heads[0]) if heads else _text(tree.find(".//title"))
    body = copy.deepcopy(body)
    for chrome in body.xpath(_TEXINFO_CHROME):
        chrome.drop_tree()
    # makeinfo writes an @example's blank lines as <pre>s of their own, between its other ones.
    pres = [pre for pre in _outer_pres(body) if pre.text_content().strip()]
    return Page(DOC, title, len(pres), words=_words(body))


def r_manuals_page(root: Path, rel: str) -> Page:
    """R's manuals (makeinfo) with the front page R's build writes (``doc/html/index.html``)."""
    if rel == "/html/index.html":
        return Page(LISTING)
    return texinfo_page(root, rel)


def _words_without(el: HtmlElement | None, xpath: str) -> int:
    """``_words`` of ``el`` with the elements ``xpath`` selects (navigation, footers) left out."""
    if el is None:
        return 0
    el = copy.deepcopy(el)
    for drop in el.xpath(xpath):
        drop.drop_tree()
    return _words(el)


# --- erl_docgen (Erlang/OTP) ---------------------------------------------------------------------

#: Pages OTP's build writes by name as lists of the others: the top page, the applications and
#: manual-page indexes.
ERLANG_LISTINGS = frozenset(
    {"/doc/index.html", "/doc/applications.html", "/doc/man_index.html", "/lib/index.html"}
)
#: xmerl's two hand-written HTML tutorials, which its module pages link to by name ("tutorial").
ERLANG_TUTORIALS = ("/doc/html/xmerl_examples.html", "/doc/html/xmerl_xs_examples.html")
#: A stub's one paragraph, at most: "This module is moved to the ERTS application.", "To be
#: written.", "The reader is referred to the erl_interface users guide..." (19 words at most; the
#: shortest page of its own, kernel's ``user``, says 29 in one paragraph).
ERLANG_STUB_WORDS = 25


def erlang_page(root: Path, rel: str) -> Page:
    if rel in ERLANG_LISTINGS:
        return Page(LISTING)
    raw = (root / rel.lstrip("/")).read_bytes()
    tree = lxml_html.fromstring(raw)
    if rel.startswith("/lib/xmerl-") and rel.endswith(ERLANG_TUTORIALS):
        body = tree.find("body")
        return Page(DOC, _text(tree.find(".//title")), len(_outer_pres(body)), words=_words(body))
    if b"otp_doc.css" not in raw:
        return Page(NEITHER)  # not erl_docgen's: "moved" stubs, example outputs, a benchmark table
    content = tree.find('.//div[@id="content"]')
    if content is None:
        return Page(NEITHER)
    heads = content.xpath(".//h1")
    title = _text(heads[0]) if heads else ""
    if content.xpath('.//div[@class="frontpage"]'):
        return Page(LISTING, title)  # a part's cover: its chapters/modules are the left nav's list
    paras = [p for p in content.xpath('.//p[not(ancestor::div[@class="footer"])]') if _text(p)]
    blocks = content.xpath(".//pre | .//ul | .//ol | .//dl | .//table | .//article | .//img")
    if len(paras) <= 1 and not blocks and sum(len(_text(p).split()) for p in paras) < ERLANG_STUB_WORDS:
        # A stub: its title (a module's header) and one line, "moved to ERTS", "To be written".
        return Page(NEITHER, title)
    pres = _outer_pres(content)
    langs = []
    for pre in pres:
        # ``<div class="example example-<type>">``: the source's ``<code type="...">``.
        parent = pre.getparent()
        found = [c.removeprefix("example-") for c in _classes(parent) if c.startswith("example-")]
        if found and found[0].lower() not in NO_LANGUAGE:
            langs.append(found[0].lower())
    return Page(DOC, title, len(pres), langs, _words_without(content, './/div[@class="footer"]'))


# --- Publican (DocBook) --------------------------------------------------------------------------

_PUBLICAN_DIVISIONS = frozenset(
    {"book", "part", "chapter", "appendix", "preface", "section", "index", "glossary", "article"}
)


def publican_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    division = next(
        (
            child
            for child in tree.xpath("//body/div")
            if _classes(child) and _classes(child)[0] in _PUBLICAN_DIVISIONS
        ),
        None,
    )
    if division is None:
        return Page(NEITHER)
    kind = _classes(division)[0]
    heads = division.xpath(
        './div[@class="titlepage"]//*[self::h1 or self::h2 or self::h3]'
        '[contains(concat(" ",@class," ")," title ")]'
    )
    title = _text(heads[0]) if heads else ""
    if kind in {"book", "index"}:
        return Page(LISTING, title)
    own = "".join(_text(child) for child in division if not set(_classes(child)) & {"titlepage", "toc"})
    if not own.strip():
        return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(division)), words=_words(division))


# --- texi2any (zsh) ------------------------------------------------------------------------------

_TEXI_DIVISIONS = frozenset({"chapter", "unnumbered", "appendix", "section", "top"})


def zsh_page(root: Path, rel: str) -> Page:
    raw = (root / rel.lstrip("/")).read_bytes()
    tree = lxml_html.fromstring(raw)
    if tree.xpath('//meta[@http-equiv="Refresh"]'):
        return Page(NEITHER)  # a node's redirection to the chapter that holds it
    if tree.xpath('//div[@class="Contents_element"]'):
        return Page(LISTING)
    division = next(
        (c for c in tree.xpath("//body/div") if _classes(c) and _classes(c)[0] in _TEXI_DIVISIONS), None
    )
    if division is None:
        return Page(NEITHER)  # the About page (the navigation buttons explained)
    heads = division.xpath("./h1 | ./h2")
    title = _text(heads[0]) if heads else ""
    if _classes(division)[0] == "top" or division.xpath('.//table[starts-with(@class, "index-")]'):
        return Page(LISTING, title)  # the Top node (cover and menu), the @printindex nodes
    pres = [p for p in _outer_pres(division) if "menu-comment" not in _classes(p)]
    return Page(DOC, title, len(pres), words=_words_without(division, './/table[@class="header"]'))


# --- shared rules of the trees from Erlang/OTP on -------------------------------------------------

#: A lead under this many words above a page's entries (toctrees, link lists, item tables) makes
#: the page a listing.
LEAD_WORDS = 100
#: A page whose text besides its headings is under this many words and links out is a note
#: pointing elsewhere ("moved to a separate project"), not a document.
STUB_WORDS = 20
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def _heading_text(head: HtmlElement | None, drop: str) -> str:
    """A heading's text without the marks matched by ``drop`` (an XPath: permalinks, buttons)."""
    if head is None:
        return ""
    head = copy.deepcopy(head)
    for mark in head.xpath(drop):
        mark.drop_tree()
    return _text(head)


def _split_words(main: HtmlElement, entries: list[HtmlElement]) -> tuple[int, int]:
    """Words of ``main`` outside ``entries`` and headings, and words inside ``entries`` (scripts
    and styles left out)."""
    marked = set(entries)
    outside = inside = 0
    for text in main.xpath(".//text()"):
        owner = text.getparent()
        chain = list(owner.iterancestors()) if text.is_tail else [owner, *owner.iterancestors()]
        if any(el.tag in {"script", "style"} for el in chain):
            continue
        if any(el in marked for el in chain):
            inside += len(text.split())
        elif not any(el.tag in _HEADINGS for el in chain):
            outside += len(text.split())
    return outside, inside


def _lead_only(main: HtmlElement, entries: list[HtmlElement]) -> bool:
    """Whether ``main`` is its entries under a lead: words outside the entries and headings under
    ``LEAD_WORDS``, or no more than the entries' own."""
    if not entries:
        return False
    outside, inside = _split_words(main, entries)
    return outside < LEAD_WORDS or inside >= outside


_SPHINX_NAMED_LISTINGS = re.compile(r"/(?:genindex(?:-\w+)?|py-modindex|search)\.html$")

#: Elements whose text is a block of its own: the words on either side of one are two words.
_BLOCK_TAGS = frozenset(
    {
        *_HEADINGS,
        "p",
        "div",
        "section",
        "dl",
        "dt",
        "dd",
        "ul",
        "ol",
        "li",
        "pre",
        "blockquote",
        "table",
        "thead",
        "tbody",
        "tr",
        "td",
        "th",
        "caption",
        "figure",
        "figcaption",
        "br",
        "hr",
    }
)


def _shown_words(el: HtmlElement) -> int:
    """Words of ``el`` as a reader sees them (scripts, styles and tables of contents left out):
    text nodes side by side make one word unless a block lies between them. :func:`_words`
    counts each text node apart, and Sphinx writes a code token or a signature's every name and
    mark in a span of its own (``r.save()`` five nodes, ``app: Sphinx`` three), counting a code
    block's or an API page's words twice over."""
    el = copy.deepcopy(el)
    for gone in el.xpath(
        ".//script | .//style | .//*[contains(concat(' ', @class, ' '), ' toc ')"
        " or contains(@class, 'toctree-wrapper')]"
    ):
        gone.drop_tree()
    for node in el.iter():
        if isinstance(node.tag, str) and node.tag in _BLOCK_TAGS:
            node.text = " " + (node.text or "")
            node.tail = " " + (node.tail or "")
    return len(el.text_content().split())


@functools.cache
def _linked_pages(root: Path) -> frozenset[str]:
    """The pages of the tree under ``root`` some other page of it links to (fragment and query
    left out; a folder's link is its ``index.html``)."""
    linked: set[str] = set()
    for file in root.rglob("*.html"):
        rel = "/" + file.relative_to(root).as_posix()
        try:
            hrefs = _parse(file).xpath("//a/@href")
        except (OSError, ValueError):
            continue
        for href in hrefs:
            target = urljoin("http://tree" + rel, href.strip())
            if not target.startswith("http://tree/"):
                continue
            path = unquote(target[len("http://tree") :].split("#")[0].split("?")[0])
            path = path + "index.html" if path.endswith("/") else path
            if path != rel:
                linked.add(path)
    return frozenset(linked)


def _sphinx_html(root: Path, rel: str) -> Page:
    """A Sphinx page read from its HTML: the generator's named pages, the viewcode pages, the
    body's toctrees and ``:doc:`` entries against the rest of its text."""
    if _SPHINX_NAMED_LISTINGS.match(rel) or rel == "/_modules/index.html":
        return Page(LISTING)
    if rel.startswith("/_modules/") or rel == "/404.html":
        return Page(NEITHER)  # viewcode's source listings; sphinx-notfound-page's page
    if rel not in _linked_pages(root) and rel != "/index.html":
        # An orphan (``:orphan:``, in no toctree: the docs' own README on building them) that no
        # page links to either: out of any crawl's reach.
        return Page(NEITHER)
    tree = _parse(root / rel.lstrip("/"))
    main = next(
        iter(
            tree.xpath(
                '//div[@itemprop="articleBody"] | //div[@role="main"]'
                ' | //div[contains(concat(" ",@class," ")," body ")]'
            )
        ),
        None,
    )
    if main is None:
        return Page(NEITHER)
    title = _heading_text(main.find(".//h1"), './/a[@class="headerlink"]')
    if _split_words(main, [])[0] < STUB_WORDS and main.xpath('.//a[contains(@class, "external")]'):
        return Page(NEITHER, title)  # a "moved to" note
    entries = main.xpath(
        './/div[contains(concat(" ",@class," ")," toctree-wrapper ")]'
        ' | .//dl[dt and not(dt[not(.//a[contains(@class, "internal")]/span[@class="doc"])])]'
    )
    if _lead_only(main, entries):
        return Page(LISTING, title)
    pres = _outer_pres(main)
    return Page(DOC, title, len(pres), _highlight_langs(pres), _shown_words(main))


# --- MkDocs --------------------------------------------------------------------------------------

#: highlight.js classes that name no language.
_HLJS_NO_LANGUAGE = NO_LANGUAGE | {"nohighlight", "plaintext"}


def mkdocs_page(root: Path, rel: str) -> Page:
    if rel == "/404.html":
        return Page(NEITHER)
    tree = _parse(root / rel.lstrip("/"))
    if tree.xpath('//meta[@http-equiv="refresh"]'):
        return Page(NEITHER)  # a redirect stub (mkdocs-redirects)
    main = next(iter(tree.xpath('//div[@role="main"]')), None)
    if main is None:
        return Page(NEITHER)
    title = _heading_text(main.find(".//h1"), './/a[@class="headerlink"]')
    # A section's index: a lead over a bulleted list of links, one link an item.
    link_lists = [
        ul
        for ul in main.iter("ul")
        if len(ul) and all(li.tag == "li" and _text(li) == " ".join(map(_text, li.iter("a"))) for li in ul)
    ]
    if _lead_only(main, link_lists):
        return Page(LISTING, title)
    pres = _outer_pres(main)
    langs = [lang for lang in (_code_lang(p) for p in pres) if lang not in _HLJS_NO_LANGUAGE]
    return Page(DOC, title, len(pres), langs, _words(main))


# --- Sphinx, Read the Docs theme (Scrapy) --------------------------------------------------------


def scrapy_page(root: Path, rel: str) -> Page:
    """Scrapy's docs, shipped without ``_sources``: read from the HTML alone."""
    return _sphinx_html(root, rel)


# --- Sphinx (its own docs) -----------------------------------------------------------------------


def sphinxdoc_page(root: Path, rel: str) -> Page:
    """Sphinx's own docs: ``contents.html`` (a page its configuration writes by name, the whole
    toctree) and a page whose ``_sources`` text is only titles and directives are listings, the
    rest read from the HTML as ``_sphinx_html`` reads it (``scrapy_page``)."""
    if rel == "/contents.html":
        return Page(LISTING)
    source = root / "_sources" / (rel.lstrip("/")[: -len(".html")] + ".rst.txt")
    if source.is_file() and not rst_summary(source.read_text(encoding="utf-8", errors="replace"))[1]:
        page = _sphinx_html(root, rel)
        return Page(LISTING, page.title)
    return _sphinx_html(root, rel)


# --- rustdoc -------------------------------------------------------------------------------------

#: The crates of the Cargo package's rustdoc tree left unserved: rustdoc lists the crates by a
#: script (``crates.js``), so no page links one crate's root to another's.
_CARGO_OTHER_CRATES = frozenset(
    {"openssl_macros", "proc_macro2", "quote", "serde_derive", "unicode_ident", "vte_generate_state_changes"}
)


def _syn_only(rel: str) -> bool:
    parts = rel.strip("/").split("/")
    if parts[0] == "src":
        parts = parts[1:]
    return parts[0] not in _CARGO_OTHER_CRATES


def cargo_page(root: Path, rel: str) -> Page:
    if rel.startswith("/src/") or rel == "/settings.html":
        return Page(NEITHER)  # the source view; the settings page
    if rel.endswith("/all.html"):
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    if tree.xpath('//meta[@http-equiv="refresh"]'):
        return Page(NEITHER)  # a re-export's or an old macro path's redirect
    main = tree.find('.//section[@id="main-content"]')
    if main is None:
        return Page(NEITHER)
    title = _heading_text(main.find(".//h1"), ".//button | .//*[@class='out-of-band']")
    # A crate's or module's page: its own docs above the item tables rustdoc writes on every one.
    tables = main.xpath('.//div[contains(concat(" ",@class," ")," item-table ")]')
    if rel.endswith("/index.html") and _split_words(main, tables)[0] < LEAD_WORDS:
        return Page(LISTING, title)
    pres = _outer_pres(main)
    langs = []
    for pre in pres:
        lang = _code_lang(pre) or ("rust" if "rust" in _classes(pre) else "")
        if lang not in NO_LANGUAGE:
            langs.append(lang)
    return Page(DOC, title, len(pres), langs, _words(main))


# --- BoostBook (DocBook XSL) ---------------------------------------------------------------------

#: BoostBook's chunk divisions (``body > div.<kind>``, after its logo table and ``div.spirit-nav``).
_BOOSTBOOK_DIVISIONS = frozenset(
    {"book", "part", "chapter", "preface", "section", "sect1", "refentry", "appendix", "index", "glossary"}
)


def _division_title(division: HtmlElement, kind: str) -> str:
    """A DocBook XSL division's title (BoostBook, gtk-doc): a refentry's ``span.refentrytitle``,
    else the ``h1``-``h3`` title of its title page."""
    if kind == "refentry":
        return _text(next(iter(division.xpath('.//span[@class="refentrytitle"]')), None))
    heads = division.xpath(
        './div[@class="titlepage"]//*[self::h1 or self::h2 or self::h3]'
        '[contains(concat(" ",@class," ")," title ")]'
    )
    return _text(heads[0]) if heads else ""


def boost_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    division = next(
        (c for c in tree.xpath("//body/div") if _classes(c) and _classes(c)[0] in _BOOSTBOOK_DIVISIONS),
        None,
    )
    if division is None:
        return Page(NEITHER)
    kind = _classes(division)[0]
    title = _division_title(division, kind)
    if kind in {"book", "part", "index"}:
        return Page(LISTING, title)  # the book, "Part I. The Boost C++ Libraries", an index
    # Text of the division outside its title page and table of contents (loose text too).
    own = _pruned(division, './div[@class="titlepage" or @class="toc"]')
    if not _text(own):
        return Page(LISTING, title)  # a chapter or section of its table of contents only
    # A section mostly of itemized links (one link an item): BoostBook's DTD reference, the
    # AutoIndex indexes.
    link_lists = [
        ul
        for ul in own.iter("ul")
        if len(ul) and all(li.tag == "li" and _text(li) == " ".join(map(_text, li.iter("a"))) for li in ul)
    ]
    outside, inside = _split_words(own, link_lists)
    if link_lists and inside >= outside:
        return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(division)), words=_words(division))


# --- gtk-doc (DocBook XSL) -----------------------------------------------------------------------

#: gtk-doc's listing frame: the line numbers' column beside the code.
_GTKDOC_LINES = './/td[@class="listing_lines"]'


def glib_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    division = next((c for c in tree.xpath("//body/div") if _classes(c) and _classes(c)[0] != "footer"), None)
    if division is None:
        return Page(NEITHER)
    kind = _classes(division)[0]
    title = _division_title(division, kind)
    if kind in {"book", "index"}:
        return Page(LISTING, title)  # the book (index.html), the API index (api-index-full.html)
    if not _text(_pruned(division, './div[@class="titlepage" or @class="toc"]')):
        return Page(LISTING, title)  # a chapter of its table of contents only
    content = _pruned(division, _GTKDOC_LINES)
    return Page(DOC, title, len(_outer_pres(content)), words=_words(content))


# --- Sphinx, the Pallets theme (Flask) -----------------------------------------------------------


def flask_page(root: Path, rel: str) -> Page:
    """Flask's docs (``_sources`` shipped): a page whose source is only titles and directives is a
    listing, the rest read from the HTML as ``_sphinx_html`` reads it (``div.body``)."""
    source = root / "_sources" / (rel.lstrip("/")[: -len(".html")] + ".rst.txt")
    page = _sphinx_html(root, rel)
    main = next(iter(_parse(root / rel.lstrip("/")).xpath('//div[@role="main"]')), None)
    if (
        page.kind == DOC
        and main is not None
        and _split_words(main, [])[0] < STUB_WORDS
        and main.xpath('.//a[contains(concat(" ",@class," ")," internal ")]')
    ):
        return Page(NEITHER, page.title)  # an obsolete page's note: "see <page> instead"
    if source.is_file() and not rst_summary(source.read_text(encoding="utf-8", errors="replace"))[1]:
        return Page(LISTING, page.title)
    return page


# --- Postfix (hand-written HTML, man pages) ------------------------------------------------------

#: Postfix's two hand-written lists of the others: the documentation's front page (the READMEs by
#: topic) and the manual pages' list (``postfix-manuals.html``).
POSTFIX_LISTINGS = frozenset({"/index.html", "/postfix-manuals.html"})
#: Pages no page of the tree links to (the lists leave them out), not served.
_POSTFIX_UNLINKED = frozenset(
    {"/TLS_LEGACY_README.html", "/makedefs.1.html", "/oqmgr.8.html", "/posttls-finger.1.html"}
)


def postfix_page(root: Path, rel: str) -> Page:
    """A README (hand-written HTML: an ``<h1>`` with the logo, then the text in the body) or a
    manual page (Postfix's man-to-HTML script: the body is one ``<pre>``, the text as ``man``
    lays it out, no code block of its own)."""
    if rel in POSTFIX_LISTINGS:
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    if body is None:
        return Page(NEITHER)
    heads = body.xpath(".//h1")
    if heads:
        return Page(DOC, _text(heads[0]), len(_outer_pres(body)), words=_words(body))
    text = body.find(".//pre")
    if text is None:
        return Page(NEITHER)
    title = _text(tree.find(".//title"))
    named = re.search(r"([\w.+-]+)\((\w+)\)$", title)
    if named and f"/{named.group(1)}.{named.group(2)}.html" != rel:
        return Page(NEITHER, title)  # a copy under a second name (defer(8) is bounce(8)'s page)
    return Page(DOC, title, 0, words=_words(text))


# --- haproxy-dconv -------------------------------------------------------------------------------

#: What the content column holds besides the text: the header (product, document, version, logo),
#: the Summary (the text's own table of contents), the footer line, the keywords' "available in
#: sections" menus.
_HAPROXY_CHROME = (
    './div[@class="text-center" or @class="row" or @class="text-right"]'
    ' | .//ul[contains(concat(" ",@class," ")," dropdown-menu ")]'
)


def haproxy_page(root: Path, rel: str) -> Page:
    """One of haproxy's text documents converted whole by haproxy-dconv: a document. Its text is
    laid out in ``<pre class="text">`` blocks (prose, as the text file has it), its examples in
    ``<pre class="prettyprint">`` (``prettyprint arguments``: an "Arguments :" list, prose)."""
    tree = _parse(root / rel.lstrip("/"))
    column = next(
        iter(tree.xpath('//div[@id="page-wrapper"]/div[@class="row"]/div[@class="col-lg-12"]')), None
    )
    if column is None:
        return Page(NEITHER)
    content = _pruned(column, _HAPROXY_CHROME)
    examples = [
        pre
        for pre in _outer_pres(content)
        if "prettyprint" in _classes(pre) and "arguments" not in _classes(pre)
    ]
    return Page(DOC, _text(tree.find(".//title")), len(examples), words=_words(content))


# --- DocBook XSL (GIMP) --------------------------------------------------------------------------


def gimp_page(root: Path, rel: str) -> Page:
    """The GIMP manual, chunked by section (a chapter's page holds its first section): as
    ``docbook_page``; the book, the parts and the key reference (a ``reference``: its refentries'
    toc) and the index are listings."""
    return docbook_page(root, rel)


# --- Sphinx (SQLAlchemy's theme) -----------------------------------------------------------------


def sqlalchemy_page(root: Path, rel: str) -> Page:
    """SQLAlchemy's docs (zzzeeksphinx, no ``_sources``): read as ``_sphinx_html`` reads them
    (``div[role=main]``; ``_modules/`` are viewcode's and the examples' source listings), and
    a page of "moved" notes (under ``LEAD_WORDS`` words besides its headings, every paragraph a
    pointer to another page) is neither, a page a third of whose words are links (the
    hand-written front page) a listing."""
    page = _sphinx_html(root, rel)
    if page.kind != DOC:
        return page
    main = next(iter(_parse(root / rel.lstrip("/")).xpath('//div[@role="main"]')), None)
    if main is None:
        return Page(NEITHER)
    paragraphs = main.xpath(".//p")
    if (
        _split_words(main, [])[0] < LEAD_WORDS
        and paragraphs
        and all(p.xpath('.//a[contains(@class, "internal")]') for p in paragraphs)
    ):
        return Page(NEITHER, page.title)
    # Lists of links to other pages, one link an item ("For these components see:"), under a
    # lead (the page's own ``.. contents::`` box, links to its sections, is not one).
    link_lists = [
        ul
        for ul in main.iter("ul")
        if len(ul)
        and all(
            li.tag == "li"
            and _text(li) == " ".join(map(_text, li.iter("a")))
            and not any((a.get("href") or "#").startswith("#") for a in li.iter("a"))
            for li in ul
        )
    ]
    if _lead_only(main, link_lists) or _link_share(main) >= 1 / 3:
        return Page(LISTING, page.title)
    return page


# --- javadoc -------------------------------------------------------------------------------------

#: The ``<body class>`` javadoc 17 gives its pages of lists: the overview (``index.html``), the
#: all-classes/all-packages indexes, the A-Z index, the class trees, the "Uses of" pages, the
#: deprecated list, the constants' and serialized forms' tables (each class's entries).
JAVADOC_LISTINGS = frozenset(
    {
        "package-index-page",
        "all-classes-index-page",
        "all-packages-index-page",
        "index-page",
        "tree-page",
        "package-tree-page",
        "class-use-page",
        "package-use-page",
        "deprecated-list-page",
        "constants-summary-page",
        "serialized-form-page",
    }
)


def javadoc_page(root: Path, rel: str) -> Page:
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    kind = _classes(body)[0] if body is not None and _classes(body) else ""
    if kind in JAVADOC_LISTINGS:
        return Page(LISTING)
    main = tree.find(".//main")
    if main is None or kind not in {"class-declaration-page", "package-declaration-page", "help-page"}:
        return Page(NEITHER)  # the source view (``src-html/``), overview-summary's redirect
    title = _text(next(iter(main.xpath('.//h1[contains(concat(" ",@class," ")," title ")]')), None))
    if kind == "package-declaration-page":
        # A package's page: its own description above the class tables javadoc writes on every one.
        description = next(iter(main.xpath('.//section[@id="package-description"]')), None)
        if _words(description) < LEAD_WORDS:
            return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(main)), words=_words(main))


# --- Docutils (rst2html) -------------------------------------------------------------------------

#: Docutils' own docs tree, where the pages no page links to are Docutils' test-suite outputs
#: (``math``, ``mwe-test``, ``manpage-URUE``), the menu bars its sources include
#: (``docs/header*.html``: "not a standalone document") and three unlinked pages: not served.
DOCUTILS_ROOT = Path("/usr/share/doc/docutils-doc")
#: A page this share of whose words (headings too) are links to other pages of the tree is a list
#: of them (the documentation overview, ``docs/index``); the documents stay under 7%.
DOCUTILS_LINK_SHARE = 1 / 5


def _docutils_served(rel: str) -> bool:
    return not rel.endswith(".html") or rel in _linked_pages(DOCUTILS_ROOT)


def docutils_page(root: Path, rel: str) -> Page:
    """A page Docutils' HTML writer (``rst2html``, the PEP writer for ``docs/peps``) wrote from
    the ``.txt`` source beside it: ``div.document`` holds the text (the header and footer bars
    outside it); the document title is its ``h1.title``, the PEP writer's the ``<title>`` (PEP
    number and Title field). Docutils writes no index pages: a page of links to the other pages
    (``DOCUTILS_LINK_SHARE`` of its words) is a listing. The one page without Docutils'
    ``generator`` (``quickref.html``, hand-written) is read whole: its ``<h1>``, its body."""
    tree = _parse(root / rel.lstrip("/"))
    generator = tree.xpath('//meta[translate(@name, "GENRATO", "genrato")="generator"]/@content')
    if not any(g.startswith("Docutils") for g in generator):
        body = tree.find("body")
        if body is None:
            return Page(NEITHER)
        return Page(DOC, _text(body.find(".//h1")), len(_outer_pres(body)), words=_words(body))
    main = next(iter(tree.xpath('//div[contains(concat(" ",@class," ")," document ")]')), None)
    if main is None:
        return Page(NEITHER)
    heads = main.xpath('./h1[contains(concat(" ",@class," ")," title ")]')
    title = _text(heads[0]) if heads else _text(tree.find(".//title"))
    words = sum(len(t.split()) for t in main.xpath(".//text()"))
    local = sum(
        len(t.split())
        for t in main.xpath(
            './/a[@href and not(starts-with(@href, "#")) and not(contains(@href, ":"))]//text()'
        )
    )
    if words and local / words >= DOCUTILS_LINK_SHARE:
        return Page(LISTING, title)
    # The docinfo's Address field is a <pre> (its line breaks kept), no code block.
    pres = [pre for pre in _outer_pres(main) if "address" not in _classes(pre)]
    langs = []
    for pre in pres:
        # The ``code`` directive: ``<pre class="code <language> literal-block">``.
        tokens = _classes(pre)
        if "code" in tokens and len(tokens) > tokens.index("code") + 1:
            lang = tokens[tokens.index("code") + 1].lower()
            if lang not in NO_LANGUAGE and lang != "literal-block":
                langs.append(lang)
    return Page(DOC, title, len(pres), langs, _words(main))


# --- LaTeX2HTML (gnuplot) ------------------------------------------------------------------------

#: LaTeX2HTML's navigation: the panels above and below each node and the node's "Table of
#: Child-Links" (its subsections' titles, under a "Subsections" anchor).
_L2H_CHROME = './/div[@class="navigation"] | .//ul[@class="ChildLinks"] | .//a[@id="CHILD_LINKS"]'
#: The title LaTeX2HTML gives the node it writes last, its own credits and command line.
L2H_ABOUT = "About this document ..."


@functools.cache
def _l2h_index(root: Path) -> str:
    """The node the navigation panels' ``index`` button points to: LaTeX2HTML's index."""
    hrefs = _parse(root / "index.html").xpath('//div[@class="navigation"]//a[img[@alt="index"]]/@href')
    return "/" + hrefs[0] if hrefs else ""


def gnuplot_page(root: Path, rel: str) -> Page:
    """gnuplot's manual (``figures.tex`` through LaTeX2HTML, one node per help topic): the body
    without the navigation panels and the Child-Links table. A node with text besides its
    heading is a document, unless that text is under ``STUB_WORDS`` words and the node has child
    links (a lead over its subsections: a listing, as are the top page ``index.html``, its copy
    under the job's name ``figures.html``, and the index) or links to another node (a pointer,
    "See image", "Deprecated. See set xyplane": neither, as are an empty node and the "About this
    document" node). Title: the node's heading (its ``<title>`` too)."""
    if rel == _l2h_index(root):
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    if body is None:
        return Page(NEITHER)
    children = bool(body.xpath('.//ul[@class="ChildLinks"]'))
    content = _pruned(body, _L2H_CHROME)
    heads = content.xpath(".//*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5]")
    title = _text(heads[0]) if heads else ""
    if title == L2H_ABOUT:
        return Page(NEITHER, title)
    own = _pruned(content, "(.//*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5])[1]")
    words = len(_text(own).split())
    if words < STUB_WORDS:
        if children:
            return Page(LISTING, title)
        if not words or own.xpath('.//a[@href and not(starts-with(@href, "#"))]'):
            return Page(NEITHER, title)
    return Page(DOC, title, len(_outer_pres(content)), words=_words(content))


# --- DocBook XSL (Debian New Maintainers' Guide) -------------------------------------------------


def maint_guide_page(root: Path, rel: str) -> Page:
    """The Debian New Maintainers' Guide, chunked by chapter (its sections inline): as
    ``docbook_page``; the book (``index.en.html``, its title page and toc) is the one listing."""
    return docbook_page(root, rel)


# --- QDoc (Qt 5.15) ------------------------------------------------------------------------------

#: The node types of QDoc's index (``qtcore.index``, shipped beside the pages) whose page is an
#: API reference page: a class's, a namespace's, a header's (``\headerfile``: global functions).
_QDOC_REFERENCE = frozenset({"class", "struct", "union", "namespace", "header"})


@functools.cache
def _qdoc_nodes(index: Path) -> dict[str, str]:
    """QDoc's index file read: each page it wrote (``href`` without a fragment) and the node type
    that page documents (``class``, ``page``, ``group``, ``module``...)."""
    nodes: dict[str, str] = {}
    for el in lxml_etree.parse(str(index)).iter():
        href = el.get("href") if isinstance(el.tag, str) else None
        if href and "#" not in href:
            nodes.setdefault(href, el.tag)
    return nodes


def qdoc_page(root: Path, rel: str) -> Page:
    """A page of a Qt 5.15 module's docs (``/<module>/``, its ``<module>.index`` beside it). The
    index names the node each page documents: a class, struct, namespace or header page, an
    overview ``\\page`` (examples and third-party attributions too) is a document; a ``\\group``
    or the ``\\module`` page (a lead over QDoc's ``table.annotated`` list of classes, one row a
    class and its brief) is a listing when that lead is under ``LEAD_WORDS`` or no longer than
    the list, else a document (``json.html``). QDoc writes two more pages per class by name:
    ``<class>-members.html`` (the list of all members, inherited ones too), a listing, and
    ``<class>-obsolete.html`` (the obsolete members' documentation), a document."""
    folder, _, name = rel.strip("/").rpartition("/")
    tree = _parse(root / rel.lstrip("/"))
    main = next(iter(tree.xpath('//div[contains(concat(" ",@class," ")," mainContent ")]')), None)
    if main is None:
        return Page(NEITHER)
    main = _pruned(main, './div[@class="sidebar"]')  # the page's contents box
    title = _text(next(iter(main.xpath('.//h1[@class="title"]')), None))
    if name.endswith("-members.html"):
        return Page(LISTING, title)
    node = _qdoc_nodes(root / folder / f"{folder}.index").get(name)
    if node is None and not name.endswith("-obsolete.html"):
        return Page(NEITHER, title)
    if node in {"group", "module"}:
        classes = main.xpath('.//table[contains(concat(" ",@class," ")," annotated ")]')
        if _lead_only(main, classes):
            return Page(LISTING, title)
    elif node is not None and node not in _QDOC_REFERENCE and node != "page":
        return Page(NEITHER, title)
    pres = _outer_pres(main)
    # ``\code`` is ``pre.cpp``; ``\badcode`` (text not highlighted: licences, output) is
    # ``pre.cpp.plain``.
    langs = ["cpp" for pre in pres if _classes(pre) == ["cpp"]]
    return Page(DOC, title, len(pres), langs, _words(main))


# --- MediaWiki (cppreference.com's offline dump) -------------------------------------------------

_MW_PAGE_NAME = re.compile(rb'"wgPageName":"([^"]*)"')
#: cppreference's navigation bar inside the content (the section's breadcrumb and its menus).
_CPPREF_NAVBAR = './/div[contains(concat(" ",@class," ")," t-navbar ")]'


def _section_of(el: HtmlElement) -> str:
    """The heading ``el`` sits under among its siblings (the ``h3`` of its section), or ""."""
    for prev in el.itersiblings(preceding=True):
        if prev.tag in _HEADINGS:
            return _text(prev)
    return ""


def _cppreference_entries(content: HtmlElement) -> tuple[HtmlElement, list[HtmlElement]]:
    """A cppreference page's text without its closing "References" (``t-ref-std-*``: the
    standard's clauses) and "See also" tables, and its entries in that text: the ``{{dsc}}``
    rows that link to another page (its name, a line on it), bulleted items led by a link or in
    a "Usage" section (a keyword's page: the pages on its uses), sections whose heading is a link
    (a blurb on that page), and paragraphs or table cells of links alone (a link a line,
    revision marks aside: the keyword list)."""
    body = copy.deepcopy(content)
    for gone in body.xpath('.//div[starts-with(@class, "t-ref-std-")] | .//table[@class="t-dsc-begin"]'):
        if gone.tag == "div" or _section_of(gone) == "See also":
            gone.drop_tree()
    entries = body.xpath(
        './/table[contains(concat(" ",@class," ")," t-dsc-begin ")]/tr[@class="t-dsc"]'
        '[.//a[not(starts-with(@href, "#"))]]'
    )
    entries += [
        li
        for li in body.iter("li")
        if (len(li) and li[0].tag == "a" and not (li.text or "").strip())
        or _section_of(li.getparent()) == "Usage"
    ]
    for el in body.iter(*_HEADINGS, "p", "td"):
        bare = _pruned(el, './/a | .//span[contains(@class, "t-mark-rev")]')
        if el.xpath(".//a") and not re.search(r"\w", _text(bare)):
            entries.append(el)
            if el.tag in _HEADINGS:  # a section named by a link: its text a blurb on that page
                entries += list(itertools.takewhile(lambda sib: sib.tag not in _HEADINGS, el.itersiblings()))
    return body, entries


@functools.cache
def _cppreference_shown(root: Path) -> dict[str, str]:
    """The C reference's files by the wiki page each shows (``wgPageName``): a file a redirect's
    name reaches holds the page it redirects to (``language/alignas.html`` shows
    ``c/language/_Alignas``), and the dump's links go by the name the editors wrote, so a page's
    own file may be linked from no page. For each wiki page: its own file when some page links to
    it, else the first (by name) of its copies some page links to."""
    files = [root / "en/c.html", *sorted((root / "en/c").rglob("*.html"))]
    linked: set[str] = set()
    shows: dict[str, list[str]] = {}
    for file in files:
        rel = "/" + file.relative_to(root).as_posix()
        raw = file.read_bytes()
        found = _MW_PAGE_NAME.search(raw)
        if found:
            shows.setdefault(found.group(1).decode(), []).append(rel)
        for href in lxml_html.fromstring(raw).xpath("//a/@href"):
            target = urljoin("http://tree" + rel, href.strip())
            if target.startswith("http://tree/"):
                linked.add(unquote(target[len("http://tree") :].split("#")[0].split("?")[0]))
    chosen: dict[str, str] = {}
    for page, rels in shows.items():
        own = [r for r in rels if re.sub(r"\.\d+$", "", r.removeprefix("/en/").removesuffix(".html")) == page]
        reached = [r for r in own + sorted(set(rels) - set(own)) if r in linked or r == "/en/c.html"]
        if reached:
            chosen[reached[0]] = page
    return chosen


def cppreference_page(root: Path, rel: str) -> Page:
    """A page of cppreference's wiki (MediaWiki 1.21, its ``{{dcl}}``/``{{dsc}}`` templates) as the
    offline dump writes it: ``wgPageName`` in its script is the wiki page it shows; one file
    stands for each wiki page (``_cppreference_shown``: its own, else a linked copy under a
    redirect's name), the others (copies, a page's own file no page links to) are neither. The
    portal pages (``div.mainpagediv`` boxes of links: the C reference's front page, ``C
    language``) are listings. A page with a declaration box (``t-dcl-begin``: a function, type or
    macro) is a document; another page is a listing when its entries (``_cppreference_entries``)
    lie under a lead (``_lead_only``), else a document (a language page, a library section's
    overview)."""
    if rel not in _cppreference_shown(root):
        return Page(NEITHER)
    raw = (root / rel.lstrip("/")).read_bytes()
    tree = lxml_html.fromstring(raw)
    main = next(iter(tree.xpath('//div[@id="mw-content-text"]')), None)
    if main is None:
        return Page(NEITHER)
    title = _text(next(iter(tree.xpath('//h1[@id="firstHeading"]')), None))
    content = _pruned(main, _CPPREF_NAVBAR)
    if content.xpath('.//div[contains(concat(" ",@class," ")," mainpagediv ")]'):
        return Page(LISTING, title)
    if not content.xpath('.//table[contains(concat(" ",@class," ")," t-dcl-begin ")]') and _lead_only(
        *_cppreference_entries(content)
    ):
        return Page(LISTING, title)
    pres = _outer_pres(content)
    langs = []
    for pre in pres:
        geshi = next(
            (c for a in pre.iterancestors("div") for c in _classes(a) if c.startswith("source-")), ""
        )
        if geshi.removeprefix("source-") not in NO_LANGUAGE:
            langs.append(geshi.removeprefix("source-"))
    return Page(DOC, title, len(pres), langs, _words(content))


# --- Haddock -------------------------------------------------------------------------------------

#: Haddock's pages by name: the package's module list (``index.html``) and the identifier index
#: (``doc-index.html``, by initial ``doc-index-A.html``..., ``doc-index-All.html``).
_HADDOCK_LISTING = re.compile(r"/(?:index|doc-index(?:-\w+)?)\.html")


def haddock_page(root: Path, rel: str) -> Page:
    """A Haddock package's page: ``src/`` (hyperlinked source, one page a module) neither; the
    module list and the identifier indexes listings; a module page (``#content``: the module
    header, ``#description``, ``#synopsis``, ``#interface``) a document, unless its interface
    holds only re-exports (``module X`` entries, links to other module pages) under a description
    shorter than ``LEAD_WORDS`` (a listing), or holds nothing and it has no description (neither:
    an empty module, ``GHC.Constants``). Title: ``<title>`` (the module's name, which the header's
    ``p.caption`` repeats). Words and code: ``#content`` but the synopsis (each export's
    signature again), the contents box and each entry's "Source" and "#" links."""
    if rel.startswith("/src/"):
        return Page(NEITHER)
    if _HADDOCK_LISTING.fullmatch(rel):
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    content = next(iter(tree.xpath('//div[@id="content"]')), None)
    if content is None:
        return Page(NEITHER)
    title = _text(tree.find(".//title"))
    content = _pruned(
        content,
        './/div[@id="synopsis" or @id="table-of-contents"] | .//a[@class="link" or @class="selflink"]',
    )
    entries = content.xpath('./div[@id="interface"]//div[contains(concat(" ",@class," ")," top ")]')
    description = _words(next(iter(content.xpath('./div[@id="description"]')), None))
    if not entries and not description:
        return Page(NEITHER, title)
    if entries and all(_text(e).startswith("module ") for e in entries) and description < LEAD_WORDS:
        return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(content)), words=_words(content))


# --- YARD ----------------------------------------------------------------------------------------

#: The lists YARD writes by name: the alphabetic index of every class and module (``_index.html``)
#: and the search frame's lists of classes, methods, files and tags.
YARD_LISTINGS = frozenset(
    {"/_index.html", "/class_list.html", "/method_list.html", "/file_list.html", "/tag_list.html"}
)
#: The summary lists (each member's signature and first sentence, again in its details) and the
#: source views' line numbers: no words, no code.
_YARD_REPEATS = './/ul[@class="summary"] | .//pre[@class="lines"]'
_YARD_NO_LANGUAGE = NO_LANGUAGE | {"plain"}


def yard_page(root: Path, rel: str) -> Page:
    """A YARD page: the lists it writes by name are listings; ``frames.html`` (a script sending
    the browser to ``index.html``) neither; a file page (``#filecontents``: the README as
    ``index.html``, the guides as ``file.*.html``) a document; a class or module page (``#content``:
    its docstring, "Defined Under Namespace", constants, attributes, methods with their source) a
    document when it documents a member (a constant, attribute or method), else a listing when it
    has children ("Defined Under Namespace") under a docstring of under ``LEAD_WORDS``, else neither
    when it has no docstring either (``TkError``: a name and its superclass), else a document.
    Title: ``<title>`` without " — YARD 0.9.28 Documentation" (a class page's ``<h1>``, "Class:
    Array", a file page's "File: Getting Started Guide"). Languages: ``pre.code <lang>``."""
    if rel in YARD_LISTINGS:
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    found = tree.xpath('//div[@id="content"]')
    if not found:
        return Page(NEITHER)
    title = _text(tree.find(".//title")).rsplit(" — ", 1)[0]
    content = _pruned(found[0], _YARD_REPEATS)
    page = Page(DOC, title, len(_outer_pres(content)), words=_shown_words(content))
    page.langs = [
        lang
        for pre in _outer_pres(content)
        for lang in [next((c for c in _classes(pre) if c not in {"code", "example"}), "")]
        if lang not in _YARD_NO_LANGUAGE
    ]
    if content.xpath('./div[@id="filecontents"]'):
        return page
    members = found[0].xpath(
        './/dl[@class="constants"]/dt | .//ul[@class="summary"]/li | .//div[@class="method_details"]'
    )
    if members:
        return page
    docstring = sum(_words(d) for d in content.xpath('./div[@class="docstring"]'))
    if content.xpath('./p[@class="children"]') and docstring < LEAD_WORDS:
        return Page(LISTING, title)
    if not docstring:
        return Page(NEITHER, title)
    return page


# --- RDoc (darkfish) -----------------------------------------------------------------------------


def rdoc_page(root: Path, rel: str) -> Page:
    """An RDoc darkfish page, by its ``<body class>``: ``table-of-contents`` (every page, class
    and method) a listing; a ``file`` page a document, unless its ``<main>`` is under
    ``STUB_WORDS`` (``index.html`` with no main file: "This is the API documentation for ...",
    over the sidebar's class index), a listing; a ``class`` or ``module`` page a document when its
    ``<main>`` holds a description, a method or attribute (``div.method-detail``, its source shown
    on a click included) or a constant with a value or text, else neither (only its name: the core
    classes it reopens, ``Array``; the modules holding only other modules, listed in the sidebar).
    Title: the ``<h1>`` ("class Asciidoctor::Block"). Languages: ``pre.ruby``."""
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    kind = _classes(body)[0] if body is not None and _classes(body) else ""
    if kind == "table-of-contents":
        return Page(LISTING)
    main = tree.find(".//main")
    if main is None:
        return Page(NEITHER)
    title = _text(main.find(".//h1"))
    pres = _outer_pres(main)
    langs = [lang for pre in pres for lang in _classes(pre)[:1]]
    page = Page(DOC, title, len(pres), langs, _shown_words(main))
    if kind == "file":
        return page if page.words >= STUB_WORDS else Page(LISTING, title)
    described = main.xpath('./section[@class="description"][normalize-space()]')
    members = main.xpath(
        './/div[contains(concat(" ",@class," ")," method-detail ")]'
        ' | .//section[@class="constants-list"]//dd[normalize-space()]'
    )
    if kind not in {"class", "module"} or not (described or members):
        return Page(NEITHER, title)
    return page


# --- GAPDoc2HTML ---------------------------------------------------------------------------------

#: A GAPDoc chapter's navigation (the chapter links and previous/next bars, top and bottom), the
#: "[MathJax on]" link, the chapter's own contents box (``div.ChapSects``) and the footer.
_GAPDOC_CHROME = (
    './div[@class="chlinktop" or @class="chlinkprevnexttop" or @class="chlinkprevnextbot"'
    ' or @class="chlinkbot" or @class="ChapSects"] | ./p[@id="mathjaxlink" or @class="foot"]'
    " | .//script | .//style"
)


def gapdoc_page(root: Path, rel: str) -> Page:
    """A GAPDoc2HTML page (one per chapter, ``chapN.html``; the plain flavour, its ``_mj.html``
    MathJax twin not served): the two pages GAPDoc writes by name around the chapters,
    ``chap0.html`` (the book's front page: ``<TitlePage>`` and ``<TableOfContents>``, as DocBook's
    book page) and the index (``chapInd.html``), are listings; the style chooser
    (``chooser.html``) neither; every other chapter (the appendices and the references,
    ``chapBib.html``, too) a document, unless its text besides its headings is under
    ``STUB_WORDS`` (neither: the example book's appendix, "This is an appendix."). Content: the
    body without the navigation bars, the chapter's contents box and the footer. Title: the
    chapter's ``<h3>`` with its number ("2 How To Type a GAPDoc Document", "A The File 3k+1.xml",
    "References"). No languages."""
    name = rel.rsplit("/", 1)[-1]
    if name in {"chap0.html", "chapInd.html"}:
        return Page(LISTING)
    tree = _parse(root / rel.lstrip("/"))
    body = tree.find("body")
    if body is None or name == "chooser.html" or not name.startswith("chap"):
        return Page(NEITHER)
    content = _pruned(body, _GAPDOC_CHROME)
    title = _text(content.find(".//h3"))
    if _split_words(content, [])[0] < STUB_WORDS:
        return Page(NEITHER, title)  # a chapter of one line (the example book's "This is an appendix.")
    return Page(DOC, title, len(_outer_pres(content)), words=_shown_words(content))


# --- gi-docgen -----------------------------------------------------------------------------------

#: The page gi-docgen writes by name as a list besides the namespace's: the class hierarchy (a
#: nested list of links to the class pages).
GIDOCGEN_LISTINGS = frozenset({"/classes_hierarchy.html"})
#: A paragraph or list item of a content page that is one link to another page and nothing else
#: (the Visual Index's screenshots, each linking to its widget's class page).
_GIDOCGEN_ENTRIES = (
    './p[count(*) = 1 and a[not(starts-with(@href, "#"))] and not(normalize-space(text()))]'
    ' | ./ul/li[count(*) = 1 and a[not(starts-with(@href, "#"))] and not(normalize-space(text()))]'
)


def gidocgen_page(root: Path, rel: str) -> Page:
    """A gi-docgen page: ``section#main`` holds the content. An API page (its ``<header>``: an
    ``h3`` naming the kind, "Class", "Method", "Property"..., over the ``h1``) is a document but
    the namespace's page (``index.html``, kind "Namespace": tables of the classes, functions...,
    a link and its summary a row), a listing, as is the class hierarchy gi-docgen writes by name.
    A content page (a Markdown file of the project's, ``div.docblock`` under an ``h1``) is a
    document unless it is links alone under a lead (paragraphs or items each one link to another
    page: the Visual Index). Title: an API page's ``<title>`` (``Adw.ActionRow:subtitle``; the
    ``h1`` shows the same names with CSS separators), a content page's ``h1`` (``<title>`` adds
    the namespace). Code: the ``<pre>``s (the C declaration, Markdown's ``div.codehilite``); no
    language is declared."""
    tree = _parse(root / rel.lstrip("/"))
    main = next(iter(tree.xpath('//section[@id="main"]')), None)
    if main is None:
        return Page(NEITHER)
    header = main.find("header")
    if header is not None:
        title = _text(tree.find(".//title"))
        if _text(header.find("h3")) == "Namespace":
            return Page(LISTING, title)
    else:
        docblock = next(iter(main.xpath("./section/div[@class='docblock']")), None)
        if docblock is None:
            return Page(NEITHER)
        title = _heading_text(docblock.find("h1"), './/a[@class="md-anchor"]')
        if rel in GIDOCGEN_LISTINGS or _lead_only(docblock, docblock.xpath(_GIDOCGEN_ENTRIES)):
            return Page(LISTING, title)
    return Page(DOC, title, len(_outer_pres(main)), words=_shown_words(main))


# --- Scribble (Racket) ---------------------------------------------------------------------------

#: The Racket documentation's shared files one level above each manual (style sheets, scripts);
#: the other manuals' folders and the documentation's top page are not served.
RACKET_ROOT = Path("/usr/share/doc/racket")
#: Scribble's code displays: ``racketblock``, ``codeblock``, the ``examples``' interactions.
_SCRIBBLE_CODE = './/blockquote[contains(concat(" ",@class," ")," SCodeFlow ")]'


def _racket_guide_served(rel: str) -> bool:
    if rel.startswith("/guide/"):
        return True
    return rel.endswith((".css", ".js")) and (rel.count("/") == 1 or rel.startswith("/local-redirect/"))


def scribble_page(root: Path, rel: str) -> Page:
    """A Scribble page (one section a page): ``div.main`` holds the section: the navigation bars
    (``div.navsettop``/``navsetbottom``), the heading (``h2`` the book, ``h3``... a section, with
    its number), the section's own text and, for a section whose subsections have pages of their
    own, a table of their ``a.toclink`` (``toptoclink``) links. A document, unless its text
    besides that table is a lead (under ``LEAD_WORDS`` or no more than the table's): a listing,
    as are the book's ``index.html`` (its title, preface and the whole contents) and its index
    (``doc-index.html``). Title:
    ``<title>`` (the heading, with its section number: ``2.3 Lists, Iteration, and
    Recursion``). Code: Scribble's ``blockquote.SCodeFlow`` displays (and ``<pre>``s: none in
    the Guide); no language is declared."""
    tree = _parse(root / rel.lstrip("/"))
    main = next(iter(tree.xpath('//div[@class="main"]')), None)
    if main is None:
        return Page(NEITHER)
    main = _pruned(main, './div[starts-with(@class, "navset")] | ./div[@class="versionbox"]')
    title = _text(tree.find(".//title"))
    tocs = main.xpath(
        './table[.//a[contains(concat(" ",@class," ")," toclink ")'
        ' or contains(concat(" ",@class," ")," toptoclink ")]]'
    )
    if rel.endswith(("/index.html", "/doc-index.html")) or _lead_only(main, tocs):
        return Page(LISTING, title)
    blocks = [
        el
        for el in main.xpath(f"{_SCRIBBLE_CODE} | .//pre")
        if not any(a.tag == "pre" or "SCodeFlow" in _classes(a) for a in el.iterancestors())
    ]
    return Page(DOC, title, len(blocks), words=_shown_words(main))


# --- Doxygen (SDL2) ------------------------------------------------------------------------------


def sdl2_page(root: Path, rel: str) -> Page:
    """Doxygen as ``doxygen_page`` (``CREATE_SUBDIRS``: the pages in ``d0/d12/``...); a header's
    source listing (``*_source.html``: the file's text, line-numbered, in ``div.fragment``) is
    neither, as are the Sphinx trees' viewcode pages and rustdoc's and Haddock's ``src/``."""
    if rel.endswith("_source.html"):
        return Page(NEITHER)
    page = doxygen_page(root, rel)
    if page.kind == DOC:
        # A page whose text is a note under ``STUB_WORDS`` pointing to another page is neither: a
        # Markdown file's "no longer hosted in Mercurial. Please see README-git.md", a header
        # with nothing documented ("Go to the source code of this file.", its licence alone).
        text = next(iter(_parse(root / rel.lstrip("/")).xpath('//div[@class="contents"]')))
        if len(_text(text).split()) < STUB_WORDS and text.xpath(".//a[@href]"):
            return Page(NEITHER, page.title)
        # Words as shown: Doxygen writes a code line's every token in a span of its own.
        page.words = _shown_words(text)
    return page


TREES = {
    "python": Tree(
        "python",
        "python3.11-doc",
        Path("/usr/share/doc/python3.11/html"),
        "/index.html",
        sphinx_page,
    ),
    "postgresql": Tree(
        "postgresql",
        "postgresql-doc-15",
        Path("/usr/share/doc/postgresql-doc-15/html"),
        "/index.html",
        docbook_page,
    ),
    "git": Tree("git", "git-doc", Path("/usr/share/doc/git-doc"), "/", git_page),
    "rust-book": Tree(
        "rust-book",
        "rust-doc",
        Path("/usr/share/doc/rust-doc/html/book"),
        "/index.html",
        mdbook_page,
        serve=lambda rel: not re.match(r"/(?:first|second|2018)-edition/", rel),
    ),
    "node": Tree("node", "nodejs-doc", Path("/usr/share/doc/nodejs/api"), "/index.html", node_page),
    "sqlite": Tree("sqlite", "sqlite3-doc", Path("/usr/share/doc/sqlite3"), "/index.html", sqlite_page),
    "doxygen": Tree(
        "doxygen", "doxygen-doc", Path("/usr/share/doc/doxygen/html"), "/index.html", doxygen_page
    ),
    "vim": Tree(
        "vim",
        "vim-doc",
        Path("/usr/share/doc/vim/html"),
        "/index.html",
        vim_page,
        serve=lambda rel: not _VIM_LEFT_OUT.fullmatch(rel),
    ),
    "cmake": Tree("cmake", "cmake-doc", Path("/usr/share/doc/cmake-data/html"), "/index.html", cmake_page),
    "django": Tree(
        "django",
        "python-django-doc",
        Path("/usr/share/doc/python-django-doc/html"),
        "/index.html",
        django_page,
    ),
    "debian-reference": Tree(
        "debian-reference",
        "debian-reference-en",
        Path("/usr/share/debian-reference"),
        "/index.en.html",
        debian_reference_page,
        serve=lambda rel: rel.endswith((".en.html", ".css")) or rel.startswith("/images/"),
    ),
    "apache": Tree(
        "apache",
        "apache2-doc",
        Path("/usr/share/doc/apache2-doc/manual"),
        "/en/index.html",
        apache_page,
        serve=lambda rel: rel.startswith(("/en/", "/images/", "/style/")),
    ),
    "r-manuals": Tree(
        "r-manuals",
        "r-doc-html",
        Path("/usr/share/R/doc"),
        "/html/index.html",
        r_manuals_page,
        serve=lambda rel: rel.startswith("/manual/") or rel in {"/html/index.html", "/html/R.css"},
    ),
    "gnu-std": Tree(
        "gnu-std",
        "gnu-standards",
        Path("/usr/share/doc/gnu-standards"),
        "/standards.html",
        texinfo_page,
        serve=lambda rel: rel == "/standards.html",
    ),
    "gnu-maint": Tree(
        "gnu-maint",
        "gnu-standards",
        Path("/usr/share/doc/gnu-standards"),
        "/maintain.html",
        texinfo_page,
        serve=lambda rel: rel == "/maintain.html",
    ),
    "bash-ref": Tree(
        "bash-ref",
        "bash-doc",
        Path("/usr/share/doc/bash"),
        "/bashref.html",
        texinfo_page,
        serve=lambda rel: rel == "/bashref.html",
    ),
    "autoconf": Tree(
        "autoconf",
        "autoconf-doc",
        Path("/usr/share/doc/autoconf"),
        "/autoconf.html",
        texinfo_page,
        serve=lambda rel: rel == "/autoconf.html",
    ),
    "erlang": Tree(
        "erlang",
        "erlang-doc",
        Path("/usr/share/doc/erlang-doc"),
        "/doc/index.html",
        erlang_page,
        # Jinterface's Java API is javadoc's, not erl_docgen's; the System Architecture guide's
        # folder is linked from none of the package's pages (OTP 25's top page dropped it).
        serve=lambda rel: (
            (not rel.startswith("/lib/jinterface-") or "/doc/html/java/" not in rel)
            and not rel.startswith("/doc/system_architecture_intro/")
        ),
    ),
    "debian-handbook": Tree(
        "debian-handbook",
        "debian-handbook",
        Path("/usr/share/doc/debian-handbook/html/en-US"),
        "/index.html",
        publican_page,
    ),
    "zsh": Tree(
        "zsh",
        "zsh-doc",
        Path("/usr/share/doc/zsh-common/html"),
        "/index.html",
        zsh_page,
        # The FAQ (Yodl's FAQ*.html) shares the folder but no page of the manual links to it.
        serve=lambda rel: not rel.startswith("/FAQ"),
    ),
    "mkdocs": Tree(
        "mkdocs",
        "mkdocs-doc",
        Path("/usr/share/doc/mkdocs/html"),
        "/index.html",
        mkdocs_page,
    ),
    "scrapy": Tree(
        "scrapy",
        "python-scrapy-doc",
        Path("/usr/share/doc/python-scrapy-doc/html"),
        "/index.html",
        scrapy_page,
    ),
    "sphinx": Tree(
        "sphinx",
        "sphinx-doc",
        Path("/usr/share/doc/sphinx-doc/html"),
        "/index.html",
        sphinxdoc_page,
    ),
    "cargo": Tree(
        "cargo",
        "cargo-doc",
        Path("/usr/share/doc/cargo/doc"),
        "/syn/index.html",
        cargo_page,
        serve=_syn_only,
    ),
    "boost": Tree(
        "boost",
        "libboost1.74-doc",
        Path("/usr/share/doc/libboost1.74-doc/doc/html"),
        "/index.html",
        boost_page,
        # The reference pages BoostBook writes one per C++ entity under boost/ (3,150) left out.
        serve=lambda rel: not rel.startswith("/boost/"),
    ),
    "glib": Tree(
        "glib",
        "libglib2.0-doc",
        Path("/usr/share/gtk-doc/html/glib"),
        "/index.html",
        glib_page,
    ),
    "flask": Tree(
        "flask",
        "python-flask-doc",
        Path("/usr/share/doc/python-flask-doc/html"),
        "/index.html",
        flask_page,
    ),
    "commons-lang": Tree(
        "commons-lang",
        "libcommons-lang3-java-doc",
        Path("/usr/share/doc/libcommons-lang3-java/api"),
        "/index.html",
        javadoc_page,
    ),
    "postfix": Tree(
        "postfix",
        "postfix-doc",
        Path("/usr/share/doc/postfix/html"),
        "/index.html",
        postfix_page,
        serve=lambda rel: rel not in _POSTFIX_UNLINKED,
    ),
    "haproxy": Tree(
        "haproxy",
        "haproxy-doc",
        Path("/usr/share/doc/haproxy/html"),
        "/intro.html",
        haproxy_page,
        # The Management Guide: no page links to it (the navbar names the other two).
        serve=lambda rel: rel != "/management.html",
    ),
    "gimp": Tree(
        "gimp",
        "gimp-help-en",
        Path("/usr/share/gimp/2.0/help/en"),
        "/index.html",
        gimp_page,
    ),
    "sqlalchemy": Tree(
        "sqlalchemy",
        "python-sqlalchemy-doc",
        Path("/usr/share/doc/python-sqlalchemy-doc/html"),
        "/index.html",
        sqlalchemy_page,
    ),
    "docutils": Tree(
        "docutils",
        "docutils-doc",
        DOCUTILS_ROOT,
        "/docs/index.html",
        docutils_page,
        serve=_docutils_served,
    ),
    "gnuplot": Tree(
        "gnuplot",
        "gnuplot-doc",
        Path("/usr/share/doc/gnuplot/htmldocs"),
        "/index.html",
        gnuplot_page,
    ),
    "maint-guide": Tree(
        "maint-guide",
        "maint-guide",
        Path("/usr/share/doc/maint-guide/html"),
        "/index.en.html",
        maint_guide_page,
        # English only (the package ships no other language; its translations are other packages').
        serve=lambda rel: not rel.endswith(".html") or rel.endswith(".en.html"),
    ),
    "qt5-core": Tree(
        "qt5-core",
        "qtbase5-doc-html",
        Path("/usr/share/qt5/doc"),
        "/qtcore/qtcore-index.html",
        qdoc_page,
        # Qt Core's folder alone (its pages, images, style); links to the other modules' folders
        # (``../qtgui/``) go unanswered.
        serve=lambda rel: rel.startswith("/qtcore/"),
    ),
    "cppreference-c": Tree(
        "cppreference-c",
        "cppreference-doc-en-html",
        Path("/usr/share/cppreference/doc/html"),
        "/en/c.html",
        cppreference_page,
        # The C reference (``en/c.html``, ``en/c/``) and the wiki's shared files; the C++ pages
        # (3,870) its "See also" rows link to go unanswered.
        serve=lambda rel: rel == "/en/c.html" or rel.startswith(("/en/c/", "/common/")),
    ),
    "haddock-base": Tree(
        "haddock-base",
        "ghc-doc",
        Path("/usr/share/doc/ghc-doc/html/libraries/base-4.15.1.0"),
        "/index.html",
        haddock_page,
    ),
    "yard": Tree(
        "yard",
        "yard-doc",
        Path("/usr/share/doc/yard/doc"),
        "/index.html",
        yard_page,
        group="heldout",
    ),
    "rdoc-asciidoctor": Tree(
        "rdoc-asciidoctor",
        "asciidoctor-doc",
        Path("/usr/share/doc/asciidoctor-doc/html"),
        "/index.html",
        rdoc_page,
        group="heldout",
    ),
    "gapdoc": Tree(
        "gapdoc",
        "gap-gapdoc",
        # GAP's root: the manuals link to each other by GAP's paths (``../../../pkg/GAPDoc/...``).
        Path("/usr/share/gap"),
        "/pkg/GAPDoc/doc/chap0.html",
        gapdoc_page,
        # GAPDoc's manual and its example manual, plain flavour (the ``_mj.html`` twins, which the
        # "[MathJax on]" links lead to, not served); the ``3k+1`` example, which no page links to,
        # not served. Links to GAP's own manuals (``doc/ref/``, not installed) go unanswered.
        serve=lambda rel: (
            rel.startswith(("/pkg/GAPDoc/doc/", "/pkg/GAPDoc/example/")) and not rel.endswith("_mj.html")
        ),
        group="heldout",
    ),
    "adwaita": Tree(
        "adwaita",
        "libadwaita-1-doc",
        Path("/usr/share/doc/libadwaita-1"),
        "/index.html",
        gidocgen_page,
        group="heldout",
    ),
    "racket-guide": Tree(
        "racket-guide",
        "racket-doc",
        RACKET_ROOT,
        "/guide/index.html",
        scribble_page,
        # The Guide's folder and the shared style sheets and scripts its pages load from ``../``;
        # the links to the other manuals (``../reference/``) and the documentation's top page go
        # unanswered.
        serve=_racket_guide_served,
        group="heldout",
    ),
    "sdl2": Tree(
        "sdl2",
        "libsdl2-doc",
        Path("/usr/share/doc/libsdl2-doc/html"),
        # The main page is empty and Doxygen's menu is written by a script (``menudata.js``): the
        # crawl starts at the related pages' list, which leads to every document.
        "/pages.html",
        sdl2_page,
        group="heldout",
    ),
}


# --- crawl and score -----------------------------------------------------------------------------


@dataclass
class Result:
    tree: str
    row: dict[str, Any]
    details: dict[str, list[Any]]
    warnings: list[str]


def _files(tree: Tree) -> tuple[list[str], frozenset[str], dict[str, str]]:
    """HTML pages served, files not served, and HTML aliases (a symlink to a page of the tree)."""
    pages: list[str] = []
    skip: set[str] = set()
    aliases: dict[str, str] = {}
    for path in sorted(tree.root.rglob("*")):
        rel = "/" + path.relative_to(tree.root).as_posix()
        if path.is_dir():
            continue
        if not path.exists() or not tree.serve(rel):  # broken symlinks too
            skip.add(rel)
            continue
        if path.suffix == ".html":
            if path.is_symlink() and path.resolve().is_relative_to(tree.root.resolve()):
                target = "/" + path.resolve().relative_to(tree.root.resolve()).as_posix()
                aliases[norm_path(rel)] = norm_path(target)
                continue
            pages.append(rel)
    return pages, frozenset(skip), aliases


def _langs(values: Iterable[str]) -> Counter[str]:
    return Counter(LANG_ALIAS.get(v.lower(), v.lower()) for v in values if v)


def run_tree(tree: Tree, work: Path, timeout: float) -> Result:
    pages, skip, aliases = _files(tree)
    oracle = {norm_path(rel): tree.judge(tree.root, rel) for rel in pages}
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with loopback_server() as server, loopback_server() as canary:
        serve_tree(server, tree.root, skip=skip)
        # A file name with a space (CMake's ``generator/Unix Makefiles.html``) is asked for
        # percent-encoded, as a browser sends it: the same file under that path too.
        for path, reply in list(server.routes.items()):
            if quote(path, safe=URL_SAFE) != path:
                server.add(quote(path, safe=URL_SAFE), reply)
        entry = {
            "name": tree.name,
            "start_urls": [server.base_url + tree.start],
            "source": "docs",
            "max_pages": 5000,
        }
        config_dir = work / "config"
        config_dir.mkdir(exist_ok=True)
        (config_dir / "blogs.yaml").write_text(yaml.safe_dump({"sites": [entry]}), encoding="utf-8")
        data_dir = work / "data"
        proxy = canary.base_url
        result = scrapy_crawl(
            "blogs",
            settings={
                "HARVEST_CONFIG_DIR": config_dir,
                "HARVEST_DATA_DIR": data_dir,
                "AUTOTHROTTLE_ENABLED": False,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                "CLOSESPIDER_TIMEOUT": int(timeout - 60),
            },
            env={"http_proxy": proxy, "https_proxy": proxy, "no_proxy": "127.0.0.1,localhost"},
            timeout=timeout,
        )
        fetched = {norm_path(r.path.split("?")[0]) for r in server.requests}
        foreign = len(canary.requests)
    wall = time.monotonic() - started
    (work / "crawl.log").write_text(result.stderr, encoding="utf-8")
    docs = read_jsonl(data_dir / "blogs" / "document.jsonl")
    stored: dict[str, dict[str, Any]] = {}
    for doc in docs:
        path = norm_path(doc["url"])
        stored.setdefault(aliases.get(path, path), doc)
    fetched = {aliases.get(p, p) for p in fetched}
    wanted = {p: page for p, page in oracle.items() if page.kind == DOC}
    details: dict[str, list[Any]] = {
        k: []
        for k in (
            "missing (fetched)",
            "missing (never fetched)",
            "listings stored",
            "other pages stored",
            "wrong titles (path, oracle, stored)",
            "titles right but for their number (path, oracle, stored)",
            "dates stored (the tree dates none)",
            "odd number of fence lines (path, fence lines)",
            "text short: under 70% of the page's words (path, stored, page)",
            "code short (path, kept, expected)",
            "code extra (path, stored, expected)",
            "languages lost (path, expected, stored)",
        )
    }
    short_text = 0
    titles = titles_unnumbered = titled = broken = dated = code_kept = code_want = langs_kept = langs_want = 0
    for path, page in sorted(wanted.items()):
        code_want += page.code
        want_langs = _langs(page.langs)
        langs_want += sum(want_langs.values())
        doc = stored.get(path, {})
        if not doc:
            details["missing (fetched)" if path in fetched else "missing (never fetched)"].append(path)
            continue
        titled += bool(page.title)
        if not page.title:
            pass  # the page declares no title: nothing to compare
        elif plain(doc.get("title")) == plain(page.title):
            titles += 1
            titles_unnumbered += 1
        elif unnumbered(plain(doc.get("title"))) == unnumbered(plain(page.title)):
            titles_unnumbered += 1
            details["titles right but for their number (path, oracle, stored)"].append(
                (path, page.title, doc.get("title"))
            )
        else:
            details["wrong titles (path, oracle, stored)"].append((path, page.title, doc.get("title")))
        if doc.get("published"):
            dated += 1
            details["dates stored (the tree dates none)"].append((path, doc["published"]))
        body = Path(doc["path"]).read_text(encoding="utf-8") if doc.get("path") else ""
        if page.words >= 100 and markdown_words(body) < 0.7 * page.words:
            short_text += 1
            details["text short: under 70% of the page's words (path, stored, page)"].append(
                (path, markdown_words(body), page.words)
            )
        fences = open_fence(body)
        if fences % 2:
            broken += 1
            details["odd number of fence lines (path, fence lines)"].append((path, fences))
        got = fenced_blocks(body)
        code_kept += min(got, page.code)
        if got < page.code:
            details["code short (path, kept, expected)"].append((path, got, page.code))
        elif got > page.code:
            details["code extra (path, stored, expected)"].append((path, got, page.code))
        # Every fence line naming a language opens a block (a closing fence names none): read
        # so, a stray fence (bad fences) does not shift every later block's language.
        got_langs = _langs(m for m in _FENCE_INFO.findall(body) if re.fullmatch(r"[\w+#.-]+", m))
        kept = sum((want_langs & got_langs).values())
        langs_kept += kept
        if kept < sum(want_langs.values()):
            details["languages lost (path, expected, stored)"].append(
                (path, dict(want_langs), dict(got_langs))
            )
    for path in sorted(stored):
        kind = oracle[path].kind if path in oracle else NEITHER
        if kind == NEITHER:
            details["other pages stored"].append(path)
        elif kind == LISTING:
            details["listings stored"].append(path)
    warnings = [line for line in result.stderr.splitlines() if " WARNING: " in line or "] WARNING" in line]
    found = sum(1 for p in wanted if p in stored)
    row = {
        "tree": tree.name,
        "pages": len(pages),
        "docs": len(wanted),
        "stored": found,
        "missing": len(wanted) - found,
        "listings stored": len(details["listings stored"]),
        "other stored": len(details["other pages stored"]),
        "titles": f"{titles}/{titled}",
        "unnumbered": f"{titles_unnumbered}/{titled}",
        "dated": dated,
        "bad fences": broken,
        "text <70%": short_text,
        "code": f"{code_kept}/{code_want}",
        "langs": f"{langs_kept}/{langs_want}",
        "warnings": len(warnings),
        "fetched": len(fetched),
        "foreign": foreign,
        "exit": result.returncode,
        "wall s": round(wall),
    }
    return Result(tree.name, row, details, warnings)


def _summary(res: Result) -> None:
    d = res.details
    print(f"\n## {res.tree}")
    missing = d["missing (fetched)"] + d["missing (never fetched)"]
    print(f"- documents missing: {len(missing)} {missing[:10]}")
    print(f"- listing pages stored: {len(d['listings stored'])} {d['listings stored']}")
    print(f"- other pages stored: {len(d['other pages stored'])} {d['other pages stored'][:10]}")
    print(f"- WARNING lines: {len(res.warnings)}")
    for line in res.warnings[:5]:
        print(f"    {line[:300]}")


def _details(res: Result) -> None:
    print(f"\n## {res.tree}: every mismatch")
    for label, values in res.details.items():
        if values:
            print(f"- {label}: {len(values)}")
            for value in values:
                print(f"    {value}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", default="", help="comma-separated (default: every tuning tree installed)")
    parser.add_argument("--heldout", action="store_true", help="the held-out trees instead")
    parser.add_argument("--details", action="append", default=[], metavar="TREE", help="list every mismatch")
    parser.add_argument("--json", type=Path, help="write rows and mismatches to this file")
    parser.add_argument("--keep", type=Path, help="keep each crawl's output under DIR/<tree>/")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per crawl (default 900)")
    options = parser.parse_args()
    names = [n.strip() for n in options.trees.split(",") if n.strip()] or [
        name for name, tree in TREES.items() if (tree.group == "heldout") == options.heldout
    ]
    unknown = [n for n in names + options.details if n not in TREES]
    if unknown:
        parser.error(f"unknown tree(s) {unknown}; choose from {sorted(TREES)}")
    work = options.keep or Path(tempfile.mkdtemp(prefix="bench-real-docs-"))
    results = []
    try:
        for name in names:
            tree = TREES[name]
            if not (tree.root / tree.start.lstrip("/")).exists() and not tree.root.is_dir():
                print(f"{name}: skipped, not installed (apt-get install {tree.package})")
                continue
            shutil.rmtree(work / name, ignore_errors=True)
            results.append(run_tree(tree, work / name, options.timeout))
            print(f"{name}: done ({results[-1].row['wall s']} s)", file=sys.stderr)
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    if not results:
        return 0
    print(markdown_table([r.row for r in results]))
    for res in results:
        _summary(res)
    for res in results:
        if res.tree in options.details:
            _details(res)
    if options.json:
        payload = [{"row": r.row, "details": r.details, "warnings": r.warnings} for r in results]
        options.json.write_text(json.dumps(payload, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0 if all(r.row["exit"] == 0 and r.row["foreign"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
